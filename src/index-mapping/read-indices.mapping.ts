/**
 * Hand-written mappings of the read indices (docs/style.md 7). `dynamic: strict` makes a document
 * builder that emits an unmapped field fail loudly at index time rather than grow the mapping.
 */

import { completion, date, keyword, searchableText, stemmedText, storedOnly } from './analysis.ts';
import { F } from './fields.ts';

export const READ_INDICES = [
  'services',
  'service_at_locations',
  'organizations',
  'taxonomies',
  'taxonomy_terms',
] as const;
export type ReadIndex = (typeof READ_INDICES)[number];

const text = stemmedText;

// Search fields shared by services and service_at_locations (both answer `search`).
const serviceSearchFields = {
  [F.name]: searchableText,
  [F.alternateName]: text,
  [F.description]: text,
  [F.organizationName]: searchableText,
  [F.taxonomyTermNames]: searchableText,
  [F.taxonomyTermDescriptions]: text,
  [F.organizationId]: keyword,
  [F.programId]: keyword,
  [F.taxonomyTermIds]: keyword,
  [F.taxonomyIds]: keyword,
  [F.status]: keyword,
  [F.lastModified]: date,
  [F.minimumAge]: { type: 'integer' },
  [F.maximumAge]: { type: 'integer' },
  [F.languages]: keyword,
  [F.languageCodes]: keyword,
  [F.free]: { type: 'boolean' },
  // Searched as words ("wheelchair" finds "Wheelchair accessible entrance"); counted as whole values.
  [F.accessibility]: {
    ...stemmedText,
    fields: { keyword: { type: 'keyword', normalizer: 'hsds_sort', ignore_above: 256 } },
  },
  // nested: a query for "Monday from 18:00" must match one slot, not Monday of one and 18:00 of another.
  [F.schedules]: {
    type: 'nested',
    properties: { byday: keyword, opens_at: keyword, closes_at: keyword },
  },
  // nested: an instant must fall on one rule's date and within the same rule's minutes.
  [F.opening]: {
    type: 'nested',
    properties: {
      days: keyword,
      phase: keyword,
      first_day: { type: 'integer' },
      last_day: { type: 'integer' },
      start: { type: 'integer' },
      end: { type: 'integer' },
      zoned: { type: 'boolean' },
    },
  },
} as const;

/**
 * The list item (F.listItem): read from stored fields by list pages, so it is neither indexed nor
 * kept twice in `_source` (lookups and full records read `_source`, which it would only weigh down).
 */
const listItemField = { type: 'keyword', index: false, doc_values: false, store: true } as const;
const listItemOutOfSource = { excludes: [F.listItem] };

export const readIndexMappings = {
  services: {
    dynamic: 'strict',
    _source: listItemOutOfSource,
    properties: {
      [F.id]: keyword,
      ...serviceSearchFields,
      [F.suggest]: completion,
      [F.locationPoints]: { type: 'geo_point' },
      [F.nestedIds]: keyword,
      [F.record]: storedOnly,
      [F.listItem]: listItemField,
    },
  },
  service_at_locations: {
    dynamic: 'strict',
    // Cells and edge are only searched: `_source` keeps the record and the whole coverage.
    _source: { excludes: [F.listItem, F.coverageCells, F.coverageEdge] },
    properties: {
      [F.id]: keyword,
      [F.serviceId]: keyword,
      [F.locationId]: keyword,
      ...serviceSearchFields,
      [F.locationPoint]: { type: 'geo_point' },
      // Kept, not indexed: searches ask its cells and edge (src/geo/coverage-cells.ts).
      [F.coverage]: { type: 'object', enabled: false },
      [F.coverageCells]: { type: 'keyword', index_options: 'docs', doc_values: false },
      // intersects with a point is containment; geo_shape keeps holes and multipolygons exact.
      [F.coverageEdge]: { type: 'geo_shape' },
      [F.hasCoverage]: { type: 'boolean' },
      [F.record]: storedOnly,
      [F.listItem]: listItemField,
    },
  },
  organizations: {
    dynamic: 'strict',
    _source: listItemOutOfSource,
    properties: {
      [F.id]: keyword,
      [F.name]: searchableText,
      [F.alternateName]: text,
      [F.description]: text,
      [F.suggest]: completion,
      [F.serviceIds]: keyword,
      [F.taxonomyTermIds]: keyword,
      [F.taxonomyIds]: keyword,
      [F.lastModified]: date,
      [F.nestedIds]: keyword,
      [F.record]: storedOnly,
      [F.listItem]: listItemField,
    },
  },
  taxonomies: {
    dynamic: 'strict',
    properties: {
      [F.id]: keyword,
      [F.name]: searchableText,
      [F.description]: text,
      [F.nestedIds]: keyword,
      [F.record]: storedOnly,
    },
  },
  taxonomy_terms: {
    dynamic: 'strict',
    properties: {
      [F.id]: keyword,
      [F.name]: searchableText,
      [F.description]: text,
      [F.code]: keyword,
      [F.suggest]: completion,
      [F.taxonomyId]: keyword,
      // Absent for top-level terms: `top_only` is "no parent_id".
      [F.parentId]: keyword,
      [F.nestedIds]: keyword,
      [F.record]: storedOnly,
    },
  },
} as const satisfies Record<
  ReadIndex,
  { dynamic: 'strict'; _source?: { excludes: string[] }; properties: Record<string, unknown> }
>;
