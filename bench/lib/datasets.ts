/** Synthetic datasets for benchmarks, written once per size and seed and reused (bench/.data is git-ignored). */

import { once } from 'node:events';
import {
  copyFileSync,
  createReadStream,
  createWriteStream,
  existsSync,
  mkdirSync,
  readFileSync,
  writeFileSync,
} from 'node:fs';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { generateDataset } from '../../src/synthetic/generate.ts';
import { writeDataset } from '../../src/synthetic/write-dataset.ts';

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

/**
 * The same dataset with its services in a shuffled order (seeded, so every run gets the same
 * order): an organization's services spread through the file, as in a source sorted by service
 * name, so its repeats fall far beyond an import's recent window.
 */
export async function ensureShuffledDataset(
  dataset: Dataset,
  seed: number,
  log: (line: string) => void,
): Promise<Dataset> {
  const dir = `${dataset.dir}-shuffled`;
  const marker = join(dir, 'dataset.json');
  if (existsSync(marker)) return { ...(JSON.parse(readFileSync(marker, 'utf8')) as Dataset), dir };
  log(`shuffling the services of ${dataset.dir} into ${dir}...`);
  mkdirSync(dir, { recursive: true });
  for (const file of ['taxonomies.json', 'taxonomy_terms.json'])
    copyFileSync(join(dataset.dir, file), join(dir, file));
  // Line by line: a large dataset is longer than the longest string V8 makes.
  const lines: string[] = [];
  const input = createInterface({
    input: createReadStream(join(dataset.dir, 'services.ndjson'), 'utf8'),
    crlfDelay: Infinity,
  });
  for await (const line of input) if (line) lines.push(line);
  let state = seed >>> 0 || 1;
  const random = () => {
    // xorshift32: enough to scatter lines reproducibly.
    state ^= state << 13;
    state ^= state >>> 17;
    state ^= state << 5;
    return (state >>> 0) / 2 ** 32;
  };
  for (let i = lines.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [lines[i], lines[j]] = [lines[j]!, lines[i]!];
  }
  const out = createWriteStream(join(dir, 'services.ndjson'));
  for (const line of lines) if (!out.write(`${line}\n`)) await once(out, 'drain');
  out.end();
  await once(out, 'finish');
  const shuffled = { ...dataset, dir };
  writeFileSync(marker, `${JSON.stringify(shuffled)}\n`);
  return shuffled;
}
