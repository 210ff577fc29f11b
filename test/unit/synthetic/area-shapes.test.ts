import { describe, expect, it } from 'vitest';
import {
  blobRing,
  circleRing,
  distanceMetres,
  polygonWithHoles,
  separateCircles,
  stringifyGeometry,
} from '../../../src/synthetic/area-shapes.ts';
import { SeededRandom } from '../../../src/synthetic/seeded-random.ts';
import { areaSquareKm, countHoles, findGeometryProblems } from './geometry-checks.ts';

const aberdeen = { lat: 57.149606, lon: -2.096916 };
const london = { lat: 51.498972, lon: -0.071609 };

describe('circleRing', () => {
  it('is a closed counter-clockwise ring whose area is close to the circle it stands for', () => {
    const geometry = { type: 'Polygon' as const, coordinates: [circleRing(aberdeen, 2_000)] };
    expect(findGeometryProblems(geometry)).toEqual([]);
    expect(areaSquareKm(geometry)).toBeGreaterThan(Math.PI * 4 * 0.97);
    expect(areaSquareKm(geometry)).toBeLessThan(Math.PI * 4 * 1.01);
  });

  it('puts its vertices at the radius', () => {
    for (const [lon, lat] of circleRing(aberdeen, 5_000)) {
      expect(distanceMetres(aberdeen, { lat: lat!, lon: lon! })).toBeCloseTo(5_000, -1);
    }
  });
});

describe('blobRing', () => {
  it('stays outside its reported smallest radius and is a valid simple polygon', () => {
    const random = new SeededRandom(3, 3);
    for (let i = 0; i < 20; i++) {
      const { ring, minRadius } = blobRing(random, aberdeen, 50_000, 0.25);
      expect(minRadius).toBeGreaterThan(50_000 * 0.7);
      // The ring is built in a flat approximation at the centre's latitude; at 50 km it is within 1%.
      for (const [lon, lat] of ring) {
        expect(distanceMetres(aberdeen, { lat: lat!, lon: lon! })).toBeGreaterThan(minRadius * 0.99);
      }
      expect(findGeometryProblems({ type: 'Polygon', coordinates: [ring] })).toEqual([]);
    }
  });
});

describe('polygonWithHoles', () => {
  it('keeps holes that fit, clockwise and inside the exterior', () => {
    const exterior = blobRing(new SeededRandom(1, 1), aberdeen, 10_000, 0.2);
    const geometry = polygonWithHoles(exterior, aberdeen, [
      { centre: { lat: aberdeen.lat + 0.02, lon: aberdeen.lon }, radius: 1_500 },
      { centre: { lat: aberdeen.lat - 0.02, lon: aberdeen.lon }, radius: 1_500 },
    ]);
    expect(countHoles(geometry)).toBe(2);
    expect(findGeometryProblems(geometry)).toEqual([]);
  });

  it('shrinks a hole that would reach the exterior and drops one that cannot fit', () => {
    const exterior = blobRing(new SeededRandom(1, 2), aberdeen, 10_000, 0.2);
    const reaching = polygonWithHoles(exterior, aberdeen, [
      { centre: { lat: aberdeen.lat + 0.05, lon: aberdeen.lon }, radius: 5_000 },
    ]);
    expect(countHoles(reaching)).toBe(1);
    expect(findGeometryProblems(reaching)).toEqual([]);
    const outside = polygonWithHoles(exterior, aberdeen, [{ centre: london, radius: 1_000 }]);
    expect(countHoles(outside)).toBe(0);
  });
});

describe('separateCircles', () => {
  it('shrinks or leaves out circles so that the rest keep apart', () => {
    const near = { lat: aberdeen.lat + 0.01, lon: aberdeen.lon }; // about 1.1 km north
    const kept = separateCircles(
      [
        { centre: aberdeen, radius: 600 },
        { centre: near, radius: 2_000 },
        { centre: { lat: aberdeen.lat + 0.0001, lon: aberdeen.lon }, radius: 800 },
      ],
      300,
    );
    expect(kept).toHaveLength(2);
    expect(kept[1]!.radius).toBeLessThan(2_000);
    expect(kept[0]!.radius + kept[1]!.radius).toBeLessThan(distanceMetres(aberdeen, near));
    const geometry = {
      type: 'MultiPolygon' as const,
      coordinates: kept.map((c) => [circleRing(c.centre, c.radius)]),
    };
    expect(findGeometryProblems(geometry)).toEqual([]);
  });
});

describe('stringifyGeometry', () => {
  it('writes the same text as JSON.stringify', () => {
    const random = new SeededRandom(9, 9);
    const exterior = blobRing(random, london, 3_000);
    const samples = [
      { type: 'Polygon' as const, coordinates: [circleRing(london, 700)] },
      polygonWithHoles(exterior, london, [{ centre: london, radius: 500 }]),
      {
        type: 'MultiPolygon' as const,
        coordinates: [[circleRing(aberdeen, 400)], [circleRing({ lat: 0.0000004, lon: -0.3 }, 900)]],
      },
    ];
    for (const geometry of samples) expect(stringifyGeometry(geometry)).toBe(JSON.stringify(geometry));
  });
});

describe('findGeometryProblems (the checker the generator tests rely on)', () => {
  it('reports clockwise exteriors, open rings, bow-ties, stray holes and overlapping parts', () => {
    const ring = circleRing(aberdeen, 1_000);
    expect(findGeometryProblems({ type: 'Polygon', coordinates: [[...ring].reverse()] })).toContain(
      'exterior 0 is clockwise',
    );
    expect(findGeometryProblems({ type: 'Polygon', coordinates: [ring.slice(0, -1)] })).toContain(
      'ring 0.0 is not closed',
    );
    const bowTie = [
      [0, 0],
      [1, 1],
      [1, 0],
      [0, 1],
      [0, 0],
    ];
    expect(findGeometryProblems({ type: 'Polygon', coordinates: [bowTie] })).toContain(
      'ring 0.0 crosses itself',
    );
    const strayHole = circleRing(london, 100, true);
    expect(findGeometryProblems({ type: 'Polygon', coordinates: [ring, strayHole] })).toContain(
      'hole 0.1 is not inside its exterior',
    );
    const overlapping = circleRing({ lat: aberdeen.lat + 0.005, lon: aberdeen.lon }, 1_000);
    expect(findGeometryProblems({ type: 'MultiPolygon', coordinates: [[ring], [overlapping]] })).toContain(
      'parts 0 and 1 overlap',
    );
  });
});
