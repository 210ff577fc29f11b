/**
 * The OpenAPI document without a server: what `npm run openapi:write` commits as openapi.json,
 * and what the drift test compares it with. Only the routes are built: no engine, no geocoder.
 */
import { type Config, loadConfig } from '../../config.ts';
import { createRouter, registerRoutes } from '../app.ts';
import { buildOpenApiDocument } from './openapi.ts';

/** The document for a configuration; by default, the defaults (plain HSDS, per_page 50 / 1000). */
export function generateOpenApiDocument(config: Config = loadConfig({})) {
  const app = createRouter();
  registerRoutes(app, config);
  return buildOpenApiDocument(app, config);
}

/** The committed form: stable key order as generated, two-space indent, final newline. */
export const formatOpenApiDocument = (document: unknown) => `${JSON.stringify(document, null, 2)}\n`;
