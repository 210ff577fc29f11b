/**
 * The operator's unit of work: import a source, then rebuild the read indices (unless told not
 * to), with progress bars on the terminal when asked. The CLI, the demo loader and the benchmark
 * all go through here.
 */
import type { Engine } from '../engine/engine.ts';
import { type ImportOptions, type ImportResult, importSource } from './import.ts';
import { createProgressBar } from './progress.ts';
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

export type PipelineResult = { import: ImportResult; reindex?: ReindexReport };

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
  const report = await reindexWithProgress(engine, {
    ...options.reindexOptions,
    ...(options.signal ? { signal: options.signal } : {}),
    ...(options.progress ? { progress: true } : {}),
  });
  return { import: result, reindex: report };
}
