/**
 * `hsds delete --source NAME`: a source removed whole, as `--sync` removes what a source no longer
 * provides (import/end-steps.ts): every store document the source wrote goes, and with it every
 * record no other source's document holds; a record another source also provides (a shared
 * organization, a term) stays, as that source last wrote it. Then published like a deletion.
 */
import { createBulkWriter } from '../../engine/bulk.ts';
import type { Engine } from '../../engine/engine.ts';
import {
  flushRecords,
  heldOutsideStale,
  recordsIndex,
  refreshRecords,
  scanStaleDocuments,
} from '../../engine/records.ts';
import { type PipelineOptions, publishOrReindex } from '../publish/pipeline.ts';
import type { PublishReport } from '../publish/publish.ts';
import type { ReindexReport } from '../publish/reindex.ts';
import { ChangeSet } from '../records/changes.ts';

export type DeleteSourceResult = {
  /** The source's store documents (deleted, or in a dry run to be deleted). */
  documents: number;
  /** Records gone with them: held by no other source. */
  removed: Set<string>;
  /** Records the source held that another source still provides: kept. */
  kept: number;
  publish?: PublishReport;
  reindex?: ReindexReport;
};

// Every document the source wrote, whichever run: the sync query's "before this run" at its widest.
const EVERY_RUN = Number.MAX_SAFE_INTEGER;

export async function deleteSource(
  engine: Engine,
  name: string,
  options: { dryRun?: boolean; signal?: AbortSignal } & Pick<PipelineOptions, 'progress'> = {},
): Promise<DeleteSourceResult> {
  await refreshRecords(engine);
  const keys = new Set<string>();
  const documents: string[] = [];
  for await (const page of scanStaleDocuments(engine, name, EVERY_RUN)) {
    for (const doc of page) {
      for (const key of doc.keys) keys.add(key);
      documents.push(doc.key);
    }
  }
  const held = keys.size > 0 ? await heldOutsideStale(engine, [...keys], name, EVERY_RUN) : new Set<string>();
  const removed = new Set([...keys].filter((key) => !held.has(key)));
  const result = { documents: documents.length, removed, kept: keys.size - removed.size };
  if (options.dryRun || documents.length === 0) return result;
  // Every key the source held changes: gone, or now served as the other source wrote it.
  const changes = new ChangeSet(engine);
  for (const key of keys) changes.add(key);
  await changes.log();
  const writer = createBulkWriter(engine, options.signal ? { signal: options.signal } : {});
  for (const id of documents) await writer.delete(recordsIndex(engine), id);
  await writer.close();
  if (writer.stats.failed > 0) throw new Error(`${writer.stats.failed} deletions were refused by the engine`);
  await flushRecords(engine);
  return { ...result, ...(await publishOrReindex(engine, changes, { ...options, source: name })) };
}
