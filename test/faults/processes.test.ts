/**
 * Processes that share one engine: two reindexes at once (CLI and admin HTTP), an import killed
 * part-way, and what /health says about the data the API serves.
 */
import { describe, expect, it } from 'vitest';
import {
  type ApiProcess,
  baseEnv,
  dropIndices,
  engineUrl,
  runCli,
  servedServiceIds,
  sleep,
  startApi,
  startCli,
  uniquePrefix,
  useDataset,
} from './support.ts';

const SERVICES = 2000;
const TOKEN = 'fault-suite-admin-token';
const dataset = useDataset(SERVICES);

async function countStoredServices(prefix: string): Promise<number> {
  const res = await fetch(`${engineUrl()}/${prefix}-records/_count`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ query: { terms: { types: ['service'] } } }),
  });
  if (res.status === 404) return 0;
  await fetch(`${engineUrl()}/${prefix}-records/_refresh`, { method: 'POST' });
  return ((await res.json()) as { count?: number }).count ?? 0;
}

async function waitForJob(api: ApiProcess, location: string) {
  for (;;) {
    const res = await fetch(`${api.url}${location}`, { headers: { authorization: `Bearer ${TOKEN}` } });
    const job = (await res.json()) as { state: string; error?: string };
    if (job.state !== 'running') return job;
    await sleep(250);
  }
}

describe('two reindexes in two processes', () => {
  it('run one at a time: the second is refused cleanly, naming the first, and the first publishes everything', async () => {
    const prefix = uniquePrefix('two-reindexes');
    const env = baseEnv(prefix, { ADMIN_TOKEN: TOKEN });
    const api = await startApi(env);
    try {
      const imported = await runCli(['import', dataset(), '--quiet', '--no-reindex'], env);
      expect(imported.code, imported.stderr).toBe(0);

      // The CLI first; the admin job asked for while the CLI builds.
      const cli = startCli(['reindex', '--quiet'], env);
      let admin: Response | undefined;
      for (let i = 0; i < 200 && !admin; i++) {
        await sleep(100);
        const res = await fetch(`${api.url}/admin/reindex`, {
          method: 'POST',
          headers: { authorization: `Bearer ${TOKEN}` },
        });
        if (res.status === 409) admin = res;
        else if (res.status === 202) {
          // The admin job won the race: then the CLI must be the one refused.
          admin = res;
        }
      }
      const cliResult = await cli.result;
      expect(admin).toBeDefined();
      if (admin?.status === 409) {
        const problem = (await admin.json()) as { detail: string };
        expect(problem.detail).toMatch(/another reindex is running \(hsds reindex, process \d+/);
        expect(cliResult.code, cliResult.stderr).toBe(0);
      } else {
        const job = await waitForJob(api, admin?.headers.get('location') ?? '');
        expect(job.state, job.error).toBe('succeeded');
        expect(cliResult.code).toBe(1);
        expect(cliResult.stderr).toMatch(/another reindex is running \(admin reindex job/);
      }
      expect(new Set(await servedServiceIds(api.url)).size).toBe(SERVICES);
      expect(api.output()).not.toMatch(/engine is unreachable/);
    } finally {
      await api.stop();
      await dropIndices(prefix);
    }
  });
});

describe('an import killed part-way', () => {
  it('is not published by a reindex without an explicit choice, and importing it again completes it', async () => {
    const prefix = uniquePrefix('killed-import');
    const env = baseEnv(prefix);
    try {
      const importing = startCli(['import', dataset(), '--quiet', '--no-reindex'], env);
      // Kill it once part of the source is stored.
      for (let i = 0; i < 600 && (await countStoredServices(prefix)) < 200; i++) await sleep(100);
      importing.child.kill('SIGKILL');
      await importing.result;
      const partial = await countStoredServices(prefix);
      expect(partial).toBeGreaterThan(0);
      expect(partial).toBeLessThan(SERVICES);

      const refused = await runCli(['reindex', '--quiet'], env);
      expect(refused.code).toBe(1);
      expect(refused.stderr).toContain(`the import of ${dataset()}`);
      expect(refused.stderr).toMatch(/was killed before it finished/);
      expect(refused.stderr).toMatch(/--allow-incomplete/);
      const aliases = await fetch(`${engineUrl()}/_alias/${prefix}-services`);
      expect(aliases.status).toBe(404);

      const again = await runCli(['import', dataset(), '--quiet'], env);
      expect(again.code, again.stderr).toBe(0);
      const api = await startApi(env);
      try {
        expect(new Set(await servedServiceIds(api.url)).size).toBe(SERVICES);
      } finally {
        await api.stop();
      }
    } finally {
      await dropIndices(prefix);
    }
  });
});

describe('/health', () => {
  it('is red while nothing or only part of what was published is served, green once it all is', async () => {
    const prefix = uniquePrefix('health');
    const env = baseEnv(prefix);
    const api = await startApi(env);
    try {
      const empty = await fetch(`${api.url}/health`);
      expect(empty.status).toBe(503);
      expect(((await empty.json()) as { detail: string }).detail).toMatch(/nothing is published yet/);

      const imported = await runCli(['import', dataset(), '--quiet'], env);
      expect(imported.code, imported.stderr).toBe(0);
      expect((await fetch(`${api.url}/health`)).status).toBe(200);

      // Half the services vanish from the served index (as a crash of an unflushed index did).
      await fetch(`${engineUrl()}/${prefix}-services/_delete_by_query?refresh=true`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({
          query: { range: { last_modified: { gte: '1970-01-01' } } },
          max_docs: SERVICES / 2,
        }),
      });
      const partial = await fetch(`${api.url}/health`);
      expect(partial.status).toBe(503);
      expect(((await partial.json()) as { detail: string }).detail).toContain(
        `services serves ${SERVICES / 2} documents`,
      );
      // Still ready: serving what there is beats serving nothing.
      expect((await fetch(`${api.url}/ready`)).status).toBe(200);

      const reindexed = await runCli(['reindex', '--quiet'], env);
      expect(reindexed.code, reindexed.stderr).toBe(0);
      expect((await fetch(`${api.url}/health`)).status).toBe(200);
    } finally {
      await api.stop();
      await dropIndices(prefix);
    }
  });
});
