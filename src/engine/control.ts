/**
 * The control index (`${prefix}-control`): what processes sharing one engine must agree on, kept
 * in the engine itself so that every CLI run and every API server sees it.
 *
 * - **Leases** (`lease:<name>`): one reindex at a time across processes and machines. A lease is
 *   created with `op_type: create`, renewed with optimistic concurrency (`if_seq_no`), and expires
 *   when its holder stops renewing (killed, frozen, partitioned): then another process may take it
 *   over. A holder whose renewal fails learns it through `lost` and must not publish.
 * - **Import runs** (`import:<hash of the source>`): an import says it started, beats while it
 *   runs and says it finished. A run left `running` with an old heartbeat was killed; reindex
 *   refuses to publish a store an import left half-written unless told to.
 * - **Builds** (`build:<version>`): the document counts each published version was verified to
 *   hold, so `/health` can tell when the served indices no longer hold them.
 *
 * Writes use the engine's default `request` translog durability: acknowledged means on disk.
 * Reads by id are real-time; searches refresh the (tiny) index first.
 */
import { createHash, randomUUID } from 'node:crypto';
import { hostname } from 'node:os';
import { type Engine, engineCall } from './engine.ts';
import { EngineNotFoundError, EngineRequestError } from './errors.ts';
import { indexLayout } from './layout.ts';

export const controlIndex = (engine: Engine) => engine.name('control');

const mapping = {
  dynamic: 'strict',
  properties: {
    kind: { type: 'keyword' },
    expires_at: { type: 'date', format: 'epoch_millis' },
    // When a change entry was logged (changes since a time are replayed after a reindex).
    at: { type: 'date', format: 'epoch_millis' },
    // What each kind keeps; nothing in it is searched.
    data: { type: 'object', enabled: false },
  },
} as const;

const created = new WeakSet<Engine>();

/** Creates the control index when missing (once per engine handle). */
export async function ensureControlIndex(engine: Engine): Promise<void> {
  if (created.has(engine)) return;
  const { replicas } = await indexLayout(engine);
  try {
    await engineCall('create control index', () =>
      engine.client.indices.create({
        index: controlIndex(engine),
        body: {
          settings: {
            number_of_shards: 1,
            number_of_replicas: replicas,
          },
          mappings: mapping as unknown as Record<string, unknown>,
        },
      }),
    );
  } catch (error) {
    if (!(error instanceof EngineRequestError && error.reason.includes('resource_already_exists')))
      throw error;
    // A control index of an earlier version: add the fields it lacks.
    await engineCall('update control mapping', () =>
      engine.client.indices.putMapping({
        index: controlIndex(engine),
        body: { properties: { at: mapping.properties.at } },
      }),
    );
  }
  created.add(engine);
}

/**
 * Runs a write on the control index, creating the index first if it is missing (or was deleted
 * since this process created it).
 */
async function withControlIndex<T>(engine: Engine, write: () => Promise<T>): Promise<T> {
  await ensureControlIndex(engine);
  try {
    return await write();
  } catch (error) {
    if (!(error instanceof EngineNotFoundError)) throw error;
    created.delete(engine);
    await ensureControlIndex(engine);
    return write();
  }
}

type Stored<T> = { data: T; seqNo: number; primaryTerm: number; expiresAt?: number };

async function getControl<T>(engine: Engine, id: string): Promise<Stored<T> | undefined> {
  try {
    const { body } = await engineCall(`read ${id}`, () =>
      engine.client.get({ index: controlIndex(engine), id, realtime: true }),
    );
    if (!body.found) return undefined;
    const source = body._source as { data: T; expires_at?: number };
    return {
      data: source.data,
      seqNo: body._seq_no as number,
      primaryTerm: body._primary_term as number,
      ...(source.expires_at !== undefined ? { expiresAt: source.expires_at } : {}),
    };
  } catch (error) {
    if (error instanceof EngineNotFoundError) return undefined;
    throw error;
  }
}

