/**
 * The records store's queries (record-store.document.ts): pure builders of query DSL and request
 * bodies, which engine/records.ts runs. Like the read indices' builders (*.query.ts), they take
 * plain values and hold no clock and no client.
 */

/** A document field that lists values the store is searched by. */
export type StoreTermsField = 'keys' | 'parent_ids' | 'ids' | 'group';

/** `key`: table and id order. `group`: records of one group (a service's organization) together. */
export type RecordOrder = 'key' | 'group' | 'none';

/** The sort of each order; `none` sorts nothing (an unsorted page costs the engine less). */
export const recordSorts: Record<RecordOrder, unknown[] | undefined> = {
  key: [{ key: 'asc' }],
  group: [{ group: { order: 'asc', missing: '_last' } }, { key: 'asc' }],
  none: undefined,
};

/** Every store document. */
export const allDocumentsQuery = (): Record<string, unknown> => ({ match_all: {} });

/** The body of a count of the documents holding records of any of the types (all without types). */
export const countDocumentsBody = (types?: readonly string[]): Record<string, unknown> =>
  types ? { query: { terms: { types } } } : {};

/** The documents holding records of any of the given types. */
export const holdingTypesQuery = (types: readonly string[]): Record<string, unknown> => ({
  bool: { filter: [{ terms: { types } }] },
});

/** The documents holding records of one type. */
export const holdingTypeQuery = (type: string): Record<string, unknown> => ({
  bool: { filter: [{ term: { types: type } }] },
});

/** The documents whose `field` holds any of the values, but those of the ids in `except`. */
export const documentsWithQuery = (
  field: StoreTermsField,
  values: readonly string[],
  except: readonly string[] = [],
): Record<string, unknown> => ({
  bool: {
    filter: [{ terms: { [field]: values } }],
    ...(except.length > 0 ? { must_not: [{ ids: { values: except } }] } : {}),
  },
});

/** A page of documents, whole (no source filtering), after `after` in the order, in a snapshot when given. */
export function storePageBody(
  query: Record<string, unknown>,
  size: number,
  after: unknown[] | undefined,
  order: RecordOrder,
  pitId: string | undefined,
): Record<string, unknown> {
  const sort = recordSorts[order];
  return {
    size,
    query,
    // The whole source: filtering would make the engine parse and re-serialise every document
    // instead of sending the stored bytes.
    ...(sort ? { sort } : {}),
    ...(after ? { search_after: after } : {}),
    ...(pitId ? { pit: { id: pitId, keep_alive: '10m' } } : {}),
    track_total_hits: false,
  };
}

/** A page of one doc-values field of the matching documents, in key order; no source. */
export const fieldPageBody = (
  query: Record<string, unknown>,
  field: 'key' | 'keys',
  size: number,
  after: unknown[] | undefined,
  pitId: string | undefined,
): Record<string, unknown> => ({
  size,
  _source: false,
  docvalue_fields: [field],
  query,
  sort: [{ key: 'asc' }],
  ...(after ? { search_after: after } : {}),
  ...(pitId ? { pit: { id: pitId, keep_alive: '10m' } } : {}),
  track_total_hits: false,
});

/**
 * Which of the values (`keys`, `ids` or `hashes`) some document holds, among the documents that match none
 * of `excluded`: no hits, one bucket per value held (`held`).
 */
export const heldValuesBody = (
  field: 'keys' | 'ids' | 'hashes',
  values: readonly string[],
  excluded: readonly Record<string, unknown>[] = [],
): Record<string, unknown> => ({
  size: 0,
  query: { bool: { filter: [{ terms: { [field]: values } }], must_not: excluded } },
  aggs: { held: { terms: { field, include: values, size: values.length } } },
});

/** The single documents that win over bundled copies. */
const overriding = { term: { overrides: true } };

/** Every overriding single document. */
export const overridingQuery = (): Record<string, unknown> => ({ bool: { filter: [overriding] } });

/** The overriding single documents of the given keys. */
export const overridingKeysQuery = (keys: readonly string[]): Record<string, unknown> => ({
  bool: { filter: [overriding, { terms: { key: keys } }] },
});

/** Store documents per type of record they hold, in a snapshot (`types` buckets). */
export const countTypesBody = (pitId: string): Record<string, unknown> => ({
  size: 0,
  pit: { id: pitId, keep_alive: '10m' },
  aggs: { types: { terms: { field: 'types', size: 100 } } },
});

/** The documents a source wrote before the given run (and not since). */
export const staleDocumentsQuery = (source: string, run: number): Record<string, unknown> => ({
  bool: { filter: [{ term: { source } }, { range: { run: { lt: run } } }] },
});

/**
 * What an import's check against earlier runs leaves out: the documents of this run, and those
 * about to be written again (`except`).
 */
export const notEarlierRunsExclusions = (
  run: number,
  except: readonly string[],
): Record<string, unknown>[] => [{ term: { run } }, { ids: { values: except } }];

/** What a sync leaves out when it asks who else holds a key: the source's stale documents. */
export const staleDocumentsExclusions = (source: string, run: number): Record<string, unknown>[] => [
  staleDocumentsQuery(source, run),
];
