/**
 * The write API's audit trail against a real engine (issue 35): a write that churns thousands of
 * nested records is recorded in a few entries, not one per field of each; `audit=all` and
 * `audit=last` come in pages a client follows (`Link: rel="next"`, `Audit-Total`) past the
 * engine's 10,000-hit window, never cut short in silence; entries past AUDIT_RETENTION_DAYS go.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newToken } from '../../src/api/http/auth.ts';
import { appendAudit, auditIndex, type FieldChange, pruneAudit } from '../../src/engine/audit.ts';
import type { ServiceFull } from '../../src/hsds/index.ts';
import { putRecord } from '../../src/ingest/write/write.ts';
import { generateDataset } from '../../src/synthetic/generate.ts';
import { expectProblem, getJson, type JsonObject } from '../support/api-requests.ts';
import { createTestApp, createTestEngine, dropTestIndices } from '../support/engine.ts';
import { createFeeds, type Feeds } from '../support/feeds.ts';

const engine = createTestEngine('audit');
// A write takes at most 10,000 array elements (src/ingest/write/write.ts): the 16,000 phones
// are now refused, and 5,000 show the same.
const writer = newToken('council-crm', ['write']);
let app: ReturnType<typeof createTestApp>;
let feeds: Feeds;
const dataset = generateDataset({ services: 4, seed: 'audit' });
const services = JSON.parse(JSON.stringify([...dataset.services()])) as ServiceFull[];

const read = async (path: string) => (await getJson(app, path)).body;
// Within the default retention (365 days): a write prunes older entries at most once an hour.
const daysAgo = (days: number) => new Date(Date.now() - days * 86_400_000).toISOString();

/** How many audit entries the engine holds for writes addressed to this record. */
async function entriesOf(target: string, on = engine): Promise<number> {
  if (!(await on.client.indices.exists({ index: auditIndex(on) })).body) return 0;
  await on.client.indices.refresh({ index: auditIndex(on) });
  const { body } = await on.client.count({
    index: auditIndex(on),
    body: { query: { term: { target } } },
  } as never);
  return (body as { count: number }).count;
}

/** `n` changes to fields of the record itself (never summed up), named f0, f1... */
const ownFields = (type: string, id: string, n: number, action: FieldChange['action'] = 'update') =>
  Array.from({ length: n }, (_, i) => ({
    resource_type: type,
    resource_id: id,
    action,
    field_name: `f${i}`,
    previous_value: '',
    replacement_value: String(i),
  }));

/** Every page of a trail, following `Link: rel="next"` from `path`; the entries and the totals seen. */
async function followTrail(path: string) {
  const entries: JsonObject[] = [];
  const totals: number[] = [];
  let next: string | undefined = path;
  let pages = 0;
  while (next) {
    const res = await app.request(next);
    expect(res.status, await res.clone().text()).toBe(200);
    totals.push(Number(res.headers.get('audit-total')));
    const body = (await res.json()) as JsonObject;
    entries.push(...((body.metadata as JsonObject[]) ?? []).filter((m) => 'updated_by' in m));
    const link = res.headers.get('link');
    // The link is relative to the record's URL.
    const target = link ? /^<([^>]+)>; rel="next"$/.exec(link)?.[1] : undefined;
    next = target
      ? new URL(target, `http://x${next}`).pathname + new URL(target, `http://x${next}`).search
      : undefined;
    pages += 1;
  }
  return { entries, totals, pages };
}

beforeAll(async () => {
  app = createTestApp(engine, { API_TOKENS: writer.entry, WRITE_MAX_BODY_BYTES: String(8 * 1024 * 1024) });
  feeds = await createFeeds(engine, 'audit');
  await feeds.importFile('feed.json', services);
});
afterAll(async () => {
  await feeds.remove();
  await dropTestIndices(engine);
});

describe('a write that churns many nested records', () => {
  it('records 5,000 new phones as one entry on the service, its own fields still field by field', async () => {
    const service = services[0]!;
    const path = `/services/${service.id}`;
    const current = await read(path);
    const phones = Array.from({ length: 5000 }, (_, i) => ({
      id: `00000000-0000-4000-8000-${String(i).padStart(12, '0')}`,
      number: `0800 ${String(100000 + i)}`,
    }));
    const existing = ((current.phones as JsonObject[] | undefined) ?? []).length;
    const before = await entriesOf(`service:${service.id}`);
    const result = await putRecord(
      engine,
      { type: 'service', id: service.id, actor: 'council-crm' },
      { ...current, name: 'Five Thousand Lines', phones },
    );
    const written = (await entriesOf(`service:${service.id}`)) - before;
    // Field by field (what the trail held before), each phone was four entries or so.
    console.log(
      `audit of a 5,000-phone PUT: ${result.audit.length} field changes, ${written} entries written`,
    );
    expect(result.audit.length).toBeGreaterThanOrEqual(5000);
    expect(written).toBeLessThan(20);

    const last = await read(`${path}?audit=last`);
    const trail = (last.metadata as JsonObject[]).filter((m) => 'updated_by' in m);
    expect(trail).toContainEqual(
      expect.objectContaining({
        resource_type: 'service',
        resource_id: service.id,
        field_name: 'phone',
        // The phones the service had are gone: the body lists the new ones only.
        last_action_type: existing > 0 ? 'update' : 'create',
        replacement_value: existing > 0 ? `5000 created, ${existing} deleted` : '5000 created',
      }),
    );
    expect(trail).toContainEqual(
      expect.objectContaining({
        field_name: 'name',
        previous_value: service.name,
        replacement_value: 'Five Thousand Lines',
      }),
    );

    // Down to two, renumbered: the phones are one entry again, every change to them counted in it.
    const two = phones.slice(0, 2).map((p) => ({ ...p, number: `${p.number} 9` }));
    await putRecord(
      engine,
      { type: 'service', id: service.id, actor: 'council-crm' },
      { ...(await read(path)), phones: two },
    );
    const again = ((await read(`${path}?audit=last`)).metadata as JsonObject[]).filter(
      (m) => 'updated_by' in m,
    );
    expect(again).toEqual([
      expect.objectContaining({
        resource_id: service.id,
        field_name: 'phone',
        last_action_type: 'update',
        replacement_value: '2 updated, 4998 deleted',
      }),
    ]);

    // A write that changes a few phones keeps them field by field.
    await putRecord(
      engine,
      { type: 'service', id: service.id, actor: 'council-crm' },
      { ...(await read(path)), phones: [{ ...two[0]!, number: '0800 000 001' }] },
    );
    const few = ((await read(`${path}?audit=last`)).metadata as JsonObject[]).filter(
      (m) => 'updated_by' in m,
    );
    expect(few.map((m) => [m.resource_id, m.last_action_type, m.field_name])).toEqual(
      expect.arrayContaining([
        [two[0]!.id, 'update', 'number'],
        [two[1]!.id, 'delete', 'number'],
      ]),
    );
    expect(few.some((m) => m.resource_id === service.id)).toBe(false);
  }, 240_000);
});

