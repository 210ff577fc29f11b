/**
 * A bounded cache of the records the `{id}` routes serve, held by a read handle that is built with
 * `recordCache` settings (the API server's). A lookup by id is the cheapest thing the engine does,
 * so most of its cost is the hop to the engine itself: a record read before is answered from
 * memory instead.
 *
 * A cached record is never older than `maxStaleMs` (default 1 s):
 * - **Writes anywhere.** At most every `maxStaleMs` the cache asks the engine for the served read
 *   indices' identity (name and uuid, after any alias swap) and the highest sequence number of
 *   each primary shard. Every write, delete, publish, reindex or vocabulary swap changes it, from
 *   whichever process made it; a change empties the cache. A record is served from memory only
 *   while the last such check was sent less than `maxStaleMs` ago. Checks run in the background
 *   (one at a time, from half that age on): no lookup waits for one; while none is recent enough
 *   (after a quiet spell), lookups go to the engine, and what they read is kept.
 * - **Writes in this process** (bulk writes, alias swaps: recordsChanged) empty every cache at
 *   once, so a client of this process reads its own writes.
 * - **No stale insert.** A record fetched while the cache was emptied is not kept: it may have
 *   been read before the change.
 * - **Engine trouble.** A check that fails empties the cache and lookups go to the engine (which
 *   answers or fails as without a cache, as fast) until a check succeeds; a failed check is
 *   retried after `maxStaleMs`, not on every lookup.
 *
 * Entries are kept in least-recently-used order and bounded by the bytes they hold.
 */
import { READ_INDICES, type ReadIndex } from '../index-mapping/read-indices.mapping.ts';
import { type Engine, engineCall } from './engine.ts';

export type RecordCacheSettings = {
  /** Bytes of records held at most; 0: no cache. */
  maxBytes: number;
  /** How old the last check of the served data may be for a cached record to be served. */
  maxStaleMs: number;
};

// Bumped by every write this process makes to the engine (recordsChanged).
let localWrites = 0;

/** This process wrote to the engine: no record cached before may be served again. */
export function recordsChanged(): void {
  localWrites += 1;
}

/**
 * A record as the `{id}` routes serve it: the UTF-8 bytes of its JSON as the engine sent them
 * (search.ts getRecordBytes) and, once known, its ETag. Serving it, from the engine or again from
 * memory, neither decodes nor encodes it, and the ETag is digested once. Measured at 1,000,000
 * services: encoding a record's text for the socket was 37% of the API's busy time on lookups
 * answered from memory, and the largest single cost of those read from the engine.
 */
export class RecordBody {
  readonly #utf8: Buffer<ArrayBuffer>;
  /** The representation's ETag, set by whoever computes it first (api/records/http-cache.ts). */
  tag: string | undefined;

  constructor(utf8: Buffer<ArrayBuffer>) {
    this.#utf8 = utf8;
  }

  /**
   * The JSON text, decoded each time it is asked for (audit, provenance and a record's own
   * last_modified ask for it; kept, it would hold the record twice, unaccounted).
   */
  get text(): string {
    return this.#utf8.toString('utf8');
  }

  /** What goes out, and what the ETag digests. */
  body(): Buffer<ArrayBuffer> {
    return this.#utf8;
  }
}

/** The JSON text of a record given either way. */
export const textOf = (record: string | RecordBody): string =>
  typeof record === 'string' ? record : record.text;

type Entry = { record: RecordBody; bytes: number };

type CacheState = {
  settings: RecordCacheSettings;
  entries: Map<string, Entry>;
  bytes: number;
  /** Bumped whenever the cache is emptied: a fetch that started before is not kept. */
  epoch: number;
  /** localWrites when the cache was last emptied or checked. */
  writesSeen: number;
  signature: string | undefined;
  /** When the last successful check was sent (0: none trusted). */
  checkedAt: number;
  /** When the last failed check was sent. */
  failedAt: number;
  checking: Promise<void> | undefined;
};

const caches = new WeakMap<Engine, CacheState>();

function cacheOf(engine: Engine): CacheState | undefined {
  const settings = engine.settings.recordCache;
  if (!settings || settings.maxBytes <= 0) return undefined;
  let state = caches.get(engine);
  if (!state) {
    state = {
      settings,
      entries: new Map(),
      bytes: 0,
      epoch: 0,
      writesSeen: localWrites,
      signature: undefined,
      checkedAt: 0,
      failedAt: 0,
      checking: undefined,
    };
    caches.set(engine, state);
  }
  return state;
}

function empty(state: CacheState): void {
  state.entries.clear();
  state.bytes = 0;
  state.epoch += 1;
  state.writesSeen = localWrites;
}

