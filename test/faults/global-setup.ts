/**
 * One local engine for the fault suite, on a port and data folder of its own (FAULT_ENGINE_PORT,
 * default 9270), started from an empty data folder and stopped after. Tests kill, freeze and
 * restart it through test/faults/support.ts; it is never an engine someone else uses.
 */
import { rmSync } from 'node:fs';
import type { TestProject } from 'vitest/node';
import { enginePaths, startEngine, stopEngine } from '../../local-engine/local-engine.ts';

declare module 'vitest' {
  export interface ProvidedContext {
    faultEnginePort: number;
  }
}

export default async function setup(project: TestProject) {
  const port = Number(process.env.FAULT_ENGINE_PORT ?? 9270);
  await stopEngine({ port });
  rmSync(enginePaths({ port }).base, { recursive: true, force: true });
  const started = Date.now();
  const status = await startEngine({ port, heap: process.env.ENGINE_HEAP ?? '1g' });
  console.log(
    `fault tests: engine at ${status.url}, started in ${((Date.now() - started) / 1000).toFixed(1)} s`,
  );
  project.provide('faultEnginePort', port);
  return async () => {
    await stopEngine({ port });
  };
}
