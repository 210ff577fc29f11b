/**
 * The records store (`${prefix}-records`): creation, and the reads reindex joins with. Every read
 * can run inside a point-in-time, so a reindex sees one consistent snapshot even while an import
 * writes, and pages with `search_after` on the unique `key`, so memory follows the page size.
 */
import { analysisSettings } from '../index-mapping/analysis.ts';
import {
  RECORDS_INDEX,
  type RecordStoreDocument,
  recordStoreMapping,
} from '../index-mapping/record-store.document.ts';
import { type Engine, engineCall } from './engine.ts';
import { EngineNotFoundError, EngineRequestError } from './errors.ts';

export const recordsIndex = (engine: Engine) => engine.name(RECORDS_INDEX);

/**
 * Creates the records store when missing. Refresh is off: nothing searches it while an import
 * runs (existence checks use real-time gets) and reindex refreshes it before reading.
 */
export async function ensureRecordsIndex(engine: Engine): Promise<void> {
  const index = recordsIndex(engine);
  const { body: exists } = await engineCall('check records index', () =>
    engine.client.indices.exists({ index }),
  );
  if (exists) return;
  try {
    await engineCall('create records index', () =>
      engine.client.indices.create({
        index,
        body: {
          settings: {
            number_of_shards: engine.settings.shards,
            number_of_replicas: engine.settings.replicas,
            refresh_interval: '-1',
            // An import that dies is run again (it is idempotent); fsync per request is not needed.
            'translog.durability': 'async',
            ...(analysisSettings as unknown as Record<string, unknown>),
          },
          mappings: recordStoreMapping as unknown as Record<string, unknown>,
        },
      }),
    );
  } catch (error) {
    // Two imports starting together: the other one created it.
    if (error instanceof EngineRequestError && error.reason.includes('resource_already_exists')) return;
    throw error;
  }
}

export async function refreshRecords(engine: Engine): Promise<void> {
  await engineCall('refresh records', () => engine.client.indices.refresh({ index: recordsIndex(engine) }));
}

export async function countRecords(engine: Engine, types?: readonly string[]): Promise<number> {
  try {
    const { body } = await engineCall('count records', () =>
      engine.client.count({
        index: recordsIndex(engine),
        body: types ? { query: { terms: { type: types } } } : {},
      } as never),
    );
    return (body as { count: number }).count;
  } catch (error) {
    if (error instanceof EngineNotFoundError) return 0;
    throw error;
  }
}

/** Record counts per type (after a refresh). */
export async function countRecordsByType(engine: Engine): Promise<Record<string, number>> {
  const { body } = await engineCall('count records by type', () =>
    engine.client.search({
      index: recordsIndex(engine),
      body: { size: 0, aggs: { types: { terms: { field: 'type', size: 100 } } } } as never,
    }),
  );
  const buckets = (
    body.aggregations as unknown as { types: { buckets: { key: string; doc_count: number }[] } }
  ).types.buckets;
  return Object.fromEntries(buckets.map((b) => [b.key, b.doc_count]));
}

export type Snapshot = { pitId: string; close(): Promise<void> };

/** Opens a point-in-time over the records store: every read through it sees the same records. */
export async function openSnapshot(engine: Engine, keepAlive = '10m'): Promise<Snapshot> {
  const { body } = await engineCall('open point in time', () =>
    engine.client.createPit({ index: [recordsIndex(engine)], keep_alive: keepAlive }),
  );
  const pitId = (body as { pit_id: string }).pit_id;
  return {
    pitId,
    close: async () => {
      await engineCall('close point in time', () =>
        engine.client.deletePit({ body: { pit_id: [pitId] } } as never),
      ).catch(() => {});
    },
  };
}

type Hit = { _source: RecordStoreDocument; sort: unknown[] };

/** `key`: table and id order. `group`: records of one group (a service's organization) together. */
export type RecordOrder = 'key' | 'group' | 'none';

const sorts: Record<RecordOrder, unknown[] | undefined> = {
  key: [{ key: 'asc' }],
  group: [{ group: { order: 'asc', missing: '_last' } }, { key: 'asc' }],
  none: undefined,
};

async function searchPage(
  engine: Engine,
  snapshot: Snapshot | undefined,
  query: Record<string, unknown>,
  size: number,
  after: unknown[] | undefined,
  order: RecordOrder = 'key',
): Promise<Hit[]> {
  const sort = sorts[order];
  const body = {
    size,
    query,
    // The whole source (`source` too, which reindex ignores): filtering would make the engine
    // parse and re-serialise every record instead of sending the stored bytes.
    ...(sort ? { sort } : {}),
    ...(after ? { search_after: after } : {}),
    ...(snapshot ? { pit: { id: snapshot.pitId, keep_alive: '10m' } } : {}),
    track_total_hits: false,
  };
  const { body: response } = await engineCall('read records', () =>
    engine.client.search(snapshot ? ({ body } as never) : ({ index: recordsIndex(engine), body } as never), {
      requestTimeout: Math.max(engine.settings.requestTimeoutMs, 60_000),
    }),
  );
  return (response as unknown as { hits: { hits: Hit[] } }).hits.hits;
}

/** Every record matching the query, page by page, in key order. */
export async function* scanRecords(
  engine: Engine,
  query: Record<string, unknown>,
  options: { snapshot?: Snapshot; pageSize?: number; order?: Exclude<RecordOrder, 'none'> } = {},
): AsyncGenerator<RecordStoreDocument[]> {
  const size = options.pageSize ?? 1000;
  let after: unknown[] | undefined;
  for (;;) {
    const hits = await searchPage(engine, options.snapshot, query, size, after, options.order ?? 'key');
    if (hits.length > 0) yield hits.map((h) => h._source);
    if (hits.length < size) return;
    after = hits[hits.length - 1]!.sort;
  }
}

