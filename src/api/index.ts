/**
 * The API's public surface: what the composition root (src/cli) builds the server from. Nothing
 * outside src/api imports its other modules (biome.json enforces it for src/cli).
 */
export { createApp, createRouter, registerRoutes } from './app.ts';
export { newToken, parseTokens, SCOPES } from './auth.ts';
export { createGeocoder } from './geocoding.ts';
export type { ReindexJob, ReindexJobs } from './jobs.ts';
export type { RecordWrites } from './record-writes.ts';
export { requestLogFields } from './request-id.ts';
export type { ApiToken, App, AppDeps, Scope } from './types.ts';
