/**
 * The operator's unit of work: import a source, then rebuild the read indices (unless told not
 * to), with progress bars on the terminal when asked. The CLI, the demo loader and the benchmark
 * all go through here.
 */

import { createBulkWriter } from '../../engine/bulk.ts';
import { type Lease, logChange } from '../../engine/control.ts';
import { dropMarks, marksKeepingDeleted } from '../../engine/duplicates.ts';
import type { Engine } from '../../engine/engine.ts';
import { flushRecords, getRecords, refreshRecords, removeRecords } from '../../engine/records.ts';
import { updateTombstones } from '../../engine/tombstones.ts';
import { syncTaxonomyVocabulary } from '../../engine/vocabulary.ts';
import { caseVariants, parseRecordKey } from '../../index-mapping/ids.ts';
import { type ImportOptions, type ImportResult, importSource } from '../import/import-source.ts';
import { createProgressBar } from '../import/progress.ts';
import { ChangeSet } from '../records/changes.ts';
import { deletionClosure, type RecordRef } from '../records/deletion.ts';
import { recordKey } from '../records/nesting.ts';
import { mergedKeysOf, PublishNeedsReindexError, type PublishReport, publishChanges } from './publish.ts';
import { type ReindexOptions, type ReindexReport, reindex } from './reindex.ts';

export type PipelineOptions = ImportOptions & {
  reindex?: boolean;
  /** Show progress bars on stderr. */
  progress?: boolean;
  reindexOptions?: Omit<ReindexOptions, 'onProgress' | 'signal'>;
  /**
   * Called with the import's result before any reindex: the operator sees what was imported and
   * rejected even when the reindex then fails (an empty store, an engine gone).
   */
  onImported?: (result: ImportResult) => void | Promise<void>;
};

export type PipelineResult = {
  import: ImportResult;
  /** The incremental publish of what changed (when the indices could take it). */
  publish?: PublishReport;
  /** The full reindex, when nothing was published yet, or too much changed to publish record by record. */
  reindex?: ReindexReport;
};

/** Reindex with a progress bar (services reassembled of the total). */
export async function reindexWithProgress(
  engine: Engine,
  options: ReindexOptions & { progress?: boolean } = {},
): Promise<ReindexReport> {
  if (!options.progress) return reindex(engine, options);
  const bar = createProgressBar('reindex', 'services');
  try {
    return await reindex(engine, {
      ...options,
      onProgress: (p) => {
        bar.update(p.services, p.totalServices, `reindex ${p.phase}`);
        options.onProgress?.(p);
      },
    });
  } finally {
    bar.stop();
  }
}

export async function importAndReindex(
  engine: Engine,
  location: string,
  options: PipelineOptions = {},
): Promise<PipelineResult> {
  const bar = options.progress ? createProgressBar('import', 'items') : undefined;
  let result: ImportResult;
  try {
    result = await importSource(engine, location, {
      ...options,
      onProgress: (p) => {
        if (p.phase === 'checking-links') bar?.update(p.links ?? 0, p.linksTotal, 'checking links');
        else bar?.update(p.items);
        options.onProgress?.(p);
      },
    });
  } finally {
    bar?.stop();
  }
  await options.onImported?.(result);
  if (options.reindex === false) return { import: result };
  const published = await publishOrReindex(engine, result.changes, {
    ...options,
    source: options.sourceName ?? location,
  });
  return { import: result, ...published };
}

const isTaxonomyKey = (key: string) => key.startsWith('taxonomy_term:') || key.startsWith('taxonomy:');

/**
 * The published data stands whatever happens here: a reload that cannot run now (another holds the
 * reindex lease) is logged with what to run, not failed.
 */
export async function serveTaxonomySynonyms(engine: Engine): Promise<void> {
  try {
    const indices = await syncTaxonomyVocabulary(engine);
    if (indices) engine.logger.info({ indices }, 'serving the taxonomy synonyms');
  } catch (error) {
    engine.logger.warn(
      { err: error },
      'the taxonomy synonyms are not served yet: run `hsds synonyms reload` (or the next reindex does)',
    );
  }
}

/**
 * Publishes changed records incrementally (publish.ts); a full reindex instead when the store was
 * empty (a first load: the versioned build is the faster path), when more changed than is worth
 * tracking, or when the served indices predate incremental publishing.
 */
