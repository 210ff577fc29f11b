/**
 * Test engines and apps: every test file works under its own index prefix, so files never see
 * each other's data, and removes its indices afterwards.
 */
import { randomBytes } from 'node:crypto';
import pino from 'pino';
import { inject } from 'vitest';
import { createApp } from '../../src/api/app.ts';
import { createGeocoder } from '../../src/api/lists/geocoding.ts';
import type { AppDeps } from '../../src/api/types.ts';
import { type Config, loadConfig } from '../../src/config.ts';
import { createEngine, type Engine } from '../../src/engine/index.ts';
import { sourceQuality } from '../../src/ingest/maintenance/source-quality.ts';
import { createFeedValidation } from '../../src/ingest/validate/feed-validation.ts';
import { createRecordWrites } from '../../src/ingest/write/write.ts';

export const testLogger = pino({ level: process.env.TEST_LOG_LEVEL ?? 'silent' });

export function uniquePrefix(tag: string): string {
  return `t-${tag.toLowerCase().replace(/[^a-z0-9]+/g, '-')}-${randomBytes(3).toString('hex')}`;
}

/**
 * A handle on the test engine under a prefix of its own, with the record cache the API server
 * runs with (record-cache.ts), so every test reading records by id also checks that a change
 * reaches readers.
 */
export function createTestEngine(tag: string, url: string = inject('engineUrl')): Engine {
  return createEngine(
    {
      url,
      prefix: uniquePrefix(tag),
      requestTimeoutMs: 30_000,
      shards: 1,
      replicas: 0,
      recordCache: { maxBytes: 64 * 1024 * 1024, maxStaleMs: 1000 },
    },
    testLogger,
  );
}

/** Deletes every index and alias under the engine's prefix. */
export async function dropTestIndices(engine: Engine): Promise<void> {
  await engine.client.indices
    .delete({ index: `${engine.settings.prefix}-*`, expand_wildcards: 'all' })
    .catch(() => {});
  await engine.close();
}

export function testConfig(overrides: Record<string, string> = {}): Config {
  return loadConfig({ LOG_LEVEL: 'silent', ...overrides });
}

/**
 * An app on the test engine. The geocoder chain is the production one built from the config, so a
 * test points POSTCODES_IO_URL at a fake postcodes.io server (test/support/fake-postcodes-io.ts).
 * `deps` adds what a test needs beside (jobs, webhooks, duplicates, a search log, understanding).
 */
export function createTestApp(
  engine: Engine,
  overrides: Record<string, string> = {},
  deps: Partial<Omit<AppDeps, 'config' | 'engine'>> = {},
) {
  const config = testConfig(overrides);
  // Wired as the server command wires it: writes go through the import and the incremental publish.
  return createApp({
    config,
    engine,
    geocoder: createGeocoder(config, engine),
    logger: testLogger,
    writes: createRecordWrites(engine),
    validation: createFeedValidation({ remote: config.VALIDATE_REMOTE }),
    sources: () => sourceQuality(engine),
    ...deps,
  });
}
