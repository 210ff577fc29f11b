/**
 * Facet counts (an extension, opt-in with `facets=`): for the current search and filters, how many
 * matches each taxonomy term, taxonomy or organization has, so a site can show "Food (12) ·
 * Housing (4)". Pure: the names asked for in, the aggregations out.
 */
import { F } from './fields.ts';
import type { ReadIndex } from './read-indices.mapping.ts';
import type { QueryDsl } from './search.query.ts';

export const FACET_NAMES = ['taxonomy_term', 'taxonomy', 'organization'] as const;
export type FacetName = (typeof FACET_NAMES)[number];

/** Buckets per facet, the most frequent first. */
export const FACET_SIZE = 50;

const facetFields: Record<FacetName, string> = {
  taxonomy_term: F.taxonomyTermIds,
  taxonomy: F.taxonomyIds,
  organization: F.organizationId,
};

/** Where each facet's values are named. */
export const FACET_RECORDS: Record<FacetName, ReadIndex> = {
  taxonomy_term: 'taxonomy_terms',
  taxonomy: 'taxonomies',
  organization: 'organizations',
};

/** One `terms` aggregation per facet, counted over the query's matches. */
export function buildFacetAggregations(names: readonly FacetName[]): Record<string, QueryDsl> {
  return Object.fromEntries(
    names.map((name) => [name, { terms: { field: facetFields[name], size: FACET_SIZE } }]),
  );
}
