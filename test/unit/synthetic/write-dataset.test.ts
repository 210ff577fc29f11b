import { createHash } from 'node:crypto';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { generateDataset } from '../../../src/synthetic/generate.ts';
import { DATASET_FILES, writeDataset } from '../../../src/synthetic/write-dataset.ts';

let dir: string;

beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'hsds-synthetic-'));
});

afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

const sha256 = async (path: string) =>
  createHash('sha256')
    .update(await readFile(path))
    .digest('hex');

describe('writeDataset', () => {
  it('writes taxonomies, taxonomy terms and one service per line, and returns the counts', async () => {
    const dataset = generateDataset({ services: 1_500, seed: 'files' });
    const progress: number[] = [];
    const result = await writeDataset(join(dir, 'nested', 'out'), dataset, {
      onProgress: ({ services, total }) => {
        expect(total).toBe(1_500);
        progress.push(services);
      },
      progressEvery: 500,
    });

    expect(result).toEqual({
      taxonomies: 2,
      taxonomyTerms: dataset.taxonomyTerms.length,
      services: 1_500,
      organizations: dataset.organizationCount,
      files: ['taxonomies.json', 'taxonomy_terms.json', 'services.ndjson'],
    });
    expect(progress).toEqual([500, 1_000, 1_500, 1_500]);

    const out = join(dir, 'nested', 'out');
    expect(JSON.parse(await readFile(join(out, DATASET_FILES.taxonomies), 'utf8'))).toEqual(
      dataset.taxonomies,
    );
    expect(JSON.parse(await readFile(join(out, DATASET_FILES.taxonomyTerms), 'utf8'))).toEqual(
      dataset.taxonomyTerms,
    );
    const text = await readFile(join(out, DATASET_FILES.services), 'utf8');
    expect(text.endsWith('\n')).toBe(true);
    const lines = text.slice(0, -1).split('\n');
    expect(lines).toHaveLength(1_500);
    expect(lines).toEqual([...dataset.services()].map((s) => JSON.stringify(s)));
  });

  it('writes byte-identical files for the same seed', async () => {
    await writeDataset(join(dir, 'a'), generateDataset({ services: 300, seed: 9 }));
    await writeDataset(join(dir, 'b'), generateDataset({ services: 300, seed: 9 }));
    for (const file of Object.values(DATASET_FILES)) {
      expect(await sha256(join(dir, 'a', file))).toBe(await sha256(join(dir, 'b', file)));
    }
  });

  it('writes empty files for an empty dataset', async () => {
    const result = await writeDataset(dir, generateDataset({ services: 0, seed: 1 }));
    expect(result.services).toBe(0);
    expect(await readFile(join(dir, DATASET_FILES.services), 'utf8')).toBe('');
  });

  it('rejects when the directory cannot be created', async () => {
    const blocker = join(dir, 'a-file');
    await writeFile(blocker, 'not a directory');
    await expect(
      writeDataset(join(blocker, 'out'), generateDataset({ services: 5, seed: 1 })),
    ).rejects.toThrow();
  });
});