/** Every record of the given types, page by page. */
export const scanRecordsOfType = (
  engine: Engine,
  types: readonly string[],
  options: { snapshot?: Snapshot; pageSize?: number; order?: Exclude<RecordOrder, 'none'> } = {},
) => scanRecords(engine, { bool: { filter: [{ terms: { type: types } }] } }, options);

// A terms query takes up to 65,536 values; smaller chunks keep requests and answers moderate.
const TERMS_CHUNK = 8000;
// Pages of this many records keep each answer to a few megabytes (the engine allows 10,000).
const MAX_PAGE = 5000;

async function collect(
  engine: Engine,
  field: string,
  values: readonly string[],
  snapshot: Snapshot | undefined,
): Promise<RecordStoreDocument[]> {
  const found: RecordStoreDocument[] = [];
  for (let i = 0; i < values.length; i += TERMS_CHUNK) {
    const chunk = values.slice(i, i + TERMS_CHUNK);
    const query = { bool: { filter: [{ terms: { [field]: chunk } }] } };
    // Most answers fit one unsorted page (sorting costs the engine more than the search); only a
    // full page is read again, sorted and paged.
    const hits = await searchPage(engine, snapshot, query, MAX_PAGE, undefined, 'none');
    if (hits.length < MAX_PAGE) {
      for (const hit of hits) found.push(hit._source);
      continue;
    }
    for await (const page of scanRecords(engine, query, {
      ...(snapshot ? { snapshot } : {}),
      pageSize: MAX_PAGE,
    })) {
      found.push(...page);
    }
  }
  return found;
}

/** The records nested under any of the given ids (children, attributes, metadata). */
export const findChildren = (engine: Engine, parentIds: readonly string[], snapshot?: Snapshot) =>
  collect(engine, 'parent_ids', parentIds, snapshot);

/** The records with the given keys (`type:id`); missing ones are simply absent. */
export const findByKeys = (engine: Engine, keys: readonly string[], snapshot?: Snapshot) =>
  collect(engine, 'key', keys, snapshot);

/**
 * Which of the given keys exist, in real time (no refresh needed): what an import checks its
 * links against.
 */
export async function existingKeys(engine: Engine, keys: readonly string[]): Promise<Set<string>> {
  const found = new Set<string>();
  for (let i = 0; i < keys.length; i += 5000) {
    const chunk = keys.slice(i, i + 5000);
    const { body } = await engineCall('check records exist', () =>
      engine.client.mget({ index: recordsIndex(engine), body: { ids: chunk }, _source: false } as never),
    );
    for (const doc of (body as unknown as { docs: { _id: string; found: boolean }[] }).docs) {
      if (doc.found) found.add(doc._id);
    }
  }
  return found;
}

/**
 * Which of the given ids belong to some record, whatever its type (for links whose type is not
 * stated, such as an attribute's `link_id` with an unknown `link_entity`). Needs a refresh first.
 */
export async function existingIds(engine: Engine, ids: readonly string[]): Promise<Set<string>> {
  const found = new Set<string>();
  for (let i = 0; i < ids.length; i += TERMS_CHUNK) {
    const chunk = ids.slice(i, i + TERMS_CHUNK);
    const { body } = await engineCall('check ids exist', () =>
      engine.client.search({
        index: recordsIndex(engine),
        body: {
          size: 0,
          query: { terms: { id: chunk } },
          aggs: { ids: { terms: { field: 'id', size: chunk.length } } },
        } as never,
      }),
    );
    const buckets = (body.aggregations as unknown as { ids: { buckets: { key: string }[] } }).ids.buckets;
    for (const b of buckets) found.add(b.key);
  }
  return found;
}

/** The stored documents of the given keys, with their versions, in real time. */
export async function getRecords(
  engine: Engine,
  keys: readonly string[],
): Promise<Map<string, RecordStoreDocument & { _version: number }>> {
  const found = new Map<string, RecordStoreDocument & { _version: number }>();
  for (let i = 0; i < keys.length; i += 2000) {
    const chunk = keys.slice(i, i + 2000);
    const { body } = await engineCall('get records', () =>
      engine.client.mget({ index: recordsIndex(engine), body: { ids: chunk } } as never),
    );
    for (const doc of (
      body as unknown as {
        docs: { _id: string; found: boolean; _version: number; _source?: RecordStoreDocument }[];
      }
    ).docs) {
      // _version is external (import.ts): beyond 2^53, so close, not exact; enough to tell runs apart.
      if (doc.found && doc._source) found.set(doc._id, { ...doc._source, _version: doc._version });
    }
  }
  return found;
}

/** Records per type as the snapshot sees them. */
export async function countTypesInSnapshot(
  engine: Engine,
  snapshot: Snapshot,
): Promise<Record<string, number>> {
  const { body } = await engineCall('count records in snapshot', () =>
    engine.client.search({
      body: {
        size: 0,
        pit: { id: snapshot.pitId, keep_alive: '10m' },
        aggs: { types: { terms: { field: 'type', size: 100 } } },
      } as never,
    }),
  );
  const buckets = (
    body.aggregations as unknown as { types: { buckets: { key: string; doc_count: number }[] } }
  ).types.buckets;
  return Object.fromEntries(buckets.map((b) => [b.key, b.doc_count]));
}
