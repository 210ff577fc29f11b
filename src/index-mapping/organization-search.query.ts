/**
 * GET /organizations.
 */
import { F } from './fields.ts';
import { presentFilters, taxonomyFilter, taxonomyTermFilter } from './filters.query.ts';
import { composeQuery, type SearchRequest, STREAM_BATCH, sortOrder } from './search.query.ts';
import { FULL_RECORD, ORGANIZATION_LIST_ITEM } from './sources.query.ts';
import { type TextFields, textQuery } from './text.query.ts';

export const ORGANIZATION_TEXT_FIELDS: TextFields = {
  stemmed: [`${F.name}^4`, `${F.alternateName}^2`, F.description],
  fuzzy: [`${F.nameExact}^4`],
  phrase: [`${F.nameExact}^4`, `${F.alternateName}^2`, F.description],
  names: [`${F.nameExact}^4`, `${F.alternateName}^2`],
};

export type OrganizationFilters = {
  search?: string | undefined;
  /** Organizations running a service with this term. */
  taxonomyTermId?: string | undefined;
  taxonomyId?: string | undefined;
  /** The terms below `taxonomyTermId` (`include_child_terms`). */
  childTermIds?: readonly string[] | undefined;
  /** The terms below `taxonomyId`'s terms that are not of it (`include_child_terms`). */
  taxonomyChildTermIds?: readonly string[] | undefined;
};

export function buildOrganizationSearch(params: OrganizationFilters, shape: 'list' | 'full'): SearchRequest {
  const text = textQuery(params.search, ORGANIZATION_TEXT_FIELDS);
  return {
    index: 'organizations',
    query: composeQuery(
      text,
      presentFilters(
        taxonomyTermFilter(params.taxonomyTermId, params.childTermIds),
        taxonomyFilter(params.taxonomyId, params.taxonomyChildTermIds),
      ),
    ),
    sort: sortOrder({ relevance: text !== undefined }),
    source: shape === 'full' ? FULL_RECORD : ORGANIZATION_LIST_ITEM,
    batchSize: STREAM_BATCH[shape],
  };
}
