/**
 * Beyond the engine's result window (10,000 hits) and streams: deep pages are served, and equal
 * the same slice of the NDJSON stream; a client that disconnects mid-stream ends it and the point
 * in time is released; dumps hold a slot each, and a client that stops reading loses its own.
 */
import { type IncomingMessage, request } from 'node:http';
import { type AddressInfo, createServer } from 'node:net';
import { serve } from '@hono/node-server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateDataset } from '../../src/synthetic/generate.ts';
import { getNdjson, getPage, type JsonObject } from '../support/api-requests.ts';
import { createTestApp, createTestEngine, dropTestIndices } from '../support/engine.ts';
import { seedReadIndices } from '../support/seed.ts';

const SERVICES = 10_120;
const engine = createTestEngine('api-streaming');
const app = createTestApp(engine);
const dataset = generateDataset({ services: SERVICES, seed: 'api-streaming' });
let stream: JsonObject[] = [];
/** The stream in the pages' order: name as the `hsds_sort` normalizer sees it (lower case, no accents), then id. */
let ordered: JsonObject[] = [];
const sortKey = (item: JsonObject) =>
  String(item.name ?? '')
    .toLowerCase()
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '');
const byPageOrder = (a: JsonObject, b: JsonObject) => {
  const [x, y] = [sortKey(a), sortKey(b)];
  if (x !== y) return x < y ? -1 : 1;
  return String(a.id) < String(b.id) ? -1 : 1;
};

beforeAll(async () => {
  await seedReadIndices(engine, { services: dataset.services(), taxonomies: dataset.taxonomies });
  stream = await getNdjson(app, '/services?format=ndjson');
  ordered = [...stream].sort(byPageOrder);
}, 300_000);
afterAll(() => dropTestIndices(engine));

const ids = (items: JsonObject[]) => items.map((i) => i.id);

describe('pages past the result window', () => {
  it('streams every service once', () => {
    expect(stream).toHaveLength(SERVICES);
    expect(new Set(ids(stream)).size).toBe(SERVICES);
  });

  it('serve the same slice as the stream in page order, before, across and after the 10,000th hit', async () => {
    // The first pages come from plain from/size: they prove the local ordering matches the engine's.
    for (const [page, perPage] of [
      [1, 100],
      [57, 100],
      [100, 100],
      [101, 100],
      [100, 101],
      [11, 1000],
      [10_001, 1],
    ] as const) {
      const body = await getPage(app, `/services?page=${page}&per_page=${perPage}`, 'service_list_item');
      const from = (page - 1) * perPage;
      expect(body.total_items).toBe(SERVICES);
      expect({ page, perPage, ids: ids(body.contents) }).toEqual({
        page,
        perPage,
        ids: ids(ordered.slice(from, from + perPage)),
      });
      expect(body.contents).toEqual(ordered.slice(from, from + perPage));
      expect(body.last_page).toBe(from + perPage >= SERVICES);
    }
  });

  it('answer an empty last page far past the end', async () => {
    const body = await getPage(app, '/services?page=400&per_page=100', null);
    expect(body).toMatchObject({
      total_items: SERVICES,
      size: 0,
      empty: true,
      last_page: true,
      first_page: false,
    });
  });

  it('are served for filtered and full results too', async () => {
    const term = dataset.taxonomyTerms.find((t) => !t.parent_id)!;
    const filtered = await getNdjson(app, `/services?format=ndjson&taxonomy_id=${term.taxonomy_id}`);
    if (filtered.length > 10_050) {
      const body = await getPage(app, `/services?taxonomy_id=${term.taxonomy_id}&page=202&per_page=50`, null);
      expect(ids(body.contents)).toEqual(ids([...filtered].sort(byPageOrder).slice(10_050, 10_100)));
    }
    const full = await getPage(app, '/services?full=true&page=10001&per_page=1', 'service');
    expect(full.contents[0]?.id).toBe(ordered[10_000]?.id);
    expect(full.contents[0]).toHaveProperty('service_at_locations');
  });
});

