/**
 * A write's store step (write.ts): the records of one validated body written to the records store
 * as one change, not as a feed import of one item. An import keeps a run in the control index,
 * spools its links to a file, sizes tables to tell repeats apart in a stream of millions, bundles
 * an item's records and reads back which of them another document holds; a body is a few dozen
 * records, all known before anything is written, so each of those is replaced by what it means
 * for one body:
 *
 *   - the rules stay the import's: `last_modified` stamped as an import stamps it (stampFrom),
 *     a record listed twice merged as an import merges it (mergeRepeated), a service linking to an
 *     organization nobody holds given a placeholder (placeholderDocument);
 *   - every record is a single document that overrides (record-store.document.ts): a record a
 *     writer sends is the record's state, whichever feed's bundle also holds it;
 *   - what changes is compared and logged (ChangeSet) before the store is written, so a process
 *     killed after leaves it for the next publish, as an import's batches do.
 *
 * Measured by `npm run bench:write` (500 services, PUTs renaming a service): the import took 19 of
 * the 79 engine requests a PUT made (a run started and finished, a count, a flush, a link check,
 * the bundle's override check), about 50 ms of 260.
 */
import { type BulkFailure, createBulkWriter } from '../../engine/bulk.ts';
import type { Engine } from '../../engine/engine.ts';
import {
  existingIds,
  existingKeys,
  recordsIndex,
  refreshRecords,
  removeRecords,
} from '../../engine/records.ts';
import {
  type RecordStoreDocument,
  toRecordStoreDocument,
  toSingleDocument,
} from '../../index-mapping/record-store.document.ts';
import { placeholderDocument } from '../import/end-steps.ts';
import { stampFrom } from '../import/last-modified.ts';
import { mergeRepeated, repeatIssue } from '../import/repeats.ts';
import { ChangeSet } from '../records/changes.ts';
import type { FlatRecord, Issue } from '../records/flatten.ts';
import { parentIdsOf, recordKey } from '../records/nesting.ts';

/** The engine refused a record of the body: nothing of it is served. */
export class StoreRefusedError extends Error {
  override readonly name = 'StoreRefusedError';
  readonly failures: BulkFailure[];
  constructor(failures: BulkFailure[]) {
    super(failures.map((f) => `${f.id}: ${f.reason}`).join('; '));
    this.failures = failures;
  }
}

export type WrittenBody = {
  /** What changed, logged: publish it (pipeline.ts publishOrReindex). */
  changes: ChangeSet;
  /** What leniency repaired or noted, and links to records nobody holds. */
  notes: Issue[];
};

/**
 * The body's records, each key once: a record listed twice (a taxonomy term under two
 * attributes, a phone under its service and one of its contacts) has the parents of both, as an
 * import merges it; a warning says so when a parent field holds two values (the later is kept).
 * The content of both copies is the same: validateBody (write.ts) refuses a body where it is not.
 */
function mergeListedTwice(
  records: readonly FlatRecord[],
  origin: string,
  notes: Issue[],
): Map<string, FlatRecord> {
  const byKey = new Map<string, FlatRecord>();
  for (const flat of records) {
    const key = recordKey(flat.type, flat.id);
    const earlier = byKey.get(key);
    if (!earlier) {
      byKey.set(key, flat);
      continue;
    }
    const { merged, conflicts } = mergeRepeated(flat.type, earlier.record, flat.record);
    if (conflicts.length > 0)
      notes.push(repeatIssue(flat, origin, { changed: false, conflicts, first: earlier.path || '(body)' }));
    byKey.set(key, { ...flat, record: merged });
  }
  return byKey;
}

/**
 * The links of the written records to records outside the body that nobody holds: each is noted,
 * and a service's organization gets a placeholder (placeholder-organizations.ts). Needs a refresh.
 */
