/**
 * The API's public surface: what the composition root (src/cli) builds the server from. Nothing
 * outside src/api imports its other modules (biome.json enforces it for src/cli).
 */

export type { ReindexJob, ReindexJobs } from './admin/jobs.ts';
export { createApp, createRouter, registerRoutes } from './app.ts';
export { newToken, parseTokens, SCOPES } from './http/auth.ts';
export { requestLogFields } from './http/request-id.ts';
export { createGeocoder } from './lists/geocoding.ts';
export type { ApiToken, App, AppDeps, Scope } from './types.ts';
export type { RecordWrites } from './writes/record-writes.ts';
