/**
 * Import runs (`import:<hash of the source>` in the control index): an import says it started,
 * beats while it runs and says it finished. A run left `running` with an old heartbeat was killed;
 * reindex refuses to publish a store an import left half-written unless told to.
 */
import { createHash } from 'node:crypto';
import { hostname } from 'node:os';
import { controlKindBody } from '../index-mapping/control.query.ts';
import {
  controlIndex,
  getControl,
  isConflict,
  isDeadLocalProcess,
  searchControl,
  withControlIndex,
} from './control-index.ts';
import { type Engine, engineCall } from './engine.ts';

/** The record of one import of a source. */
export type ImportRun = {
  source: string;
  /** `abandoned`: an operator published the store without it (reindex --allow-incomplete). */
  state: 'running' | 'complete' | 'failed' | 'abandoned';
  started_at: string;
  heartbeat_at: string;
  finished_at?: string;
  host: string;
  pid: number;
  error?: string;
  /** What a finished run counted (its report's summary): what `hsds sources` shows of it. */
  counts?: ImportRunCounts;
};

/** What an import run counted: its report's summary counts (src/ingest/import/import-report.ts). */
export type ImportRunCounts = {
  /** Items read from the source: nested documents or tabular rows. */
  items: number;
  /** Distinct records written to the records store. */
  records: number;
  /** Of `records`, those the leniency policy repaired (a value changed or an optional field dropped). */
  repaired: number;
  /** Distinct records that failed validation (each skipped with what it nests). */
  rejected: number;
  /** Ids met again with different content (the last one is kept). */
  duplicates: number;
  /** Links to records that exist neither in the source nor in the store. */
  dangling_references: number;
  /** Records deleted from the store: no longer provided (`--sync`), or deleted at the source. */
  removed?: number;
};

const importId = (source: string) => `import:${createHash('sha1').update(source).digest('hex')}`;

export type ImportRunHandle = {
  finish(state: 'complete' | 'failed', error?: string, counts?: ImportRunCounts): Promise<void>;
};

/**
 * Records that an import of `source` runs, and beats every `heartbeatMs` until finished. An import
 * that is killed leaves `running` with a heartbeat that stops.
 */
export async function startImportRun(
  engine: Engine,
  source: string,
  options: { heartbeatMs?: number; now?: () => Date } = {},
): Promise<ImportRunHandle> {
  const now = options.now ?? (() => new Date());
  const id = importId(source);
  const run: ImportRun = {
    source,
    state: 'running',
    started_at: now().toISOString(),
    heartbeat_at: now().toISOString(),
    host: hostname(),
    pid: process.pid,
  };
  const write = () =>
    withControlIndex(engine, () =>
      engineCall(`record import ${source}`, () =>
        engine.client.index({ index: controlIndex(engine), id, body: { kind: 'import', data: run } }),
      ),
    );
  await write();
  let writing: Promise<unknown> | undefined;
  const timer = setInterval(() => {
    if (writing) return;
    run.heartbeat_at = now().toISOString();
    writing = write()
      .catch((error: unknown) => engine.logger.warn({ err: error }, 'could not record the import heartbeat'))
      .finally(() => {
        writing = undefined;
      });
  }, options.heartbeatMs ?? IMPORT_HEARTBEAT_MS);
  timer.unref();
  return {
    async finish(state, error, counts) {
      clearInterval(timer);
      await writing;
      run.state = state;
      run.finished_at = now().toISOString();
      run.heartbeat_at = run.finished_at;
      if (error) run.error = error;
      if (counts) run.counts = counts;
      await write();
    },
  };
}

export const IMPORT_HEARTBEAT_MS = 10_000;

/** Every import run recorded under the engine's prefix. */
export const listImportRuns = (engine: Engine): Promise<ImportRun[]> =>
  searchControl<ImportRun>(engine, 'list import runs', controlKindBody('import', 1000));

/** The last complete import of a source, if any (its start is where `--since last` harvests from). */
export async function lastCompleteImport(engine: Engine, source: string): Promise<ImportRun | undefined> {
  const run = await getControl<ImportRun>(engine, importId(source));
  return run?.data.state === 'complete' ? run.data : undefined;
}

/**
 * Imports that did not finish: failed, killed (running with a heartbeat older than `staleMs`), or
 * still running. The store may hold part of what they brought.
 */
export type UnfinishedImport = ImportRun & { why: 'running' | 'killed' | 'failed' };

export function unfinishedImports(
  runs: readonly ImportRun[],
  now = Date.now(),
  staleMs = IMPORT_HEARTBEAT_MS * 4,
): UnfinishedImport[] {
  const unfinished: UnfinishedImport[] = [];
  for (const run of runs) {
    if (run.state === 'complete' || run.state === 'abandoned') continue;
    const stale = now - Date.parse(run.heartbeat_at) > staleMs || isDeadLocalProcess(run.host, run.pid);
    unfinished.push({ ...run, why: run.state === 'failed' ? 'failed' : stale ? 'killed' : 'running' });
  }
  return unfinished;
}

/**
 * Marks unfinished runs as abandoned once an operator chose to publish without them, so they stop
 * blocking later reindexes. A run that beat again since it was read (it was still running) is
 * left alone.
 */
export async function abandonImportRuns(engine: Engine, runs: readonly ImportRun[]): Promise<void> {
  for (const run of runs) {
    const id = importId(run.source);
    const current = await getControl<ImportRun>(engine, id);
    if (!current || current.data.heartbeat_at !== run.heartbeat_at || current.data.state !== run.state)
      continue;
    await engineCall(`abandon import ${run.source}`, () =>
      engine.client.index({
        index: controlIndex(engine),
        id,
        body: { kind: 'import', data: { ...current.data, state: 'abandoned' } },
        if_seq_no: current.seqNo,
        if_primary_term: current.primaryTerm,
      }),
    ).catch((error: unknown) => {
      if (!isConflict(error)) throw error;
    });
  }
}
