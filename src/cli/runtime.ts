/**
 * What every command needs: configuration (validated once, exiting with every bad variable
 * named), a logger, and an engine, starting the local one when no OPENSEARCH_URL is set.
 */
import { readFileSync } from 'node:fs';
import pino, { type Logger } from 'pino';
import { startEngine } from '../../local-engine/local-engine.ts';
import { type Config, ConfigError, loadConfig } from '../config.ts';
import { createEngine, type Engine } from '../engine/index.ts';
import { loadVocabulary } from '../index-mapping/vocabulary-files.ts';

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

/** A logger on stdout, or on stderr where stdout is a protocol's (`hsds mcp` over stdio). */
export function createLogger(
  config: Config,
  name = 'hsds',
  to: 'stdout' | 'stderr' = 'stdout',
  mixin?: () => object,
): Logger {
  const options = { name, level: config.LOG_LEVEL, ...(mixin ? { mixin } : {}) };
  return to === 'stderr' ? pino(options, pino.destination(2)) : pino(options);
}

export type Runtime = { config: Config; logger: Logger; engine: Engine; startedLocalEngine: boolean };

export async function openRuntime(options: {
  startLocalEngine: boolean;
  loggerName?: string;
  /** Where the log goes: stdout unless stdout carries something else. */
  logTo?: 'stdout' | 'stderr';
  /** Fields every log line gets (the API's: the id of the request it was written for). */
  logFields?: () => object;
}): Promise<Runtime> {
  const config = loadConfigOrExit();
  const logger = createLogger(config, options.loggerName, options.logTo, options.logFields);
  let url = config.OPENSEARCH_URL;
  let startedLocalEngine = false;
  if (!url) {
    if (!options.startLocalEngine) {
      url = `http://127.0.0.1:${config.ENGINE_PORT}`;
    } else {
      console.error('No OPENSEARCH_URL: starting the local engine (first run downloads it with Maven)...');
      const status = await startEngine({ port: config.ENGINE_PORT });
      startedLocalEngine = status.started;
      url = status.urls ? status.urls.join(',') : status.url;
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
      ca: config.OPENSEARCH_CA_FILE ? readFileSync(config.OPENSEARCH_CA_FILE, 'utf8') : undefined,
      aws:
        config.OPENSEARCH_AWS_REGION && config.AWS_ACCESS_KEY_ID && config.AWS_SECRET_ACCESS_KEY
          ? {
              region: config.OPENSEARCH_AWS_REGION,
              service: config.OPENSEARCH_AWS_SERVICE,
              credentials: {
                accessKeyId: config.AWS_ACCESS_KEY_ID,
                secretAccessKey: config.AWS_SECRET_ACCESS_KEY,
                sessionToken: config.AWS_SESSION_TOKEN,
              },
            }
          : undefined,
      prefix: config.INDEX_PREFIX,
      shards: config.INDEX_SHARDS,
      replicas: config.INDEX_REPLICAS,
      tombstoneRetentionDays: config.TOMBSTONE_RETENTION_DAYS,
      auditRetentionDays: config.AUDIT_RETENTION_DAYS,
      synonyms: configuredVocabulary(config),
    },
    logger,
  );
  return { config, logger, engine, startedLocalEngine };
}
