/**
 * The geographic part of a service_at_locations search, from a point already geocoded (the API
 * resolves `postcode` to a centroid; see src/api/geo-params.ts). DESIGN.md section 5:
 * - coverage: keep results whose coverage contains the point, and results with no service area at
 *   all (the specification filters only where service areas exist);
 * - proximity (metres): a distance filter from the point on the location's point;
 * - with a point, results are sorted by distance.
 */
import { NEAR_COVERAGE_METRES } from '../geo/near-coverage.ts';
import { F } from './fields.ts';
import type { QueryDsl, SortClause } from './search.query.ts';

export type GeoPoint = { lat: number; lon: number };

export type GeoQuery = {
  point: GeoPoint;
  /** Metres from the point to the location; absent: no distance limit. */
  proximityMetres?: number | undefined;
};

/** Whether a shape field's shapes contain the point (intersects with a point is containment). */
const containsPoint = (field: string, point: GeoPoint, ignoreUnmapped = false): QueryDsl => ({
  geo_shape: {
    [field]: {
      shape: { type: 'point', coordinates: [point.lon, point.lat] },
      relation: 'intersects',
    },
    ...(ignoreUnmapped ? { ignore_unmapped: true } : {}),
  },
});

/**
 * Results whose coverage contains the point, and results with no service area at all. With
 * `near` (the search also keeps only locations within NEAR_COVERAGE_METRES of the point), the
 * near coverage is asked instead of the whole (src/geo/near-coverage.ts: the same answer, fewer
 * triangles), on the indices that hold it: F.coverageNearMetres is a constant of their mapping,
 * so on each index one branch is everything and the other nothing before any document is read.
 * Indices built before it (or for another distance) lack it and answer from the whole coverage.
 */
export function coverageFilter(point: GeoPoint, near = false): QueryDsl {
  const holdsNear = { term: { [F.coverageNearMetres]: String(NEAR_COVERAGE_METRES) } };
  const covered = near
    ? [
        { bool: { filter: [holdsNear, containsPoint(F.coverageNear, point, true)] } },
        { bool: { filter: [containsPoint(F.coverage, point)], must_not: [holdsNear] } },
      ]
    : [containsPoint(F.coverage, point)];
  return {
    bool: {
      should: [
        ...covered,
        // Every document says whether it has coverage (the builder always sets it), so "none" is a
        // term: a must_not would walk every document of the index, nested ones included (profiled:
        // 10-16 ms of a 5 km search over 162,112 service_at_locations).
        { term: { [F.hasCoverage]: false } },
      ],
      minimum_should_match: 1,
    },
  };
}

export function proximityFilter(point: GeoPoint, metres: number): QueryDsl {
  return { geo_distance: { distance: `${metres}m`, [F.locationPoint]: { lat: point.lat, lon: point.lon } } };
}

export function distanceSort(point: GeoPoint): SortClause {
  return {
    _geo_distance: {
      [F.locationPoint]: { lat: point.lat, lon: point.lon },
      order: 'asc',
      unit: 'm',
      // Locations without a point (virtual ones) come last.
      ignore_unmapped: true,
    },
  };
}

/** Filters and leading sort clauses for a geocoded point, or nothing without one. */
export function geoFilter(geo: GeoQuery | undefined): { filters: QueryDsl[]; sort: SortClause[] } {
  if (!geo) return { filters: [], sort: [] };
  return {
    filters: [
      coverageFilter(
        geo.point,
        geo.proximityMetres !== undefined && geo.proximityMetres <= NEAR_COVERAGE_METRES,
      ),
      ...(geo.proximityMetres === undefined ? [] : [proximityFilter(geo.point, geo.proximityMetres)]),
    ],
    sort: [distanceSort(geo.point)],
  };
}
