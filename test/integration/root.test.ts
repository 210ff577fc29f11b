import { createServer, type Server, Socket } from 'node:net';
import { afterAll, describe, expect, inject, it } from 'vitest';
import { createEngine } from '../../src/engine/index.ts';
import { createTestApp, createTestEngine, dropTestIndices, testLogger } from '../support/engine.ts';
import { officialExamples, seedReadIndices } from '../support/seed.ts';

const engine = createTestEngine('root');
afterAll(() => dropTestIndices(engine));

describe('GET /', () => {
  it('reports version, profile and openapi_url, plus the configured publisher', async () => {
    const app = createTestApp(engine, {
      PUBLISHER_NAME: 'Aberdeen City Council',
      PUBLISHER_EMAIL: 'directory@example.org',
      PUBLIC_BASE_URL: 'https://directory.example.org/api',
    });
    const res = await app.request('/');
    expect(res.status).toBe(200);
    expect(res.headers.get('access-control-allow-origin')).toBe('*');
    const body = (await res.json()) as { profile: string };
    expect(body).toMatchObject({
      version: '3.1.1',
      openapi_url: 'https://directory.example.org/api/openapi.json',
      publisher: { name: 'Aberdeen City Council', email: 'directory@example.org' },
    });
    expect(() => new URL(body.profile)).not.toThrow();
  });

  it('speaks the UK profile when configured', async () => {
    const res = await createTestApp(engine, { HSDS_PROFILE: 'oruk', PORT: '8080' }).request(
      'http://api.test/',
    );
    const body = (await res.json()) as { version: string; openapi_url: string };
    expect(body.version).toBe('HSDS-UK-3.0');
    // Never the request's Host (see api-http-edges.test.ts): the address the server listens on.
    expect(body.openapi_url).toBe('http://localhost:8080/openapi.json');
  });
});

describe('unknown routes', () => {
  it('answer 404 problem+json', async () => {
    const res = await createTestApp(engine).request('/no-such-thing');
    expect(res.status).toBe(404);
    expect(res.headers.get('content-type')).toContain('application/problem+json');
    expect(await res.json()).toMatchObject({ status: 404, title: 'Not found' });
  });
});

/** A TCP proxy that can be switched on and off, standing for an engine that goes down and comes back. */
async function startSwitchableProxy(target: URL) {
  const sockets = new Set<Socket>();
  let server: Server | undefined;
  const port = await new Promise<number>((resolve) => {
    const probe = createServer().listen(0, '127.0.0.1', () => {
      const address = probe.address();
      probe.close(() => resolve(typeof address === 'object' && address ? address.port : 0));
    });
  });
  return {
    url: `http://127.0.0.1:${port}`,
    up: () =>
      new Promise<void>((resolve) => {
        server = createServer((client) => {
          const upstream = new Socket();
          sockets.add(client).add(upstream);
          upstream.connect(Number(target.port), target.hostname);
          client.pipe(upstream).pipe(client);
          const end = () => {
            client.destroy();
            upstream.destroy();
          };
          client.on('error', end).on('close', end);
          upstream.on('error', end).on('close', end);
        }).listen(port, '127.0.0.1', () => resolve());
      }),
    down: () =>
      new Promise<void>((resolve) => {
        for (const s of sockets) s.destroy();
        sockets.clear();
        if (server) server.close(() => resolve());
        else resolve();
      }),
  };
}

describe('GET /health and GET /ready', () => {
  it('/ready answers 200 once the read indices are served; /health checks what they serve', async () => {
    const data = createTestEngine('health-data');
    try {
      const app = createTestApp(data);
      // Nothing published: neither ready nor healthy, and the reason says what to do.
      const before = await app.request('/health');
      expect(before.status).toBe(503);
      expect(before.headers.get('content-type')).toContain('application/problem+json');
      expect(((await before.json()) as { detail: string }).detail).toContain('nothing is published yet');
      expect((await app.request('/ready')).status).toBe(503);

      await seedReadIndices(data, { services: officialExamples().services });
      const healthy = await app.request('/health');
      expect(healthy.status).toBe(200);
      const body = (await healthy.json()) as {
        engine: { status: string };
        data: Record<string, { served: number; published: number }>;
      };
      expect(['green', 'yellow']).toContain(body.engine.status);
      expect(body.data.services).toMatchObject({ served: 1, published: 1 });
      expect((await app.request('/ready')).status).toBe(200);

      // Documents gone behind the API's back (a crash, a careless delete): not healthy, still ready.
      await data.client.deleteByQuery({
        index: data.name('services'),
        body: { query: { match_all: {} } },
        refresh: true,
      });
      const emptied = await app.request('/health');
      expect(emptied.status).toBe(503);
      expect(((await emptied.json()) as { detail: string }).detail).toMatch(
        /services serves 0 documents .* published with 1/,
      );
      expect((await app.request('/ready')).status).toBe(200);
    } finally {
      await dropTestIndices(data);
    }
  });

  it('answers 503 problem+json while the engine is down, and recovers by itself when it returns', async () => {
    const proxy = await startSwitchableProxy(new URL(inject('engineUrl')));
    const flaky = createEngine(
      { url: proxy.url, prefix: engine.settings.prefix, requestTimeoutMs: 2000, shards: 1, replicas: 0 },
      testLogger,
    );
    const app = createTestApp(flaky);
    try {
      await seedReadIndices(engine, { services: officialExamples().services });
      const down = await app.request('/health');
      expect(down.status).toBe(503);
      expect(down.headers.get('content-type')).toContain('application/problem+json');
      expect(await down.json()).toMatchObject({ status: 503 });
      expect((await app.request('/ready')).status).toBe(503);

      await proxy.up();
      expect((await app.request('/health')).status).toBe(200);
      expect((await app.request('/ready')).status).toBe(200);

      await proxy.down();
      expect((await app.request('/health')).status).toBe(503);
      await proxy.up();
      expect((await app.request('/health')).status).toBe(200);
    } finally {
      await proxy.down();
      await flaky.close();
    }
  });
});
