/**
 * The engine a benchmark runs against: OPENSEARCH_URL when set, else the local engine on
 * ENGINE_PORT (default 9200), started if needed (and stopped afterwards if the benchmark started it).
 */
import pino from 'pino';
import { killNode, restartNode, startEngine, stopEngine } from '../../local-engine/local-engine.ts';
import { type Config, loadConfig } from '../../src/config.ts';
import { createEngine, type Engine, type EngineSettings } from '../../src/engine/index.ts';
import { loadVocabulary } from '../../src/index-mapping/vocabulary-files.ts';

export type BenchEngine = {
  /** The first node's URL (what a benchmark's own engine requests go to). */
  url: string;
  /** Every node's URL: OPENSEARCH_URL for the processes a benchmark starts. */
  urls: string[];
  started: boolean;
  stop(): Promise<void>;
  /** A local cluster's nodes, by HTTP port: SIGKILL one, start it again (unset for OPENSEARCH_URL). */
  nodes?: { ports: number[]; kill(port: number): Promise<void>; restart(port: number): Promise<void> };
};

export async function openBenchEngine(log: (line: string) => void): Promise<BenchEngine> {
  if (process.env.OPENSEARCH_URL) {
    log(`engine: OPENSEARCH_URL ${process.env.OPENSEARCH_URL}`);
    const urls = process.env.OPENSEARCH_URL.split(',').map((u) => u.trim());
    return { url: urls[0] as string, urls, started: false, stop: async () => {} };
  }
  const port = Number(process.env.ENGINE_PORT ?? 9200);
  // ENGINE_NODES (local-engine.ts) starts a cluster of that many nodes on port, port + 1...
  const status = await startEngine({ port, heap: process.env.ENGINE_HEAP ?? '2g' });
  const urls = status.urls ?? [status.url];
  log(`engine: local at ${urls.join(', ')} (${status.started ? 'started' : 'already running'})`);
  const ports = urls.map((u) => Number(new URL(u).port));
  return {
    url: status.url,
    urls,
    started: status.started,
    stop: async () => {
      if (status.started) await stopEngine({ port });
    },
    nodes: {
      ports,
      kill: (nodePort) => killNode({ port, nodes: ports.length, nodePort }),
      restart: (nodePort) => restartNode({ port, nodes: ports.length, nodePort }),
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

/**
 * The configuration and engine handle a server would have under the prefix: the environment's
 * settings, and the search vocabulary they ask for (SYNONYMS_FILE, SEARCH_VOCABULARY=none).
 */
export function serverEngine(url: string, prefix: string): { config: Config; engine: Engine } {
  const config = loadConfig({
    ...process.env,
    LOG_LEVEL: 'silent',
    OPENSEARCH_URL: url,
    INDEX_PREFIX: prefix,
  });
  const synonyms = loadVocabulary({
    shipped: config.SEARCH_VOCABULARY === 'shipped',
    file: config.SYNONYMS_FILE,
  });
  return {
    config,
    engine: createEngine({ ...benchEngineSettings(url, prefix), synonyms }, pino({ level: 'warn' })),
  };
}

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

/** The engine's own accounting of the work done for one group of indices (milliseconds of its threads). */
export type IndexWork = {
  documents: number;
  index_ms: number;
  merge_ms: number;
  merged_documents: number;
  refresh_ms: number;
  flush_ms: number;
};

/**
 * The work the engine did for the indices matching `pattern` (primaries), from its index stats.
 * Unlike engineCpuMs, this is ours alone when other clients share the engine: thread time spent
 * indexing, merging, refreshing and flushing these indices (on a busy engine it includes the
 * waits for a core, so compare runs made side by side).
 */
export async function indexWork(engine: Engine, pattern: string): Promise<IndexWork> {
  type Stats = {
    indexing: { index_total: number; index_time_in_millis: number };
    merges: { total_time_in_millis: number; total_docs: number };
    refresh: { total_time_in_millis: number };
    flush: { total_time_in_millis: number };
  };
  const work: IndexWork = {
    documents: 0,
    index_ms: 0,
    merge_ms: 0,
    merged_documents: 0,
    refresh_ms: 0,
    flush_ms: 0,
  };
  try {
    const { body } = await engine.client.indices.stats({
      index: pattern,
      metric: ['indexing', 'merge', 'refresh', 'flush'],
      expand_wildcards: 'all',
    } as never);
    for (const index of Object.values(
      (body as { indices?: Record<string, { primaries: Stats }> }).indices ?? {},
    )) {
      const s = index.primaries;
      work.documents += s.indexing.index_total;
      work.index_ms += s.indexing.index_time_in_millis;
      work.merge_ms += s.merges.total_time_in_millis;
      work.merged_documents += s.merges.total_docs;
      work.refresh_ms += s.refresh.total_time_in_millis;
      work.flush_ms += s.flush.total_time_in_millis;
    }
  } catch {}
  return work;
}
