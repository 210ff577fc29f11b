/**
 * Facet counts (an extension, opt-in with `facets=`): for the current search and filters, how many
 * matches each taxonomy term, taxonomy, organization, age band, language, cost (free or not) or
 * accessibility record has, so a site can show "Food (12) · Housing (4)". Pure: the names asked
 * for in, the aggregations out.
 */
import { ageBandFilters } from './eligibility.query.ts';
import { F } from './fields.ts';
import type { ReadIndex } from './read-indices.mapping.ts';
import type { QueryDsl } from './search.query.ts';

export const FACET_NAMES = [
  'taxonomy_term',
  'taxonomy',
  'organization',
  'age',
  'language',
  'free',
  'accessibility',
] as const;
export type FacetName = (typeof FACET_NAMES)[number];

/** Buckets per facet, the most frequent first. */
export const FACET_SIZE = 50;

const terms = (field: string): QueryDsl => ({ terms: { field, size: FACET_SIZE } });

const facetAggregations: Record<FacetName, () => QueryDsl> = {
  taxonomy_term: () => terms(F.taxonomyTermIds),
  taxonomy: () => terms(F.taxonomyIds),
  organization: () => terms(F.organizationId),
  // Bands in age order (youngest first), each counting the services whose range overlaps it.
  age: () => ({ filters: { filters: ageBandFilters() } }),
  language: () => terms(F.languageCodes),
  free: () => terms(F.free),
  accessibility: () => terms(F.accessibilityKeyword),
};

/** Where the facets whose values are ids are named; the others' values are their own names. */
export const FACET_RECORDS: Partial<Record<FacetName, ReadIndex>> = {
  taxonomy_term: 'taxonomy_terms',
  taxonomy: 'taxonomies',
  organization: 'organizations',
};

/** One aggregation per facet, counted over the query's matches. */
export function buildFacetAggregations(names: readonly FacetName[]): Record<string, QueryDsl> {
  return Object.fromEntries(names.map((name) => [name, facetAggregations[name]()]));
}

/** The facets of a search (`aggs`, from buildFacetAggregations) over its matches: no hits, no total. */
export function buildFacetsBody(query: QueryDsl, aggs: Record<string, QueryDsl>): QueryDsl {
  return { query, size: 0, track_total_hits: false, aggs };
}
