/**
 * The shape of a read-index search and the pieces every resource's builder shares: how a query is
 * composed from a text part and filters, how results are sorted, and which page window is asked
 * for. Builders are pure: typed parameters in, a request body out (docs/style.md 10).
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
   * Values of the sort to add to each record as fields: field name → its position in `sort` and
   * the decimals it is rounded to (the distance from a postcode is the `_geo_distance` sort
   * value, in metres). Only finite numbers are added: a document without a point sorts at
   * "Infinity".
   */
  readonly sortValues?: Readonly<Record<string, { position: number; decimals: number }>>;
  /** Records per batch when the request is streamed (a dump): see STREAM_BATCH. */
  readonly batchSize: number;
  /**
   * Other indices searched with it (logical names, e.g. `tombstones` for `include_deleted`): their
   * documents must carry the sort fields and a `record`, and the query must tell them apart.
   */
  readonly alsoIndices?: readonly string[];
};

/**
 * Records per stream batch, by what a record carries. Fully nested records weigh about 10 kB
 * each, list items about 1.5 kB, id-and-date pairs under 100 bytes. Two batches are in memory at
 * once (one written, one fetched), so these keep a dump's memory flat.
 */
export const STREAM_BATCH = { full: 100, list: 500, minimal: 5000 } as const;

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

/**
 * Where a stream in index order is cut into parts walked side by side. One walk keeps one engine
 * thread busy; two keep both cores of a small machine busy: on 2 cores, 100,000 services stream
 * about 1.3 times faster as list items and 1.5 times faster as full records (bench/api.bench.ts).
 * HSDS ids are UUIDs, so cutting the id range at "8" halves it; any other ids are still covered
 * exactly once, only less evenly.
 */
export const STREAM_CUTS: readonly string[] = ['8'];

/**
 * The parts of a stream (see STREAM_CUTS): the same request restricted to consecutive id ranges
 * that together cover every id once. Only streams in index order are cut; an order that means
 * something (relevance, distance) must come from one walk.
 */
export function partitionStream(
  request: SearchRequest,
  cuts: readonly string[] = STREAM_CUTS,
): SearchRequest[] {
  const first = request.sort[0];
  if (!first || !('_doc' in first) || cuts.length === 0) return [request];
  const bounds = [undefined, ...cuts, undefined];
  return bounds.slice(1).map((upper, i) => {
    const lower = bounds[i];
    const range = {
      range: { [F.id]: { ...(lower ? { gte: lower } : {}), ...(upper ? { lt: upper } : {}) } },
    };
    return { ...request, query: { bool: { must: [request.query], filter: [range] } } };
  });
}

/** Counts a query's matches (every document when no query is given) without fetching any. */
export const countBody = (query: QueryDsl = matchAll): QueryDsl => ({
  size: 0,
  track_total_hits: true,
  query,
});

/**
 * One page within the result window, with its exact total. `fetch` is what each hit brings
 * (`_source` paths, or the stored list item).
 */
export const searchPageBody = (
  search: Pick<SearchRequest, 'query' | 'sort'>,
  window: { from: number; size: number },
  fetch: QueryDsl,
): QueryDsl => ({
  query: search.query,
  sort: search.sort,
  from: window.from,
  size: window.size,
  track_total_hits: true,
  ...fetch,
});

/**
 * A search inside a point in time: `size` hits (0 to count only) after the sort values `after`,
 * with the total only when `total` asks for it. The point in time is renewed for `keepAlive`.
 */
export const pointInTimeBody = (
  pit: { id: string; keepAlive: string },
  search: Pick<SearchRequest, 'query' | 'sort'>,
  page: { size: number; total: boolean; after?: readonly unknown[] | undefined; fetch?: QueryDsl },
): QueryDsl => ({
  pit: { id: pit.id, keep_alive: pit.keepAlive },
  query: search.query,
  sort: search.sort,
  size: page.size,
  ...page.fetch,
  track_total_hits: page.total,
  ...(page.after ? { search_after: page.after } : {}),
});
