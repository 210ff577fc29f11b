/**
 * Change webhooks against a real engine and a real HTTP receiver on loopback: targets registered
 * through the admin routes; each published change (a write, a delete, an import) arrives signed
 * (checked with the `standardwebhooks` package's Webhook.verify), once between two workers, in
 * order per record; across a stop and a start of the workers (what an API restart does to them);
 * across a receiver outage (failures visible in the deliveries, then everything delivered); a
 * target failing for the whole retry period is paused with its last error and resumed; a slow
 * receiver does not slow an import (timed beside the same import without webhooks).
 */
import { once } from 'node:events';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newToken } from '../../src/api/http/auth.ts';
import { createEngine, type Engine } from '../../src/engine/index.ts';
import type { ServiceFull } from '../../src/hsds/index.ts';
import { generateDataset } from '../../src/synthetic/generate.ts';
import {
  createWebhookAdmin,
  startWebhookDelivery,
  type WebhookDelivery,
  type WebhookEventBody,
} from '../../src/webhooks/index.ts';
import { createTestApp, createTestEngine, dropTestIndices, testLogger } from '../support/engine.ts';
import { createFeeds, type Feeds } from '../support/feeds.ts';

const BASE_URL = 'https://directory.example.org';
const admin = newToken('ops', ['admin']);
const writer = newToken('crm', ['write']);
const bearer = (token: string) => ({ authorization: `Bearer ${token}` });
const jsonHeaders = { 'content-type': 'application/json' };

type Received = { id: string; timestamp: string; signature: string; body: string; at: number };

/** A webhook receiver on loopback: answers 204, or 500 (`failing`), after `delayMs`; can go away and come back. */
class Receiver {
  received: Received[] = [];
  failing = false;
  delayMs = 0;
  port = 0;
  private server: Server | undefined;

  get url() {
    return `http://127.0.0.1:${this.port}/hook`;
  }

  async start(): Promise<void> {
    const server = createServer((req: IncomingMessage, res: ServerResponse) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', async () => {
        if (this.delayMs > 0) await sleep(this.delayMs);
        if (this.failing) {
          res.writeHead(500).end('receiver is broken');
          return;
        }
        this.received.push({
          id: String(req.headers['webhook-id']),
          timestamp: String(req.headers['webhook-timestamp']),
          signature: String(req.headers['webhook-signature']),
          body: Buffer.concat(chunks).toString('utf8'),
          at: Date.now(),
        });
        res.writeHead(204).end();
      });
    });
    server.listen(this.port, '127.0.0.1');
    await once(server, 'listening');
    this.port = (server.address() as AddressInfo).port;
    this.server = server;
  }

  /** Gone: connections refused until start() again (on the same port). */
  async stop(): Promise<void> {
    const server = this.server;
    this.server = undefined;
    if (!server) return;
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  }

  /** The events received, each checked against the secret (throws on a bad signature). */
  verified(secret: string): (WebhookEventBody & { messageId: string })[] {
    const hook = new Webhook(secret);
    return this.received.map((r) => {
      const body = hook.verify(r.body, {
        'webhook-id': r.id,
        'webhook-timestamp': r.timestamp,
        'webhook-signature': r.signature,
      }) as WebhookEventBody;
      return { ...body, messageId: r.id };
    });
  }
}

async function waitFor<T>(what: string, probe: () => Promise<T | undefined> | T | undefined, ms = 30_000) {
  const until = Date.now() + ms;
  for (;;) {
    const value = await probe();
    if (value !== undefined && value !== false) return value;
    if (Date.now() > until) throw new Error(`timed out waiting for ${what}`);
    await sleep(100);
  }
}

/** Per record, the actions in the order received (repeats of a message dropped, as a receiver would). */
function byRecord(events: (WebhookEventBody & { messageId: string })[]) {
  const seen = new Set<string>();
  const records = new Map<string, { actions: string[]; sequences: number[] }>();
  for (const event of events) {
    if (seen.has(event.messageId)) continue;
    seen.add(event.messageId);
    const key = `${event.data.record_type}:${event.data.id}`;
    const entry = records.get(key) ?? { actions: [], sequences: [] };
    entry.actions.push(event.data.action);
    entry.sequences.push(event.data.sequence);
    records.set(key, entry);
  }
  return records;
}