/**
 * Whether a process recorded by this machine is gone (killed, crashed): its lease or import run
 * need not wait for the heartbeat to go stale. Processes on other machines cannot be asked.
 */
function isDeadLocalProcess(host: string, pid: number): boolean {
  if (host !== hostname() || pid === process.pid) return false;
  try {
    process.kill(pid, 0);
    return false;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'ESRCH';
  }
}

const isConflict = (error: unknown) => error instanceof EngineRequestError && error.statusCode === 409;

/** Who holds a lease, for the message another process gets. */
export type LeaseHolder = {
  owner: string;
  host: string;
  pid: number;
  /** What holds it, e.g. `hsds reindex` or `admin reindex job`. */
  purpose: string;
  acquired_at: string;
};

/** Another process holds the lease and it has not expired. */
export class LeaseHeldError extends Error {
  override readonly name = 'LeaseHeldError';
  readonly holder: LeaseHolder;
  constructor(name: string, holder: LeaseHolder) {
    super(
      `another ${name} is running (${holder.purpose}, process ${holder.pid} on ${holder.host}, since ${holder.acquired_at})`,
    );
    this.holder = holder;
  }
}

/** This process held the lease and lost it (it could not renew in time, or another took it over). */
export class LeaseLostError extends Error {
  override readonly name = 'LeaseLostError';
}

export type Lease = {
  readonly name: string;
  readonly holder: LeaseHolder;
  /** Aborted when the lease is lost; work done under the lease should stop. */
  readonly lost: AbortSignal;
  /** Renews now; throws LeaseLostError when the lease is no longer ours. */
  renew(): Promise<void>;
  /** Gives the lease up (best effort: an unreleased lease expires by itself). */
  release(): Promise<void>;
};

export type LeaseOptions = {
  purpose: string;
  /** How long the lease lasts without renewal. */
  ttlMs?: number;
  /** How often it is renewed while held. */
  renewEveryMs?: number;
  now?: () => number;
};

/**
 * Takes the named lease, or throws LeaseHeldError naming who holds it. An expired lease is taken
 * over. While held, it is renewed in the background until released.
 */
