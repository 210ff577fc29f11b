/**
 * The search recorder without an engine: a stand-in engine on a real socket (the client is the
 * real one) shows what a flush sends, that counts a failed write held stay for the next one, that
 * the cap on held texts drops texts but not counts, and that pruning runs once a day.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { gunzipSync } from 'node:zlib';
import pino from 'pino';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createEngine, type Engine } from '../../../src/engine/index.ts';
import { searchTextHash } from '../../../src/index-mapping/search-log.document.ts';
import {
  createSearchRecorder,
  normaliseSearch,
  type SearchRecorder,
} from '../../../src/search-report/search-recorder.ts';

type Seen = { method: string; path: string; body: string };

let server: Server;
let url: string;
let seen: Seen[] = [];
let bulkStatus = 200;

beforeAll(async () => {
  server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const raw = Buffer.concat(chunks);
      const body = (req.headers['content-encoding'] === 'gzip' ? gunzipSync(raw) : raw).toString();
      const request = { method: req.method ?? '', path: req.url ?? '', body };
      seen.push(request);
      const lines = body.split('\n').filter(Boolean);
      const answer = request.path.startsWith('/_bulk')
        ? bulkStatus === 200
          ? {
              errors: false,
              items: lines.filter((_, i) => i % 2 === 0).map(() => ({ update: { status: 200 } })),
            }
          : { error: { type: 'unavailable' } }
        : request.path.includes('_delete_by_query')
          ? { deleted: 0 }
          : { acknowledged: true };
      res.writeHead(request.path.startsWith('/_bulk') ? bulkStatus : 200, {
        'content-type': 'application/json',
      });
      res.end(JSON.stringify(answer));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

const logger = pino({ level: 'silent' });
let engine: Engine;
let recorder: SearchRecorder | undefined;
let clock = Date.parse('2025-03-01T23:59:00Z');

function open(options: { maxQueries?: number; retentionDays?: number; minDays?: number } = {}) {
  engine = createEngine(
    { url, requestTimeoutMs: 2000, prefix: 't', shards: 1, replicas: 0, maxRetries: 0 },
    logger,
  );
  recorder = createSearchRecorder(engine, {
    retentionDays: options.retentionDays ?? 30,
    logger,
    flushIntervalMs: 3_600_000,
    ...(options.maxQueries === undefined ? {} : { maxQueries: options.maxQueries }),
    ...(options.minDays === undefined ? {} : { minDays: options.minDays }),
    now: () => clock,
  });
  return recorder;
}
afterEach(async () => {
  await recorder?.stop();
  await engine?.close();
  seen = [];
  bulkStatus = 200;
  clock = Date.parse('2025-03-01T23:59:00Z');
});

/** The documents the flushes sent, as upserted (action lines left out). */
const upserts = () =>
  seen
    .filter((r) => r.path.startsWith('/_bulk'))
    .flatMap((r) =>
      r.body
        .split('\n')
        .filter(Boolean)
        .filter((_, i) => i % 2 === 1),
    )
    .map((line) => (JSON.parse(line) as { upsert: Record<string, unknown> }).upsert);

/** Every bulk body sent, as one string: what reached the engine in any form. */
const sent = () =>
  seen
    .filter((r) => r.path.startsWith('/_bulk'))
    .map((r) => r.body)
    .join('\n');

const hash = searchTextHash;

describe('normaliseSearch', () => {
  it('counts one text whatever its case and spacing, within the API length', () => {
    expect(normaliseSearch('  Food\t BANK \n')).toBe('food bank');
    expect(normaliseSearch('CAFÉ')).toBe(normaliseSearch('cafe\u0301'));
    expect(normaliseSearch('   ')).toBe('');
    expect(normaliseSearch(`a${' b'.repeat(400)}`)).toHaveLength(499);
  });
});

