/**
 * Feeds for integration tests: written as JSON files to a temporary folder of their own and
 * imported with importAndReindex, as `npx hsds import` would, each with its report beside it.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Engine } from '../../src/engine/index.ts';
import { importAndReindex, type PipelineOptions } from '../../src/ingest/publish/pipeline.ts';

export type Feeds = {
  /** The folder the feeds and their reports are written to. */
  dir: string;
  /** Writes `content` as the file `name` and imports it; its report is `${name}.report.json`. */
  importFile(
    name: string,
    content: unknown,
    options?: PipelineOptions,
  ): Promise<Awaited<ReturnType<typeof importAndReindex>> & { reportFile: string }>;
  /** Deletes the folder. */
  remove(): Promise<void>;
};

export async function createFeeds(engine: Engine, tag: string): Promise<Feeds> {
  const dir = await mkdtemp(join(tmpdir(), `hsds-${tag}-`));
  return {
    dir,
    async importFile(name, content, options = {}) {
      const file = join(dir, name);
      const reportFile = join(dir, `${name}.report.json`);
      await writeFile(file, JSON.stringify(content));
      return { ...(await importAndReindex(engine, file, { reportFile, ...options })), reportFile };
    },
    remove: () => rm(dir, { recursive: true, force: true }),
  };
}
