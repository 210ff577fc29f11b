/**
 * Many change webhook targets on the real engine: GET /admin/webhooks pages through all of them
 * with their total (it showed 1,000 at most), the delivery worker reads every target (it read the
 * same 1,000, so a target past them never heard of a change), and registrations stop at
 * WEBHOOK_MAX_TARGETS with a 409.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newToken } from '../../src/api/http/auth.ts';
import { createBulkWriter } from '../../src/engine/bulk.ts';
import { engineCall } from '../../src/engine/engine.ts';
import { ensureWebhooksIndex, recordWebhookEvents, webhooksIndex } from '../../src/engine/webhooks.ts';
import type { WebhookTarget } from '../../src/index-mapping/webhook.document.ts';
import { createWebhookAdmin, startWebhookDelivery, type WebhookDelivery } from '../../src/webhooks/index.ts';
import { createTestApp, createTestEngine, dropTestIndices, testLogger } from '../support/engine.ts';

const engine = createTestEngine('webhooks-paging');
const admin = newToken('ops', ['admin']);
const auth = { authorization: `Bearer ${admin.token}` };
/** One more than the old list's 1,000: the last one registered is the one it left out. */
const TARGETS = 1100;
const CAP = TARGETS + 1;
const app = createTestApp(
  engine,
  { API_TOKENS: admin.entry },
  { webhooks: createWebhookAdmin(engine, { allowPrivate: true, maxTargets: CAP }) },
);
const id = (n: number) => `0b000000-0000-4000-8000-${String(n).padStart(12, '0')}`;
const LAST = id(TARGETS);
const LAST_URL = 'http://127.0.0.1:9/last-registered';
let worker: WebhookDelivery | undefined;

/** A target as registered: paused (the worker passes it by) but the last, which is active. */
const target = (n: number): WebhookTarget => ({
  id: id(n),
  url: n === TARGETS ? LAST_URL : `http://127.0.0.1:9/hook-${n}`,
  secret: `whsec_${Buffer.alloc(32, n % 256).toString('base64')}`,
  filter: {},
  created_at: new Date(Date.UTC(2026, 0, 1) + n * 1000).toISOString(),
  state: n === TARGETS ? 'active' : 'paused',
  cursor: 0,
  failures: 0,
});

/** Writes targets as registration would (one bulk request, not 1,100 registrations). */
async function store(targets: WebhookTarget[]) {
  const writer = createBulkWriter(engine);
  for (const t of targets) {
    await writer.index(webhooksIndex(engine), `webhook:${t.id}`, {
      kind: 'webhook',
      webhook_id: t.id,
      at: t.created_at,
      data: t,
    });
  }
  await writer.close();
  await engineCall('refresh', () => engine.client.indices.refresh({ index: webhooksIndex(engine) }));
}

type Listed = { total_items?: number; size?: number; last_page?: boolean; webhooks: { id: string }[] };
const list = async (query: string) => {
  const res = await app.request(`/admin/webhooks${query}`, { headers: auth });
  expect(res.status).toBe(200);
  return (await res.json()) as Listed;
};

const register = (url: string) =>
  app.request('/admin/webhooks', {
    method: 'POST',
    headers: { ...auth, 'content-type': 'application/json' },
    body: JSON.stringify({ url }),
  });

beforeAll(async () => {
  await ensureWebhooksIndex(engine);
  // The last one alone, after the others: the old list (1,000, in index order) missed it.
  await store(Array.from({ length: TARGETS - 1 }, (_, i) => target(i + 1)));
  await store([target(TARGETS)]);
}, 120_000);

afterAll(async () => {
  await worker?.stop();
  await dropTestIndices(engine);
});

describe('many webhook targets', () => {
  it('lists every target, a page at a time, with the total', async () => {
    const first = await list('?per_page=1000');
    expect(first.total_items).toBe(TARGETS);
    expect(first.webhooks).toHaveLength(1000);
    expect(first.last_page).toBe(false);
    const second = await list('?per_page=1000&page=2');
    expect(second.size).toBe(TARGETS - 1000);
    expect(second.last_page).toBe(true);
    const seen = new Set([...first.webhooks, ...second.webhooks].map((w) => w.id));
    expect(seen.size).toBe(TARGETS);
    // Oldest first: the last registered ends the last page.
    expect(second.webhooks.at(-1)?.id).toBe(LAST);
    // The default page is 50.
    expect((await list('')).webhooks).toHaveLength(50);
  }, 60_000);

  it('delivers to a target registered after the first 1,000', async () => {
    const delivered: string[] = [];
    worker = startWebhookDelivery(engine, {
      baseUrl: 'https://directory.example.org',
      retryMs: 60_000,
      timeoutMs: 5000,
      allowPrivate: true,
      logger: testLogger,
      pollMs: 200,
      fetch: async (input) => {
        delivered.push(String(input));
        return new Response(null, { status: 204 });
      },
    });
    await recordWebhookEvents(engine, [{ record_type: 'service', id: id(9999), action: 'updated' }]);
    const until = Date.now() + 30_000;
    while (!delivered.includes(LAST_URL) && Date.now() < until) await new Promise((r) => setTimeout(r, 200));
    expect(delivered).toContain(LAST_URL);
  }, 60_000);

  it('refuses a registration past WEBHOOK_MAX_TARGETS with 409', async () => {
    expect((await register('http://127.0.0.1:9/one-more')).status).toBe(201);
    const refused = await register('http://127.0.0.1:9/too-many');
    expect(refused.status).toBe(409);
    expect(refused.headers.get('content-type')).toContain('application/problem+json');
    expect(((await refused.json()) as { detail: string }).detail).toContain('WEBHOOK_MAX_TARGETS');
    expect((await list('?per_page=1')).total_items).toBe(CAP);
  }, 60_000);
});
