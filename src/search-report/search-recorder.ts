/**
 * The search recorder: counts the searches the API serves (their normalised text, whether they
 * found nothing, whether they were relaxed), per UTC day, in memory, and adds the counts to the
 * search log in the engine every few seconds and at shutdown (src/engine/search-log.ts). It
 * implements the API's `SearchLog` (src/api/types.ts), which is all a route sees of it.
 *
 * What it is given is all it can keep: the text and two flags. No address, token, user agent,
 * time of day, filters or ids reach it. And it keeps less than it is given: the text is redacted
 * at once (search-redaction.ts: e-mail addresses, phone numbers, runs of digits, house number and
 * street, the inward half of a postcode), and the engine stores the redacted text only once it
 * has been searched on `minDays` distinct days (until then, only a hash of it with its counts):
 * what one person typed once, a name for instance, which no pattern can tell from a word, is
 * never stored.
 *
 * Recording never slows or fails a search: `record` is synchronous, does a map update and never
 * throws; writing happens on a timer, and a failed write keeps its counts for the next one. Memory
 * is bounded: at most `maxQueries` distinct texts are held between flushes; beyond, a search is
 * still counted in its day's totals, and as `dropped` there (its text is not kept).
 */
import type { Logger } from 'pino';
import type { Engine } from '../engine/index.ts';
import { addToSearchLog, firstKeptDay, pruneSearchLog } from '../engine/search-log.ts';
import {
  type SearchDayCounts,
  type SearchLogDocument,
  searchTextHash,
  utcDay,
} from '../index-mapping/search-log.document.ts';
import { MAX_SEARCH_CHARS } from '../index-mapping/text.query.ts';
import { redactSearch } from './search-redaction.ts';

/** What a route tells the recorder about one search. */
export type SearchOutcome = {
  /** The search's total_items. */
  total: number;
  /** The search was relaxed to find something (fewer words required). */
  relaxed?: boolean;
};

export type SearchRecorderOptions = {
  /** Days kept (SEARCH_LOG_RETENTION_DAYS); older days are pruned at a flush, once a day. */
  retentionDays: number;
  /**
   * Distinct days a text must be searched on before the engine stores it (SEARCH_LOG_MIN_DAYS,
   * default 3); 1 stores every redacted text at once.
   */
  minDays?: number;
  logger: Logger;
  /** How often counts are written (default 10 s). */
  flushIntervalMs?: number;
  /** Distinct texts held between flushes (default 10,000). */
  maxQueries?: number;
  now?: () => number;
};

export type SearchRecorder = {
  record(search: string, outcome: SearchOutcome): void;
  /** Writes what is held now (and prunes, once a day). Never rejects. */
  flush(): Promise<void>;
  /** Stops the timer and writes what is held; later searches are not recorded. */
  stop(): Promise<void>;
};

/**
 * The text as it is counted: one query whatever its case and spacing, cut to what the API takes
 * (the API refuses longer, so a cut only happens to text that came round that check).
 */
export function normaliseSearch(search: string): string {
  return search.normalize('NFC').toLowerCase().replace(/\s+/g, ' ').trim().slice(0, MAX_SEARCH_CHARS).trim();
}

type Held = {
  days: Map<string, SearchDayCounts>;
  queries: Map<string, SearchLogDocument & { kind: 'query' }>;
  texts: Map<string, SearchLogDocument & { kind: 'text' }>;
};

const emptyHeld = (): Held => ({ days: new Map(), queries: new Map(), texts: new Map() });