export async function acquireLease(engine: Engine, name: string, options: LeaseOptions): Promise<Lease> {
  const ttlMs = options.ttlMs ?? 60_000;
  const renewEveryMs = options.renewEveryMs ?? Math.max(1000, Math.floor(ttlMs / 4));
  const now = options.now ?? Date.now;
  const id = `lease:${name}`;
  const holder: LeaseHolder = {
    owner: randomUUID(),
    host: hostname(),
    pid: process.pid,
    purpose: options.purpose,
    acquired_at: new Date(now()).toISOString(),
  };
  const body = () => ({ kind: 'lease', expires_at: now() + ttlMs, data: holder });
  let seqNo: number;
  let primaryTerm: number;
  try {
    const { body: created } = await withControlIndex(engine, () =>
      engineCall(`take lease ${name}`, () =>
        engine.client.index({ index: controlIndex(engine), id, op_type: 'create', body: body() }),
      ),
    );
    seqNo = created._seq_no as number;
    primaryTerm = created._primary_term as number;
  } catch (error) {
    if (!isConflict(error)) throw error;
    const current = await getControl<LeaseHolder>(engine, id);
    const expired = !current || (current.expiresAt ?? 0) <= now();
    if (current && !expired && !isDeadLocalProcess(current.data.host, current.data.pid)) {
      throw new LeaseHeldError(name, current.data);
    }
    // Expired (or released between the two requests): take it over, unless another process does first.
    try {
      const { body: taken } = await engineCall(`take over lease ${name}`, () =>
        engine.client.index({
          index: controlIndex(engine),
          id,
          body: body(),
          ...(current
            ? { if_seq_no: current.seqNo, if_primary_term: current.primaryTerm }
            : { op_type: 'create' }),
        }),
      );
      seqNo = taken._seq_no as number;
      primaryTerm = taken._primary_term as number;
      if (current) {
        engine.logger.warn({ lease: name, expired: current.data }, 'took over an expired lease');
      }
    } catch (takeOverError) {
      if (!isConflict(takeOverError)) throw takeOverError;
      const winner = await getControl<LeaseHolder>(engine, id);
      throw new LeaseHeldError(name, winner?.data ?? holder);
    }
  }

  const controller = new AbortController();
  let expiresAt = now() + ttlMs;
  let released = false;
  let renewing: Promise<void> | undefined;
  const renewOnce = async () => {
    if (controller.signal.aborted) throw controller.signal.reason;
    try {
      const { body: renewed } = await engineCall(`renew lease ${name}`, () =>
        engine.client.index({
          index: controlIndex(engine),
          id,
          body: body(),
          if_seq_no: seqNo,
          if_primary_term: primaryTerm,
        }),
      );
      seqNo = renewed._seq_no as number;
      primaryTerm = renewed._primary_term as number;
      expiresAt = now() + ttlMs;
    } catch (error) {
      // A conflict means another process took the lease over; a failure that lasts past the
      // expiry means it may have: either way the work must not be published.
      if (isConflict(error) || now() >= expiresAt) {
        const lost = new LeaseLostError(`the ${name} lease was lost: ${(error as Error).message}`);
        controller.abort(lost);
        throw lost;
      }
      throw error;
    }
  };
  const renew = () => {
    renewing ??= renewOnce().finally(() => {
      renewing = undefined;
    });
    return renewing;
  };
  const timer = setInterval(() => {
    renew().catch((error: unknown) => {
      if (!(error instanceof LeaseLostError)) {
        engine.logger.warn({ err: error, lease: name }, 'could not renew a lease; retrying');
      }
    });
  }, renewEveryMs);
  timer.unref();

  return {
    name,
    holder,
    lost: controller.signal,
    renew,
    async release() {
      if (released) return;
      released = true;
      clearInterval(timer);
      await renewing?.catch(() => {});
      if (controller.signal.aborted) return;
      controller.abort(new LeaseLostError(`the ${name} lease was released`));
      await engineCall(`release lease ${name}`, () =>
        engine.client.delete({
          index: controlIndex(engine),
          id,
          if_seq_no: seqNo,
          if_primary_term: primaryTerm,
        }),
      ).catch((error: unknown) => {
        engine.logger.warn({ err: error, lease: name }, 'could not release a lease; it expires by itself');
      });
    },
  };
}

/** The record of one import of a source. */
export type ImportRun = {
  source: string;
  /** `abandoned`: an operator published the store without it (reindex --allow-incomplete). */
  state: 'running' | 'complete' | 'failed' | 'abandoned';
  started_at: string;
  heartbeat_at: string;
  finished_at?: string;
  host: string;
  pid: number;
  error?: string;
  /** What a finished run counted (its report's summary): what `hsds sources` shows of it. */
  counts?: ImportRunCounts;
};

/** What an import run counted: its report's summary counts (src/ingest/import-report.ts). */
export type ImportRunCounts = {
  /** Items read from the source: nested documents or tabular rows. */
  items: number;
  /** Distinct records written to the records store. */
  records: number;
  /** Of `records`, those the leniency policy repaired (a value changed or an optional field dropped). */
  repaired: number;
  /** Distinct records that failed validation (each skipped with what it nests). */
  rejected: number;
  /** Ids met again with different content (the last one is kept). */
  duplicates: number;
  /** Links to records that exist neither in the source nor in the store. */
  dangling_references: number;
  /** Records deleted from the store: no longer provided (`--sync`), or deleted at the source. */
  removed?: number;
};

const importId = (source: string) => `import:${createHash('sha1').update(source).digest('hex')}`;

export type ImportRunHandle = {
  finish(state: 'complete' | 'failed', error?: string, counts?: ImportRunCounts): Promise<void>;
};

/**
 * Records that an import of `source` runs, and beats every `heartbeatMs` until finished. An import
 * that is killed leaves `running` with a heartbeat that stops.
 */
