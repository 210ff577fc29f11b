/**
 * The operator's loop against the real engine: searches made through the app are counted in the
 * search log (and nothing about who made them), the report (GET /admin/search-report, and
 * `npx hsds search-report` as a real process) names a search that found nothing, an operator
 * writes a rule for it in SYNONYMS_FILE, runs `npx hsds synonyms reload` (a real process), and
 * the same search finds the service.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { refreshSearchLog, searchLogIndex } from '../../src/engine/search-log.ts';
import type { SearchReport } from '../../src/index-mapping/search-log.document.ts';
import { createSearchRecorder } from '../../src/search-report/search-recorder.ts';
import { getJson, getPage } from '../support/api-requests.ts';
import { createTestApp, createTestEngine, dropTestIndices, testLogger } from '../support/engine.ts';
import { fixtureService, seedReadIndices } from '../support/seed.ts';

const engine = createTestEngine('search-report');
const ADMIN_TOKEN = 'admin-token-for-the-search-report';
// Flushed by the tests themselves: the timer would only add waiting. Texts are stored from their
// first day here (the days rule has its own test: search-report-privacy.test.ts).
const recorder = createSearchRecorder(engine, {
  retentionDays: 90,
  minDays: 1,
  logger: testLogger,
  flushIntervalMs: 3_600_000,
});
const app = createTestApp(engine, { ADMIN_TOKEN, SEARCH_LOG_MIN_DAYS: '1' }, { searchLog: recorder });

const fixtures = {
  foodBank: fixtureService('Harbour Food Bank', 'Emergency parcels for people in crisis.', {
    name: 'Harbour Trust',
    description: 'A charity.',
  }),
  shelter: fixtureService('Winter Night Shelter', 'Emergency beds from 8pm, November to March.', {
    name: 'Shelter Trust',
    description: 'A charity.',
  }),
};

beforeAll(async () => {
  await seedReadIndices(engine, { services: Object.values(fixtures) });
});
afterAll(async () => {
  await recorder.stop();
  await dropTestIndices(engine);
});

type Report = SearchReport & { retention_days: number };

/** What the recorder holds, written and visible. */
async function flushed() {
  await recorder.flush();
  await refreshSearchLog(engine);
}

async function report(query = 'days=7&limit=50'): Promise<Report> {
  await flushed();
  const { status, body } = await getJson<Report>(app, `/admin/search-report?${query}`, {
    headers: { authorization: `Bearer ${ADMIN_TOKEN}` },
  });
  expect(status).toBe(200);
  return body;
}

async function searchIds(search: string): Promise<string[]> {
  const page = await getPage(app, `/services?search=${encodeURIComponent(search)}&per_page=50`, null);
  return page.contents.map((s) => s.id as string);
}

/** Runs `hsds <args>` as the operator would, against this file's indices. */
function hsds(args: string[], env: Record<string, string> = {}) {
  const child = spawn(process.execPath, ['src/cli/main.ts', ...args], {
    env: {
      ...process.env,
      OPENSEARCH_URL: inject('engineUrl'),
      INDEX_PREFIX: engine.settings.prefix,
      LOG_LEVEL: 'warn',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => {
    stdout += chunk.toString();
  });
  child.stderr.on('data', (chunk: Buffer) => {
    stderr += chunk.toString();
  });
  return new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve) =>
    child.on('close', (code) => resolve({ code, stdout, stderr })),
  );
}

