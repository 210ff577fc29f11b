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
  [F.places]: keyword,
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
 * The list item (F.listItem): read from stored fields by list pages, so it is not indexed.
 *
 * `_source` keeps every field as sent, this one too (and a service_at_location's coverage cells
 * and edge): no `_source` excludes. With an exclude the engine parses each document's whole
 * source, filters it and serialises it again before storing it, and the `record` each document
 * carries is most of it. Measured on the built documents of 10,000 synthetic services (bulk-indexed
 * into fresh indices, engine CPU): services 4.8 s with the exclude, 3.4 s without;
 * service_at_locations 7.1 s, 5.0 s. That was a fifth of the engine's CPU for an import and
 * publish of 30,000 services (65 s to 52 s). The price, merged, for those 10,000: services 172 MB
 * to 124 (smaller), service_at_locations 136 MB to 218, and a lookup's answer from the engine
 * grows from 9.2 to 10.5 KB (services) and 9.0 to 13.4 KB (service_at_locations); a lookup slices
 * `record` out of it (raw-json.ts), and list pages still read the stored item alone.
 */
const listItemField = { type: 'keyword', index: false, doc_values: false, store: true } as const;

export const readIndexMappings = {
  services: {
    dynamic: 'strict',
    properties: {
      [F.id]: keyword,
      ...serviceSearchFields,
      [F.suggest]: completion,
      [F.locationPoints]: { type: 'geo_point' },
      // The service's coverage, searched as a service_at_location's is (below); not kept whole.
      [F.coverageCells]: { type: 'keyword', index_options: 'docs', doc_values: false },
      [F.coverageEdge]: { type: 'geo_shape' },
      [F.nestedIds]: keyword,
      [F.record]: storedOnly,
      [F.listItem]: listItemField,
    },
  },
  service_at_locations: {
    dynamic: 'strict',
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
