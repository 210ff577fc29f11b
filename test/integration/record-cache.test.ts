/**
 * The record cache of `{id}` routes (src/engine/record-cache.ts) against a real engine: records
 * read before are answered without asking the engine, a change made by another process reaches
 * readers within RECORD_CACHE_MAX_STALE_MS (deletions included), a change made through this
 * process at once, memory stays bounded, and an engine that cannot be reached is a 503 as before.
 */
import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { newToken } from '../../src/api/http/auth.ts';
import { createEngine, type Engine } from '../../src/engine/index.ts';
import { recordCacheSize } from '../../src/engine/record-cache.ts';
import type { ServiceFull } from '../../src/hsds/index.ts';
import { generateDataset } from '../../src/synthetic/generate.ts';
import { createTestApp, dropTestIndices, testLogger, uniquePrefix } from '../support/engine.ts';
import { createFeeds, type Feeds } from '../support/feeds.ts';

const MAX_STALE_MS = 400;
const url = inject('engineUrl');
const prefix = uniquePrefix('record-cache');
const cachedEngine = (maxBytes: number, at = url): Engine =>
  createEngine(
    {
      url: at,
      prefix,
      requestTimeoutMs: 30_000,
      shards: 1,
      replicas: 0,
      recordCache: { maxBytes, maxStaleMs: MAX_STALE_MS },
    },
    testLogger,
  );
const engine = cachedEngine(8 * 1024 * 1024);
const writer = newToken('record-cache-writer', ['write']);
const app = createTestApp(engine, { API_TOKENS: writer.entry });
const services = JSON.parse(
  JSON.stringify([...generateDataset({ services: 40, seed: 'record-cache' }).services()]),
) as ServiceFull[];
let feeds: Feeds;

/** Lookups of services by id the engine is asked for through a handle from now on (get and multi-get). */
function countLookups(of: Engine): () => number {
  let lookups = 0;
  of.client.on('response', (_error, result) => {
    const path = (result?.meta?.request?.params as { path?: string } | undefined)?.path ?? '';
    if (path.startsWith(`/${prefix}-services/_doc/`) || path.startsWith(`/${prefix}-services/_mget`))
      lookups += 1;
  });
  return () => lookups;
}

/**
 * Reads a record until it comes from memory: the cache trusts nothing until its first check of the
 * served data, which the first lookup starts in the background. Fails after 10 s.
 */
async function untilServedFromMemory(on: ReturnType<typeof createTestApp>, of: Engine, path: string) {
  const lookups = countLookups(of);
  const deadline = Date.now() + 10_000;
  for (;;) {
    const before = lookups();
    expect((await on.request(path)).status).toBe(200);
    if (lookups() === before) return;
    if (Date.now() > deadline) throw new Error(`${path} was never answered from memory`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

const nameAt = async (id: string) => {
  const res = await app.request(`/services/${id}`);
  return res.status === 200 ? ((await res.json()) as { name: string }).name : res.status;
};

/** Writes the served document's record as another process would: straight to the engine. */
async function writeElsewhere(id: string, change: Record<string, unknown> | 'delete') {
  const res =
    change === 'delete'
      ? await fetch(`${url}/${prefix}-services/_doc/${id}`, { method: 'DELETE' })
      : await fetch(`${url}/${prefix}-services/_update/${id}`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ doc: { record: change } }),
        });
  expect(res.status).toBe(200);
}

