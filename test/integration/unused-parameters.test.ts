/**
 * What the API did not use, it says: a query parameter a route does not take is named in the
 * `Ignored-Parameters` header and the page's `ignored_parameters` (or, with
 * `STRICT_PARAMETERS=true`, refused with a 400 naming it). And `/services` takes `postcode` and
 * `proximity`, which it used to ignore: services nearest first, within the distance.
 *
 * Four services around AB10 1AB whose order can be worked out on paper, one of them virtual; the
 * app's real geocoder chain talks to a fake postcodes.io (test/support/fake-postcodes-io.ts).
 */
import * as turf from '@turf/turf';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { App } from '../../src/api/types.ts';
import { expectProblem, getNdjson, getPage, type JsonObject } from '../support/api-requests.ts';
import { createTestApp, createTestEngine, dropTestIndices } from '../support/engine.ts';
import { type FakePostcodesIo, startFakePostcodesIo } from '../support/fake-postcodes-io.ts';
import { seedReadIndices } from '../support/seed.ts';

const engine = createTestEngine('unused-parameters');
let fake: FakePostcodesIo;
let app: App;
let strict: App;

const AB10_1AB = { lat: 57.149606, lon: -2.096916 };
type Place = { lat: number; lon: number };
const ORG = '0b000000-0000-4000-8000-000000000001';
const uuid = (group: number, n: number) =>
  `${group.toString(16).padStart(8, '0')}-0000-4000-8000-${n.toString(16).padStart(12, '0')}`;

function offset(from: Place, metres: number, bearing: number): Place {
  const [lon, lat] = turf.destination([from.lon, from.lat], metres / 1000, bearing).geometry.coordinates;
  return { lat: lat!, lon: lon! };
}

/** A service with one location per place given (none: a virtual service). */
function service(n: number, name: string, places: Place[]) {
  return {
    id: uuid(n, 1),
    name,
    description: `${name} helps people in Aberdeen with food.`,
    status: 'active',
    organization_id: ORG,
    organization: { id: ORG, name: 'Aberdeen Trust', description: 'x' },
    last_modified: '2025-06-01T00:00:00.000Z',
    service_at_locations: places.map((at, i) => ({
      id: uuid(n, 10 + i),
      location: {
        id: uuid(n, 20 + i),
        location_type: 'physical',
        name: `${name} ${i}`,
        latitude: at.lat,
        longitude: at.lon,
      },
    })),
  };
}

// Alphabetical order is the reverse of distance order, so a sort by name cannot pass for nearness.
const NEAR = service(1, 'Zeta near', [offset(AB10_1AB, 400, 90)]);
// Its far location is 9 km away, its near one 1.5 km: ranked by the nearest.
const MIDDLE = service(2, 'Mu middle', [offset(AB10_1AB, 9_000, 0), offset(AB10_1AB, 1_500, 180)]);
const FAR = service(3, 'Beta far', [offset(AB10_1AB, 5_000, 270)]);
const VIRTUAL = service(4, 'Alpha helpline', []);
const ALL = [NEAR, MIDDLE, FAR, VIRTUAL];
const ids = (items: JsonObject[]) => items.map((item) => item.id);

beforeAll(async () => {
  fake = await startFakePostcodesIo();
  const geocoding = { GEOCODERS: 'postcodes-io', POSTCODES_IO_URL: fake.url, GEOCODER_FAILURE_TTL_MS: '0' };
  app = createTestApp(engine, geocoding);
  strict = createTestApp(engine, { ...geocoding, STRICT_PARAMETERS: 'true' });
  await seedReadIndices(engine, { services: ALL });
});
afterAll(async () => {
  await fake?.close();
  await dropTestIndices(engine);
});

