import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { booleanClockwise, booleanPointInPolygon, circle } from '@turf/turf';
import type { Polygon } from 'geojson';
import { describe, expect, it } from 'vitest';
import { type ExtentResult, parseExtent } from '../../../src/geo/extent.ts';

const FIXTURES = join(import.meta.dirname, '..', '..', 'fixtures', 'geojson');
const fixture = (name: string) => readFileSync(join(FIXTURES, name), 'utf8');
const fixturesIn = (dir: string) => readdirSync(join(FIXTURES, dir)).map((file) => `${dir}/${file}`);

function accepted(result: ExtentResult) {
  if (result.ok !== true) throw new Error(`expected ok, got ${JSON.stringify(result)}`);
  return result;
}

/** Every ring closed, outer rings counter-clockwise, holes clockwise. */
function expectWellFormed(result: ExtentResult) {
  const { geometry } = accepted(result);
  const polygons = geometry.type === 'Polygon' ? [geometry.coordinates] : geometry.coordinates;
  for (const rings of polygons) {
    rings.forEach((ring, i) => {
      expect(ring[0]).toEqual(ring[ring.length - 1]);
      expect(booleanClockwise(ring)).toBe(i > 0);
    });
  }
}

const CITY_CENTRE = [-2.094, 57.149]; // Aberdeen, near AB10 1AB
const HARBOUR = [-2.08, 57.142];
const STONEHAVEN = [-2.21, 56.963];

describe('parseExtent on valid fixtures', () => {
  it.each(fixturesIn('valid'))('accepts %s unchanged', (name) => {
    const result = parseExtent(fixture(name), 'geojson');
    expect(accepted(result).repairs).toEqual([]);
    expectWellFormed(result);
  });

  it('keeps a hole a hole', () => {
    const { geometry } = accepted(
      parseExtent(fixture('valid/aberdeen-harbour-hole.polygon.geojson'), 'geojson'),
    );
    expect(booleanPointInPolygon(CITY_CENTRE, geometry)).toBe(true);
    expect(booleanPointInPolygon(HARBOUR, geometry)).toBe(false);
  });

  it('unwraps a Feature and returns a MultiPolygon for several parts', () => {
    expect(accepted(parseExtent(fixture('valid/aberdeen.feature.geojson'), 'geojson')).geometry.type).toBe(
      'Polygon',
    );
    const multi = accepted(
      parseExtent(fixture('valid/aberdeen-and-stonehaven.geometry-collection.geojson'), 'geojson'),
    );
    expect(multi.geometry.type).toBe('MultiPolygon');
    expect(booleanPointInPolygon(STONEHAVEN, multi.geometry)).toBe(true);
  });

  it('accepts an already parsed object and a case-insensitive extent_type', () => {
    const object = JSON.parse(fixture('valid/aberdeen.polygon.geojson'));
    expect(accepted(parseExtent(object, ' GeoJSON ')).geometry).toEqual(object);
  });
});

describe('parseExtent repairs', () => {
  it.each([
    ['repairable/open-ring.polygon.geojson', ['closed 1 open ring']],
    [
      'repairable/clockwise-outer.polygon.geojson',
      ['reversed 2 rings to counter-clockwise outer, clockwise holes'],
    ],
    ['repairable/repeated-positions.polygon.geojson', ['removed 3 repeated positions']],
    ['repairable/with-altitude.polygon.geojson', ['dropped altitude from 9 positions']],
    ['repairable/overlapping-wards.feature-collection.geojson', ['merged 2 overlapping polygons into 1']],
  ])('repairs %s and says so', (name, repairs) => {
    const result = parseExtent(fixture(name), 'geojson');
    expect(accepted(result).repairs).toEqual(repairs);
    expectWellFormed(result);
  });

  it('repairs to the same shape as the valid original', () => {
    const original = accepted(
      parseExtent(fixture('valid/aberdeen-harbour-hole.polygon.geojson'), 'geojson'),
    ).geometry;
    for (const name of ['repairable/clockwise-outer.polygon.geojson']) {
      expect(accepted(parseExtent(fixture(name), 'geojson')).geometry).toEqual(original);
    }
    const single = accepted(parseExtent(fixture('valid/aberdeen.polygon.geojson'), 'geojson')).geometry;
    for (const name of ['open-ring', 'repeated-positions', 'with-altitude']) {
      expect(
        accepted(parseExtent(fixture(`repairable/${name}.polygon.geojson`), 'geojson')).geometry,
      ).toEqual(single);
    }
  });

  it('merges overlapping polygons into their union', () => {
    const { geometry } = accepted(
      parseExtent(fixture('repairable/overlapping-wards.feature-collection.geojson'), 'geojson'),
    );
    expect(geometry.type).toBe('Polygon');
    const ring = (geometry as Polygon).coordinates[0]!;
    const lons = ring.map((p) => p[0]!);
    expect([Math.min(...lons), Math.max(...lons)]).toEqual([-2.2, -2.04]);
  });

  it('leaves disjoint parts of a MultiPolygon alone', () => {
    const result = accepted(
      parseExtent(fixture('valid/aberdeen-and-stonehaven.multipolygon.geojson'), 'geojson'),
    );
    expect(result.geometry).toEqual(
      JSON.parse(fixture('valid/aberdeen-and-stonehaven.multipolygon.geojson')),
    );
  });
});

