/**
 * One anonymous MCP request must cost no more than the reads it stands for: a JSON-RPC batch of
 * 100 search_services calls, beside plain readers, on an engine handle guarded as `hsds serve`
 * guards it (read timeout, breaker, in-flight cap). The readers must keep their answers, the
 * batch's calls must all be answered, and nothing may say the healthy engine is unavailable.
 */
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { createApp } from '../../src/api/app.ts';
import { createGeocoder } from '../../src/api/lists/geocoding.ts';
import type { App } from '../../src/api/types.ts';
import { createEngine, type Engine } from '../../src/engine/engine.ts';
import { testConfig, testLogger, uniquePrefix } from '../support/engine.ts';
import { seedReadIndices } from '../support/seed.ts';

const config = testConfig({ GEOCODERS: 'postcode-index' });
const engine: Engine = createEngine(
  {
    url: inject('engineUrl'),
    prefix: uniquePrefix('mcp-load'),
    requestTimeoutMs: config.OPENSEARCH_READ_TIMEOUT_MS,
    shards: 1,
    replicas: 0,
    guard: {
      failureThreshold: config.ENGINE_BREAKER_FAILURES,
      cooldownMs: config.ENGINE_BREAKER_COOLDOWN_MS,
      maxInFlight: config.ENGINE_MAX_IN_FLIGHT,
    },
  },
  testLogger,
);
let app: App;

const ORG = '0a000000-0000-4000-8000-000000000001';
const uuid = (group: number, n: number) =>
  `${group.toString(16).padStart(8, '0')}-0000-4000-8000-${n.toString(16).padStart(12, '0')}`;
const WORDS = [
  'food',
  'debt',
  'housing',
  'advice',
  'pantry',
  'shelter',
  'clothes',
  'lunch',
  'legal',
  'youth',
];

const services = Array.from({ length: 300 }, (_, i) => ({
  id: uuid(i + 1, 1),
  name: `${WORDS[i % WORDS.length]} ${WORDS[(i * 7) % WORDS.length]} service ${i}`,
  description: `Help with ${WORDS[(i * 3) % WORDS.length]} and ${WORDS[(i * 5) % WORDS.length]} for anyone.`,
  status: 'active',
  organization_id: ORG,
  organization: { id: ORG, name: 'Help Trust', description: 'x' },
  last_modified: '2025-06-01T00:00:00.000Z',
}));

beforeAll(async () => {
  await seedReadIndices(engine, { services });
  app = createApp({ config, engine, geocoder: createGeocoder(config, engine), logger: testLogger });
}, 120_000);

afterAll(async () => {
  await engine.client.indices
    .delete({ index: `${engine.settings.prefix}-*`, expand_wildcards: 'all' })
    .catch(() => {});
  await engine.close();
});

/** A JSON-RPC batch of `n` search_services calls, as an anonymous client may POST it. */
const batchOf = (n: number) =>
  Array.from({ length: n }, (_, i) => ({
    jsonrpc: '2.0',
    id: i + 1,
    method: 'tools/call',
    params: { name: 'search_services', arguments: { text: `${WORDS[i % WORDS.length]} help`, per_page: 50 } },
  }));

const postMcp = (body: unknown) =>
  app.request('/mcp', {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
    body: JSON.stringify(body),
  });

type RpcAnswer = { id: number; result?: { isError?: boolean; content: { text: string }[] }; error?: unknown };

describe('an MCP batch beside plain readers', () => {
  it('leaves every reader its answers and answers each of its own calls', async () => {
    const statuses = new Map<number, number>();
    const titles = new Set<string>();
    let reading = true;
    // Two readers, each one request at a time, for as long as two batches of 100 calls run.
    const reader = async (n: number) => {
      for (let i = 0; reading; i++) {
        const res = await app.request(`/services?search=${WORDS[(n + i) % WORDS.length]}&per_page=20`);
        statuses.set(res.status, (statuses.get(res.status) ?? 0) + 1);
        if (res.status !== 200) titles.add(((await res.json()) as { detail?: string }).detail ?? '');
        else await res.arrayBuffer();
      }
    };
    const readers = [reader(0), reader(1)];
    const batches = await Promise.all([postMcp(batchOf(100)), postMcp(batchOf(100))]);
    reading = false;
    await Promise.all(readers);
    const answers: RpcAnswer[] = [];
    for (const res of batches) {
      if (res.status === 200) answers.push(...((await res.json()) as RpcAnswer[]));
    }
    const failed = answers.filter((a) => a.error || a.result?.isError);
    console.info(
      `readers: ${JSON.stringify(Object.fromEntries(statuses))}; batch calls answered ${answers.length}, failed ${failed.length}`,
    );
    expect(answers).toHaveLength(200);
    expect([...statuses.keys()]).toEqual([200]);
    expect(failed).toEqual([]);
  }, 120_000);
});

describe('this server at its own limit', () => {
  it('answers busy (503 server-busy, Retry-After), never that the healthy engine is unavailable', async () => {
    const narrow = createEngine(
      { ...engine.settings, guard: { failureThreshold: 5, cooldownMs: 5000, maxInFlight: 1 } },
      testLogger,
    );
    try {
      const busyApp = createApp({
        config,
        engine: narrow,
        geocoder: createGeocoder(config, narrow),
        logger: testLogger,
      });
      const answers = await Promise.all(
        Array.from({ length: 20 }, (_, i) => busyApp.request(`/services?search=${WORDS[i % WORDS.length]}`)),
      );
      const refused = answers.filter((res) => res.status !== 200);
      expect(refused.length).toBeGreaterThan(0);
      for (const res of refused) {
        expect(res.status).toBe(503);
        expect(res.headers.get('retry-after')).toBe('1');
        const problem = (await res.json()) as { type: string; title: string; detail: string };
        expect(problem).toMatchObject({
          type: expect.stringMatching(/\/server-busy$/),
          title: 'Server busy',
        });
        expect(problem.detail).not.toMatch(/engine is unavailable/);
      }
      expect(narrow.guard?.breaker.state).toBe('closed');

      // A postcode looked up while the cap is full is busy too, not the postcode index failing,
      // and nothing is remembered of it: asked alone afterwards, it is answered.
      const located = await Promise.all(
        // Twenty postcodes: the chain shares one lookup between requests for the same one.
        Array.from({ length: 20 }, (_, i) =>
          busyApp.request(`/service_at_locations?postcode=AB${10 + i}%201AB`),
        ),
      );
      const kinds = new Set<string>();
      for (const res of located)
        kinds.add(`${res.status} ${((await res.json()) as { type?: string }).type ?? ''}`);
      expect([...kinds].filter((k) => !/^(200|400) /.test(k))).toEqual([
        '503 https://hsds-directory.dev/problems/server-busy',
      ]);
      for (let i = 0; i < 20; i++) {
        const alone = await busyApp.request(`/service_at_locations?postcode=AB${10 + i}%201AB`);
        expect(alone.status, await alone.text()).toBeLessThan(500);
      }
    } finally {
      await narrow.close();
    }
  });
});
