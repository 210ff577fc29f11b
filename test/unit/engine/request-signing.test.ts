/**
 * AWS SigV4 request signing, for managed services with IAM authentication: every request the
 * gateway sends, through the plain handle (the CLI's) and the guarded one (the API server's),
 * reaches the engine signed for the region and service configured. A stand-in engine on a real
 * socket records what arrives; the client is the real one.
 */
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../../src/config.ts';
import { createEngine, engineCall } from '../../../src/engine/index.ts';

let server: Server;
let url: string;
const seen: IncomingHttpHeaders[] = [];

beforeAll(async () => {
  server = createServer((req, res) => {
    seen.push(req.headers);
    req.resume();
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ count: 3 }));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

const aws = {
  region: 'eu-west-2',
  service: 'es' as const,
  credentials: { accessKeyId: 'AKIDEXAMPLE', secretAccessKey: 'secret', sessionToken: 'token-1' },
};

describe('AWS SigV4 signing', () => {
  it.each([
    ['the CLI handle', undefined],
    ['the guarded API handle', { failureThreshold: 5, cooldownMs: 1000, maxInFlight: 8 }],
  ])('signs every request of %s for the region and service', async (_name, guard) => {
    const engine = createEngine(
      { url, requestTimeoutMs: 2000, prefix: 't', aws, ...(guard ? { guard } : {}) },
      pino({ level: 'silent' }),
    );
    seen.length = 0;
    const { body } = await engineCall('count', () => engine.client.count({ index: 't-x' }));
    expect(body.count).toBe(3);
    await engine.close();
    expect(seen).toHaveLength(1);
    const headers = seen[0] as IncomingHttpHeaders;
    expect(headers.authorization).toMatch(
      /^AWS4-HMAC-SHA256 Credential=AKIDEXAMPLE\/\d{8}\/eu-west-2\/es\/aws4_request, SignedHeaders=.*host.*, Signature=[0-9a-f]{64}$/,
    );
    expect(headers['x-amz-security-token']).toBe('token-1');
    expect(headers['x-amz-content-sha256']).toMatch(/^[0-9a-f]{64}$/);
  });

  it('sends nothing signed without it', async () => {
    const engine = createEngine({ url, requestTimeoutMs: 2000, prefix: 't' }, pino({ level: 'silent' }));
    seen.length = 0;
    await engineCall('count', () => engine.client.count({ index: 't-x' }));
    await engine.close();
    expect(seen[0]?.authorization).toBeUndefined();
  });

  it('is configured by OPENSEARCH_AWS_REGION, and refused without credentials', () => {
    expect(() => loadConfig({ OPENSEARCH_AWS_REGION: 'eu-west-2' })).toThrow(
      /OPENSEARCH_AWS_REGION: request signing needs AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY/,
    );
    expect(
      loadConfig({
        OPENSEARCH_AWS_REGION: 'eu-west-2',
        OPENSEARCH_AWS_SERVICE: 'aoss',
        AWS_ACCESS_KEY_ID: 'a',
        AWS_SECRET_ACCESS_KEY: 'b',
      }),
    ).toMatchObject({ OPENSEARCH_AWS_REGION: 'eu-west-2', OPENSEARCH_AWS_SERVICE: 'aoss' });
  });
});
