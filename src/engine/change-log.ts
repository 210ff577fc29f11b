/**
 * The change log (`change:<time>-<random>` in the control index): the record keys a publish is to
 * write to the live indices, logged before the store changes and marked done once published. A
 * publish killed midway leaves its entry pending and the next publish completes it; a reindex
 * replays the changes logged since its snapshot, so none is lost by its swap.
 */
import { hostname } from 'node:os';
import { changesBeforeQuery, changesSinceBody } from '../index-mapping/control.query.ts';
import { controlIndex, isDeadLocalProcess, searchControl, withControlIndex } from './control-index.ts';
import { type Engine, engineCall } from './engine.ts';
import { EngineNotFoundError } from './errors.ts';

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
  const entries = await searchControl<ChangeEntry>(
    engine,
    'list changes',
    changesSinceBody(10_000, options.since),
  );
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
      body: { query: changesBeforeQuery(now - olderThanMs) },
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