describe('reading the trail in pages', () => {
  it('serves every entry of audit=all past 10,000 entries, by following Link headers, its creation included', async () => {
    const service = services[1]!;
    const target = `service:${service.id}`;
    await appendAudit(
      engine,
      target,
      'council-crm',
      ownFields('service', service.id, 3, 'create'),
      daysAgo(300),
    );
    for (let i = 0; i < 3; i++) {
      await appendAudit(
        engine,
        target,
        'charity-sync',
        ownFields('service', service.id, 3400),
        daysAgo(200 - i),
      );
    }
    const first = await app.request(`/services/${service.id}?audit=all`);
    expect(first.status).toBe(200);
    expect(first.headers.get('audit-total')).toBe('10203');
    expect(first.headers.get('link')).toMatch(
      new RegExp(`^<${service.id}\\?audit=all&audit_after=[A-Za-z0-9_-]+>; rel="next"$`),
    );
    expect(((await first.json()) as JsonObject).metadata).toHaveLength(
      1000 + (service.metadata?.length ?? 0),
    );

    const { entries, totals, pages } = await followTrail(
      `/services/${service.id}?audit=all&audit_per_page=4000`,
    );
    expect(pages).toBe(3);
    expect(new Set(totals)).toEqual(new Set([10_203]));
    expect(entries).toHaveLength(10_203);
    expect(new Set(entries.map((e) => e.id)).size).toBe(10_203);
    // Newest first, to the creation at the end.
    const dates = entries.map((e) => Date.parse(e.last_action_date as string));
    expect(dates).toEqual([...dates].sort((a, b) => b - a));
    expect(entries.slice(-3).map((e) => e.last_action_type)).toEqual(['create', 'create', 'create']);
  }, 120_000);

  it('serves every entry of the last write with audit=last, however many, in pages', async () => {
    const service = services[2]!;
    const target = `service:${service.id}`;
    await appendAudit(engine, target, 'council-crm', ownFields('service', service.id, 5), daysAgo(100));
    await appendAudit(engine, target, 'council-crm', ownFields('service', service.id, 1500), daysAgo(99));
    const { entries, totals, pages } = await followTrail(`/services/${service.id}?audit=last`);
    expect(pages).toBe(2);
    expect(totals).toEqual([1500, 1500]);
    expect(entries).toHaveLength(1500);
    const whole = await read(`/services/${service.id}?audit=last&audit_per_page=5000`);
    expect((whole.metadata as JsonObject[]).filter((m) => 'updated_by' in m)).toHaveLength(1500);
  }, 60_000);

  it('refuses a cursor it did not give, and a page size out of range', async () => {
    const path = `/services/${services[2]!.id}`;
    await expectProblem(app, `${path}?audit=all&audit_after=not-a-cursor`, 400, 'audit_after');
    await expectProblem(app, `${path}?audit=all&audit_per_page=5001`, 400, 'audit_per_page');
  });
});

describe('retention', () => {
  it('prunes entries older than AUDIT_RETENTION_DAYS, and none with 0', async () => {
    // A trail of its own: pruning here must not take other tests' entries.
    const own = createTestEngine('audit-retention');
    try {
      const target = `service:${services[3]!.id}`;
      const fields = (n: number) => ownFields('service', services[3]!.id, n);
      await appendAudit(own, target, 'council-crm', fields(2), daysAgo(40));
      await appendAudit(own, target, 'council-crm', fields(3), daysAgo(20));
      expect(await pruneAudit(own, 0)).toBe(0);
      expect(await entriesOf(target, own)).toBe(5);
      expect(await pruneAudit(own, 30)).toBe(2);
      expect(await entriesOf(target, own)).toBe(3);
      // Later, by the clock: the rest are past 30 days too.
      expect(await pruneAudit(own, 30, Date.now() + 15 * 86_400_000)).toBe(3);
      expect(await entriesOf(target, own)).toBe(0);
    } finally {
      await dropTestIndices(own);
    }
  });
});
