/**
 * Versioned read indices behind aliases. A build creates `${prefix}-${kind}-${version}` for every
 * read index, fills them while readers keep using the aliases, then moves every alias in ONE
 * `_aliases` request, so readers see either the whole old set or the whole new one. The previous
 * version is kept for rollback; older ones, and the leftovers of builds that failed or were
 * killed, are removed after a successful swap.
 */

import { errors } from '@opensearch-project/opensearch';
import { readIndexAnalysisSettings } from '../index-mapping/analysis.ts';
import { READ_INDICES, type ReadIndex, readIndexMappings } from '../index-mapping/read-indices.mapping.ts';
import { countBody } from '../index-mapping/search.query.ts';
import { type Engine, engineCall, maintenanceRequest } from './engine.ts';
import {
  EngineNotFoundError,
  EngineRequestError,
  EngineUnavailableError,
  isAlreadyExists,
} from './errors.ts';
import { indexLayout } from './layout.ts';
import { operatorVocabulary } from './operator-vocabulary.ts';
import { recordsChanged } from './record-cache.ts';

export type ReadIndexBuild = {
  version: string;
  /** The physical index of each read index in this build. */
  indices: Record<ReadIndex, string>;
  /** The rules it was created with: configured + operator rules, read once per build. */
  synonyms?: readonly string[];
};

/** A sortable version: milliseconds since the epoch, plus a random tail against same-ms builds. */
export function newVersion(now = Date.now()): string {
  return `v${now.toString().padStart(14, '0')}-${Math.random().toString(36).slice(2, 6)}`;
}

/** The version at the end of a versioned read index's name. */
export const versionPattern = /-(v\d{14}-[a-z0-9]+)$/;

/** The alias every reader uses, e.g. `hsds-services`. */
export const aliasOf = (engine: Engine, kind: ReadIndex) => engine.name(kind);

/**
 * Creates the indices of a new build, tuned for loading: no replicas, no refresh. `finishBuild`
 * restores the configured settings.
 */
export async function beginBuild(engine: Engine, version = newVersion()): Promise<ReadIndexBuild> {
  const { shards } = await indexLayout(engine);
  const indices = Object.fromEntries(
    READ_INDICES.map((kind) => [kind, `${engine.name(kind)}-${version}`]),
  ) as Record<ReadIndex, string>;
  const synonyms = [...engine.settings.synonyms, ...(await operatorVocabulary(engine))];
  await Promise.all(
    READ_INDICES.map((kind) =>
      createBuildIndex(engine, indices[kind], {
        settings: {
          number_of_shards: shards,
          number_of_replicas: 0,
          refresh_interval: '-1',
          // Durability comes from the swap, not the translog: a build that dies is thrown away.
          'translog.durability': 'async',
          ...(readIndexAnalysisSettings(synonyms) as unknown as Record<string, unknown>),
        },
        mappings: readIndexMappings[kind],
      }),
    ),
  );
  return { version, indices, synonyms };
}

/**
 * Creates one index of a build. Its name carries the build's fresh version, so an index already
 * there is this request's own: the client sends a request again after a timeout, and on a loaded
 * cluster creating an index (a cluster-state change every node acknowledges) can outlast the
 * first attempt, which still succeeds. Seen in the cluster suite beside a million-service import:
 * the import failed on "resource_already_exists". Its primaries are waited for instead.
 */
async function createBuildIndex(engine: Engine, index: string, body: Record<string, unknown>): Promise<void> {
  try {
    await engineCall(`create index ${index}`, () => engine.client.indices.create({ index, body }));
  } catch (error) {
    if (!isAlreadyExists(error)) throw error;
    // The client waits past the engine's own 60 s, as the other health waits here do.
    await engineCall(`wait for index ${index}`, () =>
      engine.client.cluster.health(
        { index, wait_for_status: 'yellow', timeout: '60s' },
        maintenanceRequest(engine, 70_000),
      ),
    );
  }
}

/**
 * How long one force-merge request may wait for its answer, and how long the merge may take in
 * all. A merge goes on in the engine after the request that started it times out (a million
 * services took about 12 minutes on two loaded cores), so a timed-out request is followed by
 * waiting on the engine's merge tasks, not by failing a build whose every document is written.
 */
export type MergeLimits = { requestMs: number; totalMs: number; pollMs: number };
const MERGE_LIMITS: MergeLimits = { requestMs: 10 * 60_000, totalMs: 3 * 60 * 60_000, pollMs: 5_000 };

/** Whether a force-merge of these indices is still running in the engine. */
async function mergeRunning(engine: Engine, indices: readonly string[]): Promise<boolean> {
  const { body } = await engineCall('list merge tasks', () =>
    engine.client.tasks.list({ actions: 'indices:admin/forcemerge*', detailed: true }),
  );
  const nodes = (body as { nodes?: Record<string, { tasks?: Record<string, { description?: string }> }> })
    .nodes;
  return Object.values(nodes ?? {}).some((node) =>
    Object.values(node.tasks ?? {}).some((task) =>
      indices.some((name) => (task.description ?? '').includes(name)),
    ),
  );
}