const isIncreasing = (values: number[]) => values.every((v, i) => i === 0 || v > values[i - 1]!);

function workerOn(engine: Engine, overrides: { retryMs?: number; pollMs?: number } = {}): WebhookDelivery {
  return startWebhookDelivery(engine, {
    baseUrl: BASE_URL,
    retryMs: overrides.retryMs ?? 600_000,
    timeoutMs: 5000,
    allowPrivate: true,
    logger: testLogger,
    pollMs: overrides.pollMs ?? 150,
    firstBackoffMs: 200,
    maxBackoffMs: 800,
    leaseTtlMs: 4000,
  });
}

/** Another handle on the same prefix: what a second API process has. */
const sameStore = (engine: Engine) => createEngine({ ...engine.settings }, testLogger);

function appOn(engine: Engine, allowPrivate: boolean) {
  return createTestApp(
    engine,
    { API_TOKENS: `${admin.entry},${writer.entry}` },
    { webhooks: createWebhookAdmin(engine, { allowPrivate }) },
  );
}

const dataset = generateDataset({ services: 10, seed: 'webhooks' });
const services = JSON.parse(JSON.stringify([...dataset.services()])) as ServiceFull[];

describe('change webhooks', () => {
  const engine = createTestEngine('webhooks');
  const second = sameStore(engine);
  const receiver = new Receiver();
  const organizationsOnly = new Receiver();
  let app: ReturnType<typeof appOn>;
  let feeds: Feeds;
  let workers: WebhookDelivery[] = [];
  let secret = '';
  let hookId = '';
  let orgSecret = '';

  const post = (path: string, body: unknown, token = admin.token) =>
    app.request(path, {
      method: 'POST',
      headers: { ...jsonHeaders, ...bearer(token) },
      body: JSON.stringify(body),
    });
  const getJson = async (path: string) => {
    const res = await app.request(path, { headers: bearer(admin.token) });
    return { status: res.status, body: (await res.json()) as Record<string, unknown> };
  };
  const putService = (service: ServiceFull) =>
    app.request(`/services/${service.id}`, {
      method: 'PUT',
      headers: { ...jsonHeaders, ...bearer(writer.token) },
      body: JSON.stringify(service),
    });

  beforeAll(async () => {
    app = appOn(engine, true);
    feeds = await createFeeds(engine, 'webhooks');
    await feeds.importFile('feed.json', services, { sourceName: 'council' });
    await receiver.start();
    await organizationsOnly.start();
  }, 120_000);
  afterAll(async () => {
    await Promise.all(workers.map((w) => w.stop()));
    await receiver.stop();
    await organizationsOnly.stop();
    await feeds.remove();
    await second.close();
    await dropTestIndices(engine);
  });

  it('registers a target (admin scope; the secret answered once); refuses private addresses unless allowed, and bad secrets', async () => {
    const strict = appOn(engine, false);
    const refused = await strict.request('/admin/webhooks', {
      method: 'POST',
      headers: { ...jsonHeaders, ...bearer(admin.token) },
      body: JSON.stringify({ url: 'http://127.0.0.1:9/hook' }),
    });
    expect(refused.status).toBe(422);
    expect(((await refused.json()) as { detail: string }).detail).toContain('WEBHOOK_ALLOW_PRIVATE_TARGETS');
    for (const url of ['http://169.254.169.254/latest', 'http://10.1.2.3/x', 'http://[::1]:8080/x']) {
      const res = await strict.request('/admin/webhooks', {
        method: 'POST',
        headers: { ...jsonHeaders, ...bearer(admin.token) },
        body: JSON.stringify({ url }),
      });
      expect(res.status, url).toBe(422);
    }
    expect((await post('/admin/webhooks', { url: receiver.url }, writer.token)).status).toBe(403);
    expect((await post('/admin/webhooks', { url: receiver.url, secret: 'hunter2' })).status).toBe(422);
    expect((await post('/admin/webhooks', { url: 'ftp://example.org/x' })).status).toBe(400);

    const created = await post('/admin/webhooks', { url: receiver.url, description: 'everything' });
    expect(created.status).toBe(201);
    const body = (await created.json()) as { id: string; secret: string; state: string };
    expect(body.secret).toMatch(/^whsec_/);
    expect(body.state).toBe('active');
    expect(created.headers.get('location')).toBe(`/admin/webhooks/${body.id}`);
    secret = body.secret;
    hookId = body.id;

    const orgs = await post('/admin/webhooks', {
      url: organizationsOnly.url,
      filter: { record_types: ['organization'], sources: ['council'] },
    });
    expect(orgs.status).toBe(201);
    orgSecret = ((await orgs.json()) as { secret: string }).secret;

    const list = await getJson('/admin/webhooks');
    expect(list.status).toBe(200);
    const listed = list.body.webhooks as Record<string, unknown>[];
    expect(listed.map((w) => w.id)).toContain(hookId);
    expect(JSON.stringify(list.body)).not.toContain('whsec_');
    expect(JSON.stringify((await getJson(`/admin/webhooks/${hookId}`)).body)).not.toContain('whsec_');
  });

  it('delivers each change of a write, a delete and an import signed, once between two workers, in order per record', async () => {
    workers = [workerOn(engine), workerOn(second)];
    const [a, b, c] = services as [ServiceFull, ServiceFull, ServiceFull];
    expect((await putService({ ...a, name: `${a.name} (edited once)` })).status).toBe(200);
    expect((await putService({ ...a, name: `${a.name} (edited twice)` })).status).toBe(200);
    const deleted = await app.request(`/services/${b.id}`, {
      method: 'DELETE',
      headers: bearer(writer.token),
    });
    expect(deleted.status).toBe(204);
    // An import of the council feed with one service renamed.
    const edited = services
      .filter((s) => s.id !== b.id)
      .map((s) => (s.id === c.id ? { ...s, name: `${s.name} (renamed)` } : s));
    await feeds.importFile('feed.json', edited, { sourceName: 'council' });

    await waitFor('the import to be delivered', () => {
      const events = receiver.verified(secret);
      return events.some((e) => e.data.id === c.id && e.data.record_type === 'service');
    });
    expect(workers.filter((w) => w.delivering)).toHaveLength(1);
    const events = receiver.verified(secret);
    // Once between the two workers: no message twice.
    expect(new Set(events.map((e) => e.messageId)).size).toBe(events.length);
    const records = byRecord(events);
    // Edited twice through the API, then the council's import brought it back as the council has it.
    expect(records.get(`service:${a.id}`)?.actions).toEqual(['updated', 'updated', 'updated']);
    expect(records.get(`service:${b.id}`)?.actions).toEqual(['deleted']);
    expect(records.get(`service:${c.id}`)?.actions).toEqual(['updated']);
    for (const [key, record] of records) expect(isIncreasing(record.sequences), key).toBe(true);
    // Everything in the order published.
    expect(isIncreasing(events.map((e) => e.data.sequence))).toBe(true);
    const deletion = events.find((e) => e.data.id === b.id)!;
    expect(deletion.type).toBe('service.deleted');
    expect(deletion.data.url).toBe(`${BASE_URL}/services/${b.id}`);
    expect(Object.keys(deletion.data).sort()).toEqual(
      ['action', 'id', 'published_at', 'record_type', 'sequence', 'url'].sort(),
    );
    // The service's service_at_locations went with it.
    for (const sal of b.service_at_locations ?? []) {
      expect(records.get(`service_at_location:${sal.id}`)?.actions.at(-1)).toBe('deleted');
    }

    // The filtered target: organizations of the council's imports only (the writes were `api:crm`).
    await waitFor(
      'the organization event',
      () => organizationsOnly.verified(orgSecret).length > 0 || undefined,
    );
    const orgEvents = organizationsOnly.verified(orgSecret);
    expect(orgEvents.every((e) => e.data.record_type === 'organization')).toBe(true);
    expect(orgEvents.map((e) => e.data.id)).toContain(c.organization?.id ?? c.organization_id);

    const deliveries = await getJson(`/admin/webhooks/${hookId}/deliveries?limit=5`);
    expect(deliveries.status).toBe(200);
    const attempts = deliveries.body.deliveries as { ok: boolean; status: number; seq: number }[];
    expect(attempts).toHaveLength(5);
    expect(attempts.every((d) => d.ok && d.status === 204)).toBe(true);
    expect(isIncreasing(attempts.map((d) => d.seq).reverse())).toBe(true);
  }, 120_000);

  it('goes on from where it was after the workers stop and start again (an API restart)', async () => {
    await Promise.all(workers.map((w) => w.stop()));
    const before = receiver.received.length;
    const [, , , d] = services as [ServiceFull, ServiceFull, ServiceFull, ServiceFull];
    expect((await putService({ ...d, name: `${d.name} (while stopped 1)` })).status).toBe(200);
    expect((await putService({ ...d, name: `${d.name} (while stopped 2)` })).status).toBe(200);
    await sleep(1000);
    expect(receiver.received.length).toBe(before);

    const fresh = sameStore(engine);
    workers = [workerOn(fresh)];
    await waitFor('the changes made while stopped', () => {
      const actions = byRecord(receiver.verified(secret)).get(`service:${d.id}`)?.actions;
      return actions?.length === 2 || undefined;
    });
    const records = byRecord(receiver.verified(secret));
    expect(records.get(`service:${d.id}`)?.actions).toEqual(['updated', 'updated']);
    for (const [key, record] of records) expect(isIncreasing(record.sequences), key).toBe(true);
  }, 60_000);

  it('retries through a receiver outage (the failures visible) and delivers everything in order after', async () => {
    await receiver.stop();
    const [, , , , e] = services as [ServiceFull, ServiceFull, ServiceFull, ServiceFull, ServiceFull];
    const before = receiver.received.length;
    for (const n of [1, 2, 3])
      expect((await putService({ ...e, name: `${e.name} (outage ${n})` })).status).toBe(200);
    const failing = await waitFor('failed attempts', async () => {
      const hook = (await getJson(`/admin/webhooks/${hookId}`)).body as {
        failures: number;
        last_error?: string;
      };
      return hook.failures >= 2 ? hook : undefined;
    });
    expect(failing.last_error).toMatch(/ECONNREFUSED/);
    const attempts = (await getJson(`/admin/webhooks/${hookId}/deliveries`)).body.deliveries as {
      ok: boolean;
      error?: string;
    }[];
    expect(attempts[0]?.ok).toBe(false);
    expect(attempts[0]?.error).toMatch(/ECONNREFUSED/);
    expect(receiver.received.length).toBe(before);

    await receiver.start();
    await waitFor('the changes made during the outage', () => {
      const actions = byRecord(receiver.verified(secret)).get(`service:${e.id}`)?.actions;
      return actions?.length === 3 || undefined;
    });
    const records = byRecord(receiver.verified(secret));
    for (const [key, record] of records) expect(isIncreasing(record.sequences), key).toBe(true);
    const hook = (await getJson(`/admin/webhooks/${hookId}`)).body as { failures: number; state: string };
    await waitFor('the failures to clear', async () => {
      const now = (await getJson(`/admin/webhooks/${hookId}`)).body as { failures: number };
      return now.failures === 0 || undefined;
    });
    expect(hook.state).toBe('active');
  }, 60_000);

  it('pauses a target that fails for the whole retry period, with its last error; resumes it on request', async () => {
    await Promise.all(workers.map((w) => w.stop()));
    workers = [workerOn(sameStore(engine), { retryMs: 1500 })];
    receiver.failing = true;
    const [, , , , , f] = services as ServiceFull[] as [
      ServiceFull,
      ServiceFull,
      ServiceFull,
      ServiceFull,
      ServiceFull,
      ServiceFull,
    ];
    expect((await putService({ ...f, name: `${f.name} (refused)` })).status).toBe(200);
    const paused = await waitFor('the pause', async () => {
      const hook = (await getJson(`/admin/webhooks/${hookId}`)).body as {
        state: string;
        last_error?: string;
      };
      return hook.state === 'paused' ? hook : undefined;
    });
    expect(paused.last_error).toBe('the target answered 500');
    receiver.failing = false;
    const resumed = await post(`/admin/webhooks/${hookId}/resume`, {});
    expect(resumed.status).toBe(200);
    await waitFor(
      'the refused change, after the resume',
      () =>
        byRecord(receiver.verified(secret)).get(`service:${f.id}`)?.actions.includes('updated') || undefined,
    );
    expect(
      (await app.request('/admin/webhooks/nope/resume', { method: 'POST', headers: bearer(admin.token) }))
        .status,
    ).toBe(404);
  }, 60_000);

  it('removes a target: nothing more is sent to it', async () => {
    const res = await app.request(`/admin/webhooks/${hookId}`, {
      method: 'DELETE',
      headers: bearer(admin.token),
    });
    expect(res.status).toBe(204);
    expect((await getJson(`/admin/webhooks/${hookId}`)).status).toBe(404);
    const before = receiver.received.length;
    const g = services[6]!;
    expect((await putService({ ...g, name: `${g.name} (after removal)` })).status).toBe(200);
    await sleep(1500);
    expect(receiver.received.length).toBe(before);
  }, 30_000);
});

