/**
 * The geographic part of a service_at_locations search, from a point already geocoded (the API
 * resolves `postcode` to a centroid; see src/api/geo-params.ts). DESIGN.md section 5:
 * - coverage: keep results whose coverage contains the point, and results with no service area at
 *   all (the specification filters only where service areas exist);
 * - proximity (metres): a distance filter from the point on the location's point;
 * - with a point, results are sorted by distance.
 */
import type { Geometry } from 'geojson';
import { coversPoint } from '../geo/covers.ts';
import { F } from './fields.ts';
import type { QueryDsl, SortClause } from './search.query.ts';

export type GeoPoint = { lat: number; lon: number };

export type GeoQuery = {
  point: GeoPoint;
  /** Metres from the point to the location; absent: no distance limit. */
  proximityMetres?: number | undefined;
};

export function coverageFilter(point: GeoPoint): QueryDsl {
  return {
    bool: {
      should: [
        // intersects with a point is containment, and keeps holes and multipolygons exact.
        {
          geo_shape: {
            [F.coverage]: {
              shape: { type: 'point', coordinates: [point.lon, point.lat] },
              relation: 'intersects',
            },
          },
        },
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
export function geoFilter(geo: GeoQuery | undefined): {
  filters: QueryDsl[];
  sort: SortClause[];
  /** The filters without the coverage test (present with a distance limit only). */
  withinDistance?: QueryDsl[];
} {
  if (!geo) return { filters: [], sort: [] };
  const coverage = coverageFilter(geo.point);
  const sort = [distanceSort(geo.point)];
  if (geo.proximityMetres === undefined) return { filters: [coverage], sort };
  const proximity = proximityFilter(geo.point, geo.proximityMetres);
  return { filters: [coverage, proximity], sort, withinDistance: [proximity] };
}

/**
 * At most this many documents within the distance are tested for coverage here rather than by
 * the engine (see NearbyPlan). Their shapes travel to the API; a few hundred county- or
 * state-sized outlines are a few hundred kilobytes.
 */
export const NEARBY_CANDIDATES = 200;

/**
 * The same search answered another way when few documents lie within the distance. The engine's
 * coverage test (geo_shape, intersects) walks every indexed triangle whose box holds the point,
 * over the whole index, whatever the other filters: on national data with county- and state-wide
 * service areas that is thousands of documents for a 5 km search that keeps two (PostGIS, with
 * its two GiST indexes, was 4x faster there). So when at most NEARBY_CANDIDATES documents match
 * without the coverage test, the API reads their shapes, keeps those that cover the point (turf's
 * point in polygon, boundary included, as the engine's `intersects`; both agree but within about
 * a centimetre of an edge, where the engine's quantised shapes may fall either way), and asks for
 * the page by id with the same query and sort, so scores, order and distances are the engine's.
 */
export type NearbyPlan = {
  /** The search with the distance limit and every other filter, without the coverage test. */
  readonly query: QueryDsl;
  /** The source fields a candidate is judged on. */
  readonly source: readonly string[];
  /** Whether a candidate (its `source` fields) passes the coverage test: as coverageFilter. */
  keeps(source: Record<string, unknown>): boolean;
  /** The page: the candidates kept, by id, under the same query (so the same scores). */
  pageQuery(ids: readonly string[]): QueryDsl;
};

export function nearbyPlan(point: GeoPoint, query: QueryDsl): NearbyPlan {
  return {
    query,
    source: [F.hasCoverage, F.coverage],
    keeps: (source) => {
      if (source[F.hasCoverage] === false) return true;
      const coverage = source[F.coverage];
      return typeof coverage === 'object' && coverage !== null && coversPoint(coverage as Geometry, point);
    },
    pageQuery: (ids) => ({ bool: { must: [query], filter: [{ ids: { values: [...ids] } }] } }),
  };
}