export async function publishOrReindex(
  engine: Engine,
  changes: ChangeSet,
  options: Pick<PipelineOptions, 'signal' | 'progress' | 'reindexOptions'> & {
    /** The publish lease, taken already by the caller; released when the publish ends (see PublishOptions). */
    publishLease?: Lease;
    /** The source this publishes for (webhook targets filter on it). */
    source?: string;
  } = {},
): Promise<{ publish?: PublishReport; reindex?: ReindexReport }> {
  if (!changes.all) {
    try {
      const publish = await publishChanges(engine, changes.keys, {
        ...(options.signal ? { signal: options.signal } : {}),
        ...(options.publishLease ? { lease: options.publishLease } : {}),
        ...(options.source ? { source: options.source } : {}),
        onPublished: () => changes.published(),
      });
      // Changed terms may bring or take the licensee's synonyms (taxonomy-vocabulary.ts).
      if ([...changes.keys].some(isTaxonomyKey)) await serveTaxonomySynonyms(engine);
      return { publish };
    } catch (error) {
      if (!(error instanceof PublishNeedsReindexError)) throw error;
      engine.logger.info({ reason: error.message }, 'publishing with a full reindex');
    }
  }
  // A reindex publishes by its own swap: the caller's lease would hold other publishes back for it.
  await options.publishLease?.release();
  // A kept record deleted takes its duplicate marks with it, as in a publish (publish.ts): they go
  // before the build, which then serves what they merged away; logged first, so that a run killed
  // after they went still publishes those records.
  await refreshRecords(engine);
  const freed = await marksKeepingDeleted(engine, changes.all ? undefined : changes.keys);
  const freedLogged = freed.length > 0 ? await logChange(engine, mergedKeysOf(freed)) : undefined;
  await dropMarks(engine, freed);
  const report = await reindexWithProgress(engine, {
    ...options.reindexOptions,
    ...(options.signal ? { signal: options.signal } : {}),
    ...(options.progress ? { progress: true } : {}),
  });
  // The change feed still learns what went.
  if (changes.keys.size > 0) {
    const stored = await getRecords(engine, [...changes.keys]);
    const gone = [...changes.keys].filter((key) => !stored.has(key)).map(parseRecordKey);
    await updateTombstones(engine, gone, []);
  }
  await changes.published();
  // The freed records are back: their tombstones cleared, dated in the change feed (publish.ts).
  if (freedLogged) {
    await publishChanges(engine, mergedKeysOf(freed), options.source ? { source: options.source } : {});
    await freedLogged.done();
  }
  return { reindex: report };
}

export type DeleteResult = {
  /** Every record deleted (or, in a dry run, that would be), the named ones and what they took. */
  keys: Set<string>;
  /** Named records the store does not hold. */
  missing: RecordRef[];
  publish?: PublishReport;
  reindex?: ReindexReport;
};

/** Deletes records with what they take (deletion.ts) from the store, then publishes the deletion. */
export async function deleteRecords(
  engine: Engine,
  refs: readonly RecordRef[],
  options: { dryRun?: boolean; signal?: AbortSignal } = {},
): Promise<DeleteResult> {
  await refreshRecords(engine);
  // In whichever case the id was stored (deletion.ts takes every case of it).
  const keysOf = (r: RecordRef) => caseVariants(r.id).map((id) => recordKey(r.type, id));
  const stored = await getRecords(engine, refs.flatMap(keysOf));
  const missing = refs.filter((r) => !keysOf(r).some((key) => stored.has(key)));
  const keys = await deletionClosure(engine, refs);
  if (options.dryRun || keys.size === 0) return { keys, missing };
  return { keys, missing, ...(await removeAndPublish(engine, keys, options)) };
}

/**
 * Removes stored records (a deletion closure: deletion.ts) and publishes their removal. The
 * change log is written first: a delete killed after is published by the next publish.
 */
export async function removeAndPublish(
  engine: Engine,
  keys: ReadonlySet<string>,
  options: { signal?: AbortSignal; publishLease?: Lease; source?: string } = {},
) {
  const changes = new ChangeSet(engine);
  for (const key of keys) changes.add(key);
  await changes.log();
  const writer = createBulkWriter(engine, options.signal ? { signal: options.signal } : {});
  await removeRecords(engine, keys, writer);
  await writer.close();
  if (writer.stats.failed > 0) throw new Error(`${writer.stats.failed} deletions were refused by the engine`);
  await flushRecords(engine);
  return publishOrReindex(engine, changes, options);
}
