/**
 * The gateway's guard against a stand-in engine on a real socket: an HTTP server that can hang
 * (accept and never answer, as a frozen engine does) or answer. The client is the real one; only
 * what is at the other end of the connection is faked.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import pino from 'pino';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createEngine, type Engine, EngineUnavailableError, engineCall } from '../../../src/engine/index.ts';

let server: Server;
let url: string;
let hang = true;
let status = 200;
let received = 0;
const logLines: string[] = [];
const logger = pino({ level: 'info' }, { write: (line: string) => void logLines.push(line) });

beforeAll(async () => {
  server = createServer((req, res) => {
    received += 1;
    req.resume();
    if (hang) return;
    res.writeHead(status, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ count: 7, name: 'stand-in' }));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

let engine: Engine | undefined;
afterEach(async () => {
  await engine?.close();
  engine = undefined;
  hang = true;
  status = 200;
  received = 0;
  logLines.length = 0;
});

const guarded = (guard: { failureThreshold: number; cooldownMs: number; maxInFlight: number }) =>
  createEngine({ url, requestTimeoutMs: 150, prefix: 't', shards: 1, replicas: 0, guard }, logger);

const count = (e: Engine) => engineCall('count', () => e.client.count({ index: 't-x' }));

describe('a guarded engine handle', () => {
  it('opens after consecutive timeouts, refuses at once with Retry-After, and closes by itself when a probe is answered', async () => {
    engine = guarded({ failureThreshold: 2, cooldownMs: 300, maxInFlight: 10 });
    for (let i = 0; i < 2; i++) {
      const started = performance.now();
      await expect(count(engine)).rejects.toBeInstanceOf(EngineUnavailableError);
      // The read timeout is the whole wait: no retry after a timeout (`received` counts requests;
      // the bound is loose, as a loaded machine delays timers).
      expect(performance.now() - started).toBeLessThan(2000);
    }
    expect(received).toBe(2);
    expect(engine.guard?.breaker.state).toBe('open');

    const refusal = (await count(engine).catch((e: unknown) => e)) as EngineUnavailableError;
    expect(refusal).toBeInstanceOf(EngineUnavailableError);
    expect(refusal.shed?.retryAfterSeconds).toBe(1);
    expect(received).toBe(2);
    expect(logLines.join('')).toContain('engine circuit breaker open');

    hang = false;
    const deadline = Date.now() + 3000;
    while (engine.guard?.breaker.state !== 'closed' && Date.now() < deadline) {
      await new Promise((r) => setTimeout(r, 50));
    }
    expect(engine.guard?.breaker.state).toBe('closed');
    expect(logLines.join('')).toContain('engine circuit breaker closed');
    await expect(count(engine)).resolves.toMatchObject({ body: { count: 7 } });
  });

  it('is not opened by look-ups given less time than its read timeout, which run out on a busy engine (issue 53)', async () => {
    engine = guarded({ failureThreshold: 2, cooldownMs: 300, maxInFlight: 10 });
    const lookUp = (e: Engine) =>
      engineCall('look up search words', () =>
        e.client.count({ index: 't-x' }, { requestTimeout: 40, maxRetries: 0 }),
      );
    for (let i = 0; i < 4; i++) await expect(lookUp(engine)).rejects.toBeInstanceOf(EngineUnavailableError);
    expect(received).toBe(4);
    expect(engine.guard?.breaker.state).toBe('closed');
    // A read that runs out of the read timeout itself still counts.
    for (let i = 0; i < 2; i++) await expect(count(engine)).rejects.toBeInstanceOf(EngineUnavailableError);
    expect(engine.guard?.breaker.state).toBe('open');
  });

  it('refuses requests beyond the in-flight cap at once, without sending them', async () => {
    engine = guarded({ failureThreshold: 100, cooldownMs: 1000, maxInFlight: 3 });
    const e = engine;
    const started = performance.now();
    const outcomes = Array.from({ length: 5 }, () =>
      count(e).then(
        () => ({ ms: performance.now() - started, shed: false }),
        (error: EngineUnavailableError) => ({
          ms: performance.now() - started,
          shed: error.shed !== undefined,
        }),
      ),
    );
    const settled = await Promise.all(outcomes);
    const shed = settled.filter((o) => o.shed);
    expect(shed).toHaveLength(2);
    expect(Math.max(...shed.map((o) => o.ms))).toBeLessThan(50);
    expect(received).toBe(3);
    expect(engine.guard?.inFlight.inUse).toBe(0);
  });

  it('does not count answers, even errors, against the engine', async () => {
    hang = false;
    status = 503;
    engine = guarded({ failureThreshold: 1, cooldownMs: 1000, maxInFlight: 10 });
    for (let i = 0; i < 3; i++) {
      const error = (await count(engine).catch((e: unknown) => e)) as EngineUnavailableError;
      expect(error).toBeInstanceOf(EngineUnavailableError);
      expect(error.shed).toBeUndefined();
    }
    expect(received).toBe(3);
    expect(engine.guard?.breaker.state).toBe('closed');
  });
});
