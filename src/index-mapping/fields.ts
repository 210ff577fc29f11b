/**
 * Field paths of the read indices, shared by the mappings, the document builders and the query
 * builders (docs/style.md 8). Change a name here and everything follows.
 */
export const F = {
  id: 'id',
  /** The record exactly as the API returns it (fully nested for {id} routes); not indexed. */
  record: 'record',
  name: 'name',
  nameExact: 'name.exact',
  nameSort: 'name.sort',
  alternateName: 'alternate_name',
  description: 'description',
  organizationName: 'organization_name',
  organizationNameExact: 'organization_name.exact',
  taxonomyTermNames: 'taxonomy_term_names',
  taxonomyTermNamesExact: 'taxonomy_term_names.exact',
  /** What the service's taxonomy terms say they mean: searched like a description. */
  taxonomyTermDescriptions: 'taxonomy_term_descriptions',
  organizationId: 'organization_id',
  programId: 'program_id',
  serviceId: 'service_id',
  serviceIds: 'service_ids',
  locationId: 'location_id',
  taxonomyId: 'taxonomy_id',
  taxonomyIds: 'taxonomy_ids',
  taxonomyTermIds: 'taxonomy_term_ids',
  parentId: 'parent_id',
  code: 'code',
  /** Completion inputs for GET /suggest: the name, and the name from each later word on. */
  suggest: 'suggest',
  status: 'status',
  lastModified: 'last_modified',
  minimumAge: 'minimum_age',
  maximumAge: 'maximum_age',
  /** Opening times, one nested entry a weekly slot: a day must match its own times (UK profile). */
  schedules: 'schedules',
  scheduleByDay: 'schedules.byday',
  scheduleOpensAt: 'schedules.opens_at',
  scheduleClosesAt: 'schedules.closes_at',
  /** Codes and names of the languages of the service, its locations and phones, lower-cased (`language`). */
  languages: 'languages',
  /** One value a language (its code, else its name): the `language` facet. */
  languageCodes: 'language_codes',
  /** Cities, regions and postal codes of the locations' physical addresses, lower-cased (places.document.ts). */
  places: 'places',
  /** A cost option of amount 0, or one or the fees saying free (`free`). */
  free: 'free',
  /** The locations' accessibility descriptions and details (`accessibility`), with a `.keyword` facet twin. */
  accessibility: 'accessibility',
  accessibilityKeyword: 'accessibility.keyword',
  /** When it is open: one nested opening rule a schedule (src/schedules/opening-rules.ts), for `open_at` and `open_now`. */
  opening: 'opening',
  openingDays: 'opening.days',
  openingPhase: 'opening.phase',
  openingFirstDay: 'opening.first_day',
  openingLastDay: 'opening.last_day',
  openingStart: 'opening.start',
  openingEnd: 'opening.end',
  openingZoned: 'opening.zoned',
  /** Points of the service's physical locations (services index). */
  locationPoints: 'location_points',
  /** The service_at_location's location (service_at_locations index). */
  locationPoint: 'location_point',
  /**
   * Where the service is offered: the service_at_location's own areas, else the service's. Kept
   * in `_source`; indices built before coverage cells also index it as a shape, and their searches
   * ask it.
   */
  coverage: 'coverage',
  /** Quadtree cells wholly inside the coverage (src/geo/coverage-cells.ts). */
  coverageCells: 'coverage_cells',
  /** The coverage's part in the cells its boundary crosses: the shape searches ask. */
  coverageEdge: 'coverage_edge',
  hasCoverage: 'has_coverage',
  /** Every id a document's record nests or points at (nested-ids.ts): what incremental publishing finds it by. */
  nestedIds: 'nested_ids',
  /**
   * The record's list item (sources.query.ts) as JSON text, stored but not indexed and left out of
   * `_source`: a list page reads it as it is instead of the engine filtering every record's source.
   */
  listItem: 'list_item',
} as const;
