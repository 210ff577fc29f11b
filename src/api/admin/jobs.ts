/**
 * Reindex jobs as the API sees them: an interface the server is given (src/api never imports
 * src/ingest; the implementation, src/cli/reindex-jobs.ts, is wired in by the server command).
 */
export type ReindexJobState = 'running' | 'succeeded' | 'failed';

export type ReindexJob = {
  id: string;
  state: ReindexJobState;
  started_at: string;
  finished_at?: string;
  progress: {
    /** taxonomies, taxonomy_terms, services, organizations, finishing, swapped. */
    phase: string;
    services: number;
    total_services: number;
    documents: number;
  };
  /** The reindex report when it succeeded: version, counts, previous version, timings. */
  report?: Record<string, unknown>;
  error?: string;
};

export type ReindexJobs = {
  /**
   * Starts a reindex, unless one is running: then answers that job when it is this server's, or
   * `busy` saying who runs it when it is another process's (CLI or another server).
   */
  start(options?: {
    allowIncomplete?: boolean;
  }): Promise<{ job: ReindexJob } | { conflict: ReindexJob } | { busy: string }>;
  get(id: string): ReindexJob | undefined;
};