async function openPits(): Promise<number> {
  const { body } = await engine.client.getAllPits();
  return body.pits?.length ?? 0;
}

async function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const probe = createServer().listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as AddressInfo;
      probe.close(() => resolve(port));
    });
  });
}

describe('a client that disconnects', () => {
  it('ends the stream and releases the point in time', async () => {
    const port = await freePort();
    const server = serve({ fetch: app.fetch, port, hostname: '127.0.0.1' });
    try {
      const before = await openPits();
      const controller = new AbortController();
      const res = await fetch(`http://127.0.0.1:${port}/services?format=ndjson&full=true`, {
        signal: controller.signal,
      });
      expect(res.status).toBe(200);
      const reader = res.body!.getReader();
      const first = await reader.read();
      expect(first.done).toBe(false);
      expect(await openPits()).toBe(before + 1);
      controller.abort();
      await reader.cancel().catch(() => {});
      const deadline = Date.now() + 10_000;
      while ((await openPits()) > before && Date.now() < deadline)
        await new Promise((r) => setTimeout(r, 100));
      expect(await openPits()).toBe(before);
    } finally {
      await new Promise((resolve) => server.close(resolve));
    }
  });
});

describe('dump slots', () => {
  // One dump at a time, and a client that takes nothing for a second is cut off.
  const capped = createTestApp(engine, { DUMP_MAX_CONCURRENT: '1', DUMP_STALL_TIMEOUT_MS: '1000' });

  it('a dump holds its slot until it ends: the next waits for it, with 503 and Retry-After', async () => {
    const first = await capped.request('/services?format=ndjson');
    expect(first.status).toBe(200);
    const refused = await capped.request('/services?minimal=true');
    expect(refused.status).toBe(503);
    expect(refused.headers.get('retry-after')).toBe('1');
    expect(refused.headers.get('content-type')).toBe('application/problem+json');
    expect(await refused.json()).toMatchObject({
      type: expect.stringMatching(/too-many-dumps$/),
      status: 503,
    });
    // Pages are not dumps.
    expect((await capped.request('/services?per_page=1')).status).toBe(200);
    expect((await first.text()).split('\n').filter(Boolean)).toHaveLength(SERVICES);
    const next = await capped.request('/services?minimal=true&format=ndjson');
    expect(next.status).toBe(200);
    await next.body?.cancel();
    const afterCancel = await capped.request('/services?format=ndjson');
    expect(afterCancel.status).toBe(200);
    await afterCancel.text();
  });

  it('a client that stops reading is cut off after the stall timeout, and its point in time released', async () => {
    const port = await freePort();
    const server = serve({ fetch: capped.fetch, port, hostname: '127.0.0.1' });
    try {
      const before = await openPits();
      const response = await new Promise<IncomingMessage>((resolve, reject) => {
        const req = request(`http://127.0.0.1:${port}/services?format=ndjson&full=true`, resolve);
        req.on('error', reject);
        req.end();
      });
      expect(response.statusCode).toBe(200);
      // A paused socket reads nothing: the server's buffers fill and it waits for the client.
      response.pause();
      const started = Date.now();
      await new Promise((r) => setTimeout(r, 300));
      expect(await openPits()).toBe(before + 1);
      while ((await openPits()) > before && Date.now() - started < 10_000) {
        await new Promise((r) => setTimeout(r, 100));
      }
      expect(await openPits()).toBe(before);
      expect(Date.now() - started).toBeGreaterThanOrEqual(700);
      // Its slot is free again.
      const next = await fetch(`http://127.0.0.1:${port}/services?minimal=true&format=ndjson`);
      expect(next.status).toBe(200);
      await next.text();
      // And the stalled client, reading again, finds its response cut short.
      const complete = new Promise<boolean>((resolve) => {
        response.on('close', () => resolve(response.complete));
        response.on('error', () => {});
      });
      response.resume();
      expect(await complete).toBe(false);
    } finally {
      await new Promise((resolve) => server.close(resolve));
    }
  });
});
