/**
 * The shape of a read-index search and the pieces every resource's builder shares: how a query is
 * composed from a text part and filters, how results are sorted, and which page window is asked
 * for. Builders are pure: typed parameters in, a request body out (STYLE.md 10).
 */
import { F } from './fields.ts';
import type { ReadIndex } from './read-indices.mapping.ts';

/** A fragment of query DSL. Kept opaque: builders compose fragments, only the engine reads them. */
export type QueryDsl = { readonly [key: string]: unknown };
export type SortClause = QueryDsl;

/**
 * What the gateway runs: the query, a total order (the last clause is always the unique `id`, so
 * pages never overlap and `search_after` can resume anywhere) and the `_source` paths to fetch.
 */
export type SearchRequest = {
  readonly index: ReadIndex;
  readonly query: QueryDsl;
  readonly sort: readonly SortClause[];
  readonly source: readonly string[];
  /**
   * Values of the sort to add to each record: field name → position in `sort` (the distance from a
   * postcode is the `_geo_distance` sort value). Only finite numbers are added: a document without
   * a point sorts at "Infinity".
   */
  readonly sortValues?: Readonly<Record<string, number>>;
};

/** The engine's default `index.max_result_window`: `from + size` beyond it needs `search_after`. */
export const RESULT_WINDOW = 10_000;

export const matchAll: QueryDsl = { match_all: {} };

/** A text part (scored) and filters (not scored, cached by the engine), combined with AND. */
export function composeQuery(text: QueryDsl | undefined, filters: readonly QueryDsl[]): QueryDsl {
  if (!text && filters.length === 0) return matchAll;
  return {
    bool: {
      ...(text ? { must: [text] } : {}),
      ...(filters.length > 0 ? { filter: [...filters] } : {}),
    },
  };
}

const byId: SortClause = { [F.id]: { order: 'asc' } };

/**
 * The order of a list. A search ranks by relevance; a listing is alphabetical by name (what a person
 * browsing expects, and stable across pages); `leading` clauses (distance from a postcode) go first.
 * Every order ends with `id`, unique per document, as the tiebreaker.
 */
export function sortOrder(options: {
  relevance: boolean;
  byName?: boolean;
  leading?: readonly SortClause[];
}): SortClause[] {
  return [
    ...(options.leading ?? []),
    ...(options.relevance ? [{ _score: { order: 'desc' } }] : []),
    ...(options.byName === false ? [] : [{ [F.nameSort]: { order: 'asc', missing: '_last' } }]),
    byId,
  ];
}

/** Page `page` (from 1) of `perPage` items as an offset and a size. */
export function pageWindow(page: number, perPage: number): { from: number; size: number } {
  return { from: (page - 1) * perPage, size: perPage };
}

/**
 * The order a stream walks in. A dump needs a total order, not a meaningful one, unless the order
 * is the point (relevance to a search, distance from a postcode): then the list's own order is kept.
 * Otherwise index order (`_doc`, then the unique id) is the cheapest for the engine to resume from
 * with `search_after`: no sort values to compare across the whole index for every batch.
 */
export function streamOrder(request: SearchRequest): SearchRequest {
  const meaningful = request.sort.some((clause) => '_score' in clause || '_geo_distance' in clause);
  if (meaningful) return request;
  return { ...request, sort: [{ _doc: { order: 'asc' } }, byId] };
}