describe('the search report', () => {
  it('counts a search that found nothing, and holds no address, token or user agent', async () => {
    // What a request carries about its sender, each with a marker to look for afterwards.
    const sender = {
      'x-forwarded-for': '203.0.113.77',
      'x-real-ip': '198.51.100.23',
      'user-agent': 'Mozilla/5.0 (marker-user-agent-7f3a)',
      authorization: 'Bearer marker-token-9c1e5d',
      cookie: 'session=marker-cookie-4b2d',
    };
    const found = await getPage(app, '/services?search=%20Food%20%20BANK%20', null, { headers: sender });
    expect(found.total_items).toBe(1);
    // A POST twin with a JSON body is the same search.
    const nothing = await getJson<{ total_items: number }>(app, '/service_at_locations', {
      method: 'POST',
      headers: { ...sender, 'content-type': 'application/json' },
      body: JSON.stringify({ search: 'zorbly' }),
    });
    expect(nothing.body.total_items).toBe(0);
    await getPage(app, '/services?search=zorbly', null, { headers: sender });
    // Not counted again: a later page of the same search, and a dump.
    await getPage(app, '/services?search=zorbly&page=2', null, { headers: sender });
    expect((await app.request('/services?search=zorbly&format=ndjson', { headers: sender })).status).toBe(
      200,
    );

    const r = await report();
    expect(r.retention_days).toBe(90);
    expect(r.zero_result_queries).toEqual([
      { query: 'zorbly', days: 1, searches: 2, zero_results: 2, relaxed: 0 },
    ]);
    expect(r.top_queries).toEqual([
      { query: 'zorbly', days: 1, searches: 2, zero_results: 2, relaxed: 0 },
      { query: 'food bank', days: 1, searches: 1, zero_results: 0, relaxed: 0 },
    ]);
    expect(r.relaxed_queries).toEqual([]);
    expect(r.totals).toEqual({ searches: 3, zero_results: 2, relaxed: 0, dropped: 0, distinct_queries: 2 });
    expect(r.per_day).toHaveLength(7);
    expect(r.per_day.at(-1)).toEqual({
      day: new Date().toISOString().slice(0, 10),
      searches: 3,
      zero_results: 2,
      relaxed: 0,
      dropped: 0,
      distinct_queries: 2,
    });

    // What the engine holds: counters per day and text, and nothing of the sender.
    const { body } = await engine.client.search({
      index: searchLogIndex(engine),
      body: { size: 100, query: { match_all: {} } },
    });
    const stored = body.hits.hits.map((h) => h._source as Record<string, unknown>);
    expect(stored.length).toBe(5); // one day, two texts' counts, the two texts
    for (const doc of stored)
      for (const key of Object.keys(doc))
        expect([
          'kind',
          'day',
          'days',
          'hash',
          'query',
          'searches',
          'zero_results',
          'relaxed',
          'dropped',
        ]).toContain(key);
    const raw = JSON.stringify(body.hits.hits);
    for (const marker of [
      '203.0.113',
      '198.51.100',
      'marker-user-agent',
      'Mozilla',
      'marker-token',
      'marker-cookie',
    ])
      expect(raw).not.toContain(marker);
    expect(raw).not.toContain(ADMIN_TOKEN);
  });

  it('is for admins only, and documented with the admin routes', async () => {
    expect((await app.request('/admin/search-report')).status).toBe(401);
    const bad = await app.request('/admin/search-report?days=0', {
      headers: { authorization: `Bearer ${ADMIN_TOKEN}` },
    });
    expect(bad.status).toBe(400);
    const doc = (await (await app.request('/openapi.json')).json()) as {
      paths: Record<string, { get?: { security?: unknown } }>;
      components: { schemas: Record<string, unknown> };
    };
    expect(doc.paths['/admin/search-report']?.get?.security).toEqual([{ adminToken: [] }]);
    expect(Object.keys(doc.components.schemas)).toEqual(
      expect.arrayContaining(['SearchReport', 'SearchReportQuery']),
    );
  });

  it('adds up the counts of several servers flushing at once', async () => {
    const other = createSearchRecorder(engine, {
      retentionDays: 90,
      minDays: 1,
      logger: testLogger,
      flushIntervalMs: 3_600_000,
    });
    for (let i = 0; i < 5; i++) {
      recorder.record('Night shelter', { total: 1 });
      other.record('night   SHELTER', { total: 1, relaxed: true });
    }
    await Promise.all([recorder.flush(), other.stop()]);
    const counted = (await report()).top_queries.find((q) => q.query === 'night shelter');
    expect(counted).toEqual({ query: 'night shelter', days: 1, searches: 10, zero_results: 0, relaxed: 5 });
  });
});

describe("the operator's loop", () => {
  it('a rule in SYNONYMS_FILE for a search that found nothing finds the service after `hsds synonyms reload`', async () => {
    expect(await searchIds('tucker')).toEqual([]);
    await flushed();
    const before = await hsds(['search-report', '--days', '1', '--json']);
    expect(before.code, before.stderr).toBe(0);
    const listed = (JSON.parse(before.stdout) as Report).zero_result_queries.map((q) => q.query);
    expect(listed).toContain('tucker');

    const file = join(mkdtempSync(join(tmpdir(), 'hsds-search-report-')), 'synonyms.txt');
    writeFileSync(file, '# from the search report\ntucker => food bank\n');
    const reload = await hsds(['synonyms', 'reload'], { SYNONYMS_FILE: file });
    expect(reload.code, reload.stderr).toBe(0);

    expect(await searchIds('tucker')).toEqual([fixtures.foodBank.id]);
    // The report as a table: two searches for the text, one of which found nothing.
    await flushed();
    const table = await hsds(['search-report', '--days', '1']);
    expect(table.code, table.stderr).toBe(0);
    expect(table.stdout).toMatch(/^\s+2\s+1\s+0\s+1\s+tucker$/m);
  });
});
