/**
 * The import's `last_modified` step: a service without one gets the time this directory first saw
 * its content: this run's start, or, when an earlier run stored the same content, the time that
 * run gave it. So `modified_after` finds what changed, and importing the same feed again moves
 * nothing. It reads the stored services of the batch (one search), and owns the content rule.
 */
import type { Engine } from '../../engine/engine.ts';
import { getRecords } from '../../engine/records.ts';
import type { RecordType } from '../../hsds/index.ts';
import type { RecordStoreDocument } from '../../index-mapping/record-store.document.ts';
import type { FlatRecord } from '../records/flatten.ts';
import { linkFieldsOf, recordKey } from '../records/nesting.ts';

/** Whether two records say the same, their parent links and `last_modified` aside (key order aside). */
export function sameContent(
  type: RecordType,
  a: Record<string, unknown>,
  b: Record<string, unknown>,
): boolean {
  const skip = linkFieldsOf(type);
  const keysOf = (r: Record<string, unknown>) =>
    Object.keys(r).filter((k) => k !== 'last_modified' && !skip.has(k) && r[k] !== undefined);
  const keys = keysOf(a);
  if (keys.length !== keysOf(b).length) return false;
  return keys.every((k) => JSON.stringify(a[k]) === JSON.stringify(b[k]));
}

/**
 * Stamps the services of the batch that have no `last_modified`, each with a note. `earlierRuns`:
 * whether the store held records before this run (else there is nothing to read).
 */
export async function stampLastModified(
  engine: Engine,
  records: { flat: FlatRecord; origin: string }[],
  run: number,
  earlierRuns: boolean,
): Promise<void> {
  const unstamped = records.filter(({ flat }) => needsStamp(flat));
  if (unstamped.length === 0) return;
  const stored = earlierRuns
    ? await getRecords(
        engine,
        unstamped.map(({ flat }) => recordKey(flat.type, flat.id)),
      )
    : new Map<string, RecordStoreDocument & { run: number }>();
  stampFrom(unstamped, stored, run);
}

const needsStamp = (flat: FlatRecord) => flat.type === 'service' && flat.record.last_modified === undefined;

/**
 * Stamps the services without `last_modified` given what the store holds of them (`stored`, by
 * key, with the run that wrote each): the time an earlier run stored the same content, else `run`.
 */
export function stampFrom(
  records: readonly { flat: FlatRecord; origin: string }[],
  stored: ReadonlyMap<string, RecordStoreDocument & { run: number }>,
  run: number,
): void {
  const firstSeen = new Date(run).toISOString();
  for (const { flat, origin } of records) {
    if (!needsStamp(flat)) continue;
    const before = stored.get(recordKey(flat.type, flat.id));
    const kept =
      before &&
      typeof before.record.last_modified === 'string' &&
      before.run !== run &&
      sameContent(flat.type, before.record, flat.record)
        ? before.record.last_modified
        : firstSeen;
    flat.record.last_modified = kept;
    flat.notes.push({
      severity: 'info',
      kind: 'repaired',
      source: origin,
      record_type: flat.type,
      record_id: flat.id,
      path: flat.path ? `${flat.path}.last_modified` : 'last_modified',
      reason: 'no last_modified: set to the time this directory first saw this content',
    });
  }
}
