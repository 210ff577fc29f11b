/**
 * The `services` document: the fully nested service as GET /services/{id} serves it (`record`),
 * plus the fields queries search, filter and sort on. Pure: nested HSDS in, document out.
 */
import type { Geometry } from 'geojson';
import { coverageCells } from '../geo/coverage-cells.ts';
import {
  type AttributeFull,
  isPlaceholderOrganization,
  type LocationFull,
  type ScheduleFull,
  type ServiceAtLocationNested,
  type ServiceFull,
} from '../hsds/index.ts';
import { type OpeningRule, toOpeningRules } from '../schedules/opening-rules.ts';
import type { GeoPoint, ServiceDocument } from './documents.ts';
import { toEligibilityFields } from './eligibility.document.ts';
import { nestedIdsOf } from './nested-ids.ts';
import { toPlaceFields } from './places.document.ts';
import { toSearchText } from './search-text.ts';
import { listItemText } from './sources.query.ts';
import { toSuggestField } from './suggest.query.ts';

type ServiceSearchFields = Omit<
  ServiceDocument,
  'id' | 'location_points' | 'nested_ids' | 'record' | 'list_item'
>;

const DAY = /(MO|TU|WE|TH|FR|SA|SU)$/;

/** `TH,FR` or RRULE-style `1MO,-1FR` → `['TH', 'FR']`, `['MO', 'FR']`. */
export function toWeekdays(byday: string | undefined): string[] {
  if (!byday) return [];
  const days = byday
    .split(',')
    .map((d) => DAY.exec(d.trim().toUpperCase())?.[1])
    .filter((d): d is string => d !== undefined);
  return [...new Set(days)];
}

// Times are compared as keywords, so they are kept to one shape: HH:MM (seconds and offsets are
// dropped; the record keeps the published value).
const toMinute = (time: string | undefined): string | undefined =>
  time && /^\d{2}:\d{2}/.test(time) ? time.slice(0, 5) : undefined;

/** Opening slots of the given schedules, one per schedule that says something searchable. */
export function toScheduleSlots(
  schedules: readonly ScheduleFull[] | undefined,
): ServiceDocument['schedules'] {
  const slots: ServiceDocument['schedules'] = [];
  for (const schedule of schedules ?? []) {
    const byday = toWeekdays(schedule.byday);
    const opens_at = toMinute(schedule.opens_at);
    const closes_at = toMinute(schedule.closes_at);
    if (byday.length === 0 && !opens_at && !closes_at) continue;
    slots.push({ byday, ...(opens_at ? { opens_at } : {}), ...(closes_at ? { closes_at } : {}) });
  }
  return slots;
}

/** A location's point, when it has a valid latitude and longitude (the official example's 100/101 has not). */
export function toGeoPoint(
  location: Pick<LocationFull, 'latitude' | 'longitude'> | undefined,
): GeoPoint | undefined {
  const lat = location?.latitude;
  const lon = location?.longitude;
  if (typeof lat !== 'number' || typeof lon !== 'number') return undefined;
  if (!Number.isFinite(lat) || !Number.isFinite(lon) || Math.abs(lat) > 90 || Math.abs(lon) > 180)
    return undefined;
  return { lat, lon };
}

const scheduleList = (value: unknown): ScheduleFull[] =>
  Array.isArray(value)
    ? value.filter((s): s is ScheduleFull => typeof s === 'object' && s !== null && !Array.isArray(s))
    : [];

/**
 * The schedules that say when the service itself is open: its `schedules`, and HSDS 3.3's
 * `operating_hours` and `events` (each a schedule, on its own dates).
 */
export const ownSchedulesOf = (service: ServiceFull): ScheduleFull[] => [
  ...(service.schedules ?? []),
  ...scheduleList(service.operating_hours),
  ...scheduleList(service.events),
];

/**
 * When a service is open (open_at, open_now, next_opening): by its own schedules (with 3.3
 * operating hours and events) or those of one of its service-at-locations.
 */
export const serviceOpeningRules = (service: ServiceFull): OpeningRule[] =>
  toOpeningRules([
    ...ownSchedulesOf(service),
    ...(service.service_at_locations ?? []).flatMap((sal) => sal.schedules ?? []),
  ]);

type TermRefs = { ids: string[]; names: string[]; descriptions: string[]; taxonomyIds: string[] };

