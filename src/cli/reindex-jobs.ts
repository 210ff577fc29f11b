/**
 * The server's reindex jobs (the ReindexJobs the admin routes use): one reindex at a time per
 * server, run in the background, its progress and report kept in memory for the last few jobs.
 */
import { randomBytes } from 'node:crypto';
import type { ReindexJob, ReindexJobs } from '../api/index.ts';
import { acquireLease, type Lease, LeaseHeldError } from '../engine/control.ts';
import type { Engine } from '../engine/engine.ts';
import { type ReindexOptions, type ReindexReport, reindex } from '../ingest/index.ts';

export type ReindexJobsOptions = {
  /** Jobs remembered (oldest forgotten first). */
  keep?: number;
  now?: () => Date;
  /** The reindex to run; tests replace it. */
  run?: (engine: Engine, options: ReindexOptions) => Promise<ReindexReport>;
};

export function createReindexJobs(engine: Engine, options: ReindexJobsOptions = {}): ReindexJobs {
  const keep = options.keep ?? 20;
  const now = options.now ?? (() => new Date());
  const run = options.run ?? reindex;
  const jobs = new Map<string, ReindexJob>();
  let running: ReindexJob | undefined;

  const copy = (job: ReindexJob): ReindexJob => structuredClone(job);

  return {
    async start(startOptions = {}) {
      if (running) return { conflict: copy(running) };
      // The lease is taken before answering, so a reindex another process runs is a 409 now
      // rather than a job that fails later.
      let lease: Lease;
      try {
        lease = await acquireLease(engine, 'reindex', { purpose: 'admin reindex job' });
      } catch (error) {
        if (error instanceof LeaseHeldError) return { busy: error.message };
        throw error;
      }
      if (running) {
        await lease.release();
        return { conflict: copy(running) };
      }
      const started = now();
      const job: ReindexJob = {
        id: `reindex-${started.getTime()}-${randomBytes(2).toString('hex')}`,
        state: 'running',
        started_at: started.toISOString(),
        progress: { phase: 'starting', services: 0, total_services: 0, documents: 0 },
      };
      jobs.set(job.id, job);
      while (jobs.size > keep) jobs.delete(jobs.keys().next().value!);
      running = job;
      run(engine, {
        lease,
        ...(startOptions.allowIncomplete ? { allowIncomplete: true } : {}),
        onProgress: (p) => {
          job.progress = {
            phase: p.phase,
            services: p.services,
            total_services: p.totalServices,
            documents: p.documents,
          };
        },
      })
        .then(
          (report) => {
            const { bulk, ...rest } = report;
            return () => {
              job.state = 'succeeded';
              job.report = { ...rest, bulk_requests: bulk.requests, bulk_retries: bulk.retries };
            };
          },
          (error: unknown) => {
            engine.logger.error({ err: error, job: job.id }, 'reindex job failed');
            return () => {
              job.state = 'failed';
              job.error = error instanceof Error ? error.message : String(error);
            };
          },
        )
        .then(async (settle) => {
          // The lease goes first, so that whoever sees this job finished can start the next one.
          await lease.release();
          settle();
          job.finished_at = now().toISOString();
          running = undefined;
        });
      return { job: copy(job) };
    },
    get(id) {
      const job = jobs.get(id);
      return job ? copy(job) : undefined;
    },
  };
}
