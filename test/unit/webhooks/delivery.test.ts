/**
 * One delivery, against a real HTTP server on loopback: the body names the change (never the
 * record), the signature verifies with the standardwebhooks package, a non-2xx or a redirect is a
 * failure with why, a private address is refused unless allowed (no request made). Secrets and
 * the backoff.
 */
import { once } from 'node:events';
import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { WebhookEvent } from '../../../src/index-mapping/webhook.document.ts';
import {
  backoffMs,
  deliverEvent,
  isWebhookSecret,
  newWebhookSecret,
  toEventBody,
} from '../../../src/webhooks/index.ts';

const event: WebhookEvent = {
  seq: 42,
  at: '2026-11-27T03:00:00.000Z',
  record_type: 'service_at_location',
  id: 'c0ffee00-0000-4000-8000-000000000001',
  action: 'deleted',
  organization_id: 'org-1',
  source: 'council',
};

let status = 204;
const requests: { headers: IncomingHttpHeaders; body: string }[] = [];
const server = createServer((req, res) => {
  const chunks: Buffer[] = [];
  req.on('data', (c: Buffer) => chunks.push(c));
  req.on('end', () => {
    requests.push({ headers: req.headers, body: Buffer.concat(chunks).toString('utf8') });
    res.writeHead(status, status === 302 ? { location: 'http://example.org/' } : {}).end();
  });
});
let url = '';
beforeAll(async () => {
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`;
});
afterAll(() => new Promise((resolve) => server.close(resolve)));

describe('a delivery', () => {
  const secret = newWebhookSecret();
  const options = { timeoutMs: 2000, allowPrivate: true };

  it('names the change and where the record is read, never the record', () => {
    expect(toEventBody(event, 'https://api.example.org/')).toEqual({
      type: 'service_at_location.deleted',
      timestamp: event.at,
      data: {
        id: event.id,
        record_type: 'service_at_location',
        action: 'deleted',
        url: `https://api.example.org/service_at_locations/${event.id}`,
        published_at: event.at,
        sequence: 42,
      },
    });
  });

  it('is signed per Standard Webhooks: the package verifies it, and refuses it with another secret', async () => {
    status = 204;
    const result = await deliverEvent({ url, secret }, event, 'https://api.example.org', options);
    expect(result).toMatchObject({ ok: true, status: 204 });
    const { headers, body } = requests.at(-1)!;
    const signed = {
      'webhook-id': String(headers['webhook-id']),
      'webhook-timestamp': String(headers['webhook-timestamp']),
      'webhook-signature': String(headers['webhook-signature']),
    };
    expect(signed['webhook-id']).toMatch(/^evt_42_/);
    expect(headers['content-type']).toBe('application/json');
    expect(new Webhook(secret).verify(body, signed)).toEqual(toEventBody(event, 'https://api.example.org'));
    expect(() => new Webhook(newWebhookSecret()).verify(body, signed)).toThrow();
    expect(() => new Webhook(secret).verify(body.replace('deleted', 'created'), signed)).toThrow();
  });

  it('signs the timestamp it sends, even when the clock crosses a second between the two', async () => {
    status = 204;
    let clock = Math.floor(Date.now() / 1000) * 1000 + 999;
    const result = await deliverEvent({ url, secret }, event, 'x', { ...options, now: () => clock++ });
    expect(result.ok).toBe(true);
    const { headers, body } = requests.at(-1)!;
    expect(() =>
      new Webhook(secret).verify(body, {
        'webhook-id': String(headers['webhook-id']),
        'webhook-timestamp': String(headers['webhook-timestamp']),
        'webhook-signature': String(headers['webhook-signature']),
      }),
    ).not.toThrow();
  });

  it('fails on a non-2xx answer and on a redirect (not followed), saying why', async () => {
    status = 503;
    expect(await deliverEvent({ url, secret }, event, 'x', options)).toMatchObject({
      ok: false,
      status: 503,
      error: 'the target answered 503',
    });
    status = 302;
    const before = requests.length;
    const redirected = await deliverEvent({ url, secret }, event, 'x', options);
    expect(redirected.ok).toBe(false);
    expect(redirected.error).toContain('redirects are not followed');
    expect(requests.length).toBe(before + 1);
  });

  it('refuses a private address unless allowed, without a request', async () => {
    const before = requests.length;
    const refused = await deliverEvent({ url, secret }, event, 'x', { ...options, allowPrivate: false });
    expect(refused.ok).toBe(false);
    expect(refused.error).toContain('WEBHOOK_ALLOW_PRIVATE_TARGETS');
    expect(requests.length).toBe(before);
  });

  it('fails on a target that does not answer', async () => {
    const closed = createServer();
    closed.listen(0, '127.0.0.1');
    await once(closed, 'listening');
    const port = (closed.address() as AddressInfo).port;
    await new Promise((resolve) => closed.close(resolve));
    const result = await deliverEvent({ url: `http://127.0.0.1:${port}/`, secret }, event, 'x', options);
    expect(result.ok).toBe(false);
    expect(result.error).toMatch(/ECONNREFUSED/);
  });
});

describe('secrets and backoff', () => {
  it('makes and accepts Standard Webhooks secrets of 24 to 64 bytes', () => {
    expect(isWebhookSecret(newWebhookSecret())).toBe(true);
    expect(isWebhookSecret(`whsec_${Buffer.alloc(24).toString('base64')}`)).toBe(true);
    expect(isWebhookSecret(`whsec_${Buffer.alloc(16).toString('base64')}`)).toBe(false);
    expect(isWebhookSecret(Buffer.alloc(32).toString('base64'))).toBe(false);
    expect(isWebhookSecret('whsec_not base64!')).toBe(false);
  });

  it('doubles the wait after each failure, up to the cap', () => {
    expect([1, 2, 3, 4, 10, 30].map((n) => backoffMs(n, 1000, 300_000))).toEqual([
      1000, 2000, 4000, 8000, 300_000, 300_000,
    ]);
  });
});
