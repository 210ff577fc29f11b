/**
 * Pausing a webhook target by hand and rotating its secret, against a real engine and a receiver on
 * loopback: a paused target receives nothing until it is resumed (then what was published
 * meanwhile arrives); after a rotation the next delivery verifies with the new secret and not the
 * old one (Standard Webhooks, the `standardwebhooks` package's Webhook.verify).
 */
import { once } from 'node:events';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newToken } from '../../src/api/http/auth.ts';
import type { ServiceFull } from '../../src/hsds/index.ts';
import { generateDataset } from '../../src/synthetic/generate.ts';
import { createWebhookAdmin, startWebhookDelivery, type WebhookDelivery } from '../../src/webhooks/index.ts';
import { createTestApp, createTestEngine, dropTestIndices, testLogger } from '../support/engine.ts';
import { createFeeds, type Feeds } from '../support/feeds.ts';

const admin = newToken('ops', ['admin']);
const writer = newToken('crm', ['write']);
const bearer = (token: string) => ({ authorization: `Bearer ${token}` });
const jsonHeaders = { 'content-type': 'application/json' };

type Received = { headers: Record<string, string>; body: string };

const dataset = generateDataset({ services: 4, seed: 'webhooks-controls' });
const services = JSON.parse(JSON.stringify([...dataset.services()])) as ServiceFull[];

async function waitFor<T>(what: string, probe: () => T | undefined | false, ms = 20_000) {
  const until = Date.now() + ms;
  for (;;) {
    const value = probe();
    if (value !== undefined && value !== false) return value;
    if (Date.now() > until) throw new Error(`timed out waiting for ${what}`);
    await sleep(100);
  }
}

describe('webhook targets paused by hand and their secrets rotated', () => {
  const engine = createTestEngine('webhooks-controls');
  const received: Received[] = [];
  let server: Server;
  let worker: WebhookDelivery;
  let feeds: Feeds;
  let url = '';
  const app = createTestApp(
    engine,
    { API_TOKENS: `${admin.entry},${writer.entry}` },
    { webhooks: createWebhookAdmin(engine, { allowPrivate: true }) },
  );
  const post = (path: string, body?: unknown) =>
    app.request(path, {
      method: 'POST',
      headers: { ...(body === undefined ? {} : jsonHeaders), ...bearer(admin.token) },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
  const rename = (service: ServiceFull, name: string) =>
    app.request(`/services/${service.id}`, {
      method: 'PUT',
      headers: { ...jsonHeaders, ...bearer(writer.token) },
      body: JSON.stringify({ ...service, name }),
    });
  const idsOf = (secret: string) => {
    const hook = new Webhook(secret);
    return received.map((r) => (hook.verify(r.body, r.headers) as { data: { id: string } }).data.id);
  };

  beforeAll(async () => {
    feeds = await createFeeds(engine, 'webhooks-controls');
    await feeds.importFile('feed.json', services, { sourceName: 'council' });
    server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        received.push({
          headers: {
            'webhook-id': String(req.headers['webhook-id']),
            'webhook-timestamp': String(req.headers['webhook-timestamp']),
            'webhook-signature': String(req.headers['webhook-signature']),
          },
          body: Buffer.concat(chunks).toString('utf8'),
        });
        res.writeHead(204).end();
      });
    });
    server.listen(0, '127.0.0.1');
    await once(server, 'listening');
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`;
    worker = startWebhookDelivery(engine, {
      baseUrl: 'https://directory.example.org',
      retryMs: 600_000,
      timeoutMs: 5000,
      allowPrivate: true,
      logger: testLogger,
      pollMs: 150,
      firstBackoffMs: 200,
      maxBackoffMs: 800,
      leaseTtlMs: 4000,
    });
  }, 120_000);
  afterAll(async () => {
    await worker?.stop();
    server?.closeAllConnections();
    await new Promise((resolve) => server?.close(resolve));
    await feeds?.remove();
    await dropTestIndices(engine);
  });

  it('delivers nothing to a paused target until it is resumed; rotation signs the next delivery with the new secret', async () => {
    const [a, b, c] = services as [ServiceFull, ServiceFull, ServiceFull];
    const created = await post('/admin/webhooks', { url });
    expect(created.status).toBe(201);
    const { id, secret } = (await created.json()) as { id: string; secret: string };

    const paused = await post(`/admin/webhooks/${id}/pause`);
    expect(paused.status).toBe(200);
    expect(((await paused.json()) as { state: string }).state).toBe('paused');
    // Pausing again changes nothing.
    expect(((await (await post(`/admin/webhooks/${id}/pause`)).json()) as { state: string }).state).toBe(
      'paused',
    );
    expect((await rename(a, `${a.name} (while paused)`)).status).toBe(200);
    await sleep(1500);
    expect(received).toHaveLength(0);

    expect((await post(`/admin/webhooks/${id}/resume`)).status).toBe(200);
    await waitFor('the change published while paused', () => idsOf(secret).includes(a.id));

    const rotated = await post(`/admin/webhooks/${id}/secret`, {});
    expect(rotated.status).toBe(200);
    const fresh = ((await rotated.json()) as { secret: string; state: string }).secret;
    expect(fresh).toMatch(/^whsec_/);
    expect(fresh).not.toBe(secret);
    const before = received.length;
    expect((await rename(b, `${b.name} (after rotation)`)).status).toBe(200);
    await waitFor('the change after rotation', () => received.length > before);
    const last = received.slice(before);
    const hook = new Webhook(fresh);
    expect((hook.verify(last[0]!.body, last[0]!.headers) as { data: { id: string } }).data.id).toBe(b.id);
    expect(() => new Webhook(secret).verify(last[0]!.body, last[0]!.headers)).toThrow();

    // A rotation without a body makes a secret too; one given must be in the Standard Webhooks form.
    const bare = await post(`/admin/webhooks/${id}/secret`);
    expect(bare.status).toBe(200);
    const own = `whsec_${Buffer.alloc(32, 7).toString('base64')}`;
    const given = await post(`/admin/webhooks/${id}/secret`, { secret: own });
    expect(((await given.json()) as { secret: string }).secret).toBe(own);
    const bad = await post(`/admin/webhooks/${id}/secret`, { secret: 'hunter2' });
    expect(bad.status).toBe(422);
    expect(bad.headers.get('content-type')).toContain('application/problem+json');
    const after = received.length;
    expect((await rename(c, `${c.name} (own secret)`)).status).toBe(200);
    await waitFor('the change signed with the given secret', () => received.length > after);
    expect(() => new Webhook(own).verify(received[after]!.body, received[after]!.headers)).not.toThrow();
  }, 60_000);

  it('answers 404 problem+json for an unknown target, 401 without the admin token', async () => {
    for (const path of ['/admin/webhooks/nope/pause', '/admin/webhooks/nope/secret']) {
      const res = await post(path);
      expect(res.status).toBe(404);
      expect(res.headers.get('content-type')).toContain('application/problem+json');
      expect((await app.request(path, { method: 'POST' })).status).toBe(401);
    }
  });
});
