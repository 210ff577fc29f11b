/**
 * The OpenAPI document without a server: what `npm run openapi:write` commits as openapi.json,
 * and what the drift test compares it with. Building the app opens no connection.
 */
import pino from 'pino';
import { type Config, loadConfig } from '../config.ts';
import { createEngine } from '../engine/index.ts';
import { createApp } from './app.ts';
import { createGeocoder } from './geocoding.ts';
import { buildOpenApiDocument } from './openapi.ts';

/** The document for a configuration; by default, the defaults (plain HSDS, per_page 50 / 1000). */
export function generateOpenApiDocument(config: Config = loadConfig({})) {
  const logger = pino({ level: 'silent' });
  const engine = createEngine(
    { url: 'http://127.0.0.1:9', prefix: 'unused', requestTimeoutMs: 1000, shards: 1, replicas: 0 },
    logger,
  );
  const app = createApp({
    config,
    engine,
    geocoder: createGeocoder(config, engine),
    logger,
  });
  return buildOpenApiDocument(app, config);
}

/** The committed form: stable key order as generated, two-space indent, final newline. */
export const formatOpenApiDocument = (document: unknown) => `${JSON.stringify(document, null, 2)}\n`;
