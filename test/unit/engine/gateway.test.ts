/**
 * The gateway's own paths, against a stand-in engine on a real socket (an HTTP server scripted per
 * test; the client is the real one): how engine errors are translated, how the bulk writer retries
 * items the engine refused for being busy (and only those), and that a point in time is released
 * when a reader stops early. These run without an engine; the integration suite covers the rest.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { gunzipSync } from 'node:zlib';
import pino from 'pino';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createBulkWriter } from '../../../src/engine/bulk.ts';
import {
  createEngine,
  type Engine,
  EngineNotFoundError,
  EngineRequestError,
  EngineUnavailableError,
  engineCall,
} from '../../../src/engine/index.ts';
import { mergeBuild } from '../../../src/engine/indices.ts';
import { openSnapshot } from '../../../src/engine/records.ts';
import { searchPage, streamRecords } from '../../../src/engine/search.ts';

type Seen = { method: string; path: string; body: string };
type Answer = { status: number; body: unknown; delayMs?: number };

let server: Server;
let url: string;
let seen: Seen[] = [];
let script: (request: Seen) => Answer = () => ({ status: 200, body: {} });

beforeAll(async () => {
  server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const raw = Buffer.concat(chunks);
      // The gateway asks the client to gzip what it sends: read the bodies as sent.
      const body = req.headers['content-encoding'] === 'gzip' ? gunzipSync(raw) : raw;
      const request = { method: req.method ?? '', path: req.url ?? '', body: body.toString() };
      seen.push(request);
      const answer = script(request);
      setTimeout(() => {
        if (res.destroyed) return;
        res.writeHead(answer.status, { 'content-type': 'application/json' });
        res.end(JSON.stringify(answer.body));
      }, answer.delayMs ?? 0);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

let engine: Engine;
const open = (at = url, logger = pino({ level: 'silent' })) =>
  createEngine(
    { url: at, requestTimeoutMs: 2000, prefix: 't', shards: 1, replicas: 0, maxRetries: 0 },
    logger,
  );
afterEach(async () => {
  await engine?.close();
  seen = [];
});

const count = () => engineCall('count things', () => engine.client.count({ index: 't-x' }));

describe('engine errors, translated', () => {
  it('a 404 is EngineNotFoundError', async () => {
    engine = open();
    script = () => ({
      status: 404,
      body: { error: { type: 'index_not_found_exception', reason: 'no such index' } },
    });
    await expect(count()).rejects.toBeInstanceOf(EngineNotFoundError);
  });

  it.each([429, 502, 503, 504])(
    'a %i is EngineUnavailableError (busy or recovering: try later)',
    async (status) => {
      engine = open();
      script = () => ({
        status,
        body: { error: { type: 'es_rejected_execution_exception', reason: 'queue full' } },
      });
      const error = await count().catch((e: unknown) => e);
      expect(error).toBeInstanceOf(EngineUnavailableError);
      expect((error as Error).message).toContain(
        `count things: the engine is busy or recovering (${status})`,
      );
    },
  );

  it('a 400 is EngineRequestError carrying the engine’s reason', async () => {
    engine = open();
    script = () => ({
      status: 400,
      body: {
        error: {
          type: 'search_phase_execution_exception',
          reason: 'all shards failed',
          caused_by: { type: 'parse_exception', reason: 'bad date' },
        },
      },
    });
    const error = (await count().catch((e: unknown) => e)) as EngineRequestError;
    expect(error).toBeInstanceOf(EngineRequestError);
    expect(error.statusCode).toBe(400);
    expect(error.reason).toContain('all shards failed');
  });

  it('a refused connection is EngineUnavailableError', async () => {
    // A port nothing listens on: the server's, once closed.
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const port = (closed.address() as AddressInfo).port;
    await new Promise((resolve) => closed.close(resolve));
    engine = open(`http://127.0.0.1:${port}`);
    const error = await count().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(EngineUnavailableError);
    expect((error as Error).message).toContain('unreachable');
  });
});

describe('the bulk writer', () => {
  it('retries only the items refused with 429, reports the items refused for good, and counts a superseded version as written', async () => {
    engine = open();
    let bulks = 0;
    script = (request) => {
      if (!request.path.startsWith('/_bulk')) return { status: 200, body: {} };
      bulks += 1;
      const ids = request.body
        .split('\n')
        .filter((line) => line.includes('"_id"'))
        .map((line) => (JSON.parse(line) as { index: { _id: string } }).index._id);
      const items = ids.map((id) => {
        if (id === 'busy' && bulks === 1)
          return { index: { _id: id, status: 429, error: { type: 'es_rejected_execution_exception' } } };
        if (id === 'bad')
          return {
            index: {
              _id: id,
              status: 400,
              error: { type: 'mapper_parsing_exception', reason: 'failed to parse [x]' },
            },
          };
        if (id === 'old')
          return { index: { _id: id, status: 409, error: { type: 'version_conflict_engine_exception' } } };
        return { index: { _id: id, status: 201, result: 'created' } };
      });
      return { status: 200, body: { errors: true, items } };
    };
    const failures: string[] = [];
    const writer = createBulkWriter(engine, { onFailure: (f) => failures.push(`${f.id}: ${f.reason}`) });
    await writer.index('t-x', 'fine', { a: 1 });
    await writer.index('t-x', 'busy', { a: 2 });
    await writer.index('t-x', 'bad', { a: 3 });
    await writer.index('t-x', 'old', { a: 4 }, '5');
    await writer.close();

    const bodies = seen.filter((s) => s.path.startsWith('/_bulk')).map((s) => s.body);
    expect(bodies).toHaveLength(2);
    // The retry carries the busy item alone, action and source.
    expect(bodies[1]!.trim().split('\n')).toEqual(['{"index":{"_index":"t-x","_id":"busy"}}', '{"a":2}']);
    expect(failures).toEqual(['bad: mapper_parsing_exception: failed to parse [x]']);
    expect(writer.stats).toMatchObject({ written: 3, created: 2, failed: 1, retries: 1, requests: 2 });
  });
});

describe('bulk writes against a dead engine', () => {
  it('give up within the handle budget (retryWithinMs), not after half a minute of backing off', async () => {
    // A port nothing listens on: every request is a refused connection, as from a killed engine.
    const probe = createServer();
    await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
    const dead = `http://127.0.0.1:${(probe.address() as AddressInfo).port}`;
    await new Promise((resolve) => probe.close(resolve));
    engine = createEngine(
      { url: dead, requestTimeoutMs: 2000, prefix: 't', maxRetries: 0, retryWithinMs: 1500 },
      pino({ level: 'silent' }),
    );
    const writer = createBulkWriter(engine);
    await writer.index('t-x', 'a', { a: 1 });
    const started = performance.now();
    await expect(writer.close()).rejects.toBeInstanceOf(EngineUnavailableError);
    const ms = performance.now() - started;
    expect(ms).toBeLessThan(1500);
    // It did back off and try again within the budget.
    expect(writer.stats.requests).toBeGreaterThan(1);
  });
});

describe('points in time', () => {
  it('a snapshot closed releases its point in time', async () => {
    engine = open();
    script = (request) =>
      request.path.includes('_search/point_in_time') && request.method === 'POST'
        ? { status: 200, body: { pit_id: 'pit-snapshot' } }
        : { status: 200, body: { pits: [{ pit_id: 'pit-snapshot', successful: true }] } };
    const snapshot = await openSnapshot(engine);
    expect(snapshot.pitId).toBe('pit-snapshot');
    await snapshot.close();
    const released = seen.filter((s) => s.method === 'DELETE' && s.path.startsWith('/_search/point_in_time'));
    expect(released.map((s) => JSON.parse(s.body))).toEqual([{ pit_id: ['pit-snapshot'] }]);
  });

  it('a dump whose reader stops after the first batch releases its point in time', async () => {
    engine = open();
    let n = 0;
    script = (request) => {
      if (request.method === 'POST' && request.path.includes('/_search/point_in_time'))
        return { status: 200, body: { pit_id: 'pit-dump' } };
      if (request.method === 'DELETE') return { status: 200, body: { pits: [] } };
      // Every search answers a full batch: there is always more to read.
      const hits = Array.from({ length: 10 }, () => {
        n += 1;
        return { _source: { record: { id: `r${n}` } }, sort: [n] };
      });
      return { status: 200, body: { pit_id: 'pit-dump', hits: { total: { value: 1000 }, hits } } };
    };
    const request = {
      index: 'services' as const,
      query: { match_all: {} },
      sort: [{ id: 'asc' as const }],
      source: ['record'],
      batchSize: 10,
    };
    for await (const batch of streamRecords(engine, request)) {
      expect(batch.texts.length).toBeGreaterThan(0);
      break;
    }
    const released = seen.filter((s) => s.method === 'DELETE' && s.path.startsWith('/_search/point_in_time'));
    expect(released).toHaveLength(1);
    expect(released[0]!.body).toContain('pit-dump');
  });
});

describe('a node lost under a read', () => {
  // What a three-node cluster answered a search whose only shard with hits lost its node between the
  // query and the fetch phase (a 500 whose shard failure names the lost node).
  const lost = {
    status: 500,
    body: {
      error: {
        type: 'search_phase_execution_exception',
        reason: 'all shards failed',
        root_cause: [{ type: 'node_disconnected_exception', reason: '[node-3] disconnected' }],
        failed_shards: [
          { shard: 2, reason: { type: 'node_disconnected_exception', reason: '[node-3] disconnected' } },
        ],
      },
    },
  };
  const page = () =>
    searchPage(
      engine,
      { index: 'services', query: { match_all: {} }, sort: [], source: ['record'], batchSize: 500 },
      { from: 0, size: 1 },
    );
  const found = {
    status: 200,
    body: { hits: { total: { value: 1 }, hits: [{ _source: { record: { id: 'a' } } }] } },
  };

  it('asks every search for all of its shards, so a lost shard is never a page silently short', async () => {
    engine = open();
    script = () => found;
    await page();
    await engineCall('search', () => engine.client.search({ index: 't-x', body: {} }));
    const searches = seen.filter((request) => request.path.includes('/_search'));
    expect(searches).toHaveLength(2);
    for (const request of searches) expect(request.path).toContain('allow_partial_search_results=false');
    // Not on other requests, which do not take the parameter.
    await count();
    expect(seen.at(-1)?.path).not.toContain('allow_partial');
  });

  it('sends the read once more, and answers from the copy that is left, with a warning in the log', async () => {
    const lines: string[] = [];
    engine = open(url, pino({ level: 'warn' }, { write: (line: string) => lines.push(line) }));
    let calls = 0;
    script = () => (++calls === 1 ? lost : found);
    const answer = await page();
    expect(answer.texts.map((text) => JSON.parse(text))).toEqual([{ id: 'a' }]);
    expect(calls).toBe(2);
    expect(lines.join('')).toContain('a node or shard copy was lost under a read');
  });

  it('is unavailable (503), not an error of ours (500), when the second read fails too', async () => {
    engine = open();
    script = () => lost;
    const error = (await page().catch((e: unknown) => e)) as EngineUnavailableError;
    expect(error).toBeInstanceOf(EngineUnavailableError);
    expect(error.nodeLost).toBe(true);
    expect(error.message).toContain('node_disconnected_exception');
    expect(seen).toHaveLength(2);
  });

  it('a count that some shards did not answer is unavailable, not a smaller number', async () => {
    engine = open();
    script = () => ({
      status: 200,
      body: {
        count: 2,
        _shards: {
          total: 3,
          successful: 2,
          failed: 1,
          failures: [
            { shard: 1, reason: { type: 'node_disconnected_exception', reason: '[node-3] disconnected' } },
          ],
        },
      },
    });
    const error = (await count().catch((e: unknown) => e)) as EngineUnavailableError;
    expect(error).toBeInstanceOf(EngineUnavailableError);
    expect(error.nodeLost).toBe(true);
    script = () => ({ status: 200, body: { count: 3, _shards: { total: 3, successful: 3, failed: 0 } } });
    expect((await count()).body.count).toBe(3);
  });

  it('a point in time whose context was on the lost node is unavailable, not "not found"', async () => {
    engine = open();
    script = () => ({
      status: 404,
      body: {
        error: {
          type: 'search_phase_execution_exception',
          reason: 'all shards failed',
          failed_shards: [
            { reason: { type: 'search_context_missing_exception', reason: 'No search context' } },
          ],
        },
      },
    });
    await expect(count()).rejects.toBeInstanceOf(EngineUnavailableError);
  });
});

describe('one read path', () => {
  it('a page carries the sort values the request turns into fields, rounded as it says', async () => {
    engine = open();
    script = () => ({
      status: 200,
      body: {
        hits: {
          total: { value: 3 },
          hits: [
            { _source: { record: { id: 'a', name: 'Near' } }, sort: [12.345678, 'a'] },
            { _source: { record: {} }, sort: [99.95, 'b'] },
            // No point: the engine sorts it at Infinity, and it gets no distance.
            { _source: { record: { id: 'c' } }, sort: ['Infinity', 'c'] },
          ],
        },
      },
    });
    const page = await searchPage(
      engine,
      {
        index: 'service_at_locations',
        query: { match_all: {} },
        sort: [{ _geo_distance: {} }, { id: { order: 'asc' } }],
        source: ['record'],
        batchSize: 500,
        sortValues: { distance: { position: 0, decimals: 1 } },
      },
      { from: 0, size: 3 },
    );
    expect(page.total).toBe(3);
    expect(page.texts.map((text) => JSON.parse(text))).toEqual([
      { id: 'a', name: 'Near', distance: 12.3 },
      { distance: 100 },
      { id: 'c' },
    ]);
  });
});

describe('merging a build', () => {
  const mergeTask = (index: string) => ({
    nodes: {
      n1: {
        tasks: {
          'n1:7': {
            action: 'indices:admin/forcemerge',
            description: `Force-merge indices [${index}], maxSegments[1], onlyExpungeDeletes[false], flush[true]`,
          },
        },
      },
    },
  });

  it('follows a merge that outlasts its request in the engine, until its task ends', async () => {
    engine = open();
    let polls = 0;
    script = (request) => {
      if (request.path.includes('/_forcemerge')) return { status: 200, body: {}, delayMs: 500 };
      if (request.path.startsWith('/_tasks')) {
        polls += 1;
        return { status: 200, body: polls < 3 ? mergeTask('t-services-v1') : { nodes: {} } };
      }
      return { status: 404, body: {} };
    };
    await mergeBuild(engine, ['t-services-v1', 't-organizations-v1'], {
      requestMs: 100,
      totalMs: 5_000,
      pollMs: 10,
    });
    expect(polls).toBe(3);
    const merge = seen.find((s) => s.path.includes('/_forcemerge'));
    expect(merge?.path).toContain('max_num_segments=1');
  });

  it('gives up, unavailable, on a merge that never ends', async () => {
    engine = open();
    script = (request) =>
      request.path.includes('/_forcemerge')
        ? { status: 200, body: {}, delayMs: 500 }
        : { status: 200, body: mergeTask('t-services-v1') };
    await expect(
      mergeBuild(engine, ['t-services-v1'], { requestMs: 100, totalMs: 200, pollMs: 20 }),
    ).rejects.toBeInstanceOf(EngineUnavailableError);
  });

  it('fails at once on any other refusal of the merge', async () => {
    engine = open();
    script = () => ({ status: 400, body: { error: { type: 'illegal_argument_exception', reason: 'no' } } });
    await expect(
      mergeBuild(engine, ['t-services-v1'], { requestMs: 100, totalMs: 5_000, pollMs: 10 }),
    ).rejects.toBeInstanceOf(EngineRequestError);
    expect(seen.some((s) => s.path.startsWith('/_tasks'))).toBe(false);
  });
});
