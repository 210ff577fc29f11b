import { booleanPointInPolygon, circle, destination } from '@turf/turf';
import type { Geometry, Polygon, Position } from 'geojson';
import { describe, expect, it } from 'vitest';
import {
  clipPolygon,
  coverageCells,
  MAX_CELL_LEVEL,
  pointCells,
  polygonCells,
  polygonsOf,
} from '../../../src/geo/coverage-cells.ts';
import { boxOf, type Rings } from '../../../src/geo/rings.ts';
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

/** What a search answers from the cells and the edge: one of the point's cells is inside, or the edge holds it. */
function answers(coverage: Geometry, at: Position): boolean {
  const { cells, edge } = coverageCells(coverage);
  const inside = new Set(cells);
  return (
    pointCells({ lon: at[0] as number, lat: at[1] as number }).some((cell) => inside.has(cell)) ||
    contains(edge, at)
  );
}

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

/** Coverage shapes around a place (lon, lat): small and large, convex and not, holed, in collections. */
function shapesAround(at: Position): Record<string, Geometry> {
  const aside = destination(at, 8, 60, { units: 'kilometers' }).geometry.coordinates;
  const [lon, lat] = at as [number, number];
  return {
    'small circle': circleAround(at, 0.4),
    'large circle': circleAround(at, 30, 64),
    'concave star': { type: 'Polygon', coordinates: [star(at, 25, 3)] },
    'star off centre': { type: 'Polygon', coordinates: [star(aside, 12, 2, 7)] },
    'ring with a hole': {
      type: 'Polygon',
      coordinates: [circleAround(at, 20).coordinates[0]!, [...circleAround(at, 2).coordinates[0]!].reverse()],
    },
    // Its sides lie on cell borders of every level from 3 down: points on them are on the boundary.
    'square on the grid': {
      type: 'Polygon',
      coordinates: [
        [
          [Math.floor(lon), Math.floor(lat)],
          [Math.floor(lon) + 1, Math.floor(lat)],
          [Math.floor(lon) + 1, Math.floor(lat) + 1],
          [Math.floor(lon), Math.floor(lat) + 1],
          [Math.floor(lon), Math.floor(lat)],
        ],
      ],
    },
    'two polygons': {
      type: 'MultiPolygon',
      coordinates: [circleAround(at, 3).coordinates, circleAround(aside, 2).coordinates],
    },
    'overlapping collection': {
      type: 'GeometryCollection',
      geometries: [circleAround(at, 15), { type: 'Polygon', coordinates: [star(aside, 9, 4, 5)] }],
    },
  };
}

const places: Position[] = [
  [-2.1, 57.15],
  [-98.5, 39.8],
  [151.2, -33.9],
  [0.0005, 51.48],
];

describe('coverageCells', () => {
  const next = random(7);

  it('answers exactly what the whole shape answers, inside, outside and on its boundary', () => {
    for (const at of places) {
      for (const [name, coverage] of Object.entries(shapesAround(at))) {
        const polygons = polygonsOf(coverage);
        const boxes = polygons.map(boxOf);
        const west = Math.min(...boxes.map((b) => b[0]));
        const south = Math.min(...boxes.map((b) => b[1]));
        const east = Math.max(...boxes.map((b) => b[2]));
        const north = Math.max(...boxes.map((b) => b[3]));
        const points: Position[] = [];
        // Over the shape's box and a little beyond it ...
        for (let i = 0; i < 600; i++) {
          const x = west - (east - west) * 0.05 + next() * (east - west) * 1.1;
          const y = south - (north - south) * 0.05 + next() * (north - south) * 1.1;
          points.push([x, y]);
        }
        // ... its vertices, and points on its sides where they are exact (the square's).
        for (const rings of polygons) {
          for (const ring of rings) {
            for (let i = 1; i < ring.length; i += 1) {
              const [x0, y0] = ring[i - 1] as [number, number];
              const [x1, y1] = ring[i] as [number, number];
              points.push([x0, y0]);
              if (name === 'square on the grid') {
                for (const t of [0.125, 0.5, 0.75]) points.push([x0 + (x1 - x0) * t, y0 + (y1 - y0) * t]);
              }
            }
          }
        }
        let inside = 0;
        for (const p of points) {
          const expected = contains(coverage, p);
          if (expected) inside += 1;
          expect(answers(coverage, p), `${name} at ${at} for ${p}`).toBe(expected);
        }
        expect(inside, name).toBeGreaterThan(50);
      }
    }
  });

  it('answers most points of a large shape from its cells, and keeps the edge near the boundary', () => {
    const coverage = circleAround([-2.1, 57.15], 20);
    const { cells, edge } = coverageCells(coverage);
    expect(cells.length).toBeGreaterThan(0);
    const inside = new Set(cells);
    let byCell = 0;
    let total = 0;
    for (let i = 0; i < 500; i++) {
      const p = destination([-2.1, 57.15], 20 * Math.sqrt(next()), next() * 360 - 180, {
        units: 'kilometers',
      }).geometry.coordinates;
      if (!contains(coverage, p)) continue;
      total += 1;
      if (pointCells({ lon: p[0] as number, lat: p[1] as number }).some((c) => inside.has(c))) byCell += 1;
    }
    expect(byCell / total).toBeGreaterThan(0.6);
    // The centre is far from the boundary: no edge piece holds it.
    expect(contains(edge, [-2.1, 57.15])).toBe(false);
  });

  it('gives edges the engine indexes: no ring crossing or touching itself, no point repeated', () => {
    for (const at of places) {
      for (const [name, coverage] of Object.entries(shapesAround(at))) {
        const { edge } = coverageCells(coverage);
        for (const rings of edge ? polygonsOf(edge) : []) {
          expect(findSelfIntersections(rings, 1), name).toEqual([]);
          // The engine refuses a point repeated at once.
          for (const ring of rings)
            for (let i = 1; i < ring.length; i++) expect(ring[i], name).not.toEqual(ring[i - 1]);
        }
      }
    }
  });

  it('clips a convex ring whose corners lie on the box edge without repeating them', () => {
    const diamond: Rings = [
      [
        [0, 0],
        [1, -1],
        [2, 0],
        [1, 1],
        [0, 0],
      ],
    ];
    const half = [
      [
        [
          [0, 0],
          [1, -1],
          [1, 1],
          [0, 0],
        ],
      ],
    ];
    expect(clipPolygon(diamond, [-1, -2, 1, 2], true)).toEqual(half);
    expect(clipPolygon(diamond, [-1, -2, 1, 2], false)).toEqual(half);
  });

  it('keeps a shape spanning more than half the world whole, with no cells', () => {
    const wide: Polygon = {
      type: 'Polygon',
      coordinates: [
        [
          [-170, 10],
          [170, 10],
          [170, 20],
          [-170, 20],
          [-170, 10],
        ],
      ],
    };
    expect(polygonCells(wide.coordinates)).toEqual({ cells: [], edge: [wide.coordinates] });
  });

  it('refines no further than the finest level', () => {
    const at: Position = [-2.1, 57.15];
    const tiny = circleAround(at, 0.001, 8);
    const { cells } = polygonCells(tiny.coordinates as Rings);
    for (const cell of cells) expect(Number(cell.split('/')[0])).toBeLessThanOrEqual(MAX_CELL_LEVEL);
    expect(pointCells({ lon: -2.1, lat: 57.15 })).toHaveLength(MAX_CELL_LEVEL + 1);
  });
});
