/**
 * Search pages and the engine's request cache (src/engine/search.ts, `request_cache`), against a
 * real engine: a repeated search is answered from the cache, and a write that changes what it
 * finds changes the answer at once (the cache never serves a stale page).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newToken } from '../../src/api/http/auth.ts';
import type { ServiceFull } from '../../src/hsds/index.ts';
import { generateDataset } from '../../src/synthetic/generate.ts';
import { createTestApp, createTestEngine, dropTestIndices } from '../support/engine.ts';
import { createFeeds, type Feeds } from '../support/feeds.ts';

const engine = createTestEngine('search-request-cache');
const writer = newToken('request-cache-writer', ['write']);
const app = createTestApp(engine, { API_TOKENS: writer.entry });
const services = JSON.parse(
  JSON.stringify([...generateDataset({ services: 30, seed: 'request-cache' }).services()]),
) as ServiceFull[];
let feeds: Feeds;

beforeAll(async () => {
  feeds = await createFeeds(engine, 'request-cache');
  await feeds.importFile('feed.json', services);
});
afterAll(async () => {
  await feeds.remove();
  await dropTestIndices(engine);
});

/** Hits of the engine's request cache on this test's indices so far. */
async function cacheHits(): Promise<number> {
  const { body } = await engine.client.indices.stats({
    index: `${engine.name('services')}*`,
    metric: 'request_cache',
  });
  return (body as { _all: { total: { request_cache: { hit_count: number } } } })._all.total.request_cache
    .hit_count;
}

const namesFound = async (search: string): Promise<string[]> => {
  const response = await app.request(`/services?search=${encodeURIComponent(search)}`);
  expect(response.status).toBe(200);
  return ((await response.json()) as { contents: { name: string }[] }).contents.map((s) => s.name);
};

async function rename(service: ServiceFull, name: string): Promise<void> {
  const path = `/services/${service.id}`;
  const current = (await (await app.request(path)).json()) as Record<string, unknown>;
  const response = await app.request(path, {
    method: 'PUT',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${writer.token}` },
    body: JSON.stringify({ ...current, name }),
  });
  expect(response.status).toBe(200);
}

describe('a repeated search', () => {
  it('is answered from the engine request cache, and a write that changes its answer is seen at once', async () => {
    const [first, second] = [services[4]!, services[9]!];
    await rename(first, 'Kingfisher Befriending');
    expect(await namesFound('kingfisher')).toEqual(['Kingfisher Befriending']);

    const before = await cacheHits();
    expect(await namesFound('kingfisher')).toEqual(['Kingfisher Befriending']);
    expect(await cacheHits()).toBeGreaterThan(before);

    // The cached page is dropped with the shard's change: never a stale answer.
    await rename(first, 'Heron Befriending');
    expect(await namesFound('kingfisher')).toEqual([]);
    await rename(second, 'Kingfisher Lunch Club');
    expect(await namesFound('kingfisher')).toEqual(['Kingfisher Lunch Club']);
  });
});
