/**
 * Reading the read indices: a record by id, a page of a search, and every match of a search as a
 * stream. Requests come from the pure builders in src/index-mapping (*.query.ts); this module only
 * runs them, so no query DSL is written here.
 *
 * Pages past the engine's result window (`from + size` > 10,000) are served, not refused: inside
 * a point in time, the preceding hits are skipped with `search_after` (sort values only, no
 * `_source`), then the page itself is fetched. Streams walk a point in time with `search_after`,
 * one batch ahead of the consumer, and always release the point in time, including when the
 * consumer stops early (a client that disconnects).
 */

import { errors } from '@opensearch-project/opensearch';
import type { TransportRequestOptions } from '@opensearch-project/opensearch/lib/Transport.js';
import { F } from '../index-mapping/fields.ts';
import type { ReadIndex } from '../index-mapping/read-indices.mapping.ts';
import {
  partitionStream,
  pointInTimeBody,
  RESULT_WINDOW,
  type SearchRequest,
  searchPageBody,
} from '../index-mapping/search.query.ts';
import { STORED_LIST_ITEMS, storesListItems } from '../index-mapping/sources.query.ts';
import { type Engine, engineCall, readAgainIfNodeLost } from './engine.ts';
import { EngineNotFoundError, EngineUnavailableError, translateEngineError } from './errors.ts';
import { closePointInTime, openPointInTime } from './point-in-time.ts';
import { isMissingIndexError, sliceGetRecord, sliceMgetRecords, sliceSearchHits } from './raw-json.ts';
import { cachedRecord, type RecordBody } from './record-cache.ts';

export type JsonRecord = Record<string, unknown>;

// Reads send small bodies to an engine that is usually near: gzipping them costs more CPU than
// it saves (the client gzips request bodies when the engine handle is built with compression).
// The client's types allow only 'gzip' here; its transport reads `false` as "not this request".
const READ = { compression: false } as unknown as TransportRequestOptions;

/**
 * What every read gives: records as the JSON text the engine stored, never parsed here (the API
 * writes most of them out as they are), with the exact number of matches.
 */
export type RecordTexts = { total: number; texts: string[] };

/**
 * What one answer may hold in memory (a JSON page: src/api/lists/large-pages.ts). Every byte read from
 * the engine for the answer is taken from it as it arrives, and the size of what is still to come
 * is announced when it is known (an engine answer's Content-Length, the services still to read of
 * an organization page): either throws to stop the read, so a page too large to serve is refused
 * before it is held whole.
 */
export type ReadBudget = {
  /** Bytes read (negative: bytes read and let go, such as a first page read again in a stream). */
  take(bytes: number): void;
  /** About this many more bytes will be read for the answer. */
  expect(bytes: number): void;
};

type Hit = { _source?: { record?: JsonRecord }; sort?: unknown[] };
type SearchBody = { pit_id?: string; hits?: { total?: { value: number }; hits?: Hit[] } };

/**
 * A record's text with the sort values the request turns into fields (SearchRequest.sortValues),
 * added as members at its end: the one place a distance is computed. Only finite numbers are added.
 */
function withSortValues(record: string, sort: unknown[] | undefined, request: SearchRequest): string {
  let added = '';
  for (const [field, { position, decimals }] of Object.entries(request.sortValues ?? {})) {
    const value = sort?.[position];
    if (typeof value !== 'number' || !Number.isFinite(value)) continue;
    const scale = 10 ** decimals;
    added += `,${JSON.stringify(field)}:${Math.round(value * scale) / scale}`;
  }
  if (!added) return record;
  const body = record.slice(0, record.lastIndexOf('}')).trimEnd();
  return body.endsWith('{') ? `${body}${added.slice(1)}}` : `${body}${added}}`;
}

/** Sort values travel only when a request turns some into fields. */
const sortPath = (request: SearchRequest): string[] => (request.sortValues ? ['hits.hits.sort'] : []);

/** A record parsed, for code that needs the object (EngineNotFoundError when there is none). */
export async function getRecord(engine: Engine, index: ReadIndex, id: string): Promise<JsonRecord> {
  return JSON.parse(await getRecordText(engine, index, id)) as JsonRecord;
}

async function runSearch(engine: Engine, operation: string, params: Record<string, unknown>) {
  const { body } = await readAgainIfNodeLost(engine, () =>
    engineCall(operation, () => engine.client.search(params, READ)),
  );
  return body as SearchBody;
}

