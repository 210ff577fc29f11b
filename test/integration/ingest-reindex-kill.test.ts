import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Engine } from '../../src/engine/engine.ts';
import { listVersionedIndices, readAliasTargets } from '../../src/engine/indices.ts';
import { READ_INDICES } from '../../src/index-mapping/read-indices.mapping.ts';
import { importSource } from '../../src/ingest/import/import-source.ts';
import { reindex } from '../../src/ingest/publish/reindex.ts';
import { generateDataset } from '../../src/synthetic/generate.ts';
import { writeDataset } from '../../src/synthetic/write-dataset.ts';
import { createTestEngine, dropTestIndices } from '../support/engine.ts';

const engine = createTestEngine('reindex-kill');
let dir: string;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'hsds-kill-'));
  await writeDataset(dir, generateDataset({ services: 1200, seed: 5 }));
  await importSource(engine, dir);
  await reindex(engine); // the version readers see throughout
}, 180_000);

afterAll(async () => {
  await dropTestIndices(engine);
  await rm(dir, { recursive: true, force: true });
});

/** What readers get through the aliases: every document of every read index, digested. */
async function servedState(e: Engine) {
  const state: Record<string, { count: number; digest: string }> = {};
  for (const kind of READ_INDICES) {
    const hash = createHash('sha256');
    let count = 0;
    let after: unknown[] | undefined;
    for (;;) {
      const { body } = await e.client.search({
        index: e.name(kind),
        body: { size: 1000, sort: [{ id: 'asc' }], ...(after ? { search_after: after } : {}) } as never,
      });
      for (const hit of body.hits.hits) hash.update(JSON.stringify(hit._source));
      count += body.hits.hits.length;
      if (body.hits.hits.length < 1000) break;
      after = body.hits.hits.at(-1)!.sort as unknown[];
    }
    state[kind] = { count, digest: hash.digest('hex') };
  }
  return { aliases: await readAliasTargets(e), state };
}

describe('a reindex that fails or is killed midway', () => {
  it('leaves every answer unchanged when the build fails after some batches (injected failure)', async () => {
    const before = await servedState(engine);
    const versions = await listVersionedIndices(engine);
    expect(before.state.services?.count).toBe(1200);
    await expect(
      reindex(engine, {
        batchSize: 100,
        onProgress: (p) => {
          if (p.services >= 300) throw new Error('injected failure after 300 services');
        },
      }),
    ).rejects.toThrow('injected failure');
    expect(await servedState(engine)).toEqual(before);
    expect(await listVersionedIndices(engine)).toEqual(versions); // the half-built version was removed
  });

  it('leaves every answer unchanged when aborted', async () => {
    const before = await servedState(engine);
    const controller = new AbortController();
    await expect(
      reindex(engine, {
        batchSize: 100,
        signal: controller.signal,
        onProgress: (p) => {
          if (p.services >= 200) controller.abort(new Error('operator pressed Ctrl-C'));
        },
      }),
    ).rejects.toThrow('operator pressed Ctrl-C');
    expect(await servedState(engine)).toEqual(before);
  });

  it('leaves every answer unchanged when its process is killed with SIGKILL, and the next reindex cleans up', async () => {
    const before = await servedState(engine);
    const versionsBefore = await listVersionedIndices(engine);
    const src = (path: string) => new URL(`../../src/${path}`, import.meta.url).href;
    const script = `
      import pino from 'pino';
      import { createEngine } from '${src('engine/engine.ts')}';
      import { reindex } from '${src('ingest/publish/reindex.ts')}';
      const engine = createEngine(${JSON.stringify(engine.settings)}, pino({ level: 'silent' }));
      await reindex(engine, {
        batchSize: 50,
        bulk: { flushBytes: 100000, concurrency: 1 },
        onProgress: (p) => process.stdout.write('progress ' + p.phase + ' ' + p.services + '\\n'),
      });
      process.stdout.write('finished\\n');
    `;
    const child = spawn(process.execPath, ['--input-type=module', '-e', script], {
      cwd: new URL('../../', import.meta.url).pathname,
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    const exited = new Promise<NodeJS.Signals | null>((resolve) =>
      child.on('exit', (_code, signal) => resolve(signal)),
    );
    let killedAt = -1;
    for await (const line of createInterface({ input: child.stdout })) {
      const [, phase, services] = line.split(' ');
      if (line === 'finished') break;
      if (phase === 'services' && Number(services) >= 300) {
        killedAt = Number(services);
        child.kill('SIGKILL');
        break;
      }
    }
    expect(await exited).toBe('SIGKILL');
    expect(killedAt).toBeGreaterThanOrEqual(300);
    expect(killedAt).toBeLessThan(1200);

    expect(await servedState(engine)).toEqual(before);
    // The killed build left its half-built indices behind...
    const leftovers = await listVersionedIndices(engine);
    expect(leftovers.length).toBeGreaterThan(versionsBefore.length);

    // ...which the next successful reindex removes, keeping only the served and the previous version.
    const report = await reindex(engine);
    const after = await listVersionedIndices(engine);
    expect(new Set(after.map((i) => i.version))).toEqual(
      new Set([report.version, versionsBefore.at(-1)!.version]),
    );
    expect((await servedState(engine)).state).toEqual(before.state);
  }, 120_000);
});
