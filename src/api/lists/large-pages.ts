/**
 * JSON pages are built whole in memory, and a page can be large: 1000 organizations with their
 * fully nested services is about 25 MB (on 3,000 services), and 16 of them at once took an API of
 * 256 MB heap down, every request with it. So a page is bounded as a dump is (dumps.ts):
 *
 * - a size budget per answer (PAGE_MAX_BYTES): what the page reads from the engine is counted as
 *   it arrives (and announced sizes before it arrives), and a page that would pass the budget is
 *   refused at once, 413 `page-too-large`, naming the `per_page` that fits (or `format=ndjson`,
 *   which streams any number of records with flat memory);
 * - a concurrency cap on large pages: a page that reads more than PAGE_LARGE_BYTES needs one of
 *   PAGE_LARGE_MAX_CONCURRENT slots, and without one is refused at once, 503
 *   `too-many-large-pages` with Retry-After. Small pages (the usual 50 list items) never wait on a
 *   slot, so searches stay quick while large pages are built.
 *
 * Both are decided by bytes read, not guessed from parameters: `full_service=true` costs nothing
 * on organizations that run few services. So that a refused page costs the engine nothing, a page
 * also takes its slot before it asks the engine when pages of its kind were large lately (the
 * bytes per item of the last pages of each kind, times `per_page`): built by bytes alone, 16 such
 * pages made the engine read 16 pages of 1000 organizations before 14 were refused, and a search
 * meanwhile waited 0.9 s behind them. That guess only ever asks for a slot; only bytes read (or a
 * size announced once the first records are read) make a page too large.
 */
import type { Config } from '../../config.ts';
import type { ReadBudget } from '../../engine/search.ts';
import { createSlots, type Release } from '../../resilience/slots.ts';
import { ApiProblem } from '../http/problem.ts';
import type { LargePages, PageLimits } from '../types.ts';

export type { LargePages, PageLimits };

export const pageLimitsOf = (config: Config): PageLimits => ({
  maxBytes: config.PAGE_MAX_BYTES,
  largeBytes: config.PAGE_LARGE_BYTES,
  maxLargeConcurrent: config.PAGE_LARGE_MAX_CONCURRENT,
});

export function createLargePages(limits: PageLimits): LargePages {
  return { limits, slots: createSlots(limits.maxLargeConcurrent), bytesPerItem: new Map() };
}

// A large page takes about a second to build (measured: 1000 organizations with their services,
// 1.0 s): a refused client finds a slot free after about that.
const RETRY_AFTER_SECONDS = 1;

const megabytes = (bytes: number) => `${Math.round((bytes / 1_048_576) * 10) / 10} MB`;

/**
 * The budget of one JSON page; `release` gives its large-page slot back, `served` says how many
 * items the page held (what pages of its kind weigh). `kind` names what shapes an item (the index,
 * the fields read, what is nested in), `perPage` how many items the page may hold.
 */
export type PageBudget = ReadBudget & { served(items: number): void; release(): void };

export function openPageBudget(pages: LargePages, kind: string, perPage: number): PageBudget {
  const { maxBytes, largeBytes, maxLargeConcurrent } = pages.limits;
  let taken = 0;
  let slot: Release | undefined;
  const learn = (bytesPerItem: number) => {
    const before = pages.bytesPerItem.get(kind);
    // Mostly the last page, some of those before: one odd page does not decide alone.
    pages.bytesPerItem.set(kind, before === undefined ? bytesPerItem : 0.5 * before + 0.5 * bytesPerItem);
  };

  const tooLarge = (atLeast: number, estimated: boolean) => {
    // What fits, with 30% to spare: the estimate is made from the first records read, and
    // organizations differ in how many services they run (measured: a fifth to spare was not
    // always enough on the synthetic directory; a client that still gets a 413 is told again).
    const fits = Math.floor(((perPage * maxBytes) / atLeast) * 0.7);
    const suggestion = estimated ? Math.min(fits, perPage - 1) : Math.floor(perPage / 2);
    const advice =
      suggestion >= 1
        ? `ask for per_page=${suggestion} or fewer, or for every match at once with format=ndjson`
        : 'ask for every match with format=ndjson, which streams them';
    return new ApiProblem(
      413,
      `this page would take ${estimated ? 'about' : 'more than'} ${megabytes(atLeast)}, more than the ${megabytes(maxBytes)} this server builds for one answer (PAGE_MAX_BYTES): ${advice}`,
      {
        type: 'page-too-large',
        title: 'Page too large',
        errors: [
          {
            parameter: 'per_page',
            in: 'query',
            reason:
              suggestion >= 1
                ? `at most ${suggestion} for this search`
                : 'even one record is too large for a page: use format=ndjson',
          },
        ],
      },
    );
  };

  const needSlot = () => {
    if (slot) return;
    const acquired = pages.slots.tryAcquire();
    if (!acquired) {
      throw new ApiProblem(
        503,
        `${maxLargeConcurrent} pages larger than ${megabytes(largeBytes)} are being built, the most this server builds at once; try again shortly, ask for a smaller per_page, or use format=ndjson`,
        {
          type: 'too-many-large-pages',
          title: 'Too many large pages',
          retryAfterSeconds: RETRY_AFTER_SECONDS,
        },
      );
    }
    slot = acquired;
  };

  const check = (bytes: number, estimated: boolean) => {
    if (bytes > maxBytes) {
      if (estimated) learn(bytes / perPage);
      throw tooLarge(bytes, estimated);
    }
    if (bytes > largeBytes) needSlot();
  };

  if ((pages.bytesPerItem.get(kind) ?? 0) * perPage > largeBytes) needSlot();

  return {
    take(bytes) {
      taken = Math.max(0, taken + bytes);
      check(taken, false);
    },
    expect(bytes) {
      check(taken + bytes, true);
    },
    served(items) {
      if (items > 0) learn(taken / items);
    },
    release() {
      slot?.();
      slot = undefined;
    },
  };
}