async function danglingLinks(
  engine: Engine,
  written: ReadonlyMap<string, FlatRecord>,
  origin: string,
  notes: Issue[],
): Promise<string[]> {
  const links = [...written.values()].flatMap((flat) => flat.external.map((link) => ({ flat, link })));
  const writtenIds = new Set([...written.keys()].map((k) => k.slice(k.indexOf(':') + 1)));
  const outside = links.filter(({ link }) =>
    link.type ? !written.has(recordKey(link.type, link.id)) : !writtenIds.has(link.id),
  );
  if (outside.length === 0) return [];
  const typed = [
    ...new Set(outside.flatMap(({ link }) => (link.type ? [recordKey(link.type, link.id)] : []))),
  ];
  const untyped = [...new Set(outside.flatMap(({ link }) => (link.type ? [] : [link.id])))];
  const keys = typed.length > 0 ? await existingKeys(engine, typed) : new Set<string>();
  const ids = untyped.length > 0 ? await existingIds(engine, untyped) : new Set<string>();
  const organizations = new Set<string>();
  for (const { flat, link } of outside) {
    if (link.type ? keys.has(recordKey(link.type, link.id)) : ids.has(link.id)) continue;
    if (flat.type === 'service' && link.type === 'organization') organizations.add(link.id);
    notes.push({
      severity: 'warning',
      kind: 'dangling-reference',
      source: origin,
      record_type: flat.type,
      record_id: flat.id,
      path: flat.path ? `${flat.path}.${link.field}` : link.field,
      reason: `${link.field} ${link.id}: no ${link.type ?? 'record'} with this id in the body or the records store`,
    });
  }
  return [...organizations];
}

/**
 * Writes a body's records (and removes `gone`, the children the body no longer lists) as one
 * change. `stored`: what the store held of the body's keys before, as read under the write lock.
 */
export async function storeWrittenBody(
  engine: Engine,
  options: {
    records: readonly FlatRecord[];
    stored: ReadonlyMap<string, RecordStoreDocument & { run: number }>;
    gone: ReadonlySet<string>;
    /** The records' source: `api:<token name>`. */
    source: string;
    origin: string;
  },
): Promise<WrittenBody> {
  const { source, origin } = options;
  const run = Date.now();
  const notes: Issue[] = options.records.flatMap((r) => r.notes);
  stampFrom(
    options.records.map((flat) => ({ flat, origin })),
    options.stored,
    run,
  );
  const records = mergeListedTwice(options.records, origin, notes);
  const docs = [...records.values()].map((flat) =>
    toSingleDocument(
      toRecordStoreDocument(
        flat.type,
        flat.id,
        flat.record,
        parentIdsOf(flat.type, flat.record),
        source,
        flat.geometry,
      ),
      run,
      true,
    ),
  );

  // Logged before the store changes (compare logs what it finds): a write killed after is
  // published by the next publish.
  const changes = new ChangeSet(engine);
  for (const key of options.gone) changes.add(key);
  await changes.compare(docs);
  await changes.log();

  const refused: BulkFailure[] = [];
  const writer = createBulkWriter(engine, { onFailure: (failure) => refused.push(failure) });
  // Above any version an earlier run gave these keys (its start in ms, times a million).
  const versionBase = BigInt(run) * 1_000_000n;
  for (const [i, doc] of docs.entries())
    await writer.index(recordsIndex(engine), doc.key, doc, (versionBase + BigInt(i + 1)).toString());
  await writer.close();
  if (refused.length > 0) throw new StoreRefusedError(refused);
  if (options.gone.size > 0) {
    const removal = createBulkWriter(engine);
    await removeRecords(engine, options.gone, removal);
    await removal.close();
    if (removal.stats.failed > 0)
      throw new Error(`${removal.stats.failed} removals were refused by the engine`);
  }

  await refreshRecords(engine);
  const missing = await danglingLinks(engine, records, origin, notes);
  if (missing.length > 0) {
    for (const id of missing) changes.add(recordKey('organization', id));
    await changes.log();
    const placeholders = createBulkWriter(engine, { onFailure: (failure) => refused.push(failure) });
    for (const id of missing) {
      const doc = placeholderDocument(id, source, run);
      await placeholders.index(recordsIndex(engine), doc.key, doc, String(run));
    }
    await placeholders.close();
    if (refused.length > 0) throw new StoreRefusedError(refused);
    await refreshRecords(engine);
  }
  return { changes, notes };
}
