/**
 * How many shards and replicas a new index gets. INDEX_SHARDS / INDEX_REPLICAS decide when set;
 * otherwise the cluster's size does, read when the index is created: one node gets one shard and
 * no replica (a replica could never be placed); a cluster gets a primary per data node (up to
 * MAX_AUTO_SHARDS), spreading searches and writes, and one replica, so losing any one node loses
 * no data and reads go on from the copies.
 */
import { type Engine, engineCall } from './engine.ts';
import { EngineNotFoundError, isAlreadyExists } from './errors.ts';

export type IndexLayout = { shards: number; replicas: number };

export const MAX_AUTO_SHARDS = 5;

/** The layout for a cluster of `dataNodes` data nodes, where settings do not say. */
export function chooseLayout(
  dataNodes: number,
  settings: { shards?: number | undefined; replicas?: number | undefined },
): IndexLayout {
  const nodes = Math.max(1, dataNodes);
  return {
    shards: settings.shards ?? Math.min(nodes, MAX_AUTO_SHARDS),
    replicas: settings.replicas ?? (nodes > 1 ? 1 : 0),
  };
}

/** The layout for an index created now (asks the cluster its size unless both are configured). */
export async function indexLayout(engine: Engine): Promise<IndexLayout> {
  const { shards, replicas } = engine.settings;
  if (shards !== undefined && replicas !== undefined) return { shards, replicas };
  const { body } = await engineCall('count data nodes', () => engine.client.cluster.health({}));
  return chooseLayout(Number(body.number_of_data_nodes ?? 1), { shards, replicas });
}

/**
 * Creates a small bookkeeping index (one shard, the layout's replicas) unless it exists; false
 * when it did already.
 */
export async function createSmallIndex(
  engine: Engine,
  index: string,
  mappings: object,
  label: string,
): Promise<boolean> {
  const { replicas } = await indexLayout(engine);
  try {
    await engineCall(`create ${label} index`, () =>
      engine.client.indices.create({
        index,
        body: {
          settings: { number_of_shards: 1, number_of_replicas: replicas },
          mappings: mappings as Record<string, unknown>,
        },
      }),
    );
    return true;
  } catch (error) {
    if (isAlreadyExists(error)) return false;
    throw error;
  }
}

/**
 * Deletes what a query matches in a small index of old entries (tombstones, audit, search log):
 * how many went, 0 when the index was never created. Conflicts with a concurrent write are left
 * for the next prune rather than failing this one.
 */
export async function pruneSmallIndex(
  engine: Engine,
  purpose: string,
  index: string,
  query: Record<string, unknown>,
  options: { refresh?: boolean; transport?: Record<string, unknown> } = {},
): Promise<number> {
  try {
    const { body } = await engineCall(purpose, () =>
      engine.client.deleteByQuery(
        {
          index,
          body: { query },
          ...(options.refresh ? { refresh: true } : {}),
          conflicts: 'proceed',
        } as never,
        options.transport as never,
      ),
    );
    return (body as { deleted?: number }).deleted ?? 0;
  } catch (error) {
    if (error instanceof EngineNotFoundError) return 0;
    throw error;
  }
}
