/**
 * GET /taxonomies and GET /taxonomy_terms.
 */
import { F } from './fields.ts';
import { parentFilter, presentFilters, taxonomyIdFilter, topLevelFilter } from './filters.query.ts';
import { caseVariants } from './ids.ts';
import { composeQuery, type SearchRequest, STREAM_BATCH, sortOrder } from './search.query.ts';
import { FULL_RECORD } from './sources.query.ts';
import { type TextFields, textQuery } from './text.query.ts';

export const TAXONOMY_TEXT_FIELDS: TextFields = {
  stemmed: [`${F.name}^4`, F.description],
  fuzzy: [`${F.nameExact}^4`],
  phrase: [`${F.nameExact}^4`, F.description],
  names: [`${F.nameExact}^4`],
};

/** Terms also match on their code ("BD-1800.2000" finds the term with that code). */
export const TAXONOMY_TERM_TEXT_FIELDS: TextFields = { ...TAXONOMY_TEXT_FIELDS, keywords: [F.code] };

export function buildTaxonomySearch(params: { search?: string | undefined }): SearchRequest {
  const text = textQuery(params.search, TAXONOMY_TEXT_FIELDS);
  return {
    index: 'taxonomies',
    query: composeQuery(text, []),
    sort: sortOrder({ relevance: text !== undefined }),
    source: FULL_RECORD,
    batchSize: STREAM_BATCH.full,
  };
}

export type TaxonomyTermFilters = {
  search?: string | undefined;
  taxonomyId?: string | undefined;
  topOnly?: boolean | undefined;
  parentId?: string | undefined;
};

export function buildTaxonomyTermSearch(params: TaxonomyTermFilters): SearchRequest {
  const text = textQuery(params.search, TAXONOMY_TERM_TEXT_FIELDS);
  return {
    index: 'taxonomy_terms',
    query: composeQuery(
      text,
      presentFilters(
        taxonomyIdFilter(params.taxonomyId),
        topLevelFilter(params.topOnly),
        parentFilter(params.parentId),
      ),
    ),
    sort: sortOrder({ relevance: text !== undefined }),
    source: FULL_RECORD,
    batchSize: STREAM_BATCH.full,
  };
}

/**
 * The terms whose parent is one of `parentIds` (one level of a term's descendants: the caller
 * walks down level by level), their ids only.
 */
export function buildChildTermsSearch(parentIds: readonly string[]): SearchRequest {
  return {
    index: 'taxonomy_terms',
    query: composeQuery(undefined, [{ terms: { [F.parentId]: parentIds.flatMap(caseVariants) } }]),
    sort: sortOrder({ relevance: false }),
    source: [`${F.record}.id`],
    batchSize: STREAM_BATCH.minimal,
  };
}