export function createSearchRecorder(engine: Engine, options: SearchRecorderOptions): SearchRecorder {
  const { logger, retentionDays } = options;
  const now = options.now ?? Date.now;
  const maxQueries = options.maxQueries ?? 10_000;
  const minDays = options.minDays ?? 3;
  let held = emptyHeld();
  let stopped = false;
  let lastPruned: string | undefined;
  let failing = false;
  let flushing: Promise<void> = Promise.resolve();

  const dayOf = (h: Held, day: string) => {
    let counts = h.days.get(day);
    if (!counts) {
      counts = { searches: 0, zero_results: 0, relaxed: 0, dropped: 0 };
      h.days.set(day, counts);
    }
    return counts;
  };

  /** Adds counts to what is held, within the cap on texts; what the cap refuses counts as dropped. */
  function hold(h: Held, doc: SearchLogDocument) {
    if (doc.kind === 'day') {
      const counts = dayOf(h, doc.day);
      for (const f of ['searches', 'zero_results', 'relaxed', 'dropped'] as const) counts[f] += doc[f];
      return;
    }
    const key = `${doc.day}\n${doc.hash}`;
    if (doc.kind === 'text') {
      // Written again whenever it fails: adding a day to a set twice is adding it once.
      if (h.texts.has(key) || h.texts.size < maxQueries) h.texts.set(key, doc);
      return;
    }
    const found = h.queries.get(key);
    if (found) {
      found.searches += doc.searches;
      found.zero_results += doc.zero_results;
      found.relaxed += doc.relaxed;
    } else if (h.queries.size < maxQueries) {
      h.queries.set(key, { ...doc });
    } else {
      dayOf(h, doc.day).dropped += doc.searches;
    }
  }

  function record(search: string, outcome: SearchOutcome) {
    if (stopped || retentionDays <= 0) return;
    try {
      const query = redactSearch(normaliseSearch(search));
      if (!query) return;
      const hash = searchTextHash(query);
      const counts = {
        searches: 1,
        zero_results: outcome.total === 0 ? 1 : 0,
        relaxed: outcome.relaxed ? 1 : 0,
      };
      const day = utcDay(now());
      hold(held, { kind: 'day', day, ...counts, dropped: 0 });
      hold(held, { kind: 'query', day, hash, ...counts });
      // The text goes with its counts: not when the cap dropped them.
      if (held.queries.has(`${day}\n${hash}`)) hold(held, { kind: 'text', day, hash, query });
    } catch (error) {
      logger.warn({ err: error }, 'search not recorded');
    }
  }

  async function writeHeld() {
    const taken = held;
    held = emptyHeld();
    const docs: SearchLogDocument[] = [
      ...[...taken.days].map(([day, counts]): SearchLogDocument => ({ kind: 'day', day, ...counts })),
      ...taken.queries.values(),
      ...taken.texts.values(),
    ];
    const rule = { minDays, firstKept: firstKeptDay(retentionDays, now()) };
    const failed = await addToSearchLog(engine, docs, rule).catch(() => docs);
    // Kept for the next flush, with what arrived meanwhile (the cap still holds).
    for (const doc of failed) hold(held, doc);
    if (failed.length > 0 && !failing)
      logger.warn({ documents: failed.length }, 'search log not written; kept for the next flush');
    else if (failed.length === 0 && failing) logger.info('search log written again');
    failing = failed.length > 0;

    const today = utcDay(now());
    if (retentionDays > 0 && lastPruned !== today && !failing) {
      try {
        const deleted = await pruneSearchLog(engine, retentionDays, now());
        lastPruned = today;
        if (deleted > 0) logger.info({ deleted, retention_days: retentionDays }, 'search log pruned');
      } catch (error) {
        logger.warn({ err: error instanceof Error ? error.message : error }, 'search log not pruned');
      }
    }
  }

  // One flush at a time: a timer tick and the shutdown's flush must not write the same counts twice.
  const flush = () => {
    flushing = flushing.then(writeHeld).catch((error: unknown) => {
      logger.warn({ err: error instanceof Error ? error.message : error }, 'search log flush failed');
    });
    return flushing;
  };

  const timer = retentionDays > 0 ? setInterval(flush, options.flushIntervalMs ?? 10_000) : undefined;
  timer?.unref();

  return {
    record,
    flush,
    stop: async () => {
      stopped = true;
      if (timer) clearInterval(timer);
      await flush();
    },
  };
}
