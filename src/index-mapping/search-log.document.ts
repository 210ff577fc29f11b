/**
 * The search log, `${prefix}-search-log`: what the search report (GET /admin/search-report,
 * `npx hsds search-report`) is read from. Counters only, no events: one document per day and
 * normalised query text (searches, how many found nothing, how many were relaxed), and one per
 * day with that day's totals. Nothing about who searched (address, token, user agent), when in
 * the day, or with which filters is ever written: the mapping is strict and has no field for it.
 *
 * Several API processes add to the same counters: each flush is a scripted upsert that adds its
 * counts to what is stored, so increments from every process add up.
 */
import { createHash } from 'node:crypto';
import { keyword } from './analysis.ts';

export const SEARCH_LOG_INDEX = 'search-log';

/** The counters every document carries. */
export type SearchCounts = { searches: number; zero_results: number; relaxed: number };

/** One day's totals: every search, including those whose text was not kept (`dropped`). */
export type SearchDayCounts = SearchCounts & { dropped: number };

export type SearchLogDocument =
  | ({ kind: 'query'; day: string; query: string } & SearchCounts)
  | ({ kind: 'day'; day: string } & SearchDayCounts);

const count = { type: 'long' } as const;

export const searchLogMapping = {
  dynamic: 'strict',
  properties: {
    kind: keyword,
    day: { type: 'date', format: 'strict_date' },
    query: keyword,
    searches: count,
    zero_results: count,
    relaxed: count,
    dropped: count,
  },
} as const;

/**
 * A day's document id; a query's is the day and a hash of the text (query text may be 500
 * characters, and an id at most 512 bytes).
 */
export function searchLogId(doc: Pick<SearchLogDocument, 'kind' | 'day'> & { query?: string }): string {
  if (doc.kind === 'day') return `day:${doc.day}`;
  const hash = createHash('sha256')
    .update(doc.query ?? '')
    .digest('base64url')
    .slice(0, 32);
  return `query:${doc.day}:${hash}`;
}

const COUNTERS = ['searches', 'zero_results', 'relaxed', 'dropped'] as const;

// One script for both kinds, compiled once by the engine: a counter a document lacks is skipped.
const ADD_COUNTS = COUNTERS.map(
  (f) => `if (params.containsKey('${f}')) { ctx._source.${f} = (ctx._source.${f} ?: 0) + params.${f}; }`,
).join(' ');

/** The two lines of a bulk request that add `doc`'s counters to its stored document, or store it. */
export function searchLogUpsert(index: string, doc: SearchLogDocument): [object, object] {
  const { kind: _, day: __, query: ___, ...counts } = doc as SearchLogDocument & { query?: string };
  return [
    // Concurrent flushes of several processes touch the same documents; a conflict is retried.
    { update: { _index: index, _id: searchLogId(doc), retry_on_conflict: 10 } },
    { script: { source: ADD_COUNTS, lang: 'painless', params: counts }, upsert: doc },
  ];
}

/** Keeps the days from `firstKept` on (retention). */
export const searchLogPruneQuery = (firstKept: string) => ({ range: { day: { lt: firstKept } } });

/** What a report may ask for (GET /admin/search-report, `npx hsds search-report`). */
export const REPORT_DAYS = { default: 7, max: 366 } as const;
export const REPORT_QUERIES = { default: 50, max: 1000 } as const;

/** The report's period: `days` days ending on `today` (UTC dates, `YYYY-MM-DD`). */
export type SearchReportPeriod = { from: string; to: string; days: number };

export function searchReportPeriod(days: number, now: number): SearchReportPeriod {
  return { from: utcDay(now - (days - 1) * DAY_MS), to: utcDay(now), days };
}

export const DAY_MS = 86_400_000;

/** The UTC date of a time, `YYYY-MM-DD`. */
export const utcDay = (time: number) => new Date(time).toISOString().slice(0, 10);

const sums = Object.fromEntries(COUNTERS.map((f) => [f, { sum: { field: f } }]));
const byQuery = (size: number, order: keyof SearchCounts) => ({
  terms: { field: 'query', size, order: [{ [order]: 'desc' }, { _key: 'asc' }] },
  aggs: { searches: sums.searches, zero_results: sums.zero_results, relaxed: sums.relaxed },
});