/** How long until the API answers `expected` for the service (polling every 25 ms, at most 10 s). */
async function msUntil(id: string, expected: string | number): Promise<number> {
  const started = Date.now();
  while (Date.now() - started < 10_000) {
    if ((await nameAt(id)) === expected) return Date.now() - started;
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  throw new Error(`/services/${id} never answered ${expected}`);
}

beforeAll(async () => {
  feeds = await createFeeds(engine, 'record-cache');
  await feeds.importFile('feed.json', services);
});
afterAll(async () => {
  await feeds.remove();
  await dropTestIndices(engine);
});

describe('records served by id from memory', () => {
  it('answers a record read before without asking the engine, with the same body', async () => {
    const lookups = countLookups(engine);
    const path = `/services/${services[0]!.id}`;
    const first = await app.request(path);
    expect(lookups()).toBe(1);
    await untilServedFromMemory(app, engine, path);
    const asked = lookups();
    const again = await app.request(path);
    expect(again.status).toBe(200);
    expect(await again.text()).toBe(await first.text());
    expect(again.headers.get('etag')).toBe(first.headers.get('etag'));
    expect(lookups()).toBe(asked);
    expect(recordCacheSize(engine).entries).toBeGreaterThan(0);
  });

  it('serves text beyond ASCII byte for byte, from the engine and from memory: its ETag, 304, provenance', async () => {
    const service = services[4]!;
    const path = `/services/${service.id}`;
    const before = (await (await app.request(path)).json()) as Record<string, unknown>;
    const name = 'Café “Soup” – 🍲 للجميع';
    const put = await app.request(path, {
      method: 'PUT',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${writer.token}` },
      body: JSON.stringify({ ...before, name }),
    });
    expect(put.status).toBe(200);
    // The write emptied the cache: this answer is cut from the engine's bytes, never decoded.
    const first = await app.request(path);
    const firstBytes = Buffer.from(await first.arrayBuffer());
    expect(JSON.parse(firstBytes.toString('utf8')).name).toBe(name);
    expect(first.headers.get('etag')).toBe(put.headers.get('etag'));
    await untilServedFromMemory(app, engine, path);
    const lookups = countLookups(engine);
    const again = await app.request(path);
    const bytes = Buffer.from(await again.arrayBuffer());
    expect(lookups()).toBe(0);
    expect(bytes.equals(firstBytes)).toBe(true);
    expect(JSON.parse(bytes.toString('utf8')).name).toBe(name);
    const etag = again.headers.get('etag');
    expect(etag).toBe(`"${createHash('sha1').update(bytes).digest('base64url')}"`);
    expect(etag).toBe(put.headers.get('etag'));
    const revalidated = await app.request(path, { headers: { 'if-none-match': etag! } });
    expect(revalidated.status).toBe(304);
    // A form built from the record's text still has it, decoded back from the bytes held.
    const withSources = (await (await app.request(`${path}?provenance=true`)).json()) as Record<
      string,
      unknown
    >;
    expect(withSources.name).toBe(name);
    expect(withSources['x-sources']).toEqual(expect.arrayContaining([expect.stringMatching(/^api:/)]));
    expect(lookups()).toBe(0);
  });

  it('serves a change made by another process within RECORD_CACHE_MAX_STALE_MS, and a deletion', async () => {
    const [changed, deleted] = [services[1]!, services[2]!];
    expect(await nameAt(changed.id)).toBe(changed.name);
    expect(await nameAt(deleted.id)).toBe(deleted.name);

    const stored = (await (await app.request(`/services/${changed.id}`)).json()) as Record<string, unknown>;
    await writeElsewhere(changed.id, { ...stored, name: 'Renamed Elsewhere' });
    // The bound, plus the time of a check and a request on a busy machine.
    expect(await msUntil(changed.id, 'Renamed Elsewhere')).toBeLessThan(MAX_STALE_MS + 2000);

    await writeElsewhere(deleted.id, 'delete');
    expect(await msUntil(deleted.id, 404)).toBeLessThan(MAX_STALE_MS + 2000);
  });

  it('serves a change made through this server at once', async () => {
    const service = services[3]!;
    const path = `/services/${service.id}`;
    const before = (await (await app.request(path)).json()) as Record<string, unknown>;
    const res = await app.request(path, {
      method: 'PUT',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${writer.token}` },
      body: JSON.stringify({ ...before, name: 'Renamed Here' }),
    });
    expect(res.status).toBe(200);
    expect(await nameAt(service.id)).toBe('Renamed Here');

    const gone = await app.request(path, {
      method: 'DELETE',
      headers: { authorization: `Bearer ${writer.token}` },
    });
    expect(gone.status).toBe(204);
    expect(await nameAt(service.id)).toBe(404);
  });

  it('holds no more than its bytes, the least recently used out first', async () => {
    const read = services.slice(5);
    // Room for four of the largest records, counted in the bytes they go out in.
    let largest = 0;
    for (const service of read) {
      largest = Math.max(
        largest,
        (await (await app.request(`/services/${service.id}`)).arrayBuffer()).byteLength,
      );
    }
    const small = cachedEngine(largest * 4);
    const smallApp = createTestApp(small);
    await untilServedFromMemory(smallApp, small, `/services/${read[0]!.id}`);
    for (const service of read) expect((await smallApp.request(`/services/${service.id}`)).status).toBe(200);
    const { entries, bytes } = recordCacheSize(small);
    expect(bytes).toBeLessThanOrEqual(largest * 4);
    expect(entries).toBeGreaterThanOrEqual(4);
    expect(entries).toBeLessThan(read.length);
    // The last read is kept, the first is out: the next read of the first asks the engine again.
    const lookups = countLookups(small);
    await smallApp.request(`/services/${read.at(-1)!.id}`);
    expect(lookups()).toBe(0);
    await smallApp.request(`/services/${read[0]!.id}`);
    expect(lookups()).toBe(1);
    await small.close();
  });

  it('answers 503 when the engine cannot be reached, as without a cache', async () => {
    const gone = cachedEngine(1024 * 1024, 'http://127.0.0.1:1');
    const res = await createTestApp(gone).request(`/services/${services[5]!.id}`);
    expect(res.status).toBe(503);
    expect(res.headers.get('content-type')).toContain('application/problem+json');
    await gone.close();
  });
});