describe('a slow receiver does not slow an import', () => {
  const engine = createTestEngine('webhooks-slow');
  const receiver = new Receiver();
  const big = generateDataset({ services: 150, seed: 'webhooks-slow' });
  const base = JSON.parse(JSON.stringify([...big.services()])) as ServiceFull[];
  let feeds: Feeds;
  let worker: WebhookDelivery | undefined;

  beforeAll(async () => {
    feeds = await createFeeds(engine, 'webhooks-slow');
    await feeds.importFile('feed.json', base, { sourceName: 'slow' });
    receiver.delayMs = 2000;
    await receiver.start();
  }, 180_000);
  afterAll(async () => {
    await worker?.stop();
    await receiver.stop();
    await feeds.remove();
    await dropTestIndices(engine);
  });

  /** Imports the feed with every service renamed (round `n`): every service, its locations and organization republished. */
  const timedImport = async (n: number) => {
    const started = performance.now();
    const result = await feeds.importFile(
      'feed.json',
      base.map((s) => ({ ...s, name: `${s.name} (round ${n})` })),
      { sourceName: 'slow' },
    );
    expect(result.publish?.changed_records).toBeGreaterThan(0);
    return { ms: performance.now() - started, publishMs: result.publish?.ms ?? 0 };
  };
  const median = (values: number[]) => [...values].sort((x, y) => x - y)[Math.floor(values.length / 2)]!;

  it('times the same import without webhooks and with a receiver taking 2 s an event, alternately', async () => {
    const admin = createWebhookAdmin(engine, { allowPrivate: true });
    worker = workerOn(engine, { pollMs: 1000 });
    // A first import warms the engine and the process up; it is not counted.
    await timedImport(0);
    const without: { ms: number; publishMs: number }[] = [];
    const withSlow: { ms: number; publishMs: number }[] = [];
    let deliveredDuringFirst = -1;
    const secrets: string[] = [];
    for (let round = 1; round <= 3; round++) {
      without.push(await timedImport(round * 2 - 1));
      const registered = await admin.register({ url: receiver.url });
      if ('refused' in registered) throw new Error(registered.refused);
      secrets.push(registered.secret);
      withSlow.push(await timedImport(round * 2));
      if (deliveredDuringFirst < 0) deliveredDuringFirst = receiver.received.length;
      // The last target stays: it is being delivered to below.
      if (round < 3) await admin.remove(registered.webhook.id);
    }
    const ratio = median(withSlow.map((t) => t.ms)) / median(without.map((t) => t.ms));
    const show = (runs: { ms: number; publishMs: number }[]) =>
      runs.map((t) => `${t.ms.toFixed(0)} (publish ${t.publishMs})`).join(', ');
    console.log(
      `import of ${base.length} renamed services, ms: without webhooks ${show(without)}; with a receiver taking 2 s an event ${show(withSlow)}; ratio of the medians ${ratio.toFixed(2)}; events the receiver had taken when the first such import ended: ${deliveredDuringFirst}`,
    );
    // Each import published hundreds of changes; the receiver had taken at most a few by its end.
    expect(deliveredDuringFirst).toBeLessThan(10);
    expect(ratio).toBeLessThan(1.5);
    // The slow receiver does get the changes, signed, after.
    const hook = new Webhook(secrets.at(-1)!);
    const verifies = (r: Received) => {
      try {
        hook.verify(r.body, {
          'webhook-id': r.id,
          'webhook-timestamp': r.timestamp,
          'webhook-signature': r.signature,
        });
        return true;
      } catch {
        return false;
      }
    };
    await waitFor('a slow delivery to the last target', () => receiver.received.some(verifies) || undefined);
  }, 300_000);
});
