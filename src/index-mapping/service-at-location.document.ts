/**
 * The `service_at_locations` document: the service-at-location as GET /service_at_locations/{id}
 * serves it (its own fields, `location` nested, `service` fully nested but without its
 * service_at_locations, as the official examples/service_at_location_full.json), plus search
 * fields, the location's point and the coverage shape. Pure.
 */
import type { Geometry, MultiPolygon, Polygon } from 'geojson';
import { coverageCells } from '../geo/coverage-cells.ts';
import type { ScheduleFull, ServiceAreaFull, ServiceAtLocationNested, ServiceFull } from '../hsds/index.ts';
import { type OpeningRule, toOpeningRules } from '../schedules/opening-rules.ts';
import type { ServiceAtLocationDocument } from './documents.ts';
import { ownSchedulesOf, toGeoPoint, toScheduleSlots, toServiceSearchFields } from './service.document.ts';
import { listItemText } from './sources.query.ts';

export type AreaGeometry = Polygon | MultiPolygon;

/**
 * One shape from several service areas. A GeometryCollection rather than a merged MultiPolygon:
 * areas may overlap (a ward inside its city), which a MultiPolygon forbids and a union would have
 * to compute; a point is covered when any member contains it, which is all `intersects` asks.
 */
export function toCoverage(geometries: readonly AreaGeometry[]): Geometry | undefined {
  if (geometries.length === 0) return undefined;
  if (geometries.length === 1) return geometries[0];
  return { type: 'GeometryCollection', geometries: [...geometries] };
}

/**
 * Where a service-at-location is offered: the geometries of its own service areas, else those of
 * its service's. `geometryOf` answers the checked (repaired) geometry of an area, or undefined for
 * an area without a usable GeoJSON extent.
 */
export function coverageOf(
  sal: Pick<ServiceAtLocationNested, 'service_areas'>,
  service: Pick<ServiceFull, 'service_areas'>,
  geometryOf: (area: ServiceAreaFull) => AreaGeometry | undefined,
): Geometry | undefined {
  const own = (sal.service_areas ?? []).map(geometryOf).filter((g): g is AreaGeometry => g !== undefined);
  if (own.length > 0) return toCoverage(own);
  return toCoverage(
    (service.service_areas ?? []).map(geometryOf).filter((g): g is AreaGeometry => g !== undefined),
  );
}

/**
 * Where a service is offered, for /services: the geometries of every service area it names and
 * every one its service-at-locations name (each place's own), as one shape.
 */
export function serviceCoverageOf(
  service: Pick<ServiceFull, 'service_areas' | 'service_at_locations'>,
  geometryOf: (area: ServiceAreaFull) => AreaGeometry | undefined,
): Geometry | undefined {
  const areas = [
    ...(service.service_areas ?? []),
    ...(service.service_at_locations ?? []).flatMap((sal) => sal.service_areas ?? []),
  ];
  const seen = new Set<string>();
  const geometries: AreaGeometry[] = [];
  for (const area of areas) {
    if (seen.has(area.id)) continue;
    seen.add(area.id);
    const geometry = geometryOf(area);
    if (geometry) geometries.push(geometry);
  }
  return toCoverage(geometries);
}

/**
 * The coverage as kept (`_source` only) and as searched: its inside cells and its edge
 * (src/geo/coverage-cells.ts).
 */
export function coverageFields(
  coverage: Geometry,
): Pick<ServiceAtLocationDocument, 'coverage' | 'coverage_cells' | 'coverage_edge'> {
  const { cells, edge } = coverageCells(coverage);
  return { coverage, coverage_cells: cells, ...(edge ? { coverage_edge: edge } : {}) };
}

/** The nested service minus its service_at_locations: what `service` holds in a service-at-location. */
export function toServiceOfServiceAtLocation(service: ServiceFull): Record<string, unknown> {
  const { service_at_locations: _, ...rest } = service;
  return rest;
}

/** When a service-at-location is open: by its own schedules, else by its service's (see below). */
export function serviceAtLocationOpeningRules(
  sal: { schedules?: ScheduleFull[] | undefined },
  service: ServiceFull,
): OpeningRule[] {
  const own = toOpeningRules(sal.schedules ?? []);
  return own.length > 0 ? own : toOpeningRules(ownSchedulesOf(service));
}

/**
 * `schedules`: the service-at-location's own, else its location's, else the service's: the most
 * specific statement of when this place offers this service. `opening` (open_at, open_now): its
 * own schedules, else its service's (with 3.3 operating hours and events), as docs/api.md ("Open now") words it:
 * a location's hours are the building's, not the service's. Taxonomy terms: the service's and
 * the service-at-location's own attributes.
 */
export function toServiceAtLocationDocument(
  sal: ServiceAtLocationNested,
  service: ServiceFull,
  coverage: Geometry | undefined,
  serviceRecord: Record<string, unknown> = toServiceOfServiceAtLocation(service),
): ServiceAtLocationDocument {
  const own = toScheduleSlots(sal.schedules);
  const atLocation = own.length > 0 ? own : toScheduleSlots(sal.location?.schedules);
  const schedules = atLocation.length > 0 ? atLocation : toScheduleSlots(service.schedules);
  const opening = serviceAtLocationOpeningRules(sal, service);
  const locationId = sal.location_id ?? sal.location?.id;
  const point = toGeoPoint(sal.location);
  const record = { ...sal, service: serviceRecord };
  return {
    id: sal.id,
    service_id: service.id,
    ...(locationId ? { location_id: locationId } : {}),
    ...toServiceSearchFields(service, {
      extraAttributes: sal.attributes,
      schedules,
      opening,
      locations: [sal.location],
    }),
    ...(point ? { location_point: point } : {}),
    ...(coverage ? coverageFields(coverage) : {}),
    has_coverage: coverage !== undefined,
    record,
    list_item: listItemText('service_at_locations', record),
  };
}