describe('the search recorder', () => {
  it('sends per day and text the counts, and nothing else', async () => {
    const r = open();
    r.record('Food bank', { total: 3 });
    r.record('food  bank', { total: 0, relaxed: true });
    r.record('zorbly', { total: 0 });
    r.record('   ', { total: 0 });
    clock += 120_000; // past midnight: a day of its own
    r.record('zorbly', { total: 0 });
    await r.flush();
    expect(upserts()).toEqual([
      { kind: 'day', day: '2025-03-01', searches: 3, zero_results: 2, relaxed: 1, dropped: 0 },
      { kind: 'day', day: '2025-03-02', searches: 1, zero_results: 1, relaxed: 0, dropped: 0 },
      { kind: 'query', day: '2025-03-01', hash: hash('food bank'), searches: 2, zero_results: 1, relaxed: 1 },
      { kind: 'query', day: '2025-03-01', hash: hash('zorbly'), searches: 1, zero_results: 1, relaxed: 0 },
      { kind: 'query', day: '2025-03-02', hash: hash('zorbly'), searches: 1, zero_results: 1, relaxed: 0 },
      // A text document is created without its text: one day is fewer than the 3 it needs.
      { kind: 'text', day: '2025-03-01', hash: hash('food bank'), days: ['2025-03-01'] },
      { kind: 'text', day: '2025-03-01', hash: hash('zorbly'), days: ['2025-03-01'] },
      { kind: 'text', day: '2025-03-02', hash: hash('zorbly'), days: ['2025-03-02'] },
    ]);
    // The engine's script stores the text once its days reach the threshold, and forgets days
    // past the retention.
    const textUpdate = sent()
      .split('\n')
      .filter(Boolean)
      .map((line) => JSON.parse(line) as { script?: { params: Record<string, unknown> } })
      .filter((line) => line.script?.params.min_days !== undefined);
    expect(textUpdate[0]?.script?.params).toEqual({
      day: '2025-03-01',
      query: 'food bank',
      min_days: 3,
      first_kept: '2025-02-01', // the flush runs on 2 March: 30 days ending then
    });
    // A scripted increment, so several servers' counts add up.
    const update = seen.find((s) => s.path.startsWith('/_bulk'))!.body.split('\n')[1]!;
    expect(JSON.parse(update).script.params).toEqual({
      searches: 3,
      zero_results: 2,
      relaxed: 1,
      dropped: 0,
    });
    // Nothing held: the next flush sends nothing.
    seen = [];
    await r.flush();
    expect(upserts()).toEqual([]);
  });

  it('holds at most maxQueries texts between flushes; the rest count in their day as dropped', async () => {
    const r = open({ maxQueries: 2 });
    for (const text of ['a', 'b', 'a', 'c', 'd']) r.record(text, { total: 1 });
    await r.flush();
    expect(upserts().map((d) => d.hash ?? `day dropped ${d.dropped} of ${d.searches}`)).toEqual([
      'day dropped 2 of 5',
      hash('a'),
      hash('b'),
      hash('a'),
      hash('b'),
    ]);
  });

  it('keeps what a failed write held for the next flush', async () => {
    const r = open();
    r.record('zorbly', { total: 0 });
    bulkStatus = 503;
    await r.flush();
    bulkStatus = 200;
    seen = [];
    r.record('zorbly', { total: 0 });
    await r.flush();
    expect(upserts()).toEqual([
      { kind: 'day', day: '2025-03-01', searches: 2, zero_results: 2, relaxed: 0, dropped: 0 },
      { kind: 'query', day: '2025-03-01', hash: hash('zorbly'), searches: 2, zero_results: 2, relaxed: 0 },
      { kind: 'text', day: '2025-03-01', hash: hash('zorbly'), days: ['2025-03-01'] },
    ]);
  });

  it('stores a text at once with SEARCH_LOG_MIN_DAYS=1, and always redacted', async () => {
    const r = open({ minDays: 1 });
    r.record('Food bank B12 9AA', { total: 1 });
    await r.flush();
    expect(upserts().at(-1)).toEqual({
      kind: 'text',
      day: '2025-03-01',
      hash: hash('food bank [postcode b12]'),
      days: ['2025-03-01'],
      query: 'food bank [postcode b12]',
    });
  });

  it('sends the engine no identifier a person typed, in any form', async () => {
    const r = open({ minDays: 1 });
    const typed = [
      'Jane Doe jane.doe@example.org',
      'call 07700 900123',
      '+44 7700 900123',
      '(305) 555-1234',
      'NHS 943 476 5919',
      'John Smith 12 Acacia Avenue',
    ];
    for (const text of typed) r.record(text, { total: 0 });
    await r.flush();
    const body = sent();
    for (const identifier of [
      'jane.doe',
      '@',
      '07700',
      '7700 900123',
      '555-1234',
      '305',
      '943',
      '5919',
      '12 acacia',
    ])
      expect(body).not.toContain(identifier);
    // The words are kept: a name is protected by the days rule, not by a pattern.
    expect(body).toContain('john smith [address]');
  });

  it('prunes days past the retention at a flush, once a day', async () => {
    const r = open({ retentionDays: 30 });
    await r.flush();
    await r.flush();
    clock += 86_400_000;
    await r.flush();
    const prunes = seen.filter((s) => s.path.includes('_delete_by_query'));
    expect(prunes.map((p) => JSON.parse(p.body).query)).toEqual([
      { range: { day: { lt: '2025-01-31' } } },
      { range: { day: { lt: '2025-02-01' } } },
    ]);
  });

  it('records nothing with a retention of 0, and nothing after it stopped', async () => {
    const off = open({ retentionDays: 0 });
    off.record('food', { total: 1 });
    await off.stop();
    expect(seen).toEqual([]);
    await engine.close();
    const r = open();
    await r.stop();
    r.record('food', { total: 1 });
    await r.flush();
    expect(upserts()).toEqual([]);
  });
});
