/**
 * A write in flight when the engine dies answers within the engine timeout it documents
 * (OPENSEARCH_REQUEST_TIMEOUT_MS), not after half a minute of backing off, and loses nothing it
 * acknowledged. The API reaches the engine through a proxy in this test that SIGKILLs the engine
 * the moment the write sends its bulk request (where the write's time goes), so the death lands
 * inside the write every run, then cuts every connection as a dead engine does.
 */
import { createServer, request as httpRequest } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, describe, expect, it } from 'vitest';
import { newToken } from '../../src/api/http/auth.ts';
import {
  type ApiProcess,
  baseEnv,
  crashEngine,
  enginePort,
  restartEngine,
  servedServiceIds,
  startApi,
  usePublishedDirectory,
  waitForRecovery,
} from './support.ts';

const TIMEOUT_MS = 10_000;
const prefix = usePublishedDirectory('write-engine-kill', 3);
const writer = newToken('council-crm', ['write']);
const started: ApiProcess[] = [];

/** Forwards to the engine; once armed, the next bulk request kills the engine first. */
function killingProxy() {
  let armed = false;
  let killed: Promise<void> | undefined;
  const server = createServer((req, res) => {
    const kill = armed && req.url?.includes('_bulk');
    if (kill) {
      armed = false;
      killed = crashEngine();
    }
    const forward = async () => {
      if (kill) await killed;
      const upstream = httpRequest(
        { host: '127.0.0.1', port: enginePort(), method: req.method, path: req.url, headers: req.headers },
        (answer) => {
          res.writeHead(answer.statusCode ?? 502, answer.headers);
          answer.pipe(res);
        },
      );
      // A dead engine's connections just end: so do the proxy's.
      upstream.on('error', () => res.destroy());
      req.pipe(upstream);
    };
    void forward();
  });
  return {
    server,
    arm: () => {
      armed = true;
    },
    killed: () => killed,
  };
}

const proxy = killingProxy();
afterAll(async () => {
  await Promise.all(started.map((api) => api.stop()));
  await new Promise((resolve) => proxy.server.close(resolve));
});

const put = (api: ApiProcess, path: string, body: unknown) =>
  fetch(`${api.url}${path}`, {
    method: 'PUT',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${writer.token}` },
    body: JSON.stringify(body),
  });

describe('the engine killed under a write', () => {
  it(`answers 503 within OPENSEARCH_REQUEST_TIMEOUT_MS (${TIMEOUT_MS} ms), and keeps every acknowledged write`, async () => {
    await new Promise<void>((resolve) => proxy.server.listen(0, '127.0.0.1', resolve));
    const proxyUrl = `http://127.0.0.1:${(proxy.server.address() as AddressInfo).port}`;
    const api = await startApi(
      baseEnv(prefix, {
        API_TOKENS: writer.entry,
        OPENSEARCH_URL: proxyUrl,
        OPENSEARCH_REQUEST_TIMEOUT_MS: String(TIMEOUT_MS),
      }),
    );
    started.push(api);
    const [id] = await servedServiceIds(api.url);
    const path = `/services/${id}`;
    const record = (await (await fetch(`${api.url}${path}`)).json()) as Record<string, unknown>;
    const acknowledged = await put(api, path, { ...record, name: 'Acknowledged Before The Kill' });
    expect(acknowledged.status, await acknowledged.clone().text()).toBe(200);

    proxy.arm();
    const sent = performance.now();
    const inFlight = await put(api, path, { ...record, name: 'In Flight At The Kill' });
    const ms = performance.now() - sent;
    console.info(`write in flight when the engine died: ${inFlight.status} after ${Math.round(ms)} ms`);
    expect(proxy.killed()).toBeDefined();
    expect(inFlight.status).toBe(503);
    expect(inFlight.headers.get('content-type')).toMatch(/problem\+json/);
    expect(inFlight.headers.get('retry-after')).toBeTruthy();
    expect(ms).toBeLessThan(TIMEOUT_MS + 2000);

    await restartEngine();
    await waitForRecovery(prefix);
    // The acknowledged write survived; the one in flight is either whole or absent, and its
    // audit is completed by the next write (write.ts), which is answered as usual.
    const next = await put(api, path, { ...record, name: 'After The Restart' });
    expect(next.status, await next.clone().text()).toBe(200);
    const trail = (await (await fetch(`${api.url}${path}?audit=all`)).json()) as {
      name: string;
      metadata: { field_name: string; replacement_value: string }[];
    };
    expect(trail.name).toBe('After The Restart');
    const names = trail.metadata.filter((e) => e.field_name === 'name').map((e) => e.replacement_value);
    expect(names[0]).toBe('After The Restart');
    expect(names).toContain('Acknowledged Before The Kill');
  });
});
