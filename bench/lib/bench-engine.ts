/**
 * The engine a benchmark runs against: OPENSEARCH_URL when set, else the local engine on
 * ENGINE_PORT (default 9200), started if needed (and stopped afterwards if the benchmark started it).
 */
import pino from 'pino';
import { startEngine, stopEngine } from '../../local-engine/local-engine.ts';
import { createEngine, type Engine, type EngineSettings } from '../../src/engine/index.ts';

export type BenchEngine = { url: string; started: boolean; stop(): Promise<void> };

export async function openBenchEngine(log: (line: string) => void): Promise<BenchEngine> {
  if (process.env.OPENSEARCH_URL) {
    log(`engine: OPENSEARCH_URL ${process.env.OPENSEARCH_URL}`);
    return { url: process.env.OPENSEARCH_URL, started: false, stop: async () => {} };
  }
  const port = Number(process.env.ENGINE_PORT ?? 9200);
  const status = await startEngine({ port, heap: process.env.ENGINE_HEAP ?? '2g' });
  log(`engine: local at ${status.url} (${status.started ? 'started' : 'already running'})`);
  return {
    url: status.url,
    started: status.started,
    stop: async () => {
      if (status.started) await stopEngine({ port });
    },
  };
}

export function benchEngineSettings(url: string, prefix: string): EngineSettings {
  return {
    url,
    prefix,
    requestTimeoutMs: 120_000,
    ...(process.env.INDEX_SHARDS ? { shards: Number(process.env.INDEX_SHARDS) } : {}),
    ...(process.env.INDEX_REPLICAS ? { replicas: Number(process.env.INDEX_REPLICAS) } : {}),
  };
}

export const createBenchEngine = (url: string, prefix: string): Engine =>
  createEngine(benchEngineSettings(url, prefix), pino({ level: process.env.LOG_LEVEL ?? 'warn' }));

/** Removes every index under the prefix. */
export async function dropIndices(engine: Engine): Promise<void> {
  await engine.client.indices
    .delete({ index: `${engine.settings.prefix}-*`, expand_wildcards: 'all' })
    .catch(() => {});
}

/** CPU milliseconds the engine's process has used so far (to split a run's work between us and it). */
export async function engineCpuMs(engine: Engine): Promise<number | undefined> {
  try {
    const { body } = await engine.client.nodes.stats({ metric: ['process'] } as never);
    const nodes = Object.values(
      body.nodes as Record<string, { process?: { cpu?: { total_in_millis?: number } } }>,
    );
    return nodes.reduce((sum, n) => sum + (n.process?.cpu?.total_in_millis ?? 0), 0);
  } catch {
    return undefined;
  }
}