/**
 * The `_source` to ask for. Filtering makes the engine parse and re-serialise every document, so a
 * request for the whole record takes the whole stored source instead (the search fields beside it
 * are small), except on service_at_locations, whose documents also carry coverage shapes.
 */
const sourceOf = (request: SearchRequest) =>
  request.source.length === 1 && request.source[0] === 'record' && request.index !== 'service_at_locations'
    ? true
    : { includes: [...request.source] };

/** The indices a request reads: its read index, and any others it names. */
const indexNames = (engine: Engine, request: SearchRequest): string[] => [
  engine.name(request.index),
  ...(request.alsoIndices ?? []).map((name) => engine.name(name)),
];

/**
 * Whether a request's records can be read from the list items the read index stores (F.listItem)
 * rather than by filtering each record's `_source`: that filtering parses every hit's whole source
 * and was most of the engine's work for a page of list items (measured: a page of 20 from a
 * postcode and 5 km search ran at 230-324 a second filtered, 460-540 without; an NDJSON dump of
 * 100,000 services took 4.3 s filtered, 3.0 s from stored items). Pages, deep pages and streams.
 */
const readsStoredItems = (request: SearchRequest): boolean =>
  !request.alsoIndices?.length &&
  storesListItems(request.index) &&
  request.source === STORED_LIST_ITEMS[request.index];

/** What a search asks the engine to fetch for each hit, and which parts of each hit to keep. */
const fetchOf = (request: SearchRequest, storedItems: boolean) =>
  storedItems
    ? {
        body: { _source: false, stored_fields: [F.listItem] },
        // Every hit keeps its id, so one without a stored item shows (filter_path drops empty hits).
        paths: ['hits.hits._id', 'hits.hits.fields'],
      }
    : { body: { _source: sourceOf(request) }, paths: ['hits.hits._source'] };

/** The search for one page within the result window, with its exact total. */
const pageParams = (
  engine: Engine,
  request: SearchRequest,
  window: { from: number; size: number },
  storedItems: boolean,
): Record<string, unknown> => {
  const fetch = fetchOf(request, storedItems);
  return {
    index: indexNames(engine, request).join(','),
    ignore_unavailable: true,
    // The engine keeps a page's shard results until that shard changes: a repeated search (people
    // ask for "food bank" all day) skips matching and scoring. The engine alone decides what may be
    // kept (nothing relative to `now`), and a refresh that changes a shard drops its entries, so an
    // answer from the cache is the answer without it. Without this flag it keeps size=0 requests only.
    request_cache: true,
    filter_path: ['hits.total.value', ...fetch.paths, ...sortPath(request)],
    body: searchPageBody(request, window, fetch.body),
  };
};

/**
 * The engine request one page of a search sends (index, URL parameters and body), for a benchmark
 * that sends the very same requests to the engine alone (bench/compare.bench.ts, the ceiling).
 */
export const pageSearchParams = (
  engine: Engine,
  request: SearchRequest,
  window: { from: number; size: number },
): Record<string, unknown> => pageParams(engine, request, window, readsStoredItems(request));

type StoredItemsBody = {
  pit_id?: string;
  hits?: { total?: { value: number }; hits?: { fields?: Record<string, unknown[]>; sort?: unknown[] }[] };
};

/**
 * A batch read from stored list items; undefined when a hit has none (an index built by an earlier
 * version, before list items were stored: the batch is then read from `_source`).
 */
function readStoredItems(request: SearchRequest, text: string): BatchReading | undefined {
  const body = JSON.parse(text) as StoredItemsBody;
  const hits = body.hits?.hits ?? [];
  const items: string[] = [];
  for (const hit of hits) {
    const item = hit.fields?.[F.listItem]?.[0];
    if (typeof item !== 'string') return undefined;
    items.push(withSortValues(item, hit.sort, request));
  }
  return {
    items,
    lastSort: hits[hits.length - 1]?.sort,
    ...(body.hits?.total ? { total: body.hits.total.value } : {}),
    ...(body.pit_id ? { pitId: body.pit_id } : {}),
  };
}

/**
 * Runs a search that fetches records, given as `search(storedItems)`, and reads its hits: from the
 * stored list items when the request reads them and every hit has one, else from `_source` (a
 * second request, only for indices built before list items were stored).
 */
async function readHits(
  request: SearchRequest,
  search: (storedItems: boolean) => Promise<string>,
): Promise<BatchReading> {
  if (readsStoredItems(request)) {
    const stored = readStoredItems(request, await search(true));
    if (stored) return stored;
  }
  return readTexts(request, await search(false));
}