/**
 * Merges a build's indices to one segment each. A request that times out leaves the merge to run
 * on: its tasks are then followed until they end (or `totalMs` passes: EngineUnavailableError).
 */
export async function mergeBuild(
  engine: Engine,
  indices: readonly string[],
  limits: MergeLimits = MERGE_LIMITS,
): Promise<void> {
  const started = Date.now();
  try {
    await engineCall('merge new indices', () =>
      engine.client.indices.forcemerge(
        { index: indices.join(','), max_num_segments: 1 },
        { requestTimeout: limits.requestMs, maxRetries: 0 },
      ),
    );
    return;
  } catch (error) {
    if (!(error instanceof EngineUnavailableError && error.cause instanceof errors.TimeoutError)) throw error;
    engine.logger.warn(
      { indices, waitedMs: Date.now() - started },
      'the merge of the new indices outlasted its request; following it in the engine',
    );
  }
  while (await mergeRunning(engine, indices)) {
    if (Date.now() - started > limits.totalMs) {
      throw new EngineUnavailableError(
        `merge new indices: still running after ${Math.round(limits.totalMs / 60_000)} minutes`,
      );
    }
    await new Promise((resolve) => setTimeout(resolve, limits.pollMs));
  }
}

/**
 * The documents in each of these indices, counted in one request (a publish and /health both
 * ask): undefined for an index the engine could not count (missing, or failed).
 */
export async function countEachIndex(
  engine: Engine,
  operation: string,
  indices: readonly string[],
): Promise<(number | undefined)[]> {
  const { body } = await engineCall(operation, () =>
    engine.client.msearch({
      body: indices.flatMap((index) => [{ index }, countBody()]),
    }),
  );
  const responses = body.responses as { hits?: { total?: { value: number } } }[];
  return indices.map((_, i) => responses[i]?.hits?.total?.value);
}

/** Restores replicas, refresh and translog durability, and makes every document searchable. */
export async function finishBuild(engine: Engine, build: ReadIndexBuild): Promise<void> {
  const index = Object.values(build.indices).join(',');
  const { replicas } = await indexLayout(engine);
  await engineCall('restore index settings', () =>
    engine.client.indices.putSettings({
      index,
      // null resets refresh_interval to the engine's default.
      body: {
        index: {
          number_of_replicas: replicas,
          refresh_interval: null,
          'translog.durability': 'request',
        },
      } as Record<string, unknown>,
    }),
  );
  await engineCall('refresh new indices', () =>
    engine.client.indices.refresh({ index }, maintenanceRequest(engine)),
  );
  // A build is written once and then read: merged to one segment, every search walks one terms
  // dictionary, one BKD tree of points and one of coverage triangles instead of one per segment
  // (a bulk load leaves 7 to 14), and a lookup by id finds its term in one place. The merge can
  // take minutes on a large directory: see mergeBuild.
  await mergeBuild(engine, Object.values(build.indices));
  // The build was written with an asynchronous translog: until a flush (a Lucene commit, fsynced)
  // a crash of the engine could lose what it acknowledged. Nothing is served before this returns.
  await flushIndices(engine, index);
  // With replicas on a real cluster, wait until they are allocated; one node stays yellow.
  await engineCall('wait for new indices', () =>
    engine.client.cluster.health(
      { index, wait_for_status: replicas > 0 ? 'green' : 'yellow', timeout: '120s' },
      maintenanceRequest(engine, 130_000),
    ),
  );
}

/**
 * Commits the indices to disk (a Lucene commit, fsynced, and the translog trimmed): what was
 * written survives a crash of the engine. `wait_if_ongoing` makes it wait for a flush already
 * running rather than return before the data is safe.
 */
export async function flushIndices(engine: Engine, index: string): Promise<void> {
  await engineCall(`flush ${index}`, () =>
    engine.client.indices.flush({ index, wait_if_ongoing: true, force: false }, maintenanceRequest(engine)),
  );
}

/** Document counts of the build's indices. */
export async function countBuild(engine: Engine, build: ReadIndexBuild): Promise<Record<ReadIndex, number>> {
  const counts = {} as Record<ReadIndex, number>;
  for (const kind of READ_INDICES) {
    const { body } = await engineCall(`count ${build.indices[kind]}`, () =>
      engine.client.count({ index: build.indices[kind] }),
    );
    counts[kind] = body.count;
  }
  return counts;
}

const PREVIOUS = 'previous';

/** The alias that keeps the version served before the last swap, for rollback. */
export const previousAliasOf = (engine: Engine, kind: ReadIndex) => `${engine.name(kind)}-${PREVIOUS}`;

type AliasTargets = {
  current: Partial<Record<ReadIndex, string>>;
  previous: Partial<Record<ReadIndex, string>>;
};