type ShardStats = { routing?: { primary?: boolean }; seq_no?: { max_seq_no?: number } };
type IndexStats = { uuid?: string; shards?: Record<string, ShardStats[]> };

/**
 * What identifies the served data: each read index behind its alias, by name and uuid, with the
 * highest sequence number of each primary shard. Any write or swap changes it.
 */
export async function servedDataSignature(engine: Engine): Promise<string> {
  const { body } = await engineCall('check served data', () =>
    engine.client.indices.stats(
      {
        index: READ_INDICES.map((kind) => engine.name(kind)),
        metric: 'docs',
        level: 'shards',
        filter_path: [
          'indices.*.uuid',
          'indices.*.shards.*.seq_no.max_seq_no',
          'indices.*.shards.*.routing.primary',
        ],
      },
      // A read index not built yet is left out (the client's types lack this parameter here).
      { querystring: { ignore_unavailable: true } },
    ),
  );
  const indices = (body as { indices?: Record<string, IndexStats> }).indices ?? {};
  return Object.keys(indices)
    .sort()
    .map((name) => {
      const { uuid, shards = {} } = indices[name] as IndexStats;
      const seqNos = Object.keys(shards)
        .sort()
        .map((shard) => shards[shard]?.find((copy) => copy.routing?.primary)?.seq_no?.max_seq_no ?? '?');
      return `${name}/${uuid}:${seqNos.join(',')}`;
    })
    .join(' ');
}

function check(engine: Engine, state: CacheState): Promise<void> {
  state.checking ??= (async () => {
    const sentAt = Date.now();
    const writesBefore = localWrites;
    try {
      const signature = await servedDataSignature(engine);
      if (signature !== state.signature || state.writesSeen !== writesBefore) empty(state);
      state.signature = signature;
      state.checkedAt = sentAt;
    } catch (error) {
      empty(state);
      state.signature = undefined;
      state.checkedAt = 0;
      state.failedAt = sentAt;
      engine.logger.warn(
        { err: error instanceof Error ? error.message : error },
        'record cache: could not check the served data; lookups go to the engine',
      );
    } finally {
      state.checking = undefined;
    }
  })();
  return state.checking;
}

/**
 * Whether cached records may be served now. A check of the served data is started when half the
 * allowed age has passed (none within `maxStaleMs` of a failed one); lookups never wait for it:
 * while the last check is too old they go to the engine.
 */
function trusted(engine: Engine, state: CacheState): boolean {
  const { maxStaleMs } = state.settings;
  if (state.writesSeen !== localWrites) {
    empty(state);
    state.checkedAt = 0;
  }
  const now = Date.now();
  const age = now - state.checkedAt;
  if (age >= maxStaleMs / 2 && !state.checking && now - state.failedAt >= maxStaleMs)
    void check(engine, state);
  return age < maxStaleMs;
}

function keep(state: CacheState, key: string, record: RecordBody): void {
  const bytes = record.body().length;
  if (bytes > state.settings.maxBytes / 4) return;
  const old = state.entries.get(key);
  if (old !== undefined) {
    state.entries.delete(key);
    state.bytes -= old.bytes;
  }
  state.entries.set(key, { record, bytes });
  state.bytes += bytes;
  // The least recently used out first, until the cache is within its bytes.
  for (const [oldest, entry] of state.entries) {
    if (state.bytes <= state.settings.maxBytes) break;
    state.entries.delete(oldest);
    state.bytes -= entry.bytes;
  }
}

/**
 * A record through the engine handle's cache (none: straight from `read`). `read` gives its bytes
 * or throws (a miss is not cached: it is the engine's to say, and cheap to ask again).
 */
export async function cachedRecord(
  engine: Engine,
  index: ReadIndex,
  id: string,
  read: () => Promise<Buffer<ArrayBuffer>>,
): Promise<RecordBody> {
  const state = cacheOf(engine);
  if (!state) return new RecordBody(await read());
  const key = `${index}\u0000${id}`;
  const hit = trusted(engine, state) ? state.entries.get(key) : undefined;
  if (hit !== undefined) {
    // Most recently used last.
    state.entries.delete(key);
    state.entries.set(key, hit);
    return hit.record;
  }
  const { epoch } = state;
  const record = new RecordBody(await read());
  if (state.epoch === epoch && state.writesSeen === localWrites) keep(state, key, record);
  return record;
}

/** Entries and bytes held (the record cache test reads them). */
export function recordCacheSize(engine: Engine): { entries: number; bytes: number } {
  const state = caches.get(engine);
  return { entries: state?.entries.size ?? 0, bytes: state?.bytes ?? 0 };
}
