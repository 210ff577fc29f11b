import { once } from 'node:events';
import { createWriteStream } from 'node:fs';
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { SyntheticDataset } from './generate.ts';

export type WriteDatasetProgress = { services: number; total: number };

export type WriteDatasetOptions = {
  /** Called every `progressEvery` services and once at the end. */
  onProgress?: (progress: WriteDatasetProgress) => void;
  progressEvery?: number;
};

export type WriteDatasetResult = {
  taxonomies: number;
  taxonomyTerms: number;
  services: number;
  organizations: number;
  /** The files written, relative to the directory. */
  files: string[];
};

export const DATASET_FILES = {
  taxonomies: 'taxonomies.json',
  taxonomyTerms: 'taxonomy_terms.json',
  services: 'services.ndjson',
} as const;

// Lines are gathered into chunks of about this size before each write: one write per service
// would spend more time in stream bookkeeping than in generating the service.
const CHUNK_CHARS = 256 * 1024;

/**
 * Writes a synthetic dataset to `dir` (created if missing): `taxonomies.json` and
 * `taxonomy_terms.json` as JSON arrays, and `services.ndjson`, one fully nested service per line.
 * Services are generated while they are written and the stream's backpressure is respected, so
 * memory stays flat for hundreds of thousands of services.
 */
export async function writeDataset(
  dir: string,
  dataset: SyntheticDataset,
  options: WriteDatasetOptions = {},
): Promise<WriteDatasetResult> {
  const { onProgress, progressEvery = 1000 } = options;
  await mkdir(dir, { recursive: true });
  await writeFile(join(dir, DATASET_FILES.taxonomies), `${JSON.stringify(dataset.taxonomies, null, 2)}\n`);
  await writeFile(
    join(dir, DATASET_FILES.taxonomyTerms),
    `${JSON.stringify(dataset.taxonomyTerms, null, 2)}\n`,
  );

  const out = createWriteStream(join(dir, DATASET_FILES.services), { encoding: 'utf8' });
  const failed = new Promise<never>((_, reject) => out.once('error', reject));
  failed.catch(() => {}); // observed below; avoid an unhandled rejection while writing goes well
  let count = 0;
  try {
    let chunk = '';
    for (const service of dataset.services()) {
      chunk += `${JSON.stringify(service)}\n`;
      count++;
      if (chunk.length >= CHUNK_CHARS) {
        if (!out.write(chunk)) await Promise.race([once(out, 'drain'), failed]);
        chunk = '';
      }
      if (onProgress && count % progressEvery === 0)
        onProgress({ services: count, total: dataset.serviceCount });
    }
    if (chunk) out.write(chunk);
    out.end();
    await Promise.race([once(out, 'finish'), failed]);
  } catch (error) {
    out.destroy();
    throw error;
  }
  onProgress?.({ services: count, total: dataset.serviceCount });

  return {
    taxonomies: dataset.taxonomies.length,
    taxonomyTerms: dataset.taxonomyTerms.length,
    services: count,
    organizations: dataset.organizationCount,
    files: [DATASET_FILES.taxonomies, DATASET_FILES.taxonomyTerms, DATASET_FILES.services],
  };
}
