/**
 * The search log index (index-mapping/search-log.document.ts): counters added to by the API's
 * search recorder (src/search-report), read as the search report, pruned after the retention
 * period.
 *
 * Written with bulk requests of its own rather than the bulk writer: these are not records (no
 * record cache to empty), and a request is never retried whole here: a scripted increment sent
 * twice would count twice. What failed goes back to the caller, which keeps it for its next flush.
 */
import {
  buildSearchReportSearch,
  DAY_MS,
  SEARCH_LOG_INDEX,
  type SearchLogDocument,
  type SearchReport,
  type SearchReportAggregations,
  type SearchText,
  type SearchTextRule,
  searchLogAddedFields,
  searchLogMapping,
  searchLogPruneQuery,
  searchLogUpsert,
  searchReportPeriod,
  searchTextIds,
  toSearchReport,
  unredactedSearchLogQuery,
  utcDay,
} from '../index-mapping/search-log.document.ts';
import { type Engine, engineCall } from './engine.ts';
import { EngineNotFoundError } from './errors.ts';
import { createSmallIndex, pruneSmallIndex } from './layout.ts';

export const searchLogIndex = (engine: Engine) => engine.name(SEARCH_LOG_INDEX);

const ensured = new WeakSet<Engine>();

/**
 * Creates the index, or brings an older one up to date: its mapping gains the fields added since,
 * and the per-day texts an older server stored as typed are deleted, so that what is kept is only
 * what this server would keep.
 */
async function ensureSearchLogIndex(engine: Engine): Promise<void> {
  if (ensured.has(engine)) return;
  const index = searchLogIndex(engine);
  const created = await createSmallIndex(engine, index, searchLogMapping, 'search log');
  if (!created) {
    await engineCall('update the search log mapping', () =>
      engine.client.indices.putMapping({ index, body: searchLogAddedFields }),
    );
    await pruneSmallIndex(engine, 'delete unredacted search texts', index, unredactedSearchLogQuery);
  }
  ensured.add(engine);
}

/** Documents a bulk request carries at most (a flush holds at most a few thousand). */
const BULK_DOCUMENTS = 1000;

/**
 * Adds the counters of `docs` to the stored ones (creating those that are new). Returns the
 * documents that were not written: every one of a request that failed, and those the engine
 * refused one by one.
 */
export async function addToSearchLog(
  engine: Engine,
  docs: readonly SearchLogDocument[],
  rule: SearchTextRule,
): Promise<SearchLogDocument[]> {
  if (docs.length === 0) return [];
  await ensureSearchLogIndex(engine);
  const index = searchLogIndex(engine);
  const failed: SearchLogDocument[] = [];
  for (let i = 0; i < docs.length; i += BULK_DOCUMENTS) {
    const chunk = docs.slice(i, i + BULK_DOCUMENTS);
    try {
      const { body } = await engineCall('add to the search log', () =>
        engine.client.bulk(
          {
            body: chunk.flatMap((doc) => searchLogUpsert(index, doc, rule)) as Record<string, unknown>[],
            filter_path: ['errors', 'items.*.status'],
          },
          { maxRetries: 0 },
        ),
      );
      const items = (body as { items?: Record<string, { status: number }>[] }).items ?? [];
      chunk.forEach((doc, n) => {
        const status = Object.values(items[n] ?? {})[0]?.status ?? 500;
        if (status >= 300) failed.push(doc);
      });
    } catch {
      failed.push(...chunk);
    }
  }
  return failed;
}

/** The search report for the `days` days ending today (UTC), with `limit` queries in each ranking. */
export async function readSearchReport(
  engine: Engine,
  options: { days: number; limit: number; now?: number },
): Promise<SearchReport> {
  const period = searchReportPeriod(options.days, options.now ?? Date.now());
  try {
    const { body } = await engineCall('read the search report', () =>
      engine.client.search({
        index: searchLogIndex(engine),
        body: buildSearchReportSearch(period, options.limit),
      } as never),
    );
    const { aggregations } = body as unknown as { aggregations: SearchReportAggregations };
    return toSearchReport(period, aggregations, await readSearchTexts(engine, searchTextIds(aggregations)));
  } catch (error) {
    // Nothing was ever recorded: no index.
    if (error instanceof EngineNotFoundError) return toSearchReport(period, undefined);
    throw error;
  }
}

/** The text documents of `ids`, by hash (a text never stored is absent). */
async function readSearchTexts(engine: Engine, ids: string[]): Promise<Map<string, SearchText>> {
  if (ids.length === 0) return new Map();
  const { body } = await engineCall('read the search texts', () =>
    engine.client.mget({
      index: searchLogIndex(engine),
      body: { ids },
      _source_includes: ['hash', 'query', 'days'],
    }),
  );
  const docs = (body as unknown as { docs: { found?: boolean; _source?: SearchText & { hash: string } }[] })
    .docs;
  return new Map(docs.flatMap((d) => (d.found && d._source ? [[d._source.hash, d._source] as const] : [])));
}

/** The first day whose searches are kept, for `retentionDays` ending on the day of `now`. */
export const firstKeptDay = (retentionDays: number, now: number) =>
  utcDay(now - (retentionDays - 1) * DAY_MS);

/** Removes the days before the last `retentionDays` (today counts as one); returns how many documents went. */
export async function pruneSearchLog(
  engine: Engine,
  retentionDays: number,
  now = Date.now(),
): Promise<number> {
  return pruneSmallIndex(
    engine,
    'prune the search log',
    searchLogIndex(engine),
    searchLogPruneQuery(firstKeptDay(retentionDays, now)),
  );
}

/** Makes what was added visible to the report at once (tests; the engine otherwise does within a second). */
export async function refreshSearchLog(engine: Engine): Promise<void> {
  await engineCall('refresh the search log', () =>
    engine.client.indices.refresh({ index: searchLogIndex(engine) }),
  );
}
