/**
 * GET /taxonomies and GET /taxonomy_terms.
 */
import { F } from './fields.ts';
import { parentFilter, presentFilters, taxonomyIdFilter, topLevelFilter } from './filters.query.ts';
import {
  composeQuery,
  type QueryDsl,
  RESULT_WINDOW,
  type SearchRequest,
  STREAM_BATCH,
  sortOrder,
} from './search.query.ts';
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

/** Terms per page of the taxonomy tree: the engine's default result window, so one page in practice. */
export const TERM_TREE_PAGE = RESULT_WINDOW;

/**
 * A page of every served term, in id order after the sort values `after`, each with only its id,
 * parent and taxonomy: the tree `include_child_terms` walks in memory.
 */
export function buildTermTreePageBody(size: number, after: readonly unknown[] | undefined): QueryDsl {
  return {
    size,
    sort: [{ [F.id]: 'asc' }],
    _source: [`${F.record}.id`, F.parentId, F.taxonomyId],
    track_total_hits: false,
    ...(after ? { search_after: after } : {}),
  };
}
