/**
 * Snapshot and restore, as docs/operations.md tells an operator to do it: the records store, the
 * control index and the read indices (with their aliases) are snapshotted to a filesystem
 * repository, wiped, and restored; the API then answers exactly as before. Needs an engine whose
 * nodes set `path.repo` (the local engine does; a container or OPENSEARCH_URL may not: skipped).
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { importSource } from '../../src/ingest/import/import-source.ts';
import { reindex } from '../../src/ingest/publish/reindex.ts';
import { generateDataset } from '../../src/synthetic/generate.ts';
import { writeDataset } from '../../src/synthetic/write-dataset.ts';
import { createTestApp, createTestEngine, dropTestIndices } from '../support/engine.ts';

const engine = createTestEngine('snapshot');
const app = createTestApp(engine);
const prefix = engine.settings.prefix;
const repository = `${prefix}-repo`;
let repoRoot: string | undefined;
let dir: string | undefined;

// What a client sees: lists, a search, a record, a facet of the data, and a dump.
const requests = [
  '/services?per_page=50',
  '/services?search=advice&per_page=20',
  '/organizations?per_page=100',
  '/service_at_locations?lat=57.15&long=-2.1&proximity=20000&per_page=30',
  '/taxonomy_terms?per_page=100',
  '/services?format=ndjson',
];

async function answers(): Promise<Record<string, { status: number; body: string }>> {
  const out: Record<string, { status: number; body: string }> = {};
  for (const url of requests) {
    const res = await app.request(url);
    const text = await res.text();
    // A dump in index order comes from two halves read side by side: its lines, not their order.
    // A problem names its request (request_id), which is another request's after the restore.
    const body = url.includes('format=ndjson')
      ? text.split('\n').filter(Boolean).sort().join('\n')
      : text.replace(/,"request_id":"[^"]*"/, '');
    out[url] = { status: res.status, body };
  }
  const first = JSON.parse(out[requests[0] as string]?.body ?? '{}') as { contents?: { id: string }[] };
  const id = first.contents?.[0]?.id;
  const one = await app.request(`/services/${id}`);
  out['/services/{first}'] = { status: one.status, body: await one.text() };
  return out;
}

beforeAll(async () => {
  const { body } = await engine.client.nodes.info({ metric: ['settings'] });
  const nodes = Object.values(
    body.nodes as Record<string, { settings?: { path?: { repo?: string | string[] } } }>,
  );
  const repo = nodes[0]?.settings?.path?.repo;
  repoRoot = Array.isArray(repo) ? repo[0] : repo;
  if (!repoRoot) return;
  dir = await mkdtemp(join(tmpdir(), 'hsds-snapshot-'));
  await writeDataset(dir, generateDataset({ services: 120, seed: 'snapshot' }));
  await importSource(engine, dir);
  await reindex(engine);
}, 180_000);

afterAll(async () => {
  if (repoRoot) {
    await engine.client.snapshot.delete({ repository, snapshot: 'nightly' }).catch(() => {});
    await engine.client.snapshot.deleteRepository({ repository }).catch(() => {});
    await rm(join(repoRoot, prefix), { recursive: true, force: true });
  }
  if (dir) await rm(dir, { recursive: true, force: true });
  await dropTestIndices(engine);
});

describe('a snapshot of the store and the read indices', () => {
  it('restores, after the indices are wiped, to identical answers', async (context) => {
    if (!repoRoot) context.skip('the engine sets no path.repo');
    const before = await answers();
    expect(before['/services?per_page=50']?.status).toBe(200);
    expect(JSON.parse(before['/services?per_page=50']?.body ?? '{}').total_items).toBe(120);

    await engine.client.snapshot.createRepository({
      repository,
      body: { type: 'fs', settings: { location: join(repoRoot as string, prefix) } },
    });
    const { body: snap } = await engine.client.snapshot.create({
      repository,
      snapshot: 'nightly',
      wait_for_completion: true,
      body: { indices: `${prefix}-*`, include_global_state: false },
    });
    expect(snap.snapshot?.state).toBe('SUCCESS');
    expect(snap.snapshot?.shards?.failed).toBe(0);
    const snapshotted = (snap.snapshot?.indices ?? []) as string[];
    expect(snapshotted).toContain(`${prefix}-records`);
    expect(snapshotted.some((name) => name.startsWith(`${prefix}-services-v`))).toBe(true);

    // Wiped: every index and alias under the prefix is gone, and the API has nothing to serve.
    await engine.client.indices.delete({ index: `${prefix}-*`, expand_wildcards: 'all' });
    const wiped = await app.request('/services');
    if (wiped.status === 200) expect(((await wiped.json()) as { total_items: number }).total_items).toBe(0);
    expect((await engine.client.indices.exists({ index: `${prefix}-records` })).body).toBe(false);

    const { body: restored } = await engine.client.snapshot.restore({
      repository,
      snapshot: 'nightly',
      wait_for_completion: true,
      body: { indices: `${prefix}-*`, include_global_state: false, include_aliases: true },
    });
    expect(restored.snapshot?.shards?.failed).toBe(0);
    await engine.client.cluster.health({ index: `${prefix}-*`, wait_for_status: 'yellow', timeout: '60s' });

    expect(await answers()).toEqual(before);
  });
});
