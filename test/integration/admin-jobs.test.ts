import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ReindexJob, ReindexJobs } from '../../src/api/admin/jobs.ts';
import { createReindexJobs } from '../../src/cli/reindex-jobs.ts';
import { importSource } from '../../src/ingest/import/import-source.ts';
import { reindex } from '../../src/ingest/publish/reindex.ts';
import { createTestApp, createTestEngine, dropTestIndices } from '../support/engine.ts';

const engine = createTestEngine('admin-jobs');
const TOKEN = 'test-admin-token-0123456789';

beforeAll(async () => {
  await importSource(engine, 'test/fixtures/hsds/examples/service_full.json');
});
afterAll(() => dropTestIndices(engine));

function adminApp(jobs: ReindexJobs) {
  return createTestApp(engine, { ADMIN_TOKEN: TOKEN }, { jobs });
}

const auth = { authorization: `Bearer ${TOKEN}` };

async function waitFor(app: ReturnType<typeof adminApp>, id: string): Promise<ReindexJob> {
  for (let i = 0; i < 200; i++) {
    const job = (await (await app.request(`/admin/jobs/${id}`, { headers: auth })).json()) as ReindexJob;
    if (job.state !== 'running') return job;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error('the job did not finish');
}

describe('admin routes', () => {
  it('do not exist without ADMIN_TOKEN', async () => {
    const res = await createTestApp(engine).request('/admin/reindex', { method: 'POST', headers: auth });
    expect(res.status).toBe(404);
    expect(res.headers.get('content-type')).toContain('application/problem+json');
  });

  it('need the bearer token', async () => {
    const app = adminApp(createReindexJobs(engine));
    for (const headers of [
      {},
      { authorization: 'Bearer wrong-token-0123456789' },
      { authorization: TOKEN },
    ]) {
      const res = await app.request('/admin/reindex', { method: 'POST', headers });
      expect(res.status).toBe(401);
      expect(res.headers.get('www-authenticate')).toMatch(/^Bearer/);
      expect(await res.json()).toMatchObject({ status: 401, title: 'Unauthorized' });
    }
    expect((await app.request('/admin/jobs/x')).status).toBe(401);
  });

  it('start a reindex, report its progress and result, and refuse a second one while it runs', async () => {
    let open!: () => void;
    const gate = new Promise<void>((resolve) => {
      open = resolve;
    });
    const app = adminApp(
      createReindexJobs(engine, {
        run: async (e, options) => {
          await gate;
          return reindex(e, options);
        },
      }),
    );
    const started = await app.request('/admin/reindex', { method: 'POST', headers: auth });
    expect(started.status).toBe(202);
    const job = (await started.json()) as ReindexJob;
    expect(job).toMatchObject({ state: 'running', progress: { phase: 'starting' } });
    expect(started.headers.get('location')).toBe(`/admin/jobs/${job.id}`);

    const second = await app.request('/admin/reindex', { method: 'POST', headers: auth });
    expect(second.status).toBe(409);
    expect(second.headers.get('content-type')).toContain('application/problem+json');
    expect(second.headers.get('location')).toBe(`/admin/jobs/${job.id}`);
    expect(((await second.json()) as { detail: string }).detail).toContain(job.id);

    open();
    const done = await waitFor(app, job.id);
    expect(done).toMatchObject({
      state: 'succeeded',
      progress: { phase: 'swapped', services: 1, total_services: 1 },
      report: { counts: { services: 1, service_at_locations: 1, organizations: 1 } },
    });
    expect(Date.parse(done.finished_at!)).toBeGreaterThanOrEqual(Date.parse(done.started_at));
    const served = await engine.client.count({ index: engine.name('services') });
    expect(served.body.count).toBe(1);

    // Once finished, another may start.
    const third = await app.request('/admin/reindex', { method: 'POST', headers: auth });
    expect(third.status).toBe(202);
    await waitFor(app, ((await third.json()) as ReindexJob).id);
  });

  it('report a failed reindex with its reason', async () => {
    const app = adminApp(
      createReindexJobs(engine, {
        run: async () => {
          throw new Error('the engine refused the build');
        },
      }),
    );
    const job = (await (
      await app.request('/admin/reindex', { method: 'POST', headers: auth })
    ).json()) as ReindexJob;
    expect(await waitFor(app, job.id)).toMatchObject({
      state: 'failed',
      error: 'the engine refused the build',
    });
  });

  it('answer 404 for an unknown job', async () => {
    const res = await adminApp(createReindexJobs(engine)).request('/admin/jobs/reindex-0-none', {
      headers: auth,
    });
    expect(res.status).toBe(404);
    expect(await res.json()).toMatchObject({ status: 404 });
  });

  it('appear in the OpenAPI document with their security scheme', async () => {
    const doc = (await (await adminApp(createReindexJobs(engine)).request('/openapi.json')).json()) as {
      paths: Record<string, unknown>;
      components: { securitySchemes: Record<string, unknown> };
    };
    expect(Object.keys(doc.paths)).toEqual(expect.arrayContaining(['/admin/reindex', '/admin/jobs/{id}']));
    expect(doc.components.securitySchemes.adminToken).toMatchObject({ type: 'http', scheme: 'bearer' });
  });
});
