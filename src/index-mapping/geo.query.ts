/**
 * The geographic part of a service_at_locations search, from a point already geocoded (the API
 * resolves `postcode` to a centroid; see src/api/lists/geo-params.ts). The rules:
 * - coverage: keep results whose coverage contains the point, and results with no service area at
 *   all (the specification filters only where service areas exist);
 * - proximity (metres): a distance filter from the point on the location's point;
 * - with a point, results are sorted by distance.
 */
import { pointCells } from '../geo/coverage-cells.ts';
import { F } from './fields.ts';
import type { QueryDsl, SortClause } from './search.query.ts';

export type GeoPoint = { lat: number; lon: number };

export type GeoQuery = {
  point: GeoPoint;
  /** Metres from the point to the location; absent: no distance limit. */
  proximityMetres?: number | undefined;
};

/** Whether a shape field's shapes contain the point (intersects with a point is containment). */
const containsPoint = (field: string, point: GeoPoint): QueryDsl => ({
  geo_shape: {
    [field]: {
      shape: { type: 'point', coordinates: [point.lon, point.lat] },
      relation: 'intersects',
    },
    // Each index holds one of the two shapes (see coverageFilter): the other is nothing there.
    ignore_unmapped: true,
  },
});

/**
 * Results whose coverage contains the point, and results with no service area at all. The
 * coverage is asked as its inside cells (one of the point's cells is among them) or its edge
 * (src/geo/coverage-cells.ts: the same answer as the whole shape, with far fewer triangles to
 * walk). Indices built before the cells have neither field and index the whole coverage as a
 * shape; on those the whole is asked, and on newer ones, where `coverage` is kept but not
 * indexed, that clause is nothing.
 */
export function coverageFilter(point: GeoPoint): QueryDsl {
  return {
    bool: {
      should: [
        { terms: { [F.coverageCells]: pointCells(point) } },
        containsPoint(F.coverageEdge, point),
        containsPoint(F.coverage, point),
        // Every document says whether it has coverage (the builder always sets it), so "none" is a
        // term: a must_not would walk every document of the index, nested ones included (profiled:
        // 10-16 ms of a 5 km search over 162,112 service_at_locations).
        { term: { [F.hasCoverage]: false } },
      ],
      minimum_should_match: 1,
    },
  };
}

/** Within `metres` of the point; on a field of many points (a service's), any of them. */
export function proximityFilter(point: GeoPoint, metres: number, field: string = F.locationPoint): QueryDsl {
  return { geo_distance: { distance: `${metres}m`, [field]: { lat: point.lat, lon: point.lon } } };
}

/** Nearest first; on a field of many points, by the nearest of them (the engine's `min` for `asc`). */
export function distanceSort(point: GeoPoint, field: string = F.locationPoint): SortClause {
  return {
    _geo_distance: {
      [field]: { lat: point.lat, lon: point.lon },
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
      coverageFilter(geo.point),
      ...(geo.proximityMetres === undefined ? [] : [proximityFilter(geo.point, geo.proximityMetres)]),
    ],
    sort: [distanceSort(geo.point)],
  };
}

/**
 * The same on /services, whose documents hold the points of all the service's locations
 * (`location_points`) and the coverage of every service area it names: `proximity` keeps services
 * with a location within the distance or an area that covers the point (a helpline for a county,
 * a visiting service with no premises). Services come nearest location first; those with no
 * located place (covering ones, under `proximity`) after them, by name.
 */
export function serviceGeoFilter(geo: GeoQuery | undefined): { filters: QueryDsl[]; sort: SortClause[] } {
  if (!geo) return { filters: [], sort: [] };
  return {
    filters:
      geo.proximityMetres === undefined
        ? []
        : [
            {
              bool: {
                should: [
                  proximityFilter(geo.point, geo.proximityMetres, F.locationPoints),
                  { terms: { [F.coverageCells]: pointCells(geo.point) } },
                  containsPoint(F.coverageEdge, geo.point),
                ],
                minimum_should_match: 1,
              },
            },
          ],
    sort: [distanceSort(geo.point, F.locationPoints)],
  };
}
