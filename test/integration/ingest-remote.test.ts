import { readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { countRecordsByType, getRecords } from '../../src/engine/records.ts';
import { importSource } from '../../src/ingest/import/import-source.ts';
import { migrateId } from '../../src/ingest/migrate/legacy-ids.ts';
import { createTestEngine, dropTestIndices } from '../support/engine.ts';

const engine = createTestEngine('ingest-remote');
const examples = new URL('../fixtures/hsds/examples/', import.meta.url);
const example = (name: string) => JSON.parse(readFileSync(new URL(name, examples), 'utf8'));

const SERVICE = 'ac148810-d857-441c-9679-408f346de14b';
const LONE_ORGANIZATION = '5c1d1b7e-0f3a-4d5e-8a9b-0c1d2e3f4a5b';

/** One page holding the example's single item: the example Page claims 10 pages it does not have. */
const onePage = (name: string) => ({ ...example(name), total_pages: 1, last_page: true });

type Hit = { path: string; status: number };

/**
 * A small HSDS API serving the official examples as pages: list items that are not fully nested
 * (so the harvester must fetch /services/{id}), no NDJSON, and a 503 on the first page request.
 */
function startExampleApi(): Promise<{ server: Server; url: string; hits: Hit[] }> {
  const hits: Hit[] = [];
  let failedOnce = false;
  const server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://x');
    const send = (status: number, body: unknown, headers: Record<string, string> = {}) => {
      hits.push({ path: `${url.pathname}${url.search}`, status });
      res.writeHead(status, { 'content-type': 'application/json', ...headers });
      res.end(JSON.stringify(body));
    };
    if (url.pathname === '/services' && url.searchParams.get('format') === 'ndjson') {
      return send(200, onePage('service_list.json')); // NDJSON not offered: a normal page instead
    }
    if (url.pathname === '/services') {
      if (!failedOnce) {
        failedOnce = true;
        return send(503, { title: 'Service unavailable' }, { 'retry-after': '0' });
      }
      return send(200, onePage('service_list.json'));
    }
    if (url.pathname === `/services/${SERVICE}`) return send(200, example('service_full.json'));
    if (url.pathname === '/taxonomies') return send(200, onePage('taxonomy_list.json'));
    if (url.pathname === '/taxonomy_terms') return send(200, onePage('taxonomy_term_list.json'));
    if (url.pathname === '/organizations') {
      // The example's organization, and one that runs no service: only /organizations has it.
      const page = onePage('organization_list.json');
      page.contents.push({ ...page.contents[0], id: LONE_ORGANIZATION, name: 'Lone Organization' });
      return send(200, page);
    }
    return send(404, { title: 'Not found' });
  });
  return new Promise((resolve) =>
    server.listen(0, '127.0.0.1', () =>
      resolve({ server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, hits }),
    ),
  );
}

let api: Awaited<ReturnType<typeof startExampleApi>>;
beforeAll(async () => {
  api = await startExampleApi();
});
afterAll(async () => {
  api.server.close();
  await dropTestIndices(engine);
});