/** The taxonomy terms a list of attributes links to: ids, names, descriptions and taxonomy ids, deduplicated. */
export function toTermRefs(...attributeLists: (readonly AttributeFull[] | undefined)[]): TermRefs {
  const ids = new Set<string>();
  const names = new Set<string>();
  const descriptions = new Set<string>();
  const taxonomyIds = new Set<string>();
  for (const attributes of attributeLists) {
    for (const attribute of attributes ?? []) {
      const term = attribute.taxonomy_term;
      const id = attribute.taxonomy_term_id ?? term?.id;
      if (id) ids.add(id);
      if (term?.name) names.add(term.name);
      // A term whose description only repeats its name (migrated records) adds nothing to search.
      if (term?.description && term.description !== term.name) descriptions.add(term.description);
      const taxonomyId = term?.taxonomy_id ?? term?.taxonomy_detail?.id;
      if (taxonomyId) taxonomyIds.add(taxonomyId);
    }
  }
  return { ids: [...ids], names: [...names], descriptions: [...descriptions], taxonomyIds: [...taxonomyIds] };
}

const omitUndefined = <T extends Record<string, unknown>>(object: T): T =>
  Object.fromEntries(Object.entries(object).filter(([, v]) => v !== undefined)) as T;

const locationsOf = (service: ServiceFull): (ServiceAtLocationNested['location'] | undefined)[] =>
  (service.service_at_locations ?? []).map((sal) => sal.location);

/** The search fields services and service_at_locations share, taken from the service. */
export function toServiceSearchFields(
  service: ServiceFull,
  options: {
    extraAttributes?: readonly AttributeFull[];
    schedules?: ServiceDocument['schedules'];
    opening?: OpeningRule[];
    /** Where it is offered (languages, accessibility): by default every location of the service. */
    locations?: readonly (LocationFull | undefined)[];
  } = {},
): ServiceSearchFields {
  const terms = toTermRefs(service.attributes, options.extraAttributes);
  return omitUndefined({
    name: toSearchText(service.name),
    alternate_name: toSearchText(service.alternate_name),
    description: toSearchText(service.description),
    // A placeholder's name says nothing of the service: "unknown" must not find its services.
    organization_name: isPlaceholderOrganization(service.organization)
      ? undefined
      : toSearchText(service.organization?.name),
    taxonomy_term_names: terms.names.map((name) => toSearchText(name)),
    taxonomy_term_descriptions:
      terms.descriptions.length > 0 ? terms.descriptions.map((text) => toSearchText(text)) : undefined,
    organization_id: service.organization_id ?? service.organization?.id,
    program_id: service.program_id ?? service.program?.id,
    taxonomy_term_ids: terms.ids,
    taxonomy_ids: terms.taxonomyIds,
    status: service.status,
    last_modified: service.last_modified,
    minimum_age: service.minimum_age,
    maximum_age: service.maximum_age,
    ...toEligibilityFields(service, options.locations ?? locationsOf(service)),
    ...toPlaceFields(options.locations ?? locationsOf(service)),
    schedules: options.schedules ?? toScheduleSlots(service.schedules),
    opening: options.opening ?? toOpeningRules(ownSchedulesOf(service)),
  });
}

/**
 * `schedules`: the service's own, plus those of each service-at-location (a service open on
 * Mondays at one of its locations is open on Mondays). `opening` likewise, from its own schedules,
 * operating hours and events and its service-at-locations' schedules. `location_points`: one per
 * located service-at-location.
 */
/** A coverage's inside cells and edge (src/geo/coverage-cells.ts), as searched. */
function coverageSearchFields(coverage: Geometry): Pick<ServiceDocument, 'coverage_cells' | 'coverage_edge'> {
  const { cells, edge } = coverageCells(coverage);
  return { coverage_cells: cells, ...(edge ? { coverage_edge: edge } : {}) };
}

/**
 * `coverage`: one shape of every service area the service and its service-at-locations name (see
 * coverageOf in service-at-location.document.ts), searched by its cells and edge.
 */
export function toServiceDocument(service: ServiceFull, coverage?: Geometry): ServiceDocument {
  // One schedule may be listed under the service and under its service-at-location too.
  const byId = new Map<string, ScheduleFull>();
  for (const schedule of [
    ...(service.schedules ?? []),
    ...(service.service_at_locations ?? []).flatMap((sal) => sal.schedules ?? []),
  ]) {
    byId.set(schedule.id, schedule);
  }
  const schedules = toScheduleSlots([...byId.values()]);
  const opening = serviceOpeningRules(service);
  const points = new Map<string, GeoPoint>();
  for (const location of locationsOf(service)) {
    const point = toGeoPoint(location);
    if (point) points.set(`${point.lat},${point.lon}`, point);
  }
  const suggest = toSuggestField(service.name);
  return {
    id: service.id,
    ...toServiceSearchFields(service, { schedules, opening }),
    ...(suggest ? { suggest } : {}),
    location_points: [...points.values()],
    ...(coverage ? coverageSearchFields(coverage) : {}),
    nested_ids: nestedIdsOf(service),
    record: service as Record<string, unknown>,
    list_item: listItemText('services', service as Record<string, unknown>),
  };
}