describe('parameters a route does not take', () => {
  it('serves the answer and names them in a header and in the page', async () => {
    const res = await app.request('/services?serch=food&per_page=10&utm_source=x&utm_source=y');
    expect(res.status).toBe(200);
    expect(res.headers.get('ignored-parameters')).toBe('serch, utm_source');
    expect(res.headers.get('access-control-expose-headers')).toContain('Ignored-Parameters');
    const page = (await res.json()) as { total_items: number; ignored_parameters: string[] };
    expect(page.total_items).toBe(ALL.length);
    expect(page.ignored_parameters).toEqual(['serch', 'utm_source']);
  });

  it('says nothing when every parameter was used', async () => {
    const res = await app.request('/services?search=food&per_page=10');
    expect(res.headers.get('ignored-parameters')).toBeNull();
    expect(await res.json()).not.toHaveProperty('ignored_parameters');
  });

  it('names them on every documented route: a record, another list, a POST twin', async () => {
    const record = await app.request(`/services/${NEAR.id}?full=true`);
    expect(record.status).toBe(200);
    expect(record.headers.get('ignored-parameters')).toBe('full');
    const terms = await app.request('/taxonomy_terms?serch=x');
    expect(terms.headers.get('ignored-parameters')).toBe('serch');
    expect(((await terms.json()) as JsonObject).ignored_parameters).toEqual(['serch']);
    const posted = await app.request('/services?serch=food', { method: 'POST' });
    expect(posted.status).toBe(200);
    expect(posted.headers.get('ignored-parameters')).toBe('serch');
  });

  it("names a POST twin's body fields it does not take, and still reads the body", async () => {
    const json = await app.request('/services', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ search: 'helpline', serch: 'food', per_page: 10 }),
    });
    expect(json.status).toBe(200);
    expect(json.headers.get('ignored-parameters')).toBe('serch');
    const page = (await json.json()) as { contents: JsonObject[]; ignored_parameters: string[] };
    expect(ids(page.contents)).toEqual([VIRTUAL.id]);
    expect(page.ignored_parameters).toEqual(['serch']);
    const form = await app.request('/services', {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: 'search=helpline&colour=red',
    });
    expect(form.headers.get('ignored-parameters')).toBe('colour');
    expect(ids(((await form.json()) as { contents: JsonObject[] }).contents)).toEqual([VIRTUAL.id]);
    await expectProblem(app, '/services', 400, '(body)', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{"search": ',
    });
    // A form body that does not parse (multipart without a boundary, or a part without headers) is
    // the validator's 400, never a 500, though this check read the body first.
    for (const [type, body] of [
      ['multipart/form-data', '{"search": "food"}'],
      ['multipart/form-data; boundary=b0', '--b0\r\nFalse--b0--\r\n'],
    ] as const) {
      const answer = await app.request('/services', {
        method: 'POST',
        headers: { 'content-type': type },
        body,
      });
      expect(answer.status, type).toBe(400);
    }
    const body = await expectProblem(strict, '/services', 400, 'serch', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ serch: 'food' }),
    });
    expect(body.errors).toEqual([expect.objectContaining({ parameter: 'serch', in: 'body' })]);
  });

  it('percent-encodes names a header cannot carry', async () => {
    const res = await app.request('/services?caf%C3%A9=1&a%2Cb=2');
    expect(res.headers.get('ignored-parameters')).toBe('caf%C3%A9, a%2Cb');
  });

  it('with STRICT_PARAMETERS=true, refuses them with a 400 naming each', async () => {
    const body = await expectProblem(strict, '/services?serch=food&colour=red', 400, 'serch');
    expect(body.errors?.map((e) => e.parameter)).toEqual(['serch', 'colour']);
    await expectProblem(strict, `/services/${NEAR.id}?full=true`, 400, 'full');
    await expectProblem(strict, '/services?serch=food', 400, 'serch', { method: 'POST' });
    const fine = await strict.request('/services?search=food&postcode=AB10%201AB');
    expect(fine.status).toBe(200);
  });
});

describe('/services?postcode=', () => {
  it('sorts services by their nearest location, the virtual one last, and says which centroid', async () => {
    const res = await app.request('/services?postcode=AB10%201AB&per_page=10');
    expect(res.status).toBe(200);
    expect(res.headers.get('ignored-parameters')).toBeNull();
    expect(res.headers.get('postcode-matched')).toBe('AB10 1AB');
    const page = (await res.json()) as { contents: JsonObject[] };
    expect(ids(page.contents)).toEqual([NEAR, MIDDLE, FAR, VIRTUAL].map((s) => s.id));
  });

  it('keeps, with proximity, the services with a location within the distance', async () => {
    const near = await getPage(app, '/services?postcode=AB10%201AB&proximity=2000', 'service_list_item');
    expect(ids(near.contents)).toEqual([NEAR.id, MIDDLE.id]);
    const wide = await getPage(
      app,
      '/services?postcode=AB10%201AB&proximity=6000&search=food',
      'service_list_item',
    );
    expect(ids(wide.contents).sort()).toEqual([NEAR.id, MIDDLE.id, FAR.id].sort());
  });

  it('streams them in the same order, and as a minimal list', async () => {
    const lines = await getNdjson(app, '/services?postcode=AB10%201AB&proximity=6000&format=ndjson');
    expect(ids(lines)).toEqual([NEAR.id, MIDDLE.id, FAR.id]);
    const minimal = await app.request('/services?postcode=AB10%201AB&proximity=2000&minimal=true');
    expect(ids(((await minimal.json()) as { contents: JsonObject[] }).contents)).toEqual([
      NEAR.id,
      MIDDLE.id,
    ]);
  });

  it('refuses what it cannot measure from', async () => {
    await expectProblem(app, '/services?proximity=1000', 400, 'proximity');
    await expectProblem(app, '/services?postcode=not-a-postcode', 400, 'postcode');
    const unknown = await expectProblem(app, '/services?postcode=ZZ99%209ZZ', 400, 'postcode');
    expect(unknown).toMatchObject({ type: expect.stringContaining('unknown-postcode') });
  });
});
