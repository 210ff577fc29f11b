/**
 * `hsds import` as an operator runs it, a real process against the test engine: it ends with a
 * one-line verdict and an exit code that says the same (0 every record kept, repaired or not; 3
 * some rejected, the good ones kept; 1 nothing kept). It used to exit 0 without a verdict, so a
 * scheduled import that rejected records looked like one that kept them all.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { createTestEngine, dropTestIndices } from '../support/engine.ts';

const engine = createTestEngine('import-command');
const main = fileURLToPath(new URL('../../src/cli/main.ts', import.meta.url));
const reports = mkdtempSync(join(tmpdir(), 'import-command-'));

afterAll(async () => {
  rmSync(reports, { recursive: true, force: true });
  await dropTestIndices(engine);
});

/** Runs `hsds import <file> ...`; resolves with its exit code and the last line it printed. */
function hsdsImport(file: string, ...args: string[]): Promise<{ code: number | null; last: string }> {
  const child = spawn(
    process.execPath,
    [main, 'import', file, '--quiet', '--report', join(reports, 'report.json'), ...args],
    {
      env: {
        ...process.env,
        OPENSEARCH_URL: engine.settings.url,
        INDEX_PREFIX: engine.settings.prefix,
        LOG_LEVEL: 'error',
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  let stdout = '';
  child.stdout.on('data', (chunk: Buffer) => {
    stdout += chunk.toString();
  });
  return new Promise((resolve) =>
    child.on('exit', (code) => resolve({ code, last: stdout.trim().split('\n').at(-1) ?? '' })),
  );
}

describe('hsds import', () => {
  it('ends a clean import with its verdict and exit 0, after publishing', async () => {
    const run = await hsdsImport('test/fixtures/hsds/examples/service_full.json');
    expect(run.last).toMatch(
      /^IMPORTED AS PUBLISHED: 23 records kept \(0 repaired\), 0 rejected, from 1 items$/,
    );
    expect(run.code).toBe(0);
  }, 240_000);

  it('exits 0 for an import every record of which was kept after a repair', async () => {
    const run = await hsdsImport('test/fixtures/real-world/oruk-list-items.json', '--no-reindex');
    expect(run.last).toMatch(/^IMPORTED WITH REPAIRS: 5 records kept \(5 repaired\), 0 rejected/);
    expect(run.code).toBe(0);
  }, 120_000);

  it('exits 3 when some records were rejected and the good ones kept', async () => {
    const run = await hsdsImport('test/fixtures/real-world/repeated-organization.json', '--no-reindex');
    expect(run.last).toMatch(
      /^IMPORTED, SOME RECORDS REJECTED: \d+ records kept \(\d+ repaired\), 1 rejected, from 3 items; each rejection and why in .*report\.json$/,
    );
    expect(run.code).toBe(3);
  }, 120_000);

  it('exits 1 when nothing could be kept', async () => {
    const run = await hsdsImport('test/fixtures/cli/nothing-importable.json', '--no-reindex');
    expect(run.last).toMatch(/^NOT IMPORTED: 0 records kept \(0 repaired\), 2 rejected, from 2 items/);
    expect(run.code).toBe(1);
  }, 120_000);
});
