/**
 * `/services?postcode=&proximity=` keeps services with a location within the distance AND services
 * whose service area covers the point (issue 54: "services with a location within, or an area
 * covering"): a county helpline with no premises, a service whose place is far but which visits
 * the postcode. Those with a located place within come first, nearest first; covering ones with
 * no place within come after them. The fake postcodes.io answers AB10 1AB.
 */
import * as turf from '@turf/turf';
import type { Polygon } from 'geojson';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { App } from '../../src/api/types.ts';
import { getNdjson, getPage, type JsonObject } from '../support/api-requests.ts';
import { createTestApp, createTestEngine, dropTestIndices } from '../support/engine.ts';
import { type FakePostcodesIo, startFakePostcodesIo } from '../support/fake-postcodes-io.ts';
import { seedReadIndices } from '../support/seed.ts';

const engine = createTestEngine('services-coverage');
let fake: FakePostcodesIo;
let app: App;

const AB10_1AB = { lat: 57.149606, lon: -2.096916 };
type Place = { lat: number; lon: number };
const ORG = '0c000000-0000-4000-8000-000000000001';
const uuid = (group: number, n: number) =>
  `${group.toString(16).padStart(8, '0')}-0000-4000-8000-${n.toString(16).padStart(12, '0')}`;

function offset(from: Place, metres: number, bearing: number): Place {
  const [lon, lat] = turf.destination([from.lon, from.lat], metres / 1000, bearing).geometry.coordinates;
  return { lat: lat!, lon: lon! };
}
const circle = (centre: Place, metres: number): Polygon =>
  turf.circle([centre.lon, centre.lat], metres / 1000, { steps: 32 }).geometry;
const area = (n: number, shape: Polygon) => ({
  id: uuid(n, 100),
  name: `Area ${n}`,
  extent: JSON.stringify(shape),
  extent_type: 'geojson',
});

function service(
  n: number,
  name: string,
  places: Place[],
  areas: { service?: Polygon; place?: Polygon } = {},
) {
  return {
    id: uuid(n, 1),
    name,
    description: `${name} helps people in Aberdeen.`,
    status: 'active',
    organization_id: ORG,
    organization: { id: ORG, name: 'Aberdeen Trust', description: 'x' },
    ...(areas.service ? { service_areas: [area(n, areas.service)] } : {}),
    service_at_locations: places.map((at, i) => ({
      id: uuid(n, 10 + i),
      ...(areas.place ? { service_areas: [{ ...area(n, areas.place), id: uuid(n, 200 + i) }] } : {}),
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

// Near: a place 400 m away. County helpline: no place, an area 30 km round the postcode.
// Visiting: its only place 20 km away, its place's area covering the postcode. Elsewhere: an area
// and a place far away. Far place: a place 20 km away, no area.
const NEAR = service(1, 'Near pantry', [offset(AB10_1AB, 400, 90)]);
const HELPLINE = service(2, 'County helpline', [], { service: circle(AB10_1AB, 30_000) });
const VISITING = service(3, 'Visiting nurses', [offset(AB10_1AB, 20_000, 0)], {
  place: circle(offset(AB10_1AB, 20_000, 0), 25_000),
});
const ELSEWHERE = service(4, 'Elsewhere advice', [offset(AB10_1AB, 60_000, 180)], {
  service: circle(offset(AB10_1AB, 60_000, 180), 5_000),
});
const FAR_PLACE = service(5, 'Far place', [offset(AB10_1AB, 20_000, 270)]);
const ids = (items: JsonObject[]) => items.map((item) => item.id);

beforeAll(async () => {
  fake = await startFakePostcodesIo();
  app = createTestApp(engine, {
    GEOCODERS: 'postcodes-io',
    POSTCODES_IO_URL: fake.url,
    GEOCODER_FAILURE_TTL_MS: '0',
  });
  await seedReadIndices(engine, { services: [NEAR, HELPLINE, VISITING, ELSEWHERE, FAR_PLACE] });
});
afterAll(async () => {
  await fake?.close();
  await dropTestIndices(engine);
});

describe('/services?postcode=&proximity= and service areas', () => {
  it('keeps services whose area covers the point, after those with a place within, nearest first', async () => {
    const page = await getPage(app, '/services?postcode=AB10%201AB&proximity=2000', 'service_list_item');
    // The visiting service has a place (20 km) so it sorts by it; the helpline has none: last.
    expect(ids(page.contents)).toEqual([NEAR.id, VISITING.id, HELPLINE.id]);
  });

  it('does the same in a stream and a minimal list', async () => {
    const lines = await getNdjson(app, '/services?postcode=AB10%201AB&proximity=2000&format=ndjson');
    expect(ids(lines)).toEqual([NEAR.id, VISITING.id, HELPLINE.id]);
    const minimal = await app.request('/services?postcode=AB10%201AB&proximity=2000&minimal=true');
    expect(ids(((await minimal.json()) as { contents: JsonObject[] }).contents)).toEqual([
      NEAR.id,
      VISITING.id,
      HELPLINE.id,
    ]);
  });

  it('still finds a place within the distance whatever its areas say, and leaves out what neither reaches', async () => {
    const wide = await getPage(app, '/services?postcode=AB10%201AB&proximity=21000', 'service_list_item');
    expect(ids(wide.contents)).toEqual([NEAR.id, VISITING.id, FAR_PLACE.id, HELPLINE.id]);
    expect(ids(wide.contents)).not.toContain(ELSEWHERE.id);
  });

  it('lists every service, nearest place first, for a postcode without a distance', async () => {
    const all = await getPage(app, '/services?postcode=AB10%201AB', 'service_list_item');
    expect(ids(all.contents)).toEqual([NEAR.id, VISITING.id, FAR_PLACE.id, ELSEWHERE.id, HELPLINE.id]);
  });
});
