/**
 * The part of a coverage shape near its own location, for proximity searches (DESIGN.md section 5).
 *
 * A search with a point and a proximity keeps results whose location is within the proximity of
 * the point AND whose coverage contains the point. Such a point lies in a box around the location
 * that spans the proximity, so for those results "the coverage contains the point" and "the
 * coverage clipped to that box contains the point" are the same answer. The engine's shape query
 * walks every triangle whose bounds hold the point; clipping the large areas (a county, a 20 km
 * circle) to the box leaves far fewer and smaller triangles: measured on 162,112 Aberdeen
 * service_at_locations, 100 postcodes with 5 km, the engine's time went from 26.4 to 19.8 ms a
 * search (US data: 4.6 to 2.8 ms), with identical totals and pages.
 *
 * Exactness comes first. A clip that leaves a shape the engine's tessellator could refuse (a
 * clipped concave ring folding onto the box edge, a hole touching its ring) is tried again with an
 * exact polygon intersection, and when that fails too the polygon is kept whole: whole is exact
 * as well, only not smaller. Near the poles and the antimeridian, where a box in degrees does not
 * hold the circle simply, the coverage is kept whole.
 */

import { bboxClip, bboxPolygon, featureCollection, intersect, polygon as turfPolygon } from '@turf/turf';
import type { Geometry, Polygon, Position } from 'geojson';
import { type Box, boxesOverlap, boxOf, MIN_AREA, type Rings, signedArea } from './rings.ts';
import { findSelfIntersections } from './self-intersections.ts';

/** The largest proximity the near shape serves; a larger one uses the whole coverage. */
export const NEAR_COVERAGE_METRES = 5000;

// Fewer metres than any degree of latitude or of longitude at the equator has (110,574 at the
// equator, 111,320 along it): a box in degrees computed with it is never too small.
const METRES_PER_DEGREE = 110_000;

/**
 * A box in degrees holding every point within `metres` of (lat, lon), with room to spare (2% and
 * 10 m); undefined where that box would reach a pole or cross the antimeridian.
 */
export function boxAround(lat: number, lon: number, metres: number): Box | undefined {
  const reach = metres * 1.02 + 10;
  const dLat = reach / METRES_PER_DEGREE;
  const widest = Math.abs(lat) + dLat;
  if (widest >= 85) return undefined;
  const dLon = reach / (METRES_PER_DEGREE * Math.cos((widest * Math.PI) / 180));
  if (lon - dLon <= -180 || lon + dLon >= 180) return undefined;
  return [lon - dLon, lat - dLat, lon + dLon, lat + dLat];
}

/** A ring worth indexing: closed, three corners or more, more than MIN_AREA of area. */
const isRing = (ring: Position[]): boolean => ring.length >= 4 && Math.abs(signedArea(ring)) / 2 > MIN_AREA;

/** Polygons (as rings) the engine can index, or undefined when any would be refused. */
function indexable(polygons: Rings[]): Rings[] | undefined {
  const kept: Rings[] = [];
  for (const rings of polygons) {
    const [outer, ...holes] = rings;
    if (!outer || !isRing(outer)) continue;
    const clean = [outer, ...holes.filter(isRing)];
    if (findSelfIntersections(clean, 1).length > 0) return undefined;
    kept.push(clean);
  }
  return kept;
}

/** One polygon's part inside the box, as polygons (none when it lies outside). */
function clipPolygon(rings: Rings, box: Box): Rings[] {
  const bounds = boxOf(rings);
  const [west, south, east, north] = bounds;
  if (west >= box[0] && east <= box[2] && south >= box[1] && north <= box[3]) return [rings];
  if (!boxesOverlap(bounds, box)) return [];
  // Sutherland-Hodgman: exact and cheap for convex rings; concave ones can fold onto the edge.
  const clipped = bboxClip({ type: 'Polygon', coordinates: rings } as Polygon, box).geometry;
  const simple = indexable([clipped.coordinates as Rings]);
  if (simple) return simple;
  const exact = intersect(featureCollection([turfPolygon(rings), bboxPolygon(box)]))?.geometry;
  const parts = exact
    ? indexable(exact.type === 'Polygon' ? [exact.coordinates] : exact.coordinates)
    : ([] as Rings[]);
  return parts ?? [rings];
}

/** The polygons of a geometry, collections walked; lines and points have none. */
export function polygonsOf(geometry: Geometry): Rings[] {
  if (geometry.type === 'Polygon') return [geometry.coordinates];
  if (geometry.type === 'MultiPolygon') return geometry.coordinates;
  if (geometry.type === 'GeometryCollection') return geometry.geometries.flatMap(polygonsOf);
  return [];
}

/**
 * The coverage clipped to the box around its location that NEAR_COVERAGE_METRES spans: what the
 * engine needs to answer "does this coverage contain a point within that distance of the
 * location". Undefined when nothing of it is that near (no such point is covered). Members of a
 * collection are clipped alike (overlapping areas are why coverage is a collection: see
 * toCoverage); the result is one polygon or a collection of them.
 */
export function nearCoverage(
  coverage: Geometry,
  location: { lat: number; lon: number },
): Geometry | undefined {
  const box = boxAround(location.lat, location.lon, NEAR_COVERAGE_METRES);
  if (!box) return coverage;
  const parts = polygonsOf(coverage).flatMap((rings) => clipPolygon(rings, box));
  if (parts.length === 0) return undefined;
  if (parts.length === 1) return { type: 'Polygon', coordinates: parts[0] as Rings };
  return {
    type: 'GeometryCollection',
    geometries: parts.map((coordinates): Polygon => ({ type: 'Polygon', coordinates })),
  };
}
