/**
 * The records store (`${prefix}-records`): creation, and the reads reindex joins with. Every read
 * can run inside a point-in-time, so a reindex sees one consistent snapshot even while an import
 * writes, and pages with `search_after` on the unique `key`, so memory follows the page size.
 * Reads answer store documents (single records and bundles, record-store.document.ts); the
 * record-level views (`getRecords`, `readAllRecords`) resolve a record held twice: a single
 * document wins over a bundled copy. The queries are built in index-mapping/record-store.query.ts;
 * this module runs them.
 */
import { analysisSettings } from '../index-mapping/analysis.ts';
import {
  parseHashes,
  RECORDS_INDEX,
  type RecordStoreDocument,
  recordStoreMapping,
  STORE_VERSION,
  type StoreDocument,
  unpackDocument,
  withoutRecords,
} from '../index-mapping/record-store.document.ts';
import {
  allDocumentsQuery,
  countDocumentsBody,
  countTypesBody,
  documentsWithQuery,
  fieldPageBody,
  heldValuesBody,
  holdingTypeQuery,
  holdingTypesQuery,
  notEarlierRunsExclusions,
  overridingKeysQuery,
  overridingQuery,
  type RecordOrder,
  type StoreTermsField,
  staleDocumentsExclusions,
  staleDocumentsQuery,
  storePageBody,
} from '../index-mapping/record-store.query.ts';
import type { BulkWriter } from './bulk.ts';
import { type Engine, engineCall, maintenanceRequest } from './engine.ts';
import { EngineNotFoundError, isAlreadyExists } from './errors.ts';
import { flushIndices } from './indices.ts';
import { indexLayout } from './layout.ts';
import { closePointInTime, openPointInTime } from './point-in-time.ts';

export const recordsIndex = (engine: Engine) => engine.name(RECORDS_INDEX);

/**
 * Creates the records store when missing. Refresh is off: an import refreshes it itself before
 * each search it makes (repeats, links, change checks; `storedHashes` is a real-time multi-get),
 * and reindex refreshes it before reading.
 */
export async function ensureRecordsIndex(engine: Engine): Promise<void> {
  const index = recordsIndex(engine);
  const { body: exists } = await engineCall('check records index', () =>
    engine.client.indices.exists({ index }),
  );
  if (exists) {
    await checkStoreVersion(engine, index);
    return;
  }
  const layout = await indexLayout(engine);
  try {
    await engineCall('create records index', () =>
      engine.client.indices.create({
        index,
        body: {
          settings: {
            number_of_shards: layout.shards,
            number_of_replicas: layout.replicas,
            refresh_interval: '-1',
            // An import that dies is run again (it is idempotent); fsync per request is not needed:
            // a finished import flushes the store (flushRecords) before it reports success.
            'translog.durability': 'async',
            ...(analysisSettings as unknown as Record<string, unknown>),
          },
          mappings: recordStoreMapping as unknown as Record<string, unknown>,
        },
      }),
    );
  } catch (error) {
    // Two imports starting together: the other one created it.
    if (isAlreadyExists(error)) return;
    throw error;
  }
}

/** A store written by an earlier version of this program holds documents of another shape. */
export class StoreVersionError extends Error {
  override readonly name = 'StoreVersionError';
}

async function checkStoreVersion(engine: Engine, index: string): Promise<void> {
  const { body } = await engineCall('read records mapping', () =>
    engine.client.indices.getMapping({ index }),
  );
  const mapping = Object.values(
    body as Record<string, { mappings?: { _meta?: { store_version?: number } } }>,
  )[0];
  const version = mapping?.mappings?._meta?.store_version;
  if (version !== STORE_VERSION) {
    throw new StoreVersionError(
      `the records store ${index} was written by another version of hsds (store version ${version ?? 1}, this one reads ${STORE_VERSION}): delete it (DELETE /${index}) and import your sources again`,
    );
  }
}

/**
 * Makes an import durable: the store is written with an asynchronous translog, so until this
 * commit a crash of the engine could lose records the import already counted as stored.
 */
export async function flushRecords(engine: Engine): Promise<void> {
  await flushIndices(engine, recordsIndex(engine));
}

export async function refreshRecords(engine: Engine): Promise<void> {
  await engineCall('refresh records', () =>
    engine.client.indices.refresh({ index: recordsIndex(engine) }, maintenanceRequest(engine)),
  );
}

/** Store documents holding records of any of the given types (every document without types). */
export async function countRecords(engine: Engine, types?: readonly string[]): Promise<number> {
  try {
    const { body } = await engineCall('count records', () =>
      engine.client.count({
        index: recordsIndex(engine),
        body: countDocumentsBody(types),
      } as never),
    );
    return (body as { count: number }).count;
  } catch (error) {
    if (error instanceof EngineNotFoundError) return 0;
    throw error;
  }
}

