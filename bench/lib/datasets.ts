/** Synthetic datasets for benchmarks, written once per size and seed and reused (bench/.data is git-ignored). */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { generateDataset } from '../../src/ingest/synthetic/generate.ts';
import { writeDataset } from '../../src/ingest/synthetic/write-dataset.ts';

const dataDir = new URL('../.data/', import.meta.url).pathname;

export type Dataset = { dir: string; services: number; organizations: number; bytes: number };

export async function ensureSyntheticDataset(
  services: number,
  seed: number,
  log: (line: string) => void,
): Promise<Dataset> {
  const dir = join(dataDir, `synthetic-${services}-${seed}`);
  const marker = join(dir, 'dataset.json');
  // The folder is where it is now: a marker written by a clone elsewhere names another path.
  if (existsSync(marker)) return { ...(JSON.parse(readFileSync(marker, 'utf8')) as Dataset), dir };
  const started = Date.now();
  log(`generating ${services} synthetic services (seed ${seed}) into ${dir}...`);
  const result = await writeDataset(dir, generateDataset({ services, seed }));
  const { size } = await import('node:fs/promises').then((fs) => fs.stat(join(dir, 'services.ndjson')));
  const dataset: Dataset = {
    dir,
    services: result.services,
    organizations: result.organizations,
    bytes: size,
  };
  writeFileSync(marker, `${JSON.stringify(dataset)}\n`);
  log(`  written in ${((Date.now() - started) / 1000).toFixed(1)} s (${(size / 1e6).toFixed(0)} MB)`);
  return dataset;
}
