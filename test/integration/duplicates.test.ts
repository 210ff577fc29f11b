/**
 * Duplicates across sources (src/duplicates) on the real engine: two sources publish one food bank
 * under different ids (worded, cased and formatted differently) and a charity's branch in another
 * town. The pair is listed with its evidence and the branch is not; marked the same, the kept
 * record is served once and the other id answers 301 to it, through a re-import and a reindex;
 * marked distinct, the pair is no longer listed and both are served; unmarked, it is listed again.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDuplicates } from '../../src/duplicates/index.ts';
import { importAndReindex, reindexWithProgress } from '../../src/ingest/publish/pipeline.ts';
import { getJson } from '../support/api-requests.ts';
import { createTestApp, createTestEngine, dropTestIndices } from '../support/engine.ts';

const engine = createTestEngine('duplicates');
const TOKEN = 'test-admin-token-duplicates-0123';
const app = createTestApp(engine, { ADMIN_TOKEN: TOKEN }, { duplicates: createDuplicates(engine) });
const auth = { authorization: `Bearer ${TOKEN}` };
let dir = '';

const id = (n: number) => `d0000000-0000-4000-8000-${String(n).padStart(12, '0')}`;
const KEPT = id(10); // the council's food bank
const OTHER = id(20); // the same food bank, as the charity publishes it
const BRANCH = id(30); // the charity's branch in another town

const service = (
  n: number,
  fields: { name: string; postcode: string; phone: string; email?: string; city: string; line: string },
) => ({
  id: id(n),
  name: fields.name,
  status: 'active',
  email: fields.email,
  url: 'https://northfoodbank.example.org/',
  organization: { id: id(n + 1), name: 'North Food Bank Trust' },
  phones: [{ id: id(n + 2), number: fields.phone }],
  service_at_locations: [
    {
      id: id(n + 3),
      location: {
        id: id(n + 4),
        name: fields.name,
        location_type: 'physical',
        addresses: [
          {
            id: id(n + 5),
            address_1: fields.line,
            city: fields.city,
            postal_code: fields.postcode,
            country: 'GB',
            address_type: 'physical',
            state_province: 'Aberdeen City',
          },
        ],
      },
    },
  ],
});

const council = [
  service(10, {
    name: 'Torry Food Bank',
    postcode: 'AB11 9QA',
    phone: '01224 123456',
    email: 'help@northfoodbank.example.org',
    city: 'Aberdeen',
    line: '12 Victoria Road',
  }),
];
const charity = (name = 'THE TORRY FOODBANK & Pantry') => [
  service(20, {
    name,
    postcode: 'ab119qa',
    phone: '+44 (0)1224 123-456',
    email: 'Help@NorthFoodBank.example.org',
    city: 'ABERDEEN',
    line: '12 Victoria Rd',
  }),
  service(30, {
    name: 'Torry Food Bank',
    postcode: 'AB51 3UR',
    phone: '01467 654321',
    email: 'help@northfoodbank.example.org',
    city: 'Inverurie',
    line: '3 Market Place',
  }),
];

async function importCharity(records: unknown[]) {
  await writeFile(join(dir, 'charity.json'), JSON.stringify(records));
  await importAndReindex(engine, join(dir, 'charity.json'), {
    sourceName: 'charity',
    sync: true,
    reportFile: false,
  });
}

type Pair = { ids: [string, string]; score: number; records: { sources: string[] }[]; evidence: Evidence[] };
type Evidence = { field: string; outcome: string; a: string[]; b: string[] };

async function listed(): Promise<Pair[]> {
  const { status, body } = await getJson<{ pairs: Pair[] }>(app, '/admin/duplicates?type=service', {
    headers: auth,
  });
  expect(status).toBe(200);
  return body.pairs;
}

const mark = (body: unknown) =>
  getJson(app, '/admin/duplicates/marks', {
    method: 'POST',
    headers: { ...auth, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });

async function serviceIds(): Promise<string[]> {
  const { body } = await getJson<{ contents: { id: string }[] }>(app, '/services?per_page=50');
  return body.contents.map((s) => s.id).sort();
}
/** What the change feed (include_deleted) says of a service since the tests began: deleted or not. */
async function inFeed(serviceId: string): Promise<{ id: string; deleted?: boolean } | undefined> {
  const { body } = await getJson<{ contents: { id: string; deleted?: boolean }[] }>(
    app,
    `/services?include_deleted=true&modified_after=${encodeURIComponent(started)}&per_page=50`,
  );
  return body.contents.find((s) => s.id === serviceId);
}
const started = new Date(Date.now() - 60_000).toISOString();

async function salServiceIds(): Promise<string[]> {
  const { body } = await getJson<{ contents: { service: { id: string } }[] }>(
    app,
    '/service_at_locations?per_page=50',
  );
  return body.contents.map((s) => s.service.id).sort();
}

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'hsds-duplicates-'));
  await writeFile(join(dir, 'council.json'), JSON.stringify(council));
  await importAndReindex(engine, join(dir, 'council.json'), { sourceName: 'council', reportFile: false });
  await importCharity(charity());
}, 120_000);