/** Record counts per type (after a refresh), each record once however many copies the store holds. */
export async function countRecordsByType(engine: Engine): Promise<Record<string, number>> {
  const counts: Record<string, number> = {};
  for (const doc of (await readAllRecords(engine)).values()) counts[doc.type] = (counts[doc.type] ?? 0) + 1;
  return counts;
}

export type Snapshot = { pitId: string; close(): Promise<void> };

/** Opens a point-in-time over the records store: every read through it sees the same records. */
export async function openSnapshot(engine: Engine, keepAlive = '10m'): Promise<Snapshot> {
  const pitId = await openPointInTime(engine, [recordsIndex(engine)], keepAlive);
  return { pitId, close: () => closePointInTime(engine, pitId) };
}

type Hit = { _source: StoreDocument; sort: unknown[] };

export type { RecordOrder };

async function searchPage(
  engine: Engine,
  snapshot: Snapshot | undefined,
  query: Record<string, unknown>,
  size: number,
  after: unknown[] | undefined,
  order: RecordOrder = 'key',
): Promise<Hit[]> {
  const body = storePageBody(query, size, after, order, snapshot?.pitId);
  const { body: response } = await engineCall('read records', () =>
    engine.client.search(snapshot ? ({ body } as never) : ({ index: recordsIndex(engine), body } as never), {
      requestTimeout: Math.max(engine.settings.requestTimeoutMs, 60_000),
    }),
  );
  return (response as unknown as { hits: { hits: Hit[] } }).hits.hits;
}

type ScanOptions = { snapshot?: Snapshot; pageSize?: number; order?: Exclude<RecordOrder, 'none'> };

/** Every store document matching the query, page by page, in key (or group) order. */
export async function* scanStore(
  engine: Engine,
  query: Record<string, unknown>,
  options: ScanOptions = {},
): AsyncGenerator<StoreDocument[]> {
  const size = options.pageSize ?? 1000;
  let after: unknown[] | undefined;
  for (;;) {
    const hits = await searchPage(engine, options.snapshot, query, size, after, options.order ?? 'key');
    if (hits.length > 0) yield hits.map((h) => h._source);
    if (hits.length < size) return;
    after = hits[hits.length - 1]!.sort;
  }
}

/** Every store document holding records of the given types, page by page. */
export const scanDocumentsHolding = (engine: Engine, types: readonly string[], options: ScanOptions = {}) =>
  scanStore(engine, holdingTypesQuery(types), options);

// A terms query takes up to 65,536 values; smaller chunks keep requests and answers moderate.
const TERMS_CHUNK = 8000;
// Pages of this many documents keep each answer to some megabytes (the engine allows 10,000).
const MAX_PAGE = 2000;

/** The documents whose `field` holds any of the values, but those listed in `except`. */
export async function findDocuments(
  engine: Engine,
  field: StoreTermsField,
  values: readonly string[],
  snapshot: Snapshot | undefined,
  except: readonly string[] = [],
): Promise<StoreDocument[]> {
  const found: StoreDocument[] = [];
  for (let i = 0; i < values.length; i += TERMS_CHUNK) {
    const chunk = values.slice(i, i + TERMS_CHUNK);
    const query = documentsWithQuery(field, chunk, except);
    // Most answers fit one unsorted page (sorting costs the engine more than the search); only a
    // full page is read again, sorted and paged.
    const hits = await searchPage(engine, snapshot, query, MAX_PAGE, undefined, 'none');
    if (hits.length < MAX_PAGE) {
      for (const hit of hits) found.push(hit._source);
      continue;
    }
    for await (const page of scanStore(engine, query, {
      ...(snapshot ? { snapshot } : {}),
      pageSize: MAX_PAGE,
    })) {
      found.push(...page);
    }
  }
  return found;
}

/**
 * Which of the values some document's `field` (`keys` or `ids`) holds, among the documents that
 * match none of `excluded`. Needs a refresh first.
 */
async function heldValues(
  engine: Engine,
  field: 'keys' | 'ids' | 'hashes',
  values: readonly string[],
  label: string,
  excluded: readonly Record<string, unknown>[] = [],
): Promise<Set<string>> {
  const found = new Set<string>();
  for (let i = 0; i < values.length; i += TERMS_CHUNK) {
    const chunk = values.slice(i, i + TERMS_CHUNK);
    const { body } = await engineCall(label, () =>
      engine.client.search({
        index: recordsIndex(engine),
        body: heldValuesBody(field, chunk, excluded) as never,
      }),
    );
    const buckets = (body.aggregations as unknown as { held: { buckets: { key: string }[] } }).held.buckets;
    for (const b of buckets) found.add(b.key);
  }
  return found;
}

