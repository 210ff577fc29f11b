/**
 * The tombstones index (index-mapping/tombstone.document.ts): written when a served record is
 * deleted, cleared when it comes back, pruned after the retention period.
 */

import type { ReadIndex } from '../index-mapping/read-indices.mapping.ts';
import {
  isServedType,
  TOMBSTONES_INDEX,
  tombstoneId,
  tombstoneMapping,
  toTombstoneDocument,
} from '../index-mapping/tombstone.document.ts';
import {
  buildExpiredTombstonesQuery,
  buildServedAgainBody,
  buildTombstonesByIdBody,
} from '../index-mapping/tombstones.query.ts';
import { createBulkWriter } from './bulk.ts';
import { type Engine, engineCall } from './engine.ts';
import { createSmallIndex, pruneSmallIndex } from './layout.ts';

export const tombstonesIndex = (engine: Engine) => engine.name(TOMBSTONES_INDEX);

/** Days a tombstone is kept (TOMBSTONE_RETENTION_DAYS). */
export const DEFAULT_TOMBSTONE_RETENTION_DAYS = 30;

const ensured = new WeakSet<Engine>();

export async function ensureTombstonesIndex(engine: Engine): Promise<void> {
  if (ensured.has(engine)) return;
  await createSmallIndex(engine, tombstonesIndex(engine), tombstoneMapping, 'tombstones');
  ensured.add(engine);
}

export type RecordRef = { type: string; id: string };

/**
 * Records the deletion of the served records among `deleted`, and clears the tombstones of
 * `live` (records that exist again). Visible to readers when this returns.
 */
export async function updateTombstones(
  engine: Engine,
  deleted: readonly RecordRef[],
  live: readonly RecordRef[],
  deletedAt = new Date().toISOString(),
): Promise<{ written: number; cleared: number; back: RecordRef[] }> {
  const gone = deleted.filter((r) => isServedType(r.type));
  await ensureTombstonesIndex(engine);
  const index = tombstonesIndex(engine);
  // Only the records that come back with a tombstone (rare) cost a delete.
  const back = await existingTombstones(
    engine,
    live.filter((r) => isServedType(r.type)),
  );
  if (gone.length === 0 && back.length === 0) return { written: 0, cleared: 0, back };
  const writer = createBulkWriter(engine);
  for (const { type, id } of gone) {
    if (!isServedType(type)) continue;
    await writer.index(index, tombstoneId(type, id), toTombstoneDocument(type, id, deletedAt));
  }
  for (const { type, id } of back) await writer.delete(index, tombstoneId(type, id));
  const stats = await writer.close();
  if (stats.failed > 0) throw new Error(`${stats.failed} tombstone writes were refused by the engine`);
  await engineCall('refresh tombstones', () => engine.client.indices.refresh({ index }));
  return { written: gone.length, cleared: back.length, back };
}

/**
 * Lists records that came back (their tombstone cleared: a duplicate mark dropped or undone, a
 * record deleted and written again) in the change feed from `at`: their documents' own
 * `last_modified`, which `modified_after` reads, is set to `at`. The record they serve keeps its
 * source's `last_modified`. Without this a harvester that saw the record deleted would never
 * learn it is back: its tombstone is gone and its source's `last_modified` predates the deletion.
 */
export async function announceServedAgain(
  engine: Engine,
  targets: Partial<Record<ReadIndex, string>>,
  back: readonly RecordRef[],
  at = new Date().toISOString(),
): Promise<number> {
  let updated = 0;
  for (const [type, kind] of Object.entries(DATED_INDICES)) {
    const ids = back.filter((r) => r.type === type).map((r) => r.id);
    const index = kind && targets[kind];
    if (ids.length === 0 || !kind || !index) continue;
    const { body } = await engineCall(`date what came back in ${kind}`, () =>
      engine.client.updateByQuery({
        index,
        body: buildServedAgainBody(ids, at) as never,
        refresh: true,
        conflicts: 'proceed',
      } as never),
    );
    updated += (body as { updated?: number }).updated ?? 0;
  }
  return updated;
}

/** The served types whose documents carry a `last_modified` (`modified_after` filters on it). */
const DATED_INDICES: Partial<Record<string, ReadIndex>> = {
  service: 'services',
  service_at_location: 'service_at_locations',
  organization: 'organizations',
};

/** The records among `refs` that have a tombstone. */
async function existingTombstones(engine: Engine, refs: readonly RecordRef[]): Promise<RecordRef[]> {
  const found: RecordRef[] = [];
  for (let i = 0; i < refs.length; i += 10_000) {
    const chunk = refs.slice(i, i + 10_000);
    const { body } = await engineCall('find tombstones', () =>
      engine.client.search({
        index: tombstonesIndex(engine),
        body: buildTombstonesByIdBody(chunk.map((r) => tombstoneId(r.type, r.id))),
      } as never),
    );
    const ids = new Set((body as { hits: { hits: { _id: string }[] } }).hits.hits.map((h) => h._id));
    for (const ref of chunk) if (ids.has(tombstoneId(ref.type, ref.id))) found.push(ref);
  }
  return found;
}

/** Removes tombstones older than the retention period; returns how many went. */
export async function pruneTombstones(
  engine: Engine,
  retentionDays: number,
  now = Date.now(),
): Promise<number> {
  return pruneSmallIndex(
    engine,
    'prune tombstones',
    tombstonesIndex(engine),
    buildExpiredTombstonesQuery(now, retentionDays),
    { refresh: true },
  );
}
