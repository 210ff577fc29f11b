/**
 * The control index (`${prefix}-control`): what processes sharing one engine must agree on, kept
 * in the engine itself so that every CLI run and every API server sees it. This module owns the
 * index and how its documents are read and written; each kind of document has its module: leases
 * (leases.ts), import runs (import-runs.ts), builds (builds.ts), the change log (change-log.ts) and
 * audit intents (audit-intents.ts). control.ts is their one surface.
 *
 * Writes use the engine's default `request` translog durability: acknowledged means on disk.
 * Reads by id are real-time; searches refresh the (tiny) index first.
 */
import { hostname } from 'node:os';
import { type Engine, engineCall } from './engine.ts';
import { EngineNotFoundError, EngineRequestError, isAlreadyExists } from './errors.ts';
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
    if (!isAlreadyExists(error)) throw error;
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
export async function withControlIndex<T>(engine: Engine, write: () => Promise<T>): Promise<T> {
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

export type Stored<T> = { data: T; seqNo: number; primaryTerm: number; expiresAt?: number };

export async function getControl<T>(engine: Engine, id: string): Promise<Stored<T> | undefined> {
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
export function isDeadLocalProcess(host: string, pid: number): boolean {
  if (host !== hostname() || pid === process.pid) return false;
  try {
    process.kill(pid, 0);
    return false;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'ESRCH';
  }
}

export const isConflict = (error: unknown) => error instanceof EngineRequestError && error.statusCode === 409;

/**
 * The `data` of the control documents that match `query` (refreshed first: a lease, run or change
 * written a moment ago is seen); none when the control index does not exist yet.
 */
export async function searchControl<T>(
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