/** Which of the given keys (`type:id`) the store holds: what an import checks its links against. */
/**
 * Which of the `key#hash` entries some document holds: the record with that very content is in the
 * store (in whichever document). Needs a refresh first.
 */
export const heldHashes = (engine: Engine, entries: readonly string[]) =>
  heldValues(engine, 'hashes', entries, 'check record contents held');

export const existingKeys = (engine: Engine, keys: readonly string[]) =>
  heldValues(engine, 'keys', keys, 'check records exist');

/**
 * Which of the given ids belong to some record, whatever its type (for links whose type is not
 * stated, such as an attribute's `link_id` with an unknown `link_entity`).
 */
export const existingIds = (engine: Engine, ids: readonly string[]) =>
  heldValues(engine, 'ids', ids, 'check ids exist');

/** The records of the documents, each key once: a single document wins over a bundled copy, then the later run. */
function resolve(
  docs: Iterable<StoreDocument>,
  wanted?: ReadonlySet<string>,
): Map<string, RecordStoreDocument & { run: number; single: boolean }> {
  const out = new Map<string, RecordStoreDocument & { run: number; single: boolean }>();
  for (const doc of docs) {
    const single = doc.kind !== 'bundle';
    for (const record of unpackDocument(doc)) {
      if (wanted && !wanted.has(record.key)) continue;
      const held = out.get(record.key);
      if (held && (Number(held.single) > Number(single) || (held.single === single && held.run >= doc.run))) {
        continue;
      }
      out.set(record.key, { ...record, run: doc.run, single });
    }
  }
  return out;
}

/**
 * The stored records of the given keys, with the run that wrote each. Reads through search, so
 * what was written since the last refresh is not seen: refresh first.
 */
export async function getRecords(
  engine: Engine,
  keys: readonly string[],
): Promise<Map<string, RecordStoreDocument & { run: number }>> {
  const docs = await findDocuments(engine, 'keys', keys, undefined);
  return resolve(docs, new Set(keys));
}

/** Every record of the store, each once (tests and small stores: it holds them all in memory). */
export async function readAllRecords(engine: Engine): Promise<Map<string, RecordStoreDocument>> {
  const docs: StoreDocument[] = [];
  for await (const page of scanStore(engine, allDocumentsQuery())) docs.push(...page);
  const out = new Map<string, RecordStoreDocument>();
  for (const [key, { run: _, single: __, ...record }] of resolve(docs)) out.set(key, record);
  return out;
}

/**
 * One doc-values field of every document matching the query, page by page, in key order: each
 * page lists the field's values per document. No source is read. In a snapshot when given, else
 * in the records index as last refreshed.
 */
async function* scanField(
  engine: Engine,
  label: string,
  query: Record<string, unknown>,
  field: 'key' | 'keys',
  snapshot?: Snapshot,
): AsyncGenerator<string[][]> {
  const size = 10_000;
  let after: unknown[] | undefined;
  for (;;) {
    const body = fieldPageBody(query, field, size, after, snapshot?.pitId);
    const { body: response } = await engineCall(label, () =>
      engine.client.search(snapshot ? ({ body } as never) : ({ index: recordsIndex(engine), body } as never)),
    );
    const hits = (
      response as unknown as { hits: { hits: { fields?: Record<string, string[]>; sort: unknown[] }[] } }
    ).hits.hits;
    if (hits.length > 0) yield hits.map((hit) => hit.fields?.[field] ?? []);
    if (hits.length < size) return;
    after = hits[hits.length - 1]!.sort;
  }
}

/** The keys of the single documents that win over bundled copies, page by page. */
export async function* scanOverrideKeys(engine: Engine, snapshot: Snapshot): AsyncGenerator<string[]> {
  for await (const page of scanField(engine, 'read overriding records', overridingQuery(), 'key', snapshot)) {
    yield page.flat();
  }
}

/** Which of the given keys have an overriding single document in the snapshot. */
export async function overriddenKeys(
  engine: Engine,
  keys: readonly string[],
  snapshot: Snapshot,
): Promise<Set<string>> {
  const found = new Set<string>();
  for (let i = 0; i < keys.length; i += TERMS_CHUNK) {
    const query = overridingKeysQuery(keys.slice(i, i + TERMS_CHUNK));
    for await (const page of scanField(engine, 'check overriding records', query, 'key', snapshot)) {
      for (const key of page.flat()) found.add(key);
    }
  }
  return found;
}

