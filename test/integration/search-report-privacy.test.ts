/**
 * What the search report keeps of what people type, against the real engine: searches made
 * through the API with e-mail addresses, phone numbers, an NHS number, a name and a street
 * address leave none of them in the search log's stored documents (read raw), a text searched on
 * fewer than SEARCH_LOG_MIN_DAYS days is stored without its text, one searched on enough days is
 * stored redacted and named in the report, and what an older server stored as typed is deleted.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { refreshSearchLog, searchLogIndex } from '../../src/engine/search-log.ts';
import type { SearchReport } from '../../src/index-mapping/search-log.document.ts';
import { createSearchRecorder } from '../../src/search-report/search-recorder.ts';
import { getJson } from '../support/api-requests.ts';
import { createTestApp, createTestEngine, dropTestIndices, testLogger } from '../support/engine.ts';
import { fixtureService, seedReadIndices } from '../support/seed.ts';

const engine = createTestEngine('search-privacy');
const ADMIN_TOKEN = 'admin-token-for-search-privacy';
const DAY = 86_400_000;
let clock = Date.now() - 4 * DAY;
const recorder = createSearchRecorder(engine, {
  retentionDays: 90,
  minDays: 3,
  logger: testLogger,
  flushIntervalMs: 3_600_000,
  now: () => clock,
});
const app = createTestApp(engine, { ADMIN_TOKEN, SEARCH_LOG_MIN_DAYS: '3' }, { searchLog: recorder });

// What people typed, and the identifiers in it that must never be stored.
const typed = [
  'jane.doe@example.org food bank',
  'Jane Doe 07700 900123',
  'benefits advice +44 7700 900123',
  'shelter (305) 555-1234',
  'nhs 943 476 5919 dentist',
  'Mary Jones 12 Acacia Avenue B12 9AA',
];
const identifiers = [
  'jane.doe',
  'example.org',
  '07700',
  '7700 900123',
  '900123',
  '555-1234',
  '(305)',
  '943 476',
  '5919',
  'mary jones',
  'jane doe',
  '12 acacia',
  'acacia avenue',
  '9aa',
];

beforeAll(async () => {
  await seedReadIndices(engine, {
    services: [
      fixtureService('Harbour Food Bank', 'Emergency parcels for people in crisis.', {
        name: 'Harbour Trust',
        description: 'A charity.',
      }),
    ],
  });
  // An older server's search log: the text as typed, in a document with no hash.
  const index = searchLogIndex(engine);
  await engine.client.indices.create({
    index,
    body: {
      settings: { number_of_shards: 1, number_of_replicas: 0 },
      mappings: {
        dynamic: 'strict',
        properties: {
          kind: { type: 'keyword' },
          day: { type: 'date', format: 'strict_date' },
          query: { type: 'keyword' },
          searches: { type: 'long' },
          zero_results: { type: 'long' },
          relaxed: { type: 'long' },
          dropped: { type: 'long' },
        },
      },
    },
  });
  await engine.client.index({
    index,
    id: 'query:old',
    refresh: true,
    body: {
      kind: 'query',
      day: new Date(clock).toISOString().slice(0, 10),
      query: 'jane doe 07700 900123',
      searches: 1,
      zero_results: 1,
      relaxed: 0,
    },
  });
});
afterAll(async () => {
  await recorder.stop();
  await dropTestIndices(engine);
});

/** Searches through the API, GET and POST, on both search pages. */
async function search(text: string) {
  const get = await app.request(`/services?search=${encodeURIComponent(text)}`);
  expect(get.status).toBe(200);
  const post = await app.request('/service_at_locations', {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ search: text }),
  });
  expect(post.status).toBe(200);
}

/** Every document of the search log, as the engine stores it. */
async function stored(): Promise<Record<string, unknown>[]> {
  await recorder.flush();
  await refreshSearchLog(engine);
  const { body } = await engine.client.search({
    index: searchLogIndex(engine),
    body: { size: 1000, query: { match_all: {} } },
  });
  return body.hits.hits.map((h) => h._source as Record<string, unknown>);
}

async function report(): Promise<SearchReport & { min_days: number }> {
  const { status, body } = await getJson<SearchReport & { min_days: number }>(
    app,
    '/admin/search-report?days=7&limit=100',
    { headers: { authorization: `Bearer ${ADMIN_TOKEN}` } },
  );
  expect(status).toBe(200);
  return body;
}

describe('the search log', () => {
  it('stores no identifier a person typed, and no text searched on one day only', async () => {
    for (const text of typed) await search(text);
    await search('food bank');
    const docs = await stored();
    const raw = JSON.stringify(docs).toLowerCase();
    for (const identifier of identifiers) expect(raw).not.toContain(identifier);
    // The older server's verbatim document went with the first write.
    expect(docs.find((d) => d.kind === 'query' && d.query !== undefined)).toBeUndefined();
    // One day: counts and hashes, no text at all.
    expect(docs.filter((d) => d.query !== undefined)).toEqual([]);
    expect(docs.filter((d) => d.kind === 'query')).toHaveLength(typed.length + 1);
    const r = await report();
    expect(r.min_days).toBe(3);
    expect(r.totals.searches).toBe(2 * (typed.length + 1));
    expect(r.top_queries.every((q) => q.query === null && q.days === 1)).toBe(true);
  });

  it('stores a text, redacted, once it has been searched on 3 days', async () => {
    for (let day = 1; day <= 2; day++) {
      clock += DAY;
      await search('Jane Doe 07700 900123');
      await search('food bank');
      await recorder.flush();
    }
    const docs = await stored();
    const texts = docs.filter((d) => d.kind === 'text' && d.query !== undefined).map((d) => d.query);
    expect(texts.sort()).toEqual(['food bank', 'jane doe [phone]']);
    const raw = JSON.stringify(docs).toLowerCase();
    for (const identifier of identifiers.filter((i) => i !== 'jane doe'))
      expect(raw).not.toContain(identifier);

    const r = await report();
    const shown = r.top_queries
      .filter((q) => q.query !== null)
      .sort((a, b) => String(a.query).localeCompare(String(b.query)));
    // (No location is seeded: /service_at_locations finds nothing for food bank.)
    expect(shown).toEqual([
      { query: 'food bank', days: 3, searches: 6, zero_results: 3, relaxed: 0 },
      { query: 'jane doe [phone]', days: 3, searches: 6, zero_results: 6, relaxed: 0 },
    ]);
    // Those searched on one day only are still counted, without their text.
    expect(r.top_queries.filter((q) => q.query === null)).toHaveLength(typed.length - 1);
  });
});
