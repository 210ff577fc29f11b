/**
 * One real engine for the whole integration run (docs/style.md 20):
 *   1. OPENSEARCH_URL, when set;
 *   2. else @testcontainers/opensearch, when a Docker engine answers;
 *   3. else the local JVM engine (engine/), started for the run and stopped after.
 * ENGINE_VERSION picks the OpenSearch line for 2. and 3. (`3` for the newest 3.x; CI runs both).
 * Test files isolate themselves with their own index prefix (test/support/engine.ts).
 */
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import type { TestProject } from 'vitest/node';
import {
  enginePaths,
  engineStatus,
  resolveEngineVersion,
  startEngine,
  stopEngine,
} from '../../local-engine/local-engine.ts';

declare module 'vitest' {
  export interface ProvidedContext {
    engineUrl: string;
  }
}

function dockerAvailable(): boolean {
  try {
    execFileSync('docker', ['info', '--format', '{{.ServerVersion}}'], { stdio: 'ignore', timeout: 5000 });
    return true;
  } catch {
    return false;
  }
}

export default async function setup(project: TestProject) {
  if (process.env.OPENSEARCH_URL) {
    project.provide('engineUrl', process.env.OPENSEARCH_URL);
    console.log(`integration tests: engine at OPENSEARCH_URL ${process.env.OPENSEARCH_URL}`);
    return;
  }
  if (dockerAvailable()) {
    const { OpenSearchContainer } = await import('@testcontainers/opensearch');
    const container = await new OpenSearchContainer(resolveEngineVersion().image)
      .withSecurityEnabled(false)
      .start();
    project.provide('engineUrl', container.getHttpUrl());
    console.log(`integration tests: engine in a container at ${container.getHttpUrl()}`);
    return async () => {
      await container.stop();
    };
  }
  // A port of its own, so a developer's `npm start` engine on 9200 is never touched.
  const port = Number(process.env.TEST_ENGINE_PORT ?? 9250);
  // The test engine's data is throwaway: when another version wrote it, start afresh.
  const { base } = enginePaths({ port });
  const written = join(base, 'opensearch-version');
  const asked = resolveEngineVersion().opensearch;
  if (
    !(await engineStatus({ port })).running &&
    existsSync(written) &&
    readFileSync(written, 'utf8').trim() !== asked
  ) {
    rmSync(base, { recursive: true, force: true });
  }
  const started = Date.now();
  const status = await startEngine({ port, heap: process.env.ENGINE_HEAP ?? '1g' });
  console.log(
    `integration tests: local OpenSearch ${status.version} at ${status.url} (${status.started ? `started in ${((Date.now() - started) / 1000).toFixed(1)} s` : 'already running'})`,
  );
  project.provide('engineUrl', status.url);
  return async () => {
    if (status.started) await stopEngine({ port });
  };
}
