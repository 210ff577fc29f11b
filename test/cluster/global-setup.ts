/**
 * A local cluster of three engine nodes for the cluster suite, each its own JVM, port and data
 * folder (CLUSTER_ENGINE_PORT, default 9280, and the two ports after it; transport ports +100),
 * started from empty data folders and stopped after. The fault suite's helpers
 * (test/faults/support.ts) take its first node as their engine; test/cluster/support.ts kills and
 * restarts the others.
 */
import { rmSync } from 'node:fs';
import type { TestProject } from 'vitest/node';
import { enginePaths, engineUrls, startEngine, stopEngine } from '../../local-engine/local-engine.ts';

declare module 'vitest' {
  export interface ProvidedContext {
    faultEnginePort: number;
    clusterUrls: string[];
  }
}

const NODES = 3;

export default async function setup(project: TestProject) {
  const port = Number(process.env.CLUSTER_ENGINE_PORT ?? 9280);
  await stopEngine({ port, nodes: NODES });
  for (let i = 0; i < NODES; i++) {
    rmSync(enginePaths({ port: port + i, nodes: 1 }).base, { recursive: true, force: true });
  }
  rmSync(enginePaths({ port, nodes: NODES }).snapshots, { recursive: true, force: true });
  const started = Date.now();
  const status = await startEngine({ port, nodes: NODES, heap: process.env.CLUSTER_ENGINE_HEAP ?? '512m' });
  console.log(
    `cluster tests: OpenSearch ${status.version}, ${NODES} nodes at ${status.urls?.join(', ')}, started in ${((Date.now() - started) / 1000).toFixed(1)} s`,
  );
  project.provide('faultEnginePort', port);
  project.provide('clusterUrls', engineUrls({ port, nodes: NODES }));
  return async () => {
    await stopEngine({ port, nodes: NODES });
  };
}
