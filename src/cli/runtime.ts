/**
 * What every command needs: configuration (validated once, exiting with every bad variable
 * named), a logger, and an engine, starting the local one when no OPENSEARCH_URL is set.
 */
import pino, { type Logger } from 'pino';
import { startEngine } from '../../engine/local-engine.ts';
import { type Config, ConfigError, loadConfig } from '../config.ts';
import { createEngine, type Engine } from '../engine/index.ts';
import { loadVocabulary } from '../engine/vocabulary.ts';

export function loadConfigOrExit(): Config {
  try {
    return loadConfig(process.env);
  } catch (error) {
    if (error instanceof ConfigError) {
      console.error(error.message);
      process.exit(1);
    }
    throw error;
  }
}

/** The search vocabulary the configuration asks for; a missing or malformed file stops the process. */
export function configuredVocabulary(config: Config): string[] {
  try {
    return loadVocabulary({ shipped: config.SEARCH_VOCABULARY === 'shipped', file: config.SYNONYMS_FILE });
  } catch (error) {
    console.error(`SYNONYMS_FILE: ${error instanceof Error ? error.message : error}`);
    process.exit(1);
  }
}

export function createLogger(config: Config, name = 'hsds'): Logger {
  return pino({ name, level: config.LOG_LEVEL });
}

export type Runtime = { config: Config; logger: Logger; engine: Engine; startedLocalEngine: boolean };

export async function openRuntime(options: {
  startLocalEngine: boolean;
  loggerName?: string;
}): Promise<Runtime> {
  const config = loadConfigOrExit();
  const logger = createLogger(config, options.loggerName);
  let url = config.OPENSEARCH_URL;
  let startedLocalEngine = false;
  if (!url) {
    if (!options.startLocalEngine) {
      url = `http://127.0.0.1:${config.ENGINE_PORT}`;
    } else {
      console.error('No OPENSEARCH_URL: starting the local engine (first run downloads it with Maven)...');
      const status = await startEngine({ port: config.ENGINE_PORT });
      startedLocalEngine = status.started;
      url = status.url;
      console.error(`Local engine ${status.started ? 'started' : 'already running'} at ${url}`);
    }
  }
  const engine = createEngine(
    {
      url,
      username: config.OPENSEARCH_USERNAME,
      password: config.OPENSEARCH_PASSWORD,
      requestTimeoutMs: config.OPENSEARCH_REQUEST_TIMEOUT_MS,
      insecureTls: config.OPENSEARCH_INSECURE_TLS,
      prefix: config.INDEX_PREFIX,
      shards: config.INDEX_SHARDS,
      replicas: config.INDEX_REPLICAS,
      synonyms: configuredVocabulary(config),
    },
    logger,
  );
  return { config, logger, engine, startedLocalEngine };
}
