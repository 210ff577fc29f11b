import { type Engine, engineCall } from './engine.ts';
import { EngineNotFoundError } from './errors.ts';

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
