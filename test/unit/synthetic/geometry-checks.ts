import {
  area,
  booleanClockwise,
  booleanDisjoint,
  booleanValid,
  booleanWithin,
  kinks,
  polygon,
} from '@turf/turf';
import type { Position } from 'geojson';

type Rings = Position[][];
export type ParsedArea =
  | { type: 'Polygon'; coordinates: Rings }
  | { type: 'MultiPolygon'; coordinates: Rings[] };

/**
 * Everything wrong with a generated area geometry, as messages (empty when it is sound): turf's
 * validity check, self-intersections, closed rings, RFC 7946 winding (exterior counter-clockwise,
 * holes clockwise), holes inside their exterior and apart from each other, and the parts of a
 * multipolygon disjoint.
 */
export function findGeometryProblems(geometry: ParsedArea): string[] {
  const polygons = geometry.type === 'Polygon' ? [geometry.coordinates] : geometry.coordinates;
  // Open or degenerate rings make the remaining checks meaningless (turf refuses them).
  const shapeProblems = polygons.flatMap((rings, p) =>
    rings.flatMap((ring, r) => {
      const first = ring[0];
      const last = ring.at(-1);
      if (ring.length < 4) return [`ring ${p}.${r} has fewer than 4 positions`];
      return !first || !last || first[0] !== last[0] || first[1] !== last[1]
        ? [`ring ${p}.${r} is not closed`]
        : [];
    }),
  );
  if (shapeProblems.length > 0) return shapeProblems;

  const problems: string[] = [];
  if (!booleanValid(geometry)) problems.push('turf booleanValid is false');
  polygons.forEach((rings, p) => {
    rings.forEach((ring, r) => {
      if (kinks(polygon([ring])).features.length > 0) problems.push(`ring ${p}.${r} crosses itself`);
      const clockwise = booleanClockwise(ring);
      if (r === 0 && clockwise) problems.push(`exterior ${p} is clockwise`);
      if (r > 0 && !clockwise) problems.push(`hole ${p}.${r} is counter-clockwise`);
    });
    const exterior = polygon([rings[0]!]);
    const holes = rings.slice(1).map((ring) => polygon([[...ring].reverse()]));
    holes.forEach((hole, h) => {
      if (!booleanWithin(hole, exterior)) problems.push(`hole ${p}.${h + 1} is not inside its exterior`);
      holes.slice(h + 1).forEach((other, o) => {
        if (!booleanDisjoint(hole, other)) problems.push(`holes ${p}.${h + 1} and ${p}.${h + o + 2} touch`);
      });
    });
  });
  for (let a = 0; a < polygons.length; a++) {
    for (let b = a + 1; b < polygons.length; b++) {
      if (!booleanDisjoint(polygon([polygons[a]![0]!]), polygon([polygons[b]![0]!]))) {
        problems.push(`parts ${a} and ${b} overlap`);
      }
    }
  }
  return problems;
}

export const areaSquareKm = (geometry: ParsedArea): number => area(geometry) / 1e6;

export const countHoles = (geometry: ParsedArea): number =>
  (geometry.type === 'Polygon' ? [geometry.coordinates] : geometry.coordinates).reduce(
    (sum, rings) => sum + rings.length - 1,
    0,
  );
