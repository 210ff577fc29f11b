/**
 * The search log, `${prefix}-search-log`: what the search report (GET /admin/search-report,
 * `npx hsds search-report`) is read from. Counters only, no events: one document per day and
 * search text (searches, how many found nothing, how many were relaxed), keyed by a hash of the
 * text; one per day with that day's totals; and one per text (`kind: text`) listing the days it
 * was searched on, which holds the text itself only once it was searched on `minDays` distinct
 * days (SEARCH_LOG_MIN_DAYS). The text arrives here already redacted (src/search-report/
 * search-redaction.ts). Nothing about who searched (address, token, user agent), when in the
 * day, or with which filters is ever written: the mapping is strict and has no field for it.
 *
 * Several API processes add to the same counters: each flush is a scripted upsert that adds its
 * counts to what is stored, so increments from every process add up; the days of a text are a
 * set, so two processes reporting the same day count it once.
 */
import { createHash } from 'node:crypto';
import { keyword } from './analysis.ts';

export const SEARCH_LOG_INDEX = 'search-log';

/** The counters every document carries. */
export type SearchCounts = { searches: number; zero_results: number; relaxed: number };

/** One day's totals: every search, including those whose text was not kept (`dropped`). */
export type SearchDayCounts = SearchCounts & { dropped: number };

export type SearchLogDocument =
  | ({ kind: 'query'; day: string; hash: string } & SearchCounts)
  | ({ kind: 'day'; day: string } & SearchDayCounts)
  /** `query` (redacted) was searched on `day`: stored only once its days reach the threshold. */
  | { kind: 'text'; day: string; hash: string; query: string };

const count = { type: 'long' } as const;
const date = { type: 'date', format: 'strict_date' } as const;

export const searchLogMapping = {
  dynamic: 'strict',
  properties: {
    kind: keyword,
    day: date,
    // A text document's days searched on, within the retention period.
    days: date,
    hash: keyword,
    query: keyword,
    searches: count,
    zero_results: count,
    relaxed: count,
    dropped: count,
  },
} as const;

/** Fields added since the first search logs, put on an older index's mapping (strict: new fields need it). */
export const searchLogAddedFields = {
  properties: { days: searchLogMapping.properties.days, hash: searchLogMapping.properties.hash },
} as const;

/**
 * Per-day query documents written before texts were redacted and held back: they hold the text as
 * typed, with no hash. Deleted once by every newer server, whatever their age.
 */
export const unredactedSearchLogQuery = {
  bool: { filter: [{ term: { kind: 'query' } }], must_not: [{ exists: { field: 'hash' } }] },
} as const;

/**
 * The key of a text: a hash (a text may be 500 characters, an id at most 512 bytes). Unkeyed, so
 * anyone who reads the index can confirm a guessed text was searched; it does not reveal one.
 */
export function searchTextHash(text: string): string {
  return createHash('sha256').update(text).digest('base64url').slice(0, 32);
}

export function searchLogId(doc: { kind: SearchLogDocument['kind']; day: string; hash?: string }): string {
  if (doc.kind === 'day') return `day:${doc.day}`;
  if (doc.kind === 'text') return `text:${doc.hash}`;
  return `query:${doc.day}:${doc.hash}`;
}

const COUNTERS = ['searches', 'zero_results', 'relaxed', 'dropped'] as const;

// One script for both kinds, compiled once by the engine: a counter a document lacks is skipped.
const ADD_COUNTS = COUNTERS.map(
  (f) => `if (params.containsKey('${f}')) { ctx._source.${f} = (ctx._source.${f} ?: 0) + params.${f}; }`,
).join(' ');

/** What decides whether a text is stored: its days are counted from `firstKept` (the retention). */
export type SearchTextRule = { minDays: number; firstKept: string };

