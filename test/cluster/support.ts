/**
 * The cluster suite's handles on its nodes: SIGKILL one, start it again, read the cluster's
 * health. Everything else (API and CLI processes, datasets, the served ids) comes from the fault
 * suite's helpers, which see the cluster's first node as their engine.
 */
import { inject } from 'vitest';
import { killNode as killEngineNode, restartNode } from '../../local-engine/local-engine.ts';
import { engineUrl, sleep } from '../faults/support.ts';

export const clusterUrls = () => inject('clusterUrls');
const firstPort = () => inject('faultEnginePort');

/** OPENSEARCH_URL for processes that should know every node (as a production deployment would). */
export const everyNode = () => clusterUrls().join(',');

/** The HTTP port of the node the tests kill: the last, never the first that helpers talk to. */
export const victimPort = () => firstPort() + clusterUrls().length - 1;

/** SIGKILLs a node's JVM and waits until its process is gone. */
export const killNode = (port: number): Promise<void> =>
  killEngineNode({ port: firstPort(), nodes: clusterUrls().length, nodePort: port });

/** Starts a killed node again on its data folder; resolves once it has joined the cluster. */
export async function restartClusterNode(port: number): Promise<void> {
  await restartNode({ port: firstPort(), nodes: clusterUrls().length, nodePort: port });
}

export type ClusterHealth = {
  status: 'green' | 'yellow' | 'red';
  number_of_nodes: number;
  number_of_data_nodes: number;
  unassigned_shards: number;
};

export async function clusterHealth(query = ''): Promise<ClusterHealth> {
  const res = await fetch(`${engineUrl()}/_cluster/health${query}`);
  return (await res.json()) as ClusterHealth;
}

/** Waits until the cluster reaches `status` (or better) with `nodes` nodes. */
export async function waitForHealth(status: 'green' | 'yellow', nodes: number, timeoutMs = 180_000) {
  const deadline = Date.now() + timeoutMs;
  let last: ClusterHealth | undefined;
  while (Date.now() < deadline) {
    last = await clusterHealth(`?wait_for_status=${status}&wait_for_nodes=${nodes}&timeout=5s`).catch(
      () => undefined,
    );
    if (last && last.number_of_nodes === nodes && (last.status === status || last.status === 'green')) {
      return last;
    }
    await sleep(250);
  }
  throw new Error(`the cluster did not reach ${status} with ${nodes} nodes: ${JSON.stringify(last)}`);
}