export async function startImportRun(
  engine: Engine,
  source: string,
  options: { heartbeatMs?: number; now?: () => Date } = {},
): Promise<ImportRunHandle> {
  const now = options.now ?? (() => new Date());
  const id = importId(source);
  const run: ImportRun = {
    source,
    state: 'running',
    started_at: now().toISOString(),
    heartbeat_at: now().toISOString(),
    host: hostname(),
    pid: process.pid,
  };
  const write = () =>
    withControlIndex(engine, () =>
      engineCall(`record import ${source}`, () =>
        engine.client.index({ index: controlIndex(engine), id, body: { kind: 'import', data: run } }),
      ),
    );
  await write();
  let writing: Promise<unknown> | undefined;
  const timer = setInterval(() => {
    if (writing) return;
    run.heartbeat_at = now().toISOString();
    writing = write()
      .catch((error: unknown) => engine.logger.warn({ err: error }, 'could not record the import heartbeat'))
      .finally(() => {
        writing = undefined;
      });
  }, options.heartbeatMs ?? IMPORT_HEARTBEAT_MS);
  timer.unref();
  return {
    async finish(state, error, counts) {
      clearInterval(timer);
      await writing;
      run.state = state;
      run.finished_at = now().toISOString();
      run.heartbeat_at = run.finished_at;
      if (error) run.error = error;
      if (counts) run.counts = counts;
      await write();
    },
  };
}

export const IMPORT_HEARTBEAT_MS = 10_000;

/**
 * The `data` of the control documents that match `query` (refreshed first: a lease, run or change
 * written a moment ago is seen); none when the control index does not exist yet.
 */
async function searchControl<T>(
  engine: Engine,
  label: string,
  body: { size: number; query: object; sort?: object[] },
): Promise<T[]> {
  try {
    await engineCall('refresh control index', () =>
      engine.client.indices.refresh({ index: controlIndex(engine) }),
    );
    const { body: answer } = await engineCall(label, () =>
      engine.client.search({ index: controlIndex(engine), body: body as never }),
    );
    return (answer.hits.hits as { _source: { data: T } }[]).map((hit) => hit._source.data);
  } catch (error) {
    if (error instanceof EngineNotFoundError) return [];
    throw error;
  }
}

/** Every import run recorded under the engine's prefix. */
export const listImportRuns = (engine: Engine): Promise<ImportRun[]> =>
  searchControl<ImportRun>(engine, 'list import runs', { size: 1000, query: { term: { kind: 'import' } } });

/** The last complete import of a source, if any (its start is where `--since last` harvests from). */
export async function lastCompleteImport(engine: Engine, source: string): Promise<ImportRun | undefined> {
  const run = await getControl<ImportRun>(engine, importId(source));
  return run?.data.state === 'complete' ? run.data : undefined;
}

/**
 * Imports that did not finish: failed, killed (running with a heartbeat older than `staleMs`), or
 * still running. The store may hold part of what they brought.
 */
export type UnfinishedImport = ImportRun & { why: 'running' | 'killed' | 'failed' };

export function unfinishedImports(
  runs: readonly ImportRun[],
  now = Date.now(),
  staleMs = IMPORT_HEARTBEAT_MS * 4,
): UnfinishedImport[] {
  const unfinished: UnfinishedImport[] = [];
  for (const run of runs) {
    if (run.state === 'complete' || run.state === 'abandoned') continue;
    const stale = now - Date.parse(run.heartbeat_at) > staleMs || isDeadLocalProcess(run.host, run.pid);
    unfinished.push({ ...run, why: run.state === 'failed' ? 'failed' : stale ? 'killed' : 'running' });
  }
  return unfinished;
}

/**
 * Marks unfinished runs as abandoned once an operator chose to publish without them, so they stop
 * blocking later reindexes. A run that beat again since it was read (it was still running) is
 * left alone.
 */