/** The physical index each served alias (and each rollback alias) points at now. */
export async function readAliasTargets(engine: Engine): Promise<AliasTargets> {
  const targets: AliasTargets = { current: {}, previous: {} };
  let body: Record<string, { aliases?: Record<string, unknown> }>;
  try {
    // Asking by index pattern rather than by alias name: a missing alias would make it a 404.
    ({ body } = await engineCall('read aliases', () =>
      engine.client.indices.getAlias({ index: `${engine.settings.prefix}-*`, expand_wildcards: 'all' }),
    ));
  } catch (error) {
    if (error instanceof EngineNotFoundError) return targets;
    throw error;
  }
  for (const [index, { aliases = {} }] of Object.entries(body)) {
    for (const kind of READ_INDICES) {
      if (aliasOf(engine, kind) in aliases) targets.current[kind] = index;
      if (previousAliasOf(engine, kind) in aliases) targets.previous[kind] = index;
    }
  }
  return targets;
}

/**
 * Points every alias at the given indices in one atomic `_aliases` request, and the rollback
 * aliases at what they served until now. Returns the indices served before.
 */
export async function swapAliases(
  engine: Engine,
  to: Record<ReadIndex, string>,
): Promise<Partial<Record<ReadIndex, string>>> {
  const { current, previous } = await readAliasTargets(engine);
  const actions: Record<string, unknown>[] = [];
  for (const kind of READ_INDICES) {
    const alias = aliasOf(engine, kind);
    const rollback = previousAliasOf(engine, kind);
    const old = current[kind];
    if (old === to[kind]) continue;
    if (old) actions.push({ remove: { index: old, alias } });
    actions.push({ add: { index: to[kind], alias } });
    const oldPrevious = previous[kind];
    if (oldPrevious) actions.push({ remove: { index: oldPrevious, alias: rollback } });
    if (old) actions.push({ add: { index: old, alias: rollback } });
  }
  if (actions.length > 0) {
    await engineCall('swap aliases', () => engine.client.indices.updateAliases({ body: { actions } }));
    recordsChanged();
  }
  return current;
}

/**
 * Serves the previous version again (the one the last swap replaced), keeping the current one as
 * the new "previous". Throws when there is nothing to roll back to.
 */
export async function rollbackAliases(engine: Engine): Promise<Record<ReadIndex, string>> {
  const { previous } = await readAliasTargets(engine);
  const missing = READ_INDICES.filter((kind) => !previous[kind]);
  if (missing.length > 0) throw new Error(`no previous version of ${missing.join(', ')} to roll back to`);
  const to = previous as Record<ReadIndex, string>;
  await swapAliases(engine, to);
  return to;
}

type VersionedIndex = { index: string; kind: ReadIndex; version: string };

/** Every versioned read index under the engine's prefix, oldest first. */
export async function listVersionedIndices(engine: Engine): Promise<VersionedIndex[]> {
  const found: VersionedIndex[] = [];
  const { body } = await engineCall('list indices', () =>
    engine.client.cat.indices({
      index: `${engine.settings.prefix}-*`,
      format: 'json',
      h: 'index',
      expand_wildcards: 'all',
    } as never),
  ).catch((error: unknown) => {
    if (error instanceof EngineNotFoundError) return { body: [] };
    throw error;
  });
  for (const { index } of body as unknown as { index: string }[]) {
    const version = versionPattern.exec(index)?.[1];
    if (!version) continue;
    // `${prefix}-services-v...` must not be mistaken for another kind sharing the prefix.
    const kind = READ_INDICES.find((k) => index === `${engine.name(k)}-${version}`);
    if (kind) found.push({ index, kind, version });
  }
  return found.sort((a, b) => a.version.localeCompare(b.version));
}

/**
 * Deletes every versioned read index that neither a served alias nor a rollback alias points at:
 * versions older than the previous one, and the half-built indices of failed or killed builds.
 * `keep` protects a build in progress.
 */
export async function removeOldVersions(engine: Engine, keep: string[] = []): Promise<string[]> {
  const { current, previous } = await readAliasTargets(engine);
  const kept = new Set<string>([...Object.values(current), ...Object.values(previous), ...keep]);
  const doomed = (await listVersionedIndices(engine)).map((i) => i.index).filter((index) => !kept.has(index));
  if (doomed.length > 0) await deleteIndices(engine, doomed);
  return doomed;
}

export async function deleteIndices(engine: Engine, indices: string[]): Promise<void> {
  // URLs have a length limit; a few dozen names at a time stays well under it.
  for (let i = 0; i < indices.length; i += 20) {
    const chunk = indices.slice(i, i + 20);
    await engineCall('delete indices', () =>
      engine.client.indices.delete({ index: chunk.join(','), ignore_unavailable: true }),
    ).catch((error: unknown) => {
      if (!(error instanceof EngineNotFoundError || error instanceof EngineRequestError)) throw error;
    });
  }
}

/** Deletes the indices of a build that will never be swapped in (best effort). */
export async function discardBuild(engine: Engine, build: ReadIndexBuild): Promise<void> {
  await deleteIndices(engine, Object.values(build.indices));
}
