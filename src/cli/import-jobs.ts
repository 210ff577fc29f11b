/**
 * The server's import jobs (the ImportJobs behind /admin/imports): one import at a time across
 * every process sharing the engine (the `import` lease), run in the background through the same
 * pipeline as `hsds import`, its progress, summary and report kept in memory for the last few.
 */
import { randomBytes } from 'node:crypto';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ImportFrom, ImportJob, ImportJobs } from '../console/index.ts';
import { progressOf } from '../console/index.ts';
import { acquireLease, type Lease, LeaseHeldError } from '../engine/control.ts';
import type { Engine } from '../engine/engine.ts';
import { importAndReindex } from '../ingest/index.ts';
import { generateDataset } from '../synthetic/generate.ts';
import { writeDataset } from '../synthetic/write-dataset.ts';
import { DEMO_SEED, DEMO_SERVICES } from './demo.ts';

export type ImportJobsOptions = {
  keep?: number;
  defaultCountry?: string;
  /** Services in the demo dataset (tests load fewer). */
  demoServices?: number;
};

type Running = { job: ImportJob; controller: AbortController };

export function createImportJobs(engine: Engine, options: ImportJobsOptions = {}): ImportJobs {
  const keep = options.keep ?? 20;
  const jobs = new Map<string, ImportJob>();
  const reports = new Map<string, string>();
  let running: Running | undefined;
  const copy = (job: ImportJob): ImportJob => structuredClone(job);
  const current = () => running;

  async function run(job: ImportJob, from: ImportFrom, lease: Lease, controller: AbortController) {
    const dir = await mkdtemp(join(tmpdir(), 'hsds-console-import-'));
    const started = Date.now();
    const counts = { ...job.progress };
    const update = (change: Partial<ImportJob['progress']>) => {
      Object.assign(counts, change);
      job.progress = progressOf(counts, Date.now() - started);
    };
    try {
      let location: string;
      if (from.from === 'demo') {
        const services = options.demoServices ?? DEMO_SERVICES;
        const dataset = generateDataset({ services, seed: DEMO_SEED });
        update({
          total_items: dataset.serviceCount + dataset.taxonomies.length + dataset.taxonomyTerms.length,
        });
        await writeDataset(dir, dataset);
        location = dir;
      } else if (from.from === 'file') {
        location = join(dir, from.name);
        await writeFile(location, from.content);
      } else {
        location = from.url;
      }
      update({ phase: 'reading' });
      const reportFile = join(dir, 'report.json');
      const result = await importAndReindex(engine, location, {
        reportFile,
        sourceName: job.source,
        ...(from.from !== 'demo' && from.sync ? { sync: true } : {}),
        ...(options.defaultCountry ? { defaultCountry: options.defaultCountry } : {}),
        signal: AbortSignal.any([controller.signal, lease.lost]),
        onProgress: (p) => update({ items: p.items, records: p.records, rejected: p.rejected }),
        onImported: async (imported) => {
          const { summary } = imported;
          job.summary = { ...summary };
          update({
            phase: 'publishing',
            items: summary.items,
            records: summary.records,
            rejected: summary.rejected,
            ...(counts.total_items !== undefined ? { total_items: summary.items } : {}),
          });
          const text = await readFile(reportFile, 'utf8').catch(() => undefined);
          if (text !== undefined) reports.set(job.id, text);
        },
      });
      const published = result.reindex?.counts?.services;
      update({
        phase: 'done',
        ...(typeof published === 'number' ? { services: published, total_services: published } : {}),
      });
      job.state = 'succeeded';
    } catch (error) {
      job.state = controller.signal.aborted ? 'cancelled' : 'failed';
      job.error = controller.signal.aborted
        ? 'cancelled by an operator: what was read is kept unfinished; the next import of this source completes it'
        : error instanceof Error
          ? error.message
          : String(error);
      if (job.state === 'failed') engine.logger.error({ err: error, job: job.id }, 'import job failed');
    } finally {
      job.finished_at = new Date().toISOString();
      running = undefined;
      await lease.release().catch(() => undefined);
      await rm(dir, { recursive: true, force: true });
    }
  }

  return {
    async start(from) {
      if (running) return { conflict: copy(running.job) };
      const source =
        from.from === 'demo'
          ? 'demo'
          : (from.source ?? (from.from === 'url' ? from.url : `upload:${from.name}`));
      let lease: Lease;
      try {
        lease = await acquireLease(engine, 'import', { purpose: `console import of ${source}` });
      } catch (error) {
        if (error instanceof LeaseHeldError) return { busy: error.message };
        throw error;
      }
      // Another start of this server's may have begun while the lease was taken.
      const other = current();
      if (other) {
        await lease.release();
        return { conflict: copy(other.job) };
      }
      const job: ImportJob = {
        id: `import-${Date.now()}-${randomBytes(2).toString('hex')}`,
        state: 'running',
        source,
        started_at: new Date().toISOString(),
        progress: progressOf(
          { phase: 'starting', items: 0, records: 0, rejected: 0, services: 0, total_services: 0 },
          0,
        ),
      };
      jobs.set(job.id, job);
      while (jobs.size > keep) {
        const oldest = jobs.keys().next().value!;
        jobs.delete(oldest);
        reports.delete(oldest);
      }
      const controller = new AbortController();
      running = { job, controller };
      void run(job, from, lease, controller);
      return { job: copy(job) };
    },
    get: (id) => {
      const job = jobs.get(id);
      return job && copy(job);
    },
    list: () => [...jobs.values()].reverse().map(copy),
    cancel(id) {
      if (running?.job.id !== id) return undefined;
      running.controller.abort(new Error('cancelled by an operator'));
      return copy(running.job);
    },
    report: async (id) => reports.get(id),
  };
}