describe('harvesting a remote HSDS API', () => {
  it('imports every service fully nested, with taxonomies and terms, retrying after a 503', async () => {
    const retries: string[] = [];
    const result = await importSource(engine, `${api.url}/`, {
      harvest: { backoffMs: () => 5, onRetry: (r) => retries.push(`${r.reason} ${new URL(r.url).pathname}`) },
    });
    expect(retries).toEqual(['HTTP 503 /services']);
    const pages = api.hits.filter((h) => h.path.startsWith('/services?') && !h.path.includes('format='));
    expect(pages.map((h) => h.status)).toEqual([503, 200]);
    expect(api.hits.map((h) => h.path)).toContain(`/services/${SERVICE}`);
    expect(result.summary).toMatchObject({ kind: 'remote', rejected: 0 });
    const byType = await countRecordsByType(engine);
    expect(byType).toMatchObject({
      service: 1,
      service_at_location: 1,
      location: 1,
      phone: 1,
      taxonomy_term: 1,
    });
    // The list item was replaced by the full service: its nested records came with it.
    expect(Object.keys(byType).length).toBeGreaterThanOrEqual(20);
    const [service] = (await getRecords(engine, [`service:${SERVICE}`])).values();
    expect(service?.source).toBe(`${api.url}/`);
  });

  it('imports organizations that run no service, from /organizations', async () => {
    const byType = await countRecordsByType(engine);
    expect(byType.organization).toBe(2);
    const [lone] = (await getRecords(engine, [`organization:${LONE_ORGANIZATION}`])).values();
    expect(lone?.record).toMatchObject({ id: LONE_ORGANIZATION, name: 'Lone Organization' });
    expect(api.hits.map((h) => h.path)).toContain('/organizations?full=true&page=1&per_page=100');
  });

  it('streams services from format=ndjson when the API offers it, without a request per service', async () => {
    const paths: string[] = [];
    const streaming = createServer((req, res) => {
      const url = new URL(req.url ?? '/', 'http://x');
      paths.push(`${url.pathname}${url.search}`);
      if (url.pathname === '/services' && url.searchParams.get('format') === 'ndjson') {
        res.writeHead(200, { 'content-type': 'application/x-ndjson' });
        // Two chunks splitting a line: the reader must join them.
        const line = `${JSON.stringify(example('service_full.json'))}\n`;
        res.write(line.slice(0, 100));
        setTimeout(() => res.end(line.slice(100)), 20);
        return;
      }
      res.writeHead(404, { 'content-type': 'application/json' });
      res.end('{}');
    });
    await new Promise<void>((resolve) => streaming.listen(0, '127.0.0.1', resolve));
    const url = `http://127.0.0.1:${(streaming.address() as AddressInfo).port}`;
    const streamed = createTestEngine('ingest-remote-ndjson');
    try {
      const result = await importSource(streamed, url);
      expect(result.summary).toMatchObject({ kind: 'remote', items: 1, records: 23, rejected: 0 });
      expect(paths.filter((p) => p.startsWith('/services'))).toEqual(['/services?format=ndjson&full=true']);
      // The optional taxonomy endpoints are missing: noted, not an error.
      expect(result.summary.by_severity.error).toBe(0);
    } finally {
      streaming.close();
      await dropTestIndices(streamed);
    }
  });

  it('harvests an ORUK 1.0 API (Spring pages, non-UUID ids), migrating what it serves', async () => {
    const feed = JSON.parse(
      readFileSync(new URL('../fixtures/real-world/oruk-1.0.json', import.meta.url), 'utf8'),
    ) as unknown[];
    const springPage = (content: unknown[]) => ({
      totalElements: content.length,
      totalPages: 1,
      number: 1,
      size: content.length,
      first: true,
      last: true,
      content,
    });
    const oruk = createServer((req, res) => {
      const url = new URL(req.url ?? '/', 'http://x');
      const send = (status: number, body: unknown) => {
        res.writeHead(status, { 'content-type': 'application/json' });
        res.end(JSON.stringify(body));
      };
      if (url.pathname === '/services' && !url.searchParams.has('format')) return send(200, springPage(feed));
      if (url.pathname === '/taxonomies')
        return send(
          200,
          springPage([
            { id: 'pcage:under5', name: 'Under 5s', vocabulary: 'Placecube age groups', parent: null },
          ]),
        );
      return send(404, {});
    });
    await new Promise<void>((resolve) => oruk.listen(0, '127.0.0.1', resolve));
    const url = `http://127.0.0.1:${(oruk.address() as AddressInfo).port}`;
    const harvested = createTestEngine('ingest-remote-oruk');
    try {
      const result = await importSource(harvested, url);
      expect(result.summary).toMatchObject({ kind: 'remote', items: 4, rejected: 0 });
      expect(result.summary.by_severity.error).toBe(0);
      expect(await countRecordsByType(harvested)).toMatchObject({
        service: 3,
        organization: 2,
        taxonomy_term: 2,
      });
      const [play] = (await getRecords(harvested, [`service:${migrateId('service', 'SVC1042')}`])).values();
      expect(play?.record).toMatchObject({
        name: 'Little Acorns Stay and Play',
        organization_id: migrateId('organization', 'ORG77'),
      });
    } finally {
      oruk.close();
      await dropTestIndices(harvested);
    }
  });

  it('reports an API that never answers, without importing anything', async () => {
    const dead = createServer((_req, res) => {
      res.writeHead(503, { 'retry-after': '0' });
      res.end();
    });
    await new Promise<void>((resolve) => dead.listen(0, '127.0.0.1', resolve));
    const url = `http://127.0.0.1:${(dead.address() as AddressInfo).port}`;
    try {
      await expect(
        importSource(engine, url, { harvest: { backoffMs: () => 1, retries: 2 } }),
      ).rejects.toThrow(/HTTP 503 \(gave up after 3 attempts\)/);
    } finally {
      dead.close();
    }
  });
});