/** One page of a search with its exact total. A missing index reads as empty. */
export async function searchPage(
  engine: Engine,
  request: SearchRequest,
  window: { from: number; size: number },
  budget?: ReadBudget,
): Promise<RecordTexts> {
  if (window.from + window.size > RESULT_WINDOW) return searchDeepPage(engine, request, window, budget);
  const reading = await readHits(request, (storedItems) =>
    rawRequest(
      engine,
      `search ${request.index}`,
      (transport) => engine.client.search(pageParams(engine, request, window, storedItems), transport),
      budget,
    ),
  );
  return { total: reading.total ?? 0, texts: reading.items };
}

/** Opens a point in time on an index; null when the index does not exist. */
async function openPit(engine: Engine, request: SearchRequest, keepAlive: string): Promise<string | null> {
  const open = (indices: string[]) =>
    openPointInTime(engine, indices, keepAlive, `open point in time on ${request.index}`);
  try {
    return await open(indexNames(engine, request));
  } catch (error) {
    if (!(error instanceof EngineNotFoundError)) throw error;
    // An index searched beside the read index (tombstones) may not exist yet.
    if (!request.alsoIndices?.length) return null;
    try {
      return await open([engine.name(request.index)]);
    } catch (again) {
      if (again instanceof EngineNotFoundError) return null;
      throw again;
    }
  }
}

const closePit = closePointInTime;

// Renewed by every request in the point in time, so it only needs to span the gap between two: a
// point in time this process fails to release (it crashed) is gone from the engine's budget soon.
const PIT_KEEP_ALIVE = '30s';

async function searchDeepPage(
  engine: Engine,
  request: SearchRequest,
  window: { from: number; size: number },
  budget: ReadBudget | undefined,
): Promise<RecordTexts> {
  let pitId = await openPit(engine, request, PIT_KEEP_ALIVE);
  if (!pitId) return { total: 0, texts: [] };
  const inPit = (page: Parameters<typeof pointInTimeBody>[2]) => ({
    body: pointInTimeBody({ id: pitId as string, keepAlive: PIT_KEEP_ALIVE }, request, page),
  });
  try {
    const counted = await runSearch(engine, `count ${request.index}`, {
      filter_path: ['hits.total.value', 'pit_id'],
      ...inPit({ size: 0, total: true }),
    });
    pitId = counted.pit_id ?? pitId;
    const total = counted.hits?.total?.value ?? 0;
    if (window.from >= total) return { total, texts: [] };
    let after: unknown[] | undefined;
    let skipped = 0;
    while (skipped < window.from) {
      const step = Math.min(RESULT_WINDOW, window.from - skipped);
      const body = await runSearch(engine, `skip in ${request.index}`, {
        filter_path: ['hits.hits.sort', 'pit_id'],
        ...inPit({ size: step, total: false, after, fetch: { _source: false } }),
      });
      pitId = body.pit_id ?? pitId;
      const hits = body.hits?.hits ?? [];
      if (hits.length === 0) return { total, texts: [] };
      after = hits[hits.length - 1]?.sort;
      skipped += hits.length;
    }
    const reading = await readHits(request, (storedItems) => {
      const fetch = fetchOf(request, storedItems);
      return rawRequest(
        engine,
        `search ${request.index}`,
        (transport) =>
          engine.client.search(
            {
              filter_path: [...fetch.paths, ...sortPath(request), 'pit_id'],
              ...inPit({ size: window.size, total: false, after, fetch: fetch.body }),
            } as Record<string, unknown>,
            transport,
          ),
        budget,
      );
    });
    pitId = reading.pitId ?? pitId;
    return { total, texts: reading.items };
  } finally {
    await closePit(engine, pitId);
  }
}

/**
 * How long a stream's point in time lives between two batches (a dump allows for a slow client);
 * the budget of the answer its batches are gathered into, if any.
 */
export type StreamOptions = { keepAlive?: string; budget?: ReadBudget | undefined };

type BatchReading = {
  items: string[];
  lastSort: unknown[] | undefined;
  total?: number;
  pitId?: string;
};

/** A client call made with the given transport options, whose answer is read as a stream. */
type RawCall = (
  options: TransportRequestOptions,
) => Promise<{ statusCode: number | null; body: unknown; headers?: unknown }>;

