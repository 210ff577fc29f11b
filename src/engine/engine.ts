/**
 * The gateway's handle: the only place that holds the OpenSearch client. Every module in
 * src/engine takes an `Engine` and calls the client through `engineCall`, which translates errors.
 */
import { Client } from '@opensearch-project/opensearch';
import type { Logger } from 'pino';
import { translateEngineError } from './errors.ts';

export type EngineSettings = {
  url: string;
  username?: string | undefined;
  password?: string | undefined;
  requestTimeoutMs: number;
  insecureTls?: boolean;
  /** Every index and alias name starts with `${prefix}-`. Tests use one prefix per file. */
  prefix: string;
  shards: number;
  replicas: number;
};

export type Engine = {
  readonly client: Client;
  readonly settings: EngineSettings;
  readonly logger: Logger;
  /** The physical or alias name of one of our indices: `${prefix}-${name}`. */
  name(name: string): string;
  close(): Promise<void>;
};

export function createEngine(settings: EngineSettings, logger: Logger): Engine {
  const client = new Client({
    node: settings.url,
    ...(settings.username
      ? { auth: { username: settings.username, password: settings.password ?? '' } }
      : {}),
    requestTimeout: settings.requestTimeoutMs,
    // Retries belong to callers that know whether a request is safe to repeat.
    maxRetries: 1,
    // With one node, a connection marked dead must be tried again at once when the engine comes back.
    resurrectStrategy: 'none',
    compression: 'gzip',
    ...(settings.insecureTls ? { ssl: { rejectUnauthorized: false } } : {}),
  });
  return {
    client,
    settings,
    logger,
    name: (name) => `${settings.prefix}-${name}`,
    close: () => client.close(),
  };
}

/** Runs one client call, translating its errors (see errors.ts). */
export async function engineCall<T>(operation: string, fn: () => Promise<T>): Promise<T> {
  try {
    return await fn();
  } catch (error) {
    throw translateEngineError(operation, error);
  }
}
