/**
 * Validation without import, served: POST /validate with a feed in the body (JSON, NDJSON, a zipped
 * package) and by URL where VALIDATE_REMOTE allows, and this project's own API validated by URL,
 * with its conformance summary. Nothing is written: the engine is only what the served API reads.
 */
import { once } from 'node:events';
import { readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { serve } from '@hono/node-server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { countRecordsByType } from '../../src/engine/records.ts';
import { importAndReindex } from '../../src/ingest/publish/pipeline.ts';
import { validateLocation } from '../../src/ingest/validate/validate-source.ts';
import { createTestApp, createTestEngine, dropTestIndices } from '../support/engine.ts';
import { deflatedRepeat, zipOf } from '../support/zip.ts';

const engine = createTestEngine('validate');
const feed = readFileSync('test/fixtures/real-world/numeric-ids.json');
let server: ReturnType<typeof serve>;
let url = '';

beforeAll(async () => {
  await importAndReindex(engine, 'test/fixtures/real-world/numeric-ids.json', { reportFile: false });
  server = serve({ fetch: createTestApp(engine).fetch, port: 0, hostname: '127.0.0.1' });
  await once(server, 'listening');
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}, 120_000);

afterAll(async () => {
  await new Promise((resolve) => server.close(resolve));
  await dropTestIndices(engine);
});

const post = (
  path: string,
  body?: string | Buffer,
  headers: Record<string, string> = {},
  config: Record<string, string> = {},
) => createTestApp(engine, config).request(path, { method: 'POST', headers, ...(body ? { body } : {}) });

describe('this API validated by URL', () => {
  it('conforms to the HSDS 3.1 API reference, every optional endpoint included, and its records are valid', async () => {
    const report = await validateLocation(url, { remote: 'any' });
    expect(report.conformance?.checks.filter((c) => !c.ok)).toEqual([]);
    expect(report.conformance?.checks.map((c) => c.check)).toEqual([
      'GET / (the API root: version)',
      'GET /services (a Page)',
      'GET /services/{id}',
      'GET /organizations (a Page)',
      'GET /organizations/{id}',
      'GET /service_at_locations (a Page)',
      'GET /service_at_locations/{id}',
      'GET /taxonomies (a Page)',
      'GET /taxonomies/{id}',
      'GET /taxonomy_terms (a Page)',
      'GET /taxonomy_terms/{id}',
      'GET /services?format=ndjson (a dump, one service a line)',
    ]);
    // The fixture has no taxonomy: those lists are empty Pages, their {id} routes cannot be asked.
    expect(report.conformance?.checks.find((c) => c.check === 'GET /taxonomies/{id}')?.detail).toBe(
      'not checked: /taxonomies is empty',
    );
    expect(report).toMatchObject({ kind: 'remote', verdict: 'valid', valid: true, rejected: 0, repaired: 0 });
    expect(report.by_type.service?.kept).toBe(18);
  });

  it('says what is wrong with an API that does not conform', async () => {
    const bad = serve({
      fetch: (request) => {
        const path = new URL(request.url).pathname;
        if (path === '/') return Response.json({ version: '3.1' });
        if (path === '/services') return Response.json([{ id: 'x' }]); // a bare array, no Page
        return new Response('not found', { status: 404 });
      },
      port: 0,
      hostname: '127.0.0.1',
    });
    try {
      await once(bad, 'listening');
      const report = await validateLocation(`http://127.0.0.1:${(bad.address() as AddressInfo).port}`, {
        remote: 'any',
        timeoutMs: 5000,
      });
      expect(report).toMatchObject({ verdict: 'not-importable', valid: false, importable: false });
      expect(report.conformance?.conformant).toBe(false);
      expect(report.conformance?.checks.find((c) => c.check === 'GET /services (a Page)')).toMatchObject({
        ok: false,
        required: true,
        detail: 'not a Page: a bare JSON array',
      });
    } finally {
      await new Promise((resolve) => bad.close(resolve));
    }
  });
});

describe('POST /validate', () => {
  it('answers 200 with the report for a feed an import keeps whole, saying it needs repairs, and writes nothing', async () => {
    const before = await countRecordsByType(engine);
    const res = await post('/validate', feed, { 'content-type': 'application/json' });
    expect(res.status).toBe(200);
    const report = (await res.json()) as Record<string, unknown>;
    expect(report).toMatchObject({
      source: '(body)',
      kind: 'json',
      verdict: 'importable-with-repairs',
      valid: false,
      importable: true,
      records: 168,
      rejected: 0,
      repairs: { records: 84 },
    });
    expect(await countRecordsByType(engine)).toEqual(before);
  });

  it('answers 422 with each issue for a feed that is not valid; strict=true validates as published', async () => {
    const ndjson = readFileSync('test/fixtures/broken/services.ndjson');
    const res = await post('/validate', ndjson, { 'content-type': 'application/x-ndjson' });
    expect(res.status).toBe(422);
    const report = (await res.json()) as {
      verdict: string;
      rejected: number;
      issues: { path: string; reason: string }[];
    };
    expect(report.verdict).toBe('not-importable');
    expect(report.rejected).toBe(1);
    expect(report.issues).toContainEqual(
      expect.objectContaining({ path: 'name', reason: 'required field is missing', source: '(body):3' }),
    );
    const strict = await post('/validate?strict=true', feed, { 'content-type': 'application/json' });
    expect(strict.status).toBe(422);
    expect(((await strict.json()) as { rejected: number }).rejected).toBe(10);
  });

  it('shows a browser the report as a page', async () => {
    const res = await post('/validate', feed, { 'content-type': 'application/json', accept: 'text/html' });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/html/);
    const page = await res.text();
    expect(page).toContain('<h1>Importable with repairs: (body)</h1>');
    expect(page).toContain('84 of 168 records need a repair');
    expect(page).toContain('<th scope="row">service</th><td>18</td><td>18</td><td>0</td>');
  });

  it('runs at most VALIDATE_MAX_CONCURRENT at once: another is a 503 validation-busy with Retry-After', async () => {
    // A remote API whose first answer is slow holds the one slot while it is read.
    let answered = 0;
    const slow = createServer((_req, res) => {
      answered += 1;
      setTimeout(
        () => {
          res.writeHead(200, { 'content-type': 'application/json' });
          res.end(JSON.stringify({ total_items: 0, total_pages: 1, page_number: 1, size: 0, contents: [] }));
        },
        answered === 1 ? 1_500 : 0,
      );
    });
    slow.listen(0, '127.0.0.1');
    await once(slow, 'listening');
    try {
      const app = createTestApp(engine, { VALIDATE_MAX_CONCURRENT: '1', VALIDATE_REMOTE: 'any' });
      const slowUrl = `http://127.0.0.1:${(slow.address() as AddressInfo).port}`;
      const first = app.request(`/validate?url=${encodeURIComponent(slowUrl)}`, { method: 'POST' });
      await new Promise((resolve) => setTimeout(resolve, 200));
      const feedPost = () =>
        app.request('/validate', {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: feed,
        });
      const busy = await feedPost();
      expect(busy.status).toBe(503);
      expect(busy.headers.get('retry-after')).toBe('5');
      const problem = (await busy.json()) as { type: string; detail: string };
      expect(problem.type).toMatch(/validation-busy$/);
      expect(problem.detail).toMatch(/VALIDATE_MAX_CONCURRENT/);
      expect([200, 422]).toContain((await first).status);
      // The slot is free again.
      expect((await feedPost()).status).toBe(200);
    } finally {
      slow.close();
    }
  });

  it('bounds the body by VALIDATE_MAX_BODY_BYTES, and refuses what is no feed', async () => {
    const big = await post(
      '/validate',
      feed,
      { 'content-type': 'application/json' },
      {
        VALIDATE_MAX_BODY_BYTES: '2048',
      },
    );
    expect(big.status).toBe(413);
    const text = await post('/validate', 'hello', { 'content-type': 'text/plain' });
    expect(text.status).toBe(415);
    const none = await post('/validate');
    expect(none.status).toBe(400);
    const zip = await post('/validate', 'PK not really a zip', { 'content-type': 'application/zip' });
    expect(zip.status).toBe(400);
    expect(((await zip.json()) as { detail: string }).detail).toMatch(/not a ZIP archive/);
  });

  it('bounds what a zipped package unpacks to by VALIDATE_MAX_BODY_BYTES: two bombs at once are refused early, in bounded memory', async () => {
    // About 1.7 MB that unpacks to 480 MB of CSV rows: honest (its directory says 480 MB), and
    // lying (its directory says 10 MB, under the 20 MB bound).
    const row = Buffer.from('00000000-0000-4000-8000-000000000000,A food bank,Hot meals and parcels\n');
    const chunk = Buffer.alloc(1024 * 1024);
    for (let at = 0; at < chunk.length; at += row.length) row.copy(chunk, at);
    const bomb = await deflatedRepeat(chunk, 480);
    const honest = zipOf([{ name: 'services.csv', ...bomb }]);
    const lying = zipOf([{ name: 'data/services.csv', ...bomb, size: 10 * 1024 * 1024 }]);
    expect(honest.length).toBeLessThan(2 * 1024 * 1024);
    const app = createTestApp(engine);
    const send = (body: Buffer) =>
      app.request('/validate', { method: 'POST', headers: { 'content-type': 'application/zip' }, body });
    globalThis.gc?.();
    const before = process.memoryUsage().rss;
    let peak = before;
    const sampler = setInterval(() => {
      peak = Math.max(peak, process.memoryUsage().rss);
    }, 20);
    const started = performance.now();
    try {
      const [a, b] = await Promise.all([send(honest), send(honest)]);
      for (const res of [a, b]) {
        expect(res.status).toBe(413);
        expect(res.headers.get('content-type')).toMatch(/application\/problem\+json/);
        expect(((await res.json()) as { detail: string }).detail).toMatch(
          /unpacks to 503316480 bytes: more than 20971520 bytes/,
        );
      }
      const [c, d] = await Promise.all([send(lying), send(lying)]);
      for (const res of [c, d]) {
        expect(res.status).toBe(400);
        expect(((await res.json()) as { detail: string }).detail).toBe(
          'data/services.csv: unpacks to more than the 10485760 bytes its directory entry declares',
        );
      }
    } finally {
      clearInterval(sampler);
    }
    const ms = performance.now() - started;
    const mb = (n: number) => Math.round(n / 1024 / 1024);
    console.info(`zip bombs: rss ${mb(before)} MB before, ${mb(peak)} MB at peak, ${Math.round(ms)} ms`);
    expect(peak - before).toBeLessThan(100 * 1024 * 1024);
    expect(ms).toBeLessThan(10_000);
  }, 60_000);

  it('fetches a URL only where VALIDATE_REMOTE allows, never a private address unless it says any', async () => {
    const off = await post(`/validate?url=${encodeURIComponent(url)}`);
    expect(off.status).toBe(403);
    expect(((await off.json()) as { detail: string }).detail).toMatch(/not enabled/);
    const publicOnly = await post(
      `/validate?url=${encodeURIComponent(url)}`,
      undefined,
      {},
      { VALIDATE_REMOTE: 'public' },
    );
    expect(publicOnly.status).toBe(403);
    expect(((await publicOnly.json()) as { detail: string }).detail).toMatch(/private or reserved/);
    const any = await post(
      `/validate?url=${encodeURIComponent(url)}`,
      undefined,
      {},
      { VALIDATE_REMOTE: 'any' },
    );
    expect(any.status).toBe(200);
    expect(((await any.json()) as { conformance: { conformant: boolean } }).conformance.conformant).toBe(
      true,
    );
  });

  it('never reads a path on the server: a url that is no http(s) URL is a 400, whatever VALIDATE_REMOTE says', async () => {
    for (const location of ['/etc/passwd', 'package.json', 'file:///etc/passwd', '𚯘µ46']) {
      const answer = await post(
        `/validate?url=${encodeURIComponent(location)}`,
        undefined,
        {},
        { VALIDATE_REMOTE: 'any' },
      );
      expect(answer.status, location).toBe(400);
      expect(((await answer.json()) as { detail: string }).detail).toMatch(/http or https URL/);
    }
  });
});