/**
 * One search for the whole report: the day documents' totals per day, and the query documents'
 * counts per query, ranked three ways. The index has one shard, so the terms are exact.
 */
export function buildSearchReportSearch(period: SearchReportPeriod, limit: number) {
  return {
    size: 0,
    query: { range: { day: { gte: period.from, lte: period.to } } },
    aggs: {
      days: {
        filter: { term: { kind: 'day' } },
        aggs: { per_day: { terms: { field: 'day', size: period.days }, aggs: sums } },
      },
      queries: {
        filter: { term: { kind: 'query' } },
        aggs: {
          distinct: { cardinality: { field: 'query', precision_threshold: 40_000 } },
          per_day: { terms: { field: 'day', size: period.days } },
          top: byQuery(limit, 'searches'),
          zero: {
            filter: { range: { zero_results: { gt: 0 } } },
            aggs: { q: byQuery(limit, 'zero_results') },
          },
          relaxed: { filter: { range: { relaxed: { gt: 0 } } }, aggs: { q: byQuery(limit, 'relaxed') } },
        },
      },
    },
  };
}

export type SearchReportQuery = { query: string } & SearchCounts;
export type SearchReportDay = { day: string } & SearchDayCounts & { distinct_queries: number };

export type SearchReport = {
  from: string;
  to: string;
  days: number;
  totals: SearchDayCounts & { distinct_queries: number };
  per_day: SearchReportDay[];
  top_queries: SearchReportQuery[];
  zero_result_queries: SearchReportQuery[];
  relaxed_queries: SearchReportQuery[];
};

type Sum = { value: number };
type DayBucket = { key_as_string: string; doc_count: number } & Partial<Record<keyof SearchDayCounts, Sum>>;
type QueryBucket = { key: string } & Record<keyof SearchCounts, Sum>;
type QueryTerms = { buckets: QueryBucket[] };

export type SearchReportAggregations = {
  days: { per_day: { buckets: DayBucket[] } };
  queries: {
    distinct: { value: number };
    per_day: { buckets: DayBucket[] };
    top: QueryTerms;
    zero: { q: QueryTerms };
    relaxed: { q: QueryTerms };
  };
};

const toQuery = (b: QueryBucket): SearchReportQuery => ({
  query: b.key,
  searches: b.searches.value,
  zero_results: b.zero_results.value,
  relaxed: b.relaxed.value,
});

/** The report from the search's aggregations (none: nothing was ever logged); every day of the period is listed. */
export function toSearchReport(
  period: SearchReportPeriod,
  aggs: SearchReportAggregations | undefined,
): SearchReport {
  const totalsOf = new Map(aggs?.days.per_day.buckets.map((b) => [b.key_as_string, b]));
  const queriesOf = new Map(aggs?.queries.per_day.buckets.map((b) => [b.key_as_string, b.doc_count]));
  const per_day: SearchReportDay[] = [];
  for (let i = period.days - 1; i >= 0; i--) {
    const day = utcDay(Date.parse(period.to) - i * DAY_MS);
    const b = totalsOf.get(day);
    per_day.push({
      day,
      searches: b?.searches?.value ?? 0,
      zero_results: b?.zero_results?.value ?? 0,
      relaxed: b?.relaxed?.value ?? 0,
      dropped: b?.dropped?.value ?? 0,
      distinct_queries: queriesOf.get(day) ?? 0,
    });
  }
  const total = (f: keyof SearchDayCounts) => per_day.reduce((n, d) => n + d[f], 0);
  return {
    ...period,
    totals: {
      searches: total('searches'),
      zero_results: total('zero_results'),
      relaxed: total('relaxed'),
      dropped: total('dropped'),
      distinct_queries: aggs?.queries.distinct.value ?? 0,
    },
    per_day,
    top_queries: aggs?.queries.top.buckets.map(toQuery) ?? [],
    zero_result_queries: aggs?.queries.zero.q.buckets.map(toQuery) ?? [],
    relaxed_queries: aggs?.queries.relaxed.q.buckets.map(toQuery) ?? [],
  };
}
