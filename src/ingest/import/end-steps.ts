/**
 * The import's end steps, after the source is read and written: the records the engine refused
 * (reported as rejected), the deletions the source announced, `--sync`, and the placeholder
 * organizations that keep services' links resolving. Each logs its changes (ChangeSet) before it
 * changes the store, so a run killed after is published by the next.
 */
import type { BulkFailure } from '../../engine/bulk.ts';
import { createBulkWriter } from '../../engine/bulk.ts';
import type { Engine } from '../../engine/engine.ts';
import {
  contentHeldOutsideStale,
  heldOutsideStale,
  recordsIndex,
  refreshRecords,
  removeRecords,
  scanStaleDocuments,
} from '../../engine/records.ts';
import { parseRecordKey } from '../../index-mapping/ids.ts';
import {
  keyOfHashEntry,
  type StoreDocument,
  toRecordStoreDocument,
  toSingleDocument,
} from '../../index-mapping/record-store.document.ts';
import type { ChangeSet } from '../records/changes.ts';
import { deletionClosure, type RecordRef } from '../records/deletion.ts';
import type { IssueLog } from './import-report.ts';
import { PLACEHOLDER_ORGANIZATION_NAME, placeholderOrganization } from './placeholder-organizations.ts';
import type { WriteOptions } from './store-writer.ts';

/** Each document the engine refused: its records are counted rejected, not imported. */
export async function reportRefused(
  refused: readonly BulkFailure[],
  log: IssueLog,
  source: string,
): Promise<void> {
  for (const failure of refused) {
    // A bundle (`item:<source tag>:type:id`) is reported as its item's record.
    const key = failure.id.startsWith('item:')
      ? failure.id.slice(failure.id.indexOf(':', 'item:'.length) + 1)
      : failure.id;
    const { type, id } = parseRecordKey(key);
    log.summary.records -= 1;
    log.typeCounts(type).imported -= 1;
    log.rejected(type, id);
    await log.add({
      severity: 'error',
      kind: 'invalid',
      source,
      record_type: type,
      record_id: id,
      path: '',
      reason: `the engine refused the record: ${failure.reason}`,
    });
  }
}

/**
 * Deletes what a source announced deleted (a harvested change feed), with what each deletion
 * takes (deletion.ts).
 */
export async function applyDeletions(
  engine: Engine,
  refs: readonly RecordRef[],
  changes: ChangeSet,
  log: IssueLog,
  source: string,
  options: WriteOptions,
): Promise<void> {
  await refreshRecords(engine);
  const keys = await deletionClosure(engine, refs);
  // Logged before the store changes: a run killed after is published by the next.
  for (const key of keys) changes.add(key);
  await changes.log();
  const writer = createBulkWriter(engine, options.signal ? { signal: options.signal } : {});
  await removeRecords(engine, keys, writer);
  await writer.close();
  log.summary.removed = (log.summary.removed ?? 0) + keys.size;
  await log.add({
    severity: 'info',
    kind: 'removed',
    source,
    record_type: refs[0]?.type ?? '',
    record_id: refs[0]?.id ?? '',
    path: '',
    reason: `the source announced ${refs.length} deletion(s): ${keys.size} record(s) removed with what they took`,
  });
}

/**
 * `--sync`: deletes the store documents this source wrote before this run and not in it, and so
 * the records it no longer provides, unless another source's document still holds them.
 */
export async function syncSource(
  engine: Engine,
  name: string,
  run: number,
  changes: ChangeSet,
  log: IssueLog,
  source: string,
  options: WriteOptions,
): Promise<void> {
  if (log.summary.records === 0) {
    await log.add({
      severity: 'error',
      kind: 'sync-skipped',
      source,
      record_type: '',
      record_id: '',
      path: '',
      reason:
        'sync skipped: the source brought no valid record, which is more likely a broken feed than an empty directory; nothing was deleted',
    });
    return;
  }
  await refreshRecords(engine);
  const staleKeys = new Set<string>();
  const staleContents = new Set<string>();
  const staleDocuments: string[] = [];
  for await (const page of scanStaleDocuments(engine, name, run)) {
    for (const doc of page) {
      for (const key of doc.keys) staleKeys.add(key);
      for (const entry of doc.hashes ?? []) staleContents.add(entry);
      staleDocuments.push(doc.key);
    }
  }
  if (staleKeys.size === 0) return;
  // Held by a document of another source, or written by this run: still provided; and unchanged
  // when that copy says the same as the stale one (a shared term, an organization).
  const kept = await heldOutsideStale(engine, [...staleKeys], name, run);
  const same = await contentHeldOutsideStale(engine, [...staleContents], name, run);
  const unchanged = new Set([...same].map(keyOfHashEntry));
  let removed = 0;
  for (const key of staleKeys) {
    if (!kept.has(key)) removed += 1;
    if (!kept.has(key) || !unchanged.has(key)) changes.add(key);
  }
  // Logged before the store changes: a run killed after is published by the next.
  await changes.log();
  const writer = createBulkWriter(engine, options.signal ? { signal: options.signal } : {});
  for (const id of staleDocuments) await writer.delete(recordsIndex(engine), id);
  await writer.close();
  log.summary.removed = (log.summary.removed ?? 0) + removed;
}

/** The store document of the placeholder organization `id` (placeholder-organizations.ts). */
export const placeholderDocument = (id: string, source: string, run: number): StoreDocument =>
  toSingleDocument(
    toRecordStoreDocument('organization', id, placeholderOrganization(id), [], source),
    run,
    false,
  );

/**
 * Stores a placeholder for each organization that services link to and nobody provides
 * (placeholder-organizations.ts), so no service points at an organization that is not served.
 */
export async function storePlaceholderOrganizations(
  engine: Engine,
  ids: string[],
  source: string,
  run: number,
  log: IssueLog,
  options: WriteOptions,
): Promise<void> {
  if (ids.length === 0) return;
  const writer = createBulkWriter(engine, {
    ...options.bulk,
    ...(options.signal ? { signal: options.signal } : {}),
  });
  for (const id of ids) {
    // A new key (nothing holds it, or the link would resolve): any external version is the first.
    const doc = placeholderDocument(id, source, run);
    await writer.index(recordsIndex(engine), doc.key, doc, String(run));
    log.imported('organization');
    await log.add({
      severity: 'warning',
      kind: 'placeholder',
      source,
      record_type: 'organization',
      record_id: id,
      path: '',
      reason: `organization ${id} is the organization of services but in no source or the records store: stored as "${PLACEHOLDER_ORGANIZATION_NAME}" so the links resolve; import the organization to replace it`,
    });
  }
  await writer.close();
}
