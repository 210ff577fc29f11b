import { READ_INDICES, type ReadIndex } from '../index-mapping/read-indices.mapping.ts';
import { readBuilds } from './control.ts';
import { type Engine, engineCall } from './engine.ts';
import { EngineNotFoundError } from './errors.ts';
import { countEachIndex, readAliasTargets, versionPattern } from './indices.ts';

export type EngineHealth = {
  status: 'green' | 'yellow' | 'red';
  cluster: string;
  nodes: number;
  version?: string;
};

/** Cluster health; throws EngineUnavailableError when the engine cannot be reached. */
export async function getEngineHealth(engine: Engine): Promise<EngineHealth> {
  const { body } = await engineCall('cluster health', () =>
    engine.client.cluster.health({}, { requestTimeout: 3000, maxRetries: 0 }),
  );
  return {
    status: body.status as EngineHealth['status'],
    cluster: body.cluster_name,
    nodes: body.number_of_nodes,
  };
}

/** How many documents an index or alias holds; 0 when it does not exist. */
export async function countDocuments(engine: Engine, name: string): Promise<number> {
  try {
    const { body } = await engineCall(`count ${name}`, () =>
      engine.client.count({ index: engine.name(name) }),
    );
    return body.count;
  } catch (error) {
    if (error instanceof EngineNotFoundError) return 0;
    throw error;
  }
}

/** What one read index serves, against what its version was published with. */
export type ServedIndex = {
  /** The physical index the alias points at; absent when there is no alias. */
  index?: string;
  /** Documents it serves now. */
  served?: number;
  /** Documents the build verified before it was published (absent for builds that predate the record). */
  published?: number;
};

export type ServedData = {
  indices: Record<ReadIndex, ServedIndex>;
  /** What is wrong with the served data, for people: empty when everything is as published. */
  problems: string[];
};

/**
 * Checks the data the API serves: every alias present, and each serving exactly the documents its
 * version was verified to hold when it was published (a crash, a deleted index or documents
 * deleted behind our back show up here). One alias read, one multi-search and one multi-get.
 */
export async function checkServedData(engine: Engine): Promise<ServedData> {
  const { current } = await readAliasTargets(engine);
  const indices = {} as Record<ReadIndex, ServedIndex>;
  const problems: string[] = [];
  const aliased = READ_INDICES.filter((kind) => current[kind] !== undefined);
  for (const kind of READ_INDICES) indices[kind] = current[kind] ? { index: current[kind] } : {};
  const missing = READ_INDICES.filter((kind) => current[kind] === undefined);
  if (missing.length === READ_INDICES.length) {
    problems.push('nothing is published yet: import a source (hsds import) or run a reindex');
  } else if (missing.length > 0) {
    problems.push(`no index is served for ${missing.join(', ')}`);
  }
  if (aliased.length > 0) {
    const totals = await countEachIndex(
      engine,
      'count served documents',
      aliased.map((kind) => current[kind] as string),
    );
    aliased.forEach((kind, i) => {
      const total = totals[i];
      if (total === undefined) problems.push(`${kind}: the engine could not count ${current[kind]}`);
      else indices[kind].served = total;
    });
    const versionOf = (index: string) => versionPattern.exec(index)?.[1];
    const versions = [...new Set(aliased.map((kind) => versionOf(current[kind] as string)).filter(Boolean))];
    const builds = await readBuilds(engine, versions as string[]);
    for (const kind of aliased) {
      const version = versionOf(current[kind] as string);
      const published = version ? builds.get(version)?.counts[kind] : undefined;
      if (published === undefined) continue;
      indices[kind].published = published;
      const served = indices[kind].served;
      if (served !== undefined && served !== published) {
        problems.push(
          `${kind} serves ${served} documents but version ${version} was published with ${published}: reindex to rebuild it`,
        );
      }
    }
    if (indices.services.served === 0 && indices.services.published === undefined) {
      problems.push('no services are served');
    }
  }
  return { indices, problems };
}

/** The read indices with no alias: the API cannot answer for them (one alias read). */
export async function unservedIndices(engine: Engine): Promise<ReadIndex[]> {
  const { current } = await readAliasTargets(engine);
  return READ_INDICES.filter((kind) => current[kind] === undefined);
}
