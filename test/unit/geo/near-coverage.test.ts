import { booleanPointInPolygon, circle, destination, distance } from '@turf/turf';
import type { Geometry, Position } from 'geojson';
import { describe, expect, it } from 'vitest';
import { boxAround, NEAR_COVERAGE_METRES, nearCoverage, polygonsOf } from '../../../src/geo/near-coverage.ts';
import { findSelfIntersections } from '../../../src/geo/self-intersections.ts';

/** A deterministic generator, so a failure can be replayed. */
function random(seed: number) {
  let state = seed;
  return () => {
    state = (state * 1_103_515_245 + 12_345) % 2 ** 31;
    return state / 2 ** 31;
  };
}

const contains = (geometry: Geometry | undefined, at: Position): boolean =>
  geometry !== undefined &&
  polygonsOf(geometry).some((rings) => booleanPointInPolygon(at, { type: 'Polygon', coordinates: rings }));

const vertices = (geometry: Geometry | undefined): number =>
  geometry ? polygonsOf(geometry).reduce((sum, rings) => sum + rings.flat().length, 0) : 0;

const circleAround = (at: Position, km: number, steps = 32) =>
  circle(at, km, { steps, units: 'kilometers' }).geometry;

/** A concave star: spikes reaching `outer` km, notches at `inner` km. */
function star(at: Position, outer: number, inner: number, spikes = 9): Position[] {
  const ring: Position[] = [];
  for (let i = 0; i < spikes * 2; i++) {
    const km = i % 2 === 0 ? outer : inner;
    ring.push(destination(at, km, (i * 180) / spikes, { units: 'kilometers' }).geometry.coordinates);
  }
  ring.push(ring[0] as Position);
  return ring;
}

/** Coverage shapes around a location (lon, lat), small and large, convex and not, holed, in collections. */
function shapesAround(at: Position): Record<string, Geometry> {
  const aside = destination(at, 8, 60, { units: 'kilometers' }).geometry.coordinates;
  const holed = {
    type: 'Polygon',
    coordinates: [circleAround(at, 20).coordinates[0], [...circleAround(at, 2).coordinates[0]!].reverse()],
  } as Geometry;
  return {
    'small circle': circleAround(at, 2),
    'large circle': circleAround(at, 30, 64),
    'circle far aside': circleAround(
      destination(at, 40, 90, { units: 'kilometers' }).geometry.coordinates,
      10,
    ),
    'concave star': { type: 'Polygon', coordinates: [star(at, 25, 3)] },
    'star off centre': { type: 'Polygon', coordinates: [star(aside, 12, 2, 7)] },
    'ring with a hole at the location': holed,
    collection: {
      type: 'GeometryCollection',
      geometries: [circleAround(at, 15), { type: 'Polygon', coordinates: [star(aside, 9, 4, 5)] }],
    },
  };
}

describe('boxAround', () => {
  it('holds every point within the distance, at any latitude it serves', () => {
    for (const lat of [0, 35.5, 57.1, -62, 80]) {
      const box = boxAround(lat, 10, NEAR_COVERAGE_METRES);
      expect(box, String(lat)).toBeDefined();
      const [west, south, east, north] = box as number[];
      for (let bearing = 0; bearing < 360; bearing += 5) {
        const [x, y] = destination([10, lat], NEAR_COVERAGE_METRES, bearing, { units: 'meters' }).geometry
          .coordinates as [number, number];
        expect(
          x > (west as number) && x < (east as number) && y > (south as number) && y < (north as number),
        ).toBe(true);
      }
    }
  });

  it('gives no box where one in degrees would not be simple: near a pole, across the antimeridian', () => {
    expect(boxAround(84.99, 0, NEAR_COVERAGE_METRES)).toBeUndefined();
    expect(boxAround(-84.99, 0, NEAR_COVERAGE_METRES)).toBeUndefined();
    expect(boxAround(10, 179.99, NEAR_COVERAGE_METRES)).toBeUndefined();
    expect(boxAround(10, -179.99, NEAR_COVERAGE_METRES)).toBeUndefined();
  });
});

describe('nearCoverage', () => {
  const next = random(7);
  const locations: Position[] = [
    [-2.1, 57.15],
    [-98.5, 39.8],
    [151.2, -33.9],
    [0.0005, 51.48],
  ];

  it('contains exactly the points the coverage contains, for every point within the distance', () => {
    for (const at of locations) {
      for (const [name, coverage] of Object.entries(shapesAround(at))) {
        const near = nearCoverage(coverage, { lon: at[0] as number, lat: at[1] as number });
        for (let i = 0; i < 400; i++) {
          // Evenly over the disc, and a share right at its rim.
          const metres =
            i % 10 === 0 ? NEAR_COVERAGE_METRES * 0.999 : NEAR_COVERAGE_METRES * Math.sqrt(next());
          const p = destination(at, metres, next() * 360 - 180, { units: 'meters' }).geometry.coordinates;
          expect(distance(at, p, { units: 'meters' })).toBeLessThanOrEqual(NEAR_COVERAGE_METRES);
          expect(contains(near, p), `${name} at ${at} for ${p}`).toBe(contains(coverage, p));
        }
      }
    }
  });

  it('leaves large shapes smaller and every shape one the engine indexes', () => {
    for (const at of locations) {
      const shapes = shapesAround(at);
      const location = { lon: at[0] as number, lat: at[1] as number };
      for (const [name, coverage] of Object.entries(shapes)) {
        const near = nearCoverage(coverage, location);
        for (const rings of near ? polygonsOf(near) : [])
          expect(findSelfIntersections(rings, 1), `${name} at ${at}`).toEqual([]);
      }
      // A 30 km circle clipped to a box of about 10 km: the box's four corners and closing point.
      expect(vertices(nearCoverage(shapes['large circle'] as Geometry, location))).toBe(5);
      expect(nearCoverage(shapes['small circle'] as Geometry, location)).toEqual(shapes['small circle']);
      expect(nearCoverage(shapes['circle far aside'] as Geometry, location)).toBeUndefined();
      // Concave: cut where each spike leaves the box, so more corners, but nothing beyond the box.
      const [west, south, east, north] = boxAround(
        location.lat,
        location.lon,
        NEAR_COVERAGE_METRES,
      ) as number[];
      const cut = nearCoverage(shapes['concave star'] as Geometry, location) as Geometry;
      for (const [x, y] of polygonsOf(cut).flat(2) as [number, number][])
        expect(
          x >= (west as number) && x <= (east as number) && y >= (south as number) && y <= (north as number),
        ).toBe(true);
    }
  });

  it('keeps the coverage whole where no box applies', () => {
    const coverage = circleAround([179.99, 10], 30);
    expect(nearCoverage(coverage, { lon: 179.99, lat: 10 })).toBe(coverage);
  });

  it('leaves out what lies beyond the distance from the location: no search within the distance asks there', () => {
    const at: Position = [-2.1, 57.15];
    const far = destination(at, 20, 0, { units: 'kilometers' }).geometry.coordinates;
    const coverage = circleAround(at, 30);
    expect(contains(coverage, far)).toBe(true);
    expect(contains(nearCoverage(coverage, { lon: -2.1, lat: 57.15 }), far)).toBe(false);
  });
});