afterAll(async () => {
  await dropTestIndices(engine);
  await rm(dir, { recursive: true, force: true });
});

describe('listing duplicates across sources', () => {
  it('needs a token of the admin scope', async () => {
    expect((await getJson(app, '/admin/duplicates')).status).toBe(401);
  });

  it('lists the pair two sources publish under different ids, with the evidence, and not the branch', async () => {
    const pairs = await listed();
    expect(pairs.map((p) => p.ids)).toEqual([[KEPT, OTHER]]);
    const [pair] = pairs;
    expect(pair!.score).toBeGreaterThanOrEqual(0.6);
    expect(pair!.records.map((r) => r.sources)).toEqual([['council'], ['charity']]);
    const evidence = Object.fromEntries(pair!.evidence.map((e) => [e.field, e]));
    expect(evidence.postcode).toMatchObject({ outcome: 'same', a: ['AB11 9QA'], b: ['AB11 9QA'] });
    expect(evidence.phone).toMatchObject({ outcome: 'same', a: ['01224123456'], b: ['01224123456'] });
    expect(evidence.email).toMatchObject({ outcome: 'same' });
    expect(evidence.name?.outcome).toBe('similar');
  });
});

describe('marking a pair the same', () => {
  it('refuses a `same` mark without a kept id, and ids that are not records', async () => {
    expect((await mark({ type: 'service', ids: [KEPT, OTHER], decision: 'same' })).status).toBe(400);
    expect((await mark({ type: 'service', ids: [KEPT, id(99)], decision: 'distinct' })).status).toBe(404);
  });

  it('serves the kept record once; the other id answers 301 to it', async () => {
    const { status, body } = await mark({
      type: 'service',
      ids: [OTHER, KEPT],
      decision: 'same',
      keep: KEPT,
    });
    expect(status).toBe(200);
    expect(body).toMatchObject({ decision: 'same', keep: KEPT, merged: OTHER });
    expect(await serviceIds()).toEqual([KEPT, BRANCH].sort());
    expect(await salServiceIds()).toEqual([KEPT, BRANCH].sort());
    const res = await app.request(`/services/${OTHER}?provenance=true`);
    expect(res.status).toBe(301);
    expect(res.headers.get('location')).toBe(`${KEPT}?provenance=true`);
    // Followed, it is the kept record.
    const kept = await getJson(
      app,
      new URL(res.headers.get('location')!, `http://x/services/${OTHER}`).pathname,
    );
    expect(kept.body).toMatchObject({ id: KEPT, name: 'Torry Food Bank' });
    expect(await listed()).toEqual([]);
    // A harvester of the change feed learns the merged record went.
    expect(await inFeed(OTHER)).toMatchObject({ id: OTHER, deleted: true });
    // What is served is what the publish recorded: /health stays green.
    expect((await app.request('/health')).status).toBe(200);
  });

  it('survives a re-import that changes the merged record, and a reindex', async () => {
    await importCharity(charity('Torry Foodbank and Pantry'));
    expect(await serviceIds()).toEqual([KEPT, BRANCH].sort());
    expect((await app.request(`/services/${OTHER}`)).status).toBe(301);
    expect(await inFeed(OTHER)).toMatchObject({ id: OTHER, deleted: true });
    await reindexWithProgress(engine, { progress: false });
    expect(await serviceIds()).toEqual([KEPT, BRANCH].sort());
    expect(await salServiceIds()).toEqual([KEPT, BRANCH].sort());
    expect((await app.request(`/services/${OTHER}`)).status).toBe(301);
    expect(await listed()).toEqual([]);
    expect((await app.request('/health')).status).toBe(200);
  });
});

describe('marking a pair distinct, and undoing a mark', () => {
  it('serves both again and no longer lists the pair', async () => {
    const { status } = await mark({ type: 'service', ids: [KEPT, OTHER], decision: 'distinct' });
    expect(status).toBe(200);
    expect(await serviceIds()).toEqual([KEPT, OTHER, BRANCH].sort());
    expect((await getJson(app, `/services/${OTHER}`)).body).toMatchObject({ id: OTHER });
    expect((await inFeed(OTHER))?.deleted).toBeUndefined();
    expect(await listed()).toEqual([]);
    const marks = await getJson<{ marks: unknown[] }>(app, '/admin/duplicates/marks', { headers: auth });
    expect(marks.body.marks).toMatchObject([{ type: 'service', decision: 'distinct', ids: [KEPT, OTHER] }]);
  });

  it('lists the pair again once the mark is removed', async () => {
    const res = await app.request(`/admin/duplicates/marks?type=service&ids=${OTHER},${KEPT}`, {
      method: 'DELETE',
      headers: auth,
    });
    expect(res.status).toBe(200);
    expect((await listed()).map((p) => p.ids)).toEqual([[KEPT, OTHER]]);
    const again = await app.request(`/admin/duplicates/marks?type=service&ids=${OTHER},${KEPT}`, {
      method: 'DELETE',
      headers: auth,
    });
    expect(again.status).toBe(404);
  });
});