/** Store documents per type of record they hold, as the snapshot sees them (a bundle counts once per type). */
export async function countTypesInSnapshot(
  engine: Engine,
  snapshot: Snapshot,
): Promise<Record<string, number>> {
  const { body } = await engineCall('count records in snapshot', () =>
    engine.client.search({
      body: countTypesBody(snapshot.pitId) as never,
    }),
  );
  const buckets = (
    body.aggregations as unknown as { types: { buckets: { key: string; doc_count: number }[] } }
  ).types.buckets;
  return Object.fromEntries(buckets.map((b) => [b.key, b.doc_count]));
}

/**
 * Which of the keys a document of an earlier run holds, other than the documents `except` (which
 * are about to be written again). An import asks before writing, after a refresh.
 */
export const heldElsewhere = (
  engine: Engine,
  keys: readonly string[],
  except: readonly string[],
  run: number,
) => heldValues(engine, 'keys', keys, 'check records held elsewhere', notEarlierRunsExclusions(run, except));

/**
 * Which of the keys a document holds that is not one of `source`'s written before `run`: what a
 * sync of that source must not delete (another source, or this run, provides it).
 */
export const heldOutsideStale = (engine: Engine, keys: readonly string[], source: string, run: number) =>
  heldValues(
    engine,
    'keys',
    keys,
    'check records held by other sources',
    staleDocumentsExclusions(source, run),
  );

/** The same for `key#hash` entries: the very content is still held outside the stale documents. */
export const contentHeldOutsideStale = (
  engine: Engine,
  entries: readonly string[],
  source: string,
  run: number,
) =>
  heldValues(
    engine,
    'hashes',
    entries,
    'check record contents held by other sources',
    staleDocumentsExclusions(source, run),
  );

/** The record keys held by each document holding records of a type, page by page (no sources read). */
export const scanKeysHolding = (engine: Engine, type: string, snapshot: Snapshot) =>
  scanField(engine, 'read record keys', holdingTypeQuery(type), 'keys', snapshot);

/**
 * What the documents of the given ids held, as `key → hash` per document id (real-time: what was
 * written a moment ago counts). A document missing is absent; one written before hashes existed
 * has its keys with an empty hash, so each of its records reads as changed.
 */
export async function storedHashes(
  engine: Engine,
  documentIds: readonly string[],
): Promise<Map<string, Map<string, string>>> {
  const out = new Map<string, Map<string, string>>();
  for (let i = 0; i < documentIds.length; i += MAX_PAGE) {
    const ids = documentIds.slice(i, i + MAX_PAGE);
    const { body } = await engineCall('read stored hashes', () =>
      engine.client.mget({
        index: recordsIndex(engine),
        body: { ids },
        _source_includes: ['hashes', 'keys'],
      } as never),
    );
    const docs = (body as unknown as { docs: { _id: string; found: boolean; _source?: StoreDocument }[] })
      .docs;
    for (const doc of docs) {
      if (!doc.found || !doc._source) continue;
      const hashes = parseHashes(doc._source.hashes);
      for (const key of doc._source.keys ?? []) if (!hashes.has(key)) hashes.set(key, '');
      out.set(doc._id, hashes);
    }
  }
  return out;
}

/**
 * The documents a source wrote before the given run and not since: what a sync import of that
 * source no longer provides (after the import wrote everything it provides now, and a refresh).
 */
export async function* scanStaleDocuments(
  engine: Engine,
  source: string,
  run: number,
): AsyncGenerator<StoreDocument[]> {
  yield* scanStore(engine, staleDocumentsQuery(source, run), { pageSize: MAX_PAGE });
}

/**
 * Takes the records of the given keys out of the store: a document holding nothing else is
 * deleted, a bundle holding others is written again without them. Returns the documents changed.
 * Reads through search: refresh first.
 */
export async function removeRecords(
  engine: Engine,
  keys: ReadonlySet<string>,
  writer: BulkWriter,
): Promise<number> {
  if (keys.size === 0) return 0;
  const index = recordsIndex(engine);
  // Above every version an import gave (its start in ms, times a million, plus a sequence).
  const version = (BigInt(Date.now()) * 1_000_000n + 999_999n).toString();
  let changed = 0;
  for (const doc of await findDocuments(engine, 'keys', [...keys], undefined)) {
    const kept = withoutRecords(doc, keys);
    if (kept === doc) continue;
    changed += 1;
    if (kept) await writer.index(index, doc.key, kept, version);
    else await writer.delete(index, doc.key);
  }
  return changed;
}
