/**
 * Import jobs as the console's routes see them: an interface the server is given (the
 * implementation, src/cli/import-jobs.ts, runs the real import and publish; this room never
 * imports src/ingest), and the pure arithmetic of a job's progress bar.
 */

export type ImportJobState = 'running' | 'succeeded' | 'failed' | 'cancelled';

/** Where an import reads from: the demo dataset, a remote HSDS API or feed URL, or an uploaded file. */
export type ImportFrom =
  | { from: 'demo' }
  | { from: 'url'; url: string; source?: string; sync?: boolean }
  | { from: 'file'; name: string; content: string; source?: string; sync?: boolean };

export type ImportJobProgress = {
  /** reading (the feed), publishing (the read indices), done. */
  phase: 'starting' | 'reading' | 'publishing' | 'done';
  items: number;
  records: number;
  rejected: number;
  /** The items the feed holds, when known before reading it (the demo); else the bar counts phases. */
  total_items?: number;
  services: number;
  total_services: number;
  /** 0 to 100, whole: reading is the first 80, publishing the last 20. */
  percent: number;
  /** Items read a second, over the whole run so far. */
  rate_per_second: number;
  /** Estimated, when the total is known and the rate measured. */
  seconds_left?: number;
};

export type ImportJob = {
  id: string;
  state: ImportJobState;
  /** The source name its records carry (what /admin/sources lists). */
  source: string;
  started_at: string;
  finished_at?: string;
  progress: ImportJobProgress;
  /** When finished: the import's summary (kept, repaired, rejected, by type and by reason). */
  summary?: Record<string, unknown>;
  error?: string;
};

export type ImportJobs = {
  /**
   * Starts an import unless one runs: this server's (`conflict`, that job) or another process's
   * (`busy`, naming the holder of the import lease).
   */
  start(from: ImportFrom): Promise<{ job: ImportJob } | { conflict: ImportJob } | { busy: string }>;
  get(id: string): ImportJob | undefined;
  /** This server's jobs, newest first. */
  list(): ImportJob[];
  /** Stops a running job (its writes so far stay, marked unfinished, as a killed CLI import's). */
  cancel(id: string): ImportJob | undefined;
  /** The full JSON report of a finished job (every issue with its path and value), as text. */
  report(id: string): Promise<string | undefined>;
};

/** Reading fills the bar to this percent; publishing fills the rest. */
const READING_SHARE = 80;

/**
 * A job's percent, rate and time left from its counts. Without a known total the reading phase
 * shows 0% (the page shows records counted instead): an estimate from nothing would be a guess.
 */
export function progressOf(
  counts: Omit<ImportJobProgress, 'percent' | 'rate_per_second' | 'seconds_left'>,
  elapsedMs: number,
): ImportJobProgress {
  const rate = elapsedMs > 0 ? (counts.items * 1000) / elapsedMs : 0;
  const readShare =
    counts.total_items && counts.total_items > 0 ? Math.min(1, counts.items / counts.total_items) : 0;
  const publishShare = counts.total_services > 0 ? Math.min(1, counts.services / counts.total_services) : 0;
  const percent =
    counts.phase === 'done'
      ? 100
      : counts.phase === 'publishing'
        ? READING_SHARE + publishShare * (100 - READING_SHARE)
        : readShare * READING_SHARE;
  const left =
    counts.phase === 'reading' && counts.total_items && rate > 0
      ? Math.max(0, (counts.total_items - counts.items) / rate)
      : undefined;
  return {
    ...counts,
    percent: Math.floor(percent),
    rate_per_second: Math.round(rate * 10) / 10,
    ...(left !== undefined ? { seconds_left: Math.ceil(left) } : {}),
  };
}
