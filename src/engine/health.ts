import { type Engine, engineCall } from './engine.ts';

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
