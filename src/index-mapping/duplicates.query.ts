/**
 * Duplicates across sources (src/duplicates): the marks index, `${prefix}-duplicate-marks`, and
 * the request bodies that read served records for detection and hide the records marked as
 * merged into another. A mark is one document per pair, id `type:lo|hi` (the two ids in string
 * order), in an index of its own: imports, syncs and reindexes never write it, so a mark outlives
 * them.
 */
import { date, keyword } from './analysis.ts';
import { F } from './fields.ts';
import { documentsWithQuery } from './record-store.query.ts';

export const DUPLICATE_MARKS_INDEX = 'duplicate-marks';

export type DuplicateDecision = 'same' | 'distinct';

export type DuplicateMarkDocument = {
  /** `type:lo|hi`: the document id. */
  key: string;
  type: string;
  ids: [string, string];
  decision: DuplicateDecision;
  /** `same`: the id served; `merged` answers with it. */
  keep?: string;
  merged?: string;
  marked_at: string;
  marked_by?: string;
};

export const duplicateMarksMapping = {
  dynamic: 'strict',
  properties: {
    key: keyword,
    type: keyword,
    ids: keyword,
    decision: keyword,
    keep: keyword,
    merged: keyword,
    marked_at: date,
    marked_by: keyword,
  },
};

/** A page of marks (of one type, or all) in key order. */
export const marksPageBody = (type: string | undefined, size: number, after: unknown[] | undefined) => ({
  size,
  query: type ? { bool: { filter: [{ term: { type } }] } } : { match_all: {} },
  sort: [{ key: 'asc' }],
  ...(after ? { search_after: after } : {}),
});

/** The `same` marks that merged one of these ids of a type away. */
export const mergedMarksBody = (type: string, ids: readonly string[]) => ({
  size: ids.length * 4,
  query: {
    bool: {
      filter: [{ term: { type } }, { term: { decision: 'same' } }, { terms: { merged: [...ids] } }],
    },
  },
});

/**
 * The `same` marks of a type, other than the pair's own (`key`), that a new `same` mark keeping
 * `keep` and merging `merged` away would chain or cycle with: one that merged `keep` away (the
 * kept record is not served), one that keeps `merged` (its merged record would answer with a
 * record that is itself gone), and one that merged `merged` into a third record (two answers).
 */
export const conflictingMarksBody = (type: string, key: string, keep: string, merged: string) => ({
  size: 10,
  query: {
    bool: {
      filter: [{ term: { type } }, { term: { decision: 'same' } }],
      must_not: [{ term: { key } }],
      should: [{ terms: { merged: [keep, merged] } }, { term: { keep: merged } }],
      minimum_should_match: 1,
    },
  },
  sort: [{ key: 'asc' }],
});

/** A page of a read index's records in id order (the whole served record, nothing else). */
export const servedPageBody = (size: number, after: unknown[] | undefined) => ({
  size,
  _source: [F.record],
  query: { match_all: {} },
  sort: [{ [F.id]: 'asc' }],
  track_total_hits: false,
  ...(after ? { search_after: after } : {}),
});

/** The store documents that hold any of these keys: their keys and source only. */
export const sourcesOfKeysBody = (keys: readonly string[], size: number, after: unknown[] | undefined) => ({
  size,
  _source: ['keys', 'source'],
  query: documentsWithQuery('keys', keys),
  sort: [{ key: 'asc' }],
  track_total_hits: false,
  ...(after ? { search_after: after } : {}),
});

/** A page of the ids of the documents a hideQuery matches, in id order. */
export const hiddenIdsPageBody = (query: object, size: number, after: unknown[] | undefined) => ({
  size,
  _source: false,
  query,
  sort: [{ [F.id]: 'asc' }],
  track_total_hits: false,
  ...(after ? { search_after: after } : {}),
});

/** What a read index must lose of the merged-away records: by their ids, or by their service's. */
export const hideQuery = (field: 'id' | 'service_id', ids: readonly string[]) => ({
  bool: { filter: [{ terms: { [field === 'id' ? F.id : F.serviceId]: [...ids] } }] },
});