export async function abandonImportRuns(engine: Engine, runs: readonly ImportRun[]): Promise<void> {
  for (const run of runs) {
    const id = importId(run.source);
    const current = await getControl<ImportRun>(engine, id);
    if (!current || current.data.heartbeat_at !== run.heartbeat_at || current.data.state !== run.state)
      continue;
    await engineCall(`abandon import ${run.source}`, () =>
      engine.client.index({
        index: controlIndex(engine),
        id,
        body: { kind: 'import', data: { ...current.data, state: 'abandoned' } },
        if_seq_no: current.seqNo,
        if_primary_term: current.primaryTerm,
      }),
    ).catch((error: unknown) => {
      if (!isConflict(error)) throw error;
    });
  }
}

/** Document counts a published version was verified to hold. */
export type BuildRecord = { version: string; counts: Record<string, number>; published_at: string };

export async function recordBuild(engine: Engine, build: BuildRecord): Promise<void> {
  await withControlIndex(engine, () =>
    engineCall(`record build ${build.version}`, () =>
      engine.client.index({
        index: controlIndex(engine),
        id: `build:${build.version}`,
        body: { kind: 'build', data: build },
      }),
    ),
  );
}

/** The recorded counts of the given versions (those built before builds were recorded are absent). */
export async function readBuilds(
  engine: Engine,
  versions: readonly string[],
): Promise<Map<string, BuildRecord>> {
  const found = new Map<string, BuildRecord>();
  if (versions.length === 0) return found;
  try {
    const { body } = await engineCall('read builds', () =>
      engine.client.mget({
        index: controlIndex(engine),
        body: { ids: versions.map((v) => `build:${v}`) },
        realtime: true,
      }),
    );
    for (const doc of body.docs as { found?: boolean; _source?: { data: BuildRecord } }[]) {
      if (doc.found && doc._source) found.set(doc._source.data.version, doc._source.data);
    }
  } catch (error) {
    if (!(error instanceof EngineNotFoundError)) throw error;
  }
  return found;
}

/**
 * A change to publish, logged before it is published and marked done after: a publish killed
 * midway leaves it pending, and the next publish completes it; a reindex replays the changes logged
 * since it took its snapshot, so none is lost by its swap.
 */
export type ChangeEntry = {
  id: string;
  /** Record keys (`type:id`) changed or removed. */
  keys: string[];
  at: number;
  state: 'pending' | 'done';
  host: string;
  pid: number;
};

export type ChangeHandle = { id: string; done(): Promise<void> };

export async function logChange(engine: Engine, keys: readonly string[]): Promise<ChangeHandle> {
  const at = Date.now();
  const id = `change:${at}-${Math.random().toString(36).slice(2, 8)}`;
  const entry: ChangeEntry = {
    id,
    keys: [...keys],
    at,
    state: 'pending',
    host: hostname(),
    pid: process.pid,
  };
  const write = (data: ChangeEntry) =>
    withControlIndex(engine, () =>
      engineCall('log change', () =>
        engine.client.index({ index: controlIndex(engine), id, body: { kind: 'change', at, data } }),
      ),
    );
  await write(entry);
  return { id, done: async () => void (await write({ ...entry, state: 'done' })) };
}

/** Change entries logged at or after `since` (ms), oldest first; `pending` only when asked. */
export async function listChanges(
  engine: Engine,
  options: { since?: number; pendingOnly?: boolean } = {},
): Promise<ChangeEntry[]> {
  const entries = await searchControl<ChangeEntry>(engine, 'list changes', {
    size: 10_000,
    sort: [{ at: 'asc' }],
    query: {
      bool: {
        filter: [
          { term: { kind: 'change' } },
          ...(options.since !== undefined ? [{ range: { at: { gte: options.since } } }] : []),
        ],
      },
    },
  });
  return options.pendingOnly ? entries.filter((e) => e.state === 'pending') : entries;
}

