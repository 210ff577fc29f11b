/**
 * Queries of the tombstones index (tombstone.document.ts): which of some records have a
 * tombstone, and which tombstones are past their retention period. Pure.
 */
import { F } from './fields.ts';
import type { QueryDsl } from './search.query.ts';

/** The tombstones among these ids (`tombstoneId`), ids only. */
export function buildTombstonesByIdBody(ids: readonly string[]): QueryDsl {
  return { size: ids.length, _source: false, query: { ids: { values: [...ids] } } };
}

/** Tombstones of deletions more than `retentionDays` days before `now` (ms since the epoch). */
export function buildExpiredTombstonesQuery(now: number, retentionDays: number): QueryDsl {
  const before = new Date(now - retentionDays * 86_400_000).toISOString();
  return { range: { deleted_at: { lt: before } } };
}

/**
 * Dates the documents of these ids as changed at `at` (their own `last_modified`, the field
 * `modified_after` reads; the served record is left as its source wrote it).
 */
export function buildServedAgainBody(ids: readonly string[], at: string) {
  return {
    query: { bool: { filter: [{ terms: { [F.id]: [...ids] } }] } },
    script: {
      lang: 'painless',
      source: `ctx._source['${F.lastModified}'] = params.at`,
      params: { at },
    },
  };
}