/**
 * Runs a request whose answer is read as text (the client's `asStream`): the caller slices it.
 * Status codes are checked here, as the client does not when it streams. With a budget, the
 * answer's announced length and each chunk are counted as they come, and a refusal by the budget
 * stops reading (the rest of the answer is dropped with its connection).
 */
async function rawRequest(
  engine: Engine,
  operation: string,
  call: RawCall,
  budget?: ReadBudget,
): Promise<string> {
  return (await rawRequestBytes(engine, operation, call, budget)).toString('utf8');
}

/** rawRequest's answer as the bytes that came (see getRecordBytes). */
function rawRequestBytes(
  engine: Engine,
  operation: string,
  call: RawCall,
  budget?: ReadBudget,
): Promise<Buffer> {
  return readAgainIfNodeLost(engine, () => rawRequestOnce(operation, call, budget));
}

async function rawRequestOnce(operation: string, call: RawCall, budget?: ReadBudget): Promise<Buffer> {
  const { status, bytes } = await engineCall(operation, async () => {
    const response = await call({ ...READ, asStream: true });
    const chunks: Buffer[] = [];
    const body = response.body as AsyncIterable<Buffer> & { destroy?: () => void };
    try {
      const length = Number((response.headers as Record<string, unknown> | null)?.['content-length']);
      if (budget && Number.isFinite(length) && length > 0) budget.expect(length);
      for await (const chunk of body) {
        budget?.take(chunk.length);
        chunks.push(chunk);
      }
    } catch (error) {
      body.destroy?.();
      throw error;
    }
    return {
      status: response.statusCode ?? 0,
      bytes: chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks),
    };
  });
  if (status >= 400) {
    const text = bytes.toString('utf8');
    let body: unknown = text;
    try {
      body = JSON.parse(text);
    } catch {}
    throw translateEngineError(
      operation,
      new errors.ResponseError({ body, statusCode: status, headers: {}, warnings: null, meta: {} } as never),
    );
  }
  return bytes;
}

type PendingGet = {
  id: string;
  resolve: (bytes: Buffer<ArrayBuffer>) => void;
  reject: (error: unknown) => void;
};

// Lookups waiting for the end of this turn of the event loop, per engine handle and index.
const pendingGets = new WeakMap<Engine, Map<ReadIndex, PendingGet[]>>();

/** More ids than this in one turn go to the engine as several multi-gets. */
const MAX_GATHERED = 64;

/**
 * The record of a document as the JSON text stored, for responses that pass it through as is.
 * EngineNotFoundError when there is none.
 */
export async function getRecordText(engine: Engine, index: ReadIndex, id: string): Promise<string> {
  return (await getRecordBytes(engine, index, id)).toString('utf8');
}

/**
 * The record of a document as the UTF-8 bytes of the JSON stored, cut from the engine's answer
 * without decoding it: what a lookup sends, and digests for its ETag, as it came. The answer is
 * read as Latin-1, a character a byte, so the slicer's offsets are byte offsets (every byte of
 * a character beyond ASCII is 0x80 or more: none is a quote, a backslash or a bracket). Measured
 * at 1,000,000 services, decoding each record and encoding it again for the socket was the API's
 * largest cost on lookups the record cache cannot answer (commit message).
 *
 * Lookups asked for in the same turn of the event loop (concurrent clients) are gathered into one
 * multi-get: the engine then answers one request instead of one per id. Its own cost per request
 * (HTTP, routing, a thread-pool hop) is most of what a lookup by id costs, so under load this
 * serves more lookups with the same CPU; a lone lookup is a plain get, as before. Both read the
 * same realtime document, so the answer is the same.
 */
export function getRecordBytes(engine: Engine, index: ReadIndex, id: string): Promise<Buffer<ArrayBuffer>> {
  let byIndex = pendingGets.get(engine);
  if (!byIndex) {
    byIndex = new Map();
    pendingGets.set(engine, byIndex);
  }
  let queue = byIndex.get(index);
  if (!queue) {
    const gathered: PendingGet[] = [];
    queue = gathered;
    byIndex.set(index, gathered);
    setImmediate(() => {
      byIndex.delete(index);
      for (let i = 0; i < gathered.length; i += MAX_GATHERED) {
        void answerGets(engine, index, gathered.slice(i, i + MAX_GATHERED));
      }
    });
  }
  const pending = queue;
  return new Promise((resolve, reject) => {
    pending.push({ id, resolve, reject });
  });
}

/**
 * A record for a reader (`{id}` routes): through the handle's record cache when it has one
 * (record-cache.ts: never older than its `maxStaleMs`), else as getRecordBytes.
 */