// Adds the day to the text's set, forgets days past retention, keeps the latest day (what the
// prune reads), and holds the text only while it was searched on `min_days` days or more.
const ADD_DAY = [
  'def days = ctx._source.days; if (days == null) { days = new ArrayList(); ctx._source.days = days; }',
  'if (!days.contains(params.day)) { days.add(params.day); }',
  'String firstKept = params.first_kept; days.removeIf(d -> d.compareTo(firstKept) < 0);',
  'if (params.day.compareTo(ctx._source.day) > 0) { ctx._source.day = params.day; }',
  "if (days.size() >= params.min_days) { ctx._source.query = params.query; } else { ctx._source.remove('query'); }",
].join(' ');

/** The two lines of a bulk request that add `doc` to its stored document, or store it. */
export function searchLogUpsert(
  index: string,
  doc: SearchLogDocument,
  rule: SearchTextRule,
): [object, object] {
  // Concurrent flushes of several processes touch the same documents; a conflict is retried.
  const action = { update: { _index: index, _id: searchLogId(doc), retry_on_conflict: 10 } };
  if (doc.kind === 'text') {
    const { query, ...rest } = doc;
    const upsert = { ...rest, days: [doc.day], ...(rule.minDays <= 1 ? { query } : {}) };
    const params = { day: doc.day, query, min_days: rule.minDays, first_kept: rule.firstKept };
    return [action, { script: { source: ADD_DAY, lang: 'painless', params }, upsert }];
  }
  const { kind: _, day: __, ...rest } = doc;
  const { hash: ___, ...counts } = rest as typeof rest & { hash?: string };
  return [action, { script: { source: ADD_COUNTS, lang: 'painless', params: counts }, upsert: doc }];
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
  terms: { field: 'hash', size, order: [{ [order]: 'desc' }, { _key: 'asc' }] },
  aggs: { searches: sums.searches, zero_results: sums.zero_results, relaxed: sums.relaxed },
});

/**
 * One search for the whole report: the day documents' totals per day, and the query documents'
 * counts per text (by hash), ranked three ways. The index has one shard, so the terms are exact.
 * The texts themselves are read after, from the text documents of the hashes ranked
 * (`searchTextIds`).
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
          distinct: { cardinality: { field: 'hash', precision_threshold: 40_000 } },
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

/**
 * A text in the report: `query` is null while the text is held back (searched on fewer days than
 * the threshold); `days` is how many days it was searched on in the retention period.
 */
export type SearchReportQuery = { query: string | null; days: number } & SearchCounts;

/** What a text document holds, as the report reads it. */
export type SearchText = { query?: string; days?: string[] };
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

const toQuery =
  (texts: ReadonlyMap<string, SearchText>) =>
  (b: QueryBucket): SearchReportQuery => ({
    query: texts.get(b.key)?.query ?? null,
    days: texts.get(b.key)?.days?.length ?? 0,
    searches: b.searches.value,
    zero_results: b.zero_results.value,
    relaxed: b.relaxed.value,
  });

/** The ids of the text documents of the hashes the aggregations ranked. */
export function searchTextIds(aggs: SearchReportAggregations): string[] {
  const { top, zero, relaxed } = aggs.queries;
  const hashes = new Set([top, zero.q, relaxed.q].flatMap((t) => t.buckets.map((b) => b.key)));
  return [...hashes].map((hash) => searchLogId({ kind: 'text', day: '', hash }));
}

/**
 * The report from the search's aggregations (none: nothing was ever logged) and the text
 * documents of the hashes ranked, by hash; every day of the period is listed.
 */
export function toSearchReport(
  period: SearchReportPeriod,
  aggs: SearchReportAggregations | undefined,
  texts: ReadonlyMap<string, SearchText> = new Map(),
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
    top_queries: aggs?.queries.top.buckets.map(toQuery(texts)) ?? [],
    zero_result_queries: aggs?.queries.zero.q.buckets.map(toQuery(texts)) ?? [],
    relaxed_queries: aggs?.queries.relaxed.q.buckets.map(toQuery(texts)) ?? [],
  };
}