describe('parseExtent rejects', () => {
  it.each([
    ['invalid/bow-tie.polygon.geojson', 'extent.coordinates intersects itself at [-2.125, 57.15]'],
    [
      'invalid/eastings-northings.polygon.geojson',
      'extent.coordinates[0][0] [385000, 801000] is out of range (these look like metres',
    ],
    ['invalid/point.geojson', 'extent is a Point, which has no area'],
    ['invalid/river-dee.linestring.geojson', 'extent is a LineString, which has no area'],
    [
      'invalid/too-few-positions.polygon.geojson',
      'extent.coordinates[0] has 3 positions once closed; a ring needs at least 4',
    ],
    ['invalid/hole-outside.polygon.geojson', 'extent.coordinates[1] is a hole outside its outer ring'],
    ['invalid/unknown-type.geojson', 'extent has unknown GeoJSON type "Circle"'],
    ['invalid/mixed-with-point.feature-collection.geojson', 'extent.features[1].geometry is a Point'],
    ['invalid/wkt-not-json.txt', 'extent is not valid JSON'],
  ])('rejects %s', (name, reason) => {
    const result = parseExtent(fixture(name), 'geojson');
    expect(result.ok).toBe(false);
    expect('reason' in result && result.reason).toContain(reason);
  });

  it('covers every invalid fixture', () => {
    for (const name of fixturesIn('invalid'))
      expect(parseExtent(fixture(name), 'geojson').ok, name).toBe(false);
  });

  it.each([
    [
      {
        type: 'Polygon',
        coordinates: [
          [
            [-2.3, 57.1],
            [-2.2, 57.1],
            [-2.1, 57.1],
            [-2.3, 57.1],
          ],
        ],
      },
      'extent.coordinates intersects itself',
    ],
    [
      {
        type: 'Polygon',
        coordinates: [
          [
            [-200, 57.1],
            [-2.2, 57.1],
            [-2.1, 57.2],
            [-200, 57.1],
          ],
        ],
      },
      'longitude must be within ±180',
    ],
    [
      {
        type: 'Polygon',
        coordinates: [
          [
            [-2.3, '57.1'],
            [-2.2, 57.1],
            [-2.1, 57.2],
            [-2.3, 57.1],
          ],
        ],
      },
      'position of numbers',
    ],
    [{ type: 'Polygon', coordinates: [] }, 'extent.coordinates is not an array of rings'],
    [{ type: 'Polygon' }, 'extent.coordinates is not an array of rings'],
    [{ type: 'Feature', geometry: null, properties: {} }, 'extent has no geometry'],
    [{ type: 'FeatureCollection', features: [] }, 'extent contains no polygons'],
    [[1, 2, 3], 'extent is not a GeoJSON object'],
  ])('rejects %j', (extent, reason) => {
    const result = parseExtent(extent, 'geojson');
    expect(result.ok).toBe(false);
    expect('reason' in result && result.reason).toContain(reason);
  });

  it('rejects an empty extent', () => {
    expect(parseExtent('  ', 'geojson')).toEqual({ ok: false, reason: 'extent is empty' });
  });
});

describe('parseExtent with other extent types', () => {
  it.each(['topojson', 'kml', 'text'])('skips %s, keeping it out of coverage', (type) => {
    expect(parseExtent('Aberdeen City and Shire', type)).toEqual({
      ok: 'skipped',
      reason: `extent_type "${type}" is kept but not used for coverage (only geojson is)`,
    });
  });

  it('reads GeoJSON when extent_type is missing, and says so', () => {
    const result = parseExtent(fixture('valid/aberdeen.polygon.geojson'), undefined);
    expect(accepted(result).repairs).toEqual(['extent_type missing; read the extent as GeoJSON']);
    expect(parseExtent('Aberdeen City', null)).toEqual({
      ok: 'skipped',
      reason: 'extent_type is missing and extent is not GeoJSON',
    });
  });
});

describe('parseExtent on many realistic areas', () => {
  // How fast it is, is measured by the benchmarks (bench:ingest), not here: a shared machine's
  // load made a per-second bound fail for nothing.
  it('accepts every one of 2,000 council-sized circles', () => {
    // 128-vertex circles, about the detail of a simplified council boundary.
    const shapes = Array.from({ length: 2000 }, (_, i) =>
      JSON.stringify(
        circle([-2.1 + (i % 40) * 0.01, 57.1 + Math.floor(i / 40) * 0.005], 3, { steps: 128 }).geometry,
      ),
    );
    for (const shape of shapes) accepted(parseExtent(shape, 'geojson'));
  });
});
