/**
 * Request ids (src/api/http/request-id.ts): taken from an incoming X-Request-Id when it is a plain
 * token, else made; sent back; carried by every problem+json answer and by every log line written
 * while the request runs, the request's own line, the error's, and one written deep in the engine
 * gateway (through the logger's mixin, as `hsds serve` builds it).
 */
import { Writable } from 'node:stream';
import pino from 'pino';
import { describe, expect, it } from 'vitest';
import { createApp } from '../../../../src/api/app.ts';
import { problemSchema } from '../../../../src/api/http/problem.ts';
import { requestIdOf, requestLogFields } from '../../../../src/api/http/request-id.ts';
import { loadConfig } from '../../../../src/config.ts';
import type { Engine } from '../../../../src/engine/index.ts';
import type { GeocoderChain } from '../../../../src/geo/geocoder.ts';

function appWithLog() {
  const lines: Record<string, unknown>[] = [];
  const sink = new Writable({
    write(chunk: Buffer, _encoding, done) {
      for (const line of chunk.toString().split('\n').filter(Boolean)) lines.push(JSON.parse(line));
      done();
    },
  });
  const logger = pino({ level: 'info', mixin: requestLogFields }, sink);
  // An engine whose every use logs (as the gateway's breaker and retries do) and then fails.
  const engine = new Proxy({} as Engine, {
    get(_target, property) {
      logger.warn({ property: String(property) }, 'engine touched');
      throw new Error('no engine in a unit test');
    },
  });
  const app = createApp({
    config: loadConfig({ LOG_LEVEL: 'info' }),
    engine,
    geocoder: {} as GeocoderChain,
    logger,
  });
  return { app, lines };
}

describe('request ids', () => {
  it('keep the id a request sends, in the header, the problem and every log line', async () => {
    const { app, lines } = appWithLog();
    const res = await app.request('/services/0a7a0ff5-6a6c-4a9e-9f0e-2f3b1b6a0c11', {
      headers: { 'x-request-id': 'proxy-7f3a.42' },
    });
    expect(res.status).toBe(500);
    expect(res.headers.get('x-request-id')).toBe('proxy-7f3a.42');
    const problem = await res.json();
    expect(problemSchema.parse(problem).request_id).toBe('proxy-7f3a.42');
    await new Promise((resolve) => setImmediate(resolve));
    const messages = lines.map((l) => l.msg);
    expect(messages).toEqual(expect.arrayContaining(['engine touched', 'unhandled error', 'request failed']));
    for (const line of lines) expect(line.request_id, JSON.stringify(line)).toBe('proxy-7f3a.42');
  });

  it('make an id when the request sends none, or one unfit for a log line', async () => {
    const { app, lines } = appWithLog();
    const made = await app.request('/no-such-route');
    expect(made.status).toBe(404);
    const id = made.headers.get('x-request-id');
    expect(id).toMatch(/^[0-9a-f-]{36}$/);
    expect(((await made.json()) as { request_id: string }).request_id).toBe(id);
    await new Promise((resolve) => setImmediate(resolve));
    expect(lines.at(-1)).toMatchObject({ msg: 'request', status: 404, request_id: id });

    const unfit = await app.request('/services?per_page=0', {
      headers: { 'x-request-id': 'x'.repeat(200) },
    });
    expect(unfit.status).toBe(400);
    const other = unfit.headers.get('x-request-id');
    expect(other).toMatch(/^[0-9a-f-]{36}$/);
    expect(((await unfit.json()) as { request_id: string }).request_id).toBe(other);
  });

  it('accept only visible ASCII up to 128 characters', () => {
    expect(requestIdOf('abc-123_X:y/z')).toBe('abc-123_X:y/z');
    for (const bad of ['', 'has space', 'line\nbreak', 'é', 'x'.repeat(129)])
      expect(requestIdOf(bad)).not.toBe(bad);
    expect(requestIdOf(undefined)).toMatch(/^[0-9a-f-]{36}$/);
  });
});