export const readRecord = (engine: Engine, index: ReadIndex, id: string): Promise<RecordBody> =>
  cachedRecord(engine, index, id, () => getRecordBytes(engine, index, id));

/** The bytes of a slice of an answer read as Latin-1 (getRecordBytes): a copy, not a view. */
const bytesOf = (latin1: string): Buffer<ArrayBuffer> => Buffer.from(latin1, 'latin1');

/** A record parsed out of an answer the slicer did not follow, as UTF-8 bytes. */
const reserialised = (record: unknown): Buffer<ArrayBuffer> => Buffer.from(JSON.stringify(record), 'utf8');

async function answerGets(engine: Engine, index: ReadIndex, gets: PendingGet[]): Promise<void> {
  if (gets.length === 1) {
    const [get] = gets as [PendingGet];
    await getOneRecordBytes(engine, index, get.id).then(get.resolve, get.reject);
    return;
  }
  try {
    const operation = `get ${gets.length} from ${index}`;
    const answer = await rawRequestBytes(engine, operation, (options) =>
      engine.client.mget({ index: engine.name(index), body: { ids: gets.map((g) => g.id) } }, options),
    );
    const records =
      sliceMgetRecords(answer.toString('latin1'))?.map((r) => (typeof r === 'string' ? bytesOf(r) : r)) ??
      (
        JSON.parse(answer.toString('utf8')) as {
          docs?: { error?: unknown; _source?: { record?: unknown } }[];
        }
      ).docs?.map((doc) =>
        doc.error !== undefined && !isMissingIndexError(JSON.stringify(doc.error))
          ? null
          : doc._source?.record === undefined
            ? undefined
            : reserialised(doc._source.record),
      ) ??
      [];
    gets.forEach((get, i) => {
      const record = records[i];
      if (record instanceof Buffer) get.resolve(record);
      else if (record === null)
        // Not "not found": the document's shard could not be read (its copies lost for now).
        get.reject(new EngineUnavailableError(`get ${index}/${get.id}: the engine could not read it`));
      else get.reject(new EngineNotFoundError(`get ${index}/${get.id}: not found`));
    });
  } catch (error) {
    for (const get of gets) get.reject(error);
  }
}

async function getOneRecordBytes(engine: Engine, index: ReadIndex, id: string): Promise<Buffer<ArrayBuffer>> {
  const answer = await rawRequestBytes(engine, `get ${index}/${id}`, (options) =>
    engine.client.get({ index: engine.name(index), id }, options),
  );
  const record = sliceGetRecord(answer.toString('latin1'));
  if (record !== undefined) return bytesOf(record);
  const parsed = JSON.parse(answer.toString('utf8')) as { found?: boolean; _source?: { record?: unknown } };
  if (!parsed.found || !parsed._source?.record)
    throw new EngineNotFoundError(`get ${index}/${id}: not found`);
  return reserialised(parsed._source.record);
}

/**
 * Reads a search answer as record texts, sliced out of it without parsing it, each with the sort
 * values the request turns into fields. An answer the slicer does not follow is parsed instead.
 */
function readTexts(request: SearchRequest, text: string): BatchReading {
  const sliced = sliceSearchHits(text);
  if (!sliced) {
    const body = JSON.parse(text) as SearchBody;
    const hits = body.hits?.hits ?? [];
    return {
      items: hits.map((hit) => withSortValues(JSON.stringify(hit._source?.record ?? {}), hit.sort, request)),
      lastSort: hits[hits.length - 1]?.sort,
      ...(body.hits?.total ? { total: body.hits.total.value } : {}),
      ...(body.pit_id ? { pitId: body.pit_id } : {}),
    };
  }
  const items = request.sortValues
    ? sliced.records.map((record, i) => {
        const sort = sliced.sorts[i];
        return withSortValues(
          record,
          sort === undefined ? undefined : (JSON.parse(sort) as unknown[]),
          request,
        );
      })
    : sliced.records;
  return {
    items,
    lastSort: sliced.lastSort,
    ...(sliced.total === undefined ? {} : { total: sliced.total }),
    ...(sliced.pitId === undefined ? {} : { pitId: sliced.pitId }),
  };
}

/**
 * Every match of a search, batch by batch, inside one point in time (a consistent snapshot however
 * long the client takes, up to the keep-alive, renewed with every batch). A stream in index order is
 * walked in parts side by side (partitionStream), so both engine cores work; batches are handed on
 * as they arrive. While the consumer handles one part's batch, the other parts fetch theirs: with
 * two parts, at most two batches are held. The first batch carries the total of every part, and comes even when there are no
 * matches (total 0). Stopping the iteration (`return()`) releases the point in time. Batches
 * hold the request's `batchSize` records: what a dump writes out.
 */
