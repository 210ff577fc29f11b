/**
 * What the engine acknowledged as published survives a crash: SIGKILL the engine right after an
 * import and right after a reindex, start it again, and every record is still there.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  baseEnv,
  crashEngine,
  dropIndices,
  generateDataset,
  restartEngine,
  runCli,
  servedServiceIds,
  startApi,
  uniquePrefix,
  waitForRecovery,
} from './support.ts';

const SERVICES = 2000;
let dir: string;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'hsds-faults-'));
  await generateDataset(dir, SERVICES);
});

afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

async function servedAfterRestart(prefix: string): Promise<string[]> {
  await restartEngine();
  await waitForRecovery(prefix);
  const api = await startApi(baseEnv(prefix));
  try {
    return await servedServiceIds(api.url);
  } finally {
    await api.stop();
  }
}

describe('an engine crash', () => {
  it('right after a reindex loses no published service', async () => {
    const prefix = uniquePrefix('crash-reindex');
    try {
      const imported = await runCli(['import', dir, '--quiet'], baseEnv(prefix));
      expect(imported.code, imported.stderr).toBe(0);
      await crashEngine();
      const ids = await servedAfterRestart(prefix);
      expect(new Set(ids).size).toBe(SERVICES);
    } finally {
      await dropIndices(prefix);
    }
  });

  it('right after an import loses no stored record: a reindex after the restart publishes them all', async () => {
    const prefix = uniquePrefix('crash-import');
    try {
      const imported = await runCli(['import', dir, '--quiet', '--no-reindex'], baseEnv(prefix));
      expect(imported.code, imported.stderr).toBe(0);
      await crashEngine();
      await restartEngine();
      await waitForRecovery(prefix);
      const reindexed = await runCli(['reindex'], baseEnv(prefix));
      expect(reindexed.code, reindexed.stderr).toBe(0);
      const ids = await servedAfterRestart(prefix);
      expect(new Set(ids).size).toBe(SERVICES);
    } finally {
      await dropIndices(prefix);
    }
  });
});
