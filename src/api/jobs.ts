/**
 * Reindex jobs as the API sees them: an interface the server is given (src/api never imports
 * src/ingest; the implementation lives there and is wired in by the server command).
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
  /** Starts a reindex, unless one is running: then answers that one. */
  start(): { job: ReindexJob } | { conflict: ReindexJob };
  get(id: string): ReindexJob | undefined;
};