export async function* streamRecords(
  engine: Engine,
  request: SearchRequest,
  options: StreamOptions = {},
): AsyncGenerator<RecordTexts, void, undefined> {
  const { batchSize } = request;
  const keepAlive = options.keepAlive ?? PIT_KEEP_ALIVE;
  let pitId = await openPit(engine, request, keepAlive);
  if (!pitId) {
    yield { total: 0, texts: [] };
    return;
  }
  const parts = partitionStream(request);
  type Arrival = { part: number; reading: BatchReading };
  const fetchBatch = async (part: number, after: unknown[] | undefined): Promise<Arrival> => {
    const { query, sort } = parts[part] as SearchRequest;
    const reading = await readHits(request, (storedItems) => {
      const fetch = fetchOf(request, storedItems);
      return rawRequest(
        engine,
        `stream ${request.index}`,
        (transport) =>
          engine.client.search(
            {
              filter_path: ['hits.total.value', ...fetch.paths, 'hits.hits.sort', 'pit_id'],
              body: pointInTimeBody(
                { id: pitId as string, keepAlive },
                { query, sort },
                { size: batchSize, total: after === undefined, after, fetch: fetch.body },
              ),
            } as Record<string, unknown>,
            transport,
          ),
        options.budget,
      );
    });
    pitId = reading.pitId ?? pitId;
    return { part, reading };
  };
  const pending = new Map<number, Promise<Arrival>>();
  const ask = (part: number, after: unknown[] | undefined) => {
    const batch = fetchBatch(part, after);
    // A batch that fails after the consumer stopped must not become an unhandled rejection.
    batch.catch(() => {});
    pending.set(part, batch);
  };
  // Where a part goes on from: taken from an arrival before it is handed on, so the generator
  // does not keep the batch itself while it waits for the consumer.
  const followOf = ({ part, reading }: Arrival) => ({
    part,
    full: reading.items.length === batchSize,
    after: reading.lastSort,
  });
  const askNext = (follow: ReturnType<typeof followOf>) => {
    if (follow.full) ask(follow.part, follow.after);
  };
  try {
    parts.forEach((_, part) => {
      ask(part, undefined);
    });
    const firsts = await Promise.all(pending.values());
    pending.clear();
    const total = firsts.reduce((sum, { reading }) => sum + (reading.total ?? 0), 0);
    // A part asks for its next batch only once the consumer has taken its last one: a consumer
    // that stops (a client that stops reading) then holds the batch it was given and at most one
    // other part's, never a batch per part more.
    // Each first batch leaves the list as it is handed on, so the list does not keep it either.
    for (let arrival = firsts.shift(); arrival; arrival = firsts.shift()) {
      const follow = followOf(arrival);
      yield { total, texts: arrival.reading.items };
      askNext(follow);
    }
    while (pending.size > 0) {
      const arrival = await Promise.race(pending.values());
      pending.delete(arrival.part);
      const follow = followOf(arrival);
      yield { total, texts: arrival.reading.items };
      askNext(follow);
    }
  } finally {
    await Promise.allSettled(pending.values());
    if (pitId) await closePit(engine, pitId);
  }
}

/**
 * Every match of a search, batch by batch as texts: for bounded sets that are joined to other
 * records (the services of some organizations). One plain search usually answers; a larger set is
 * walked in a point in time. With a budget, the size of the whole set is announced once the first
 * search has shown the total and the size of a record (a set too large is refused before it is
 * read), and the first search's texts are given back when the walk reads them again.
 */
export async function* collectTexts(
  engine: Engine,
  request: SearchRequest,
  budget?: ReadBudget,
): AsyncGenerator<string[], void, undefined> {
  const first = await searchPage(engine, request, { from: 0, size: COLLECT_FIRST }, budget);
  if (first.total <= first.texts.length) {
    yield first.texts;
    return;
  }
  if (budget) {
    const read = first.texts.reduce((sum, text) => sum + text.length, 0);
    budget.expect(Math.round((read / Math.max(1, first.texts.length)) * (first.total - first.texts.length)));
    budget.take(-read);
  }
  for await (const batch of streamRecords(engine, request, { budget })) yield batch.texts;
}

const COLLECT_FIRST = 500;
