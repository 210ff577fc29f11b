/**
 * What the engine acknowledged as published survives a crash: SIGKILL the engine right after an
 * import and right after a reindex, start it again, and every record is still there.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { enginePaths } from '../../local-engine/local-engine.ts';
import {
  baseEnv,
  crashEngine,
  dropIndices,
  enginePort,
  restartEngine,
  runCli,
  servedServiceIds,
  startApi,
  uniquePrefix,
  useDataset,
  waitForRecovery,
} from './support.ts';

const SERVICES = 2000;
const dataset = useDataset(SERVICES);

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
      const imported = await runCli(['import', dataset(), '--quiet'], baseEnv(prefix));
      expect(imported.code, imported.stderr).toBe(0);
      await crashEngine();
      const ids = await servedAfterRestart(prefix);
      expect(new Set(ids).size).toBe(SERVICES);
      // The engine's log keeps what it said before the crash: a restart appends to it.
      const log = readFileSync(enginePaths({ port: enginePort() }).log, 'utf8');
      expect(log.match(/starting the engine on port/g)?.length).toBeGreaterThanOrEqual(2);
    } finally {
      await dropIndices(prefix);
    }
  });

  it('right after an import loses no stored record: a reindex after the restart publishes them all', async () => {
    const prefix = uniquePrefix('crash-import');
    try {
      const imported = await runCli(['import', dataset(), '--quiet', '--no-reindex'], baseEnv(prefix));
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