/** Pending changes whose publisher is gone (a dead local process, or older than `staleMs`). */
export const abandonedChanges = (entries: readonly ChangeEntry[], now = Date.now(), staleMs = 120_000) =>
  entries.filter(
    (e) =>
      e.state === 'pending' &&
      e.pid !== process.pid &&
      (isDeadLocalProcess(e.host, e.pid) || now - e.at > staleMs),
  );

/** Forgets change entries older than `olderThanMs` (published long since). */
export async function pruneChanges(
  engine: Engine,
  olderThanMs = 86_400_000,
  now = Date.now(),
): Promise<void> {
  await engineCall('prune changes', () =>
    engine.client.deleteByQuery({
      index: controlIndex(engine),
      body: {
        query: {
          bool: { filter: [{ term: { kind: 'change' } }, { range: { at: { lt: now - olderThanMs } } }] },
        },
      },
      conflicts: 'proceed',
    } as never),
  ).catch((error: unknown) => {
    if (!(error instanceof EngineNotFoundError)) throw error;
  });
}

/** Marks entries done (their keys were published by another run). */
export async function markChangesDone(engine: Engine, entries: readonly ChangeEntry[]): Promise<void> {
  for (const entry of entries) {
    await engineCall('mark change done', () =>
      engine.client.index({
        index: controlIndex(engine),
        id: entry.id,
        body: { kind: 'change', at: entry.at, data: { ...entry, state: 'done' } },
      }),
    );
  }
}

/**
 * A write's audit intent (`audit:<write id>`): what the records a write touches held before it,
 * stored before the write changes the store and cleared once its audit entries are written. A
 * process killed between the two leaves the intent; the next write (or `hsds serve`, `hsds
 * publish`) finds it and writes the entries from it (src/ingest/write.ts), so a change that
 * survives is never missing from the trail.
 */
export type AuditIntent = {
  write_id: string;
  /** The record the write was addressed to (`type:id`). */
  target: string;
  actor: string;
  /** When the write was made: the entries' last_action_date. */
  at: string;
  /** Every record key the write may change. */
  keys: string[];
  /** The records among `keys` that were stored before the write, as they were. */
  before: [string, Record<string, unknown>][];
  host: string;
  pid: number;
};

export async function recordAuditIntent(
  engine: Engine,
  intent: Omit<AuditIntent, 'host' | 'pid'>,
): Promise<void> {
  const data: AuditIntent = { ...intent, host: hostname(), pid: process.pid };
  await withControlIndex(engine, () =>
    engineCall('record audit intent', () =>
      engine.client.index({
        index: controlIndex(engine),
        id: `audit:${intent.write_id}`,
        body: { kind: 'audit', at: Date.parse(intent.at), data },
      }),
    ),
  );
}

/** Intents whose writes never wrote their audit, oldest first. */
export const listAuditIntents = (engine: Engine): Promise<AuditIntent[]> =>
  searchControl<AuditIntent>(engine, 'list audit intents', {
    size: 1000,
    sort: [{ at: 'asc' }],
    query: { term: { kind: 'audit' } },
  });

/** Clears an intent once its audit entries are written. */
export async function clearAuditIntent(engine: Engine, writeId: string): Promise<void> {
  await engineCall('clear audit intent', () =>
    engine.client.delete({ index: controlIndex(engine), id: `audit:${writeId}` }),
  ).catch((error: unknown) => {
    if (!(error instanceof EngineNotFoundError)) throw error;
  });
}

/**
 * Takes a lease, waiting while another holder has it (up to `waitMs`): for work that must run
 * after the holder's, not fail beside it (publishing, a vocabulary reload).
 */
export async function waitForLease(
  engine: Engine,
  name: string,
  options: LeaseOptions & { waitMs?: number },
): Promise<Lease> {
  const until = Date.now() + (options.waitMs ?? 120_000);
  for (;;) {
    try {
      return await acquireLease(engine, name, options);
    } catch (error) {
      if (!(error instanceof LeaseHeldError) || Date.now() > until) throw error;
      await new Promise((resolve) => setTimeout(resolve, 100 + Math.random() * 200));
    }
  }
}
