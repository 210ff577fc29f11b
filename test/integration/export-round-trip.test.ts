/**
 * Export and import: a directory exported in each format (src/ingest/export) and imported into an
 * empty directory serves the same answers: every service, organization, taxonomy and term by id
 * as served before, and the same lists. The source is a generated dataset plus the numeric-id
 * feed (mapped ids, original-id metadata) and the official examples' taxonomy.
 */
import { cp, mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Engine } from '../../src/engine/engine.ts';
import { type ExportFormat, exportDirectory } from '../../src/ingest/export/export-directory.ts';
import { importSource } from '../../src/ingest/import/import-source.ts';
import { reindex } from '../../src/ingest/publish/reindex.ts';
import { generateDataset } from '../../src/synthetic/generate.ts';
import { writeDataset } from '../../src/synthetic/write-dataset.ts';
import { getJson, getNdjson, type JsonObject } from '../support/api-requests.ts';
import { createTestApp, createTestEngine, dropTestIndices } from '../support/engine.ts';

const original = createTestEngine('export-source');
const copies: Record<ExportFormat, Engine> = {
  datapackage: createTestEngine('export-datapackage'),
  json: createTestEngine('export-json'),
  ndjson: createTestEngine('export-ndjson'),
};
const dirs: string[] = [];
const tempDir = async () => {
  const dir = await mkdtemp(join(tmpdir(), 'hsds-export-'));
  dirs.push(dir);
  return dir;
};

beforeAll(async () => {
  const source = await tempDir();
  await writeDataset(source, generateDataset({ services: 40, seed: 'export' }));
  await cp('test/fixtures/real-world/numeric-ids.json', join(source, 'numeric-ids.json'));
  await importSource(original, source, { reportFile: false });
  await reindex(original);
}, 180_000);

afterAll(async () => {
  await dropTestIndices(original);
  for (const engine of Object.values(copies)) await dropTestIndices(engine);
  for (const dir of dirs) await rm(dir, { recursive: true, force: true });
});

/** Every record of a list endpoint, by id, as `/{list}/{id}` serves it. */
async function servedById(engine: Engine, list: string): Promise<Map<string, JsonObject>> {
  const app = createTestApp(engine);
  const items = await getNdjson(app, `/${list}?format=ndjson`);
  const out = new Map<string, JsonObject>();
  for (const item of items) {
    const { status, body } = await getJson(app, `/${list}/${item.id as string}`);
    expect(status).toBe(200);
    out.set(item.id as string, body);
  }
  return out;
}

describe.each(['datapackage', 'json', 'ndjson'] as const)('exported as %s and imported again', (format) => {
  let out = '';
  beforeAll(async () => {
    out = await tempDir();
    const summary = await exportDirectory(original, { format, out });
    expect(summary.records.service).toBe(58);
    const report = join(out, '..', `import-${format}.json`);
    const result = await importSource(copies[format], out, { reportFile: report });
    expect(result.summary.rejected).toBe(0);
    await reindex(copies[format]);
  }, 180_000);

  it.each(['services', 'organizations', 'taxonomies', 'taxonomy_terms', 'service_at_locations'])(
    'serves every record of /%s as the original does',
    async (list) => {
      const before = await servedById(original, list);
      const after = await servedById(copies[format], list);
      expect([...after.keys()].sort()).toEqual([...before.keys()].sort());
      const differing = [...before].filter(
        ([id, record]) => JSON.stringify(after.get(id)) !== JSON.stringify(record),
      );
      expect(differing.slice(0, 1)).toEqual([]);
    },
  );

  it('answers the same searches', async () => {
    for (const query of ['/services?search=advice&per_page=5', '/services?per_page=3&page=2']) {
      const before = await getJson(createTestApp(original), query);
      const after = await getJson(createTestApp(copies[format]), query);
      expect(after.body, query).toEqual(before.body);
    }
  });

  if (format === 'datapackage') {
    it('writes the official datapackage.json unchanged and every table, with its columns in order', async () => {
      const descriptor = JSON.parse(await readFile(join(out, 'datapackage.json'), 'utf8')) as {
        resources: { path: string; schema: { fields: { name: string }[] } }[];
      };
      // The specification's own descriptor (the examples' copy is the same file).
      const official = JSON.parse(await readFile('test/fixtures/hsds/examples/csv/datapackage.json', 'utf8'));
      expect(descriptor).toEqual(official);
      expect(descriptor.resources).toHaveLength(24);
      for (const resource of descriptor.resources) {
        const header = (await readFile(join(out, resource.path), 'utf8')).split('\n')[0]!.split(',');
        expect(header.slice(0, resource.schema.fields.length)).toEqual(
          resource.schema.fields.map((f) => f.name),
        );
      }
    });
  }
});
