/**
 * What an operator imports is what the API serves: every nested service of a generated dataset,
 * imported into the store and rebuilt by reindex in many small batches, is served with everything
 * it was imported with. Reindex may add what the source left implicit (parent ids on children, an
 * organization's other locations) and drops empty lists; it must not lose anything. The same
 * holds when the services come in shuffled order and the import keeps only 50 records whole, so
 * that most repeats (an organization, its locations, the terms) lie beyond them: told by the hashes
 * of recent keys, or, with those turned off, settled by reading the store.
 */
import { once } from 'node:events';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { serve } from '@hono/node-server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Engine } from '../../src/engine/engine.ts';
import { type ImportOptions, importSource } from '../../src/ingest/import/import-source.ts';
import { reindex } from '../../src/ingest/publish/reindex.ts';
import { generateDataset } from '../../src/synthetic/generate.ts';
import { SeededRandom } from '../../src/synthetic/seeded-random.ts';
import { DATASET_FILES, writeDataset } from '../../src/synthetic/write-dataset.ts';
import { createTestApp, createTestEngine, dropTestIndices } from '../support/engine.ts';

const dataset = generateDataset({ services: 150, seed: 'round-trip' });
const inOrder = createTestEngine('round-trip');
const shuffled = createTestEngine('round-trip-shuffled');
const throughStore = createTestEngine('round-trip-store');
const dirs: string[] = [];

async function load(engine: Engine, shuffle: boolean, options: ImportOptions = {}) {
  const dir = await mkdtemp(join(tmpdir(), 'hsds-round-trip-'));
  dirs.push(dir);
  await writeDataset(dir, dataset);
  if (shuffle) {
    const file = join(dir, DATASET_FILES.services);
    const lines = (await readFile(file, 'utf8')).split('\n').filter(Boolean);
    const random = new SeededRandom(7, 0);
    for (let i = lines.length - 1; i > 0; i--) {
      const j = random.int(0, i);
      [lines[i], lines[j]] = [lines[j]!, lines[i]!];
    }
    await writeFile(file, `${lines.join('\n')}\n`);
  }
  await importSource(engine, dir, options);
  // Small batches: most services are rebuilt after the terms they use were first read.
  await reindex(engine, { batchSize: 10 });
}

beforeAll(async () => {
  await load(inOrder, false);
  await load(shuffled, true, { windowSize: 50 });
  await load(throughStore, true, { windowSize: 50, recentHashes: 1 });
}, 180_000);

afterAll(async () => {
  await dropTestIndices(inOrder);
  await dropTestIndices(shuffled);
  await dropTestIndices(throughStore);
  for (const dir of dirs) await rm(dir, { recursive: true, force: true });
});

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

/** Lists of records in id order; an empty list means the same as none. */
function normalise(value: Json): Json {
  if (Array.isArray(value)) {
    const items = value.map(normalise);
    const id = (item: Json) =>
      item && typeof item === 'object' && !Array.isArray(item) ? String(item.id ?? '') : '';
    return items.every((item) => id(item) !== '') ? items.sort((a, b) => id(a).localeCompare(id(b))) : items;
  }
  if (value && typeof value === 'object') {
    const out: { [key: string]: Json } = {};
    for (const [key, v] of Object.entries(value)) {
      if (Array.isArray(v) && v.length === 0) continue;
      out[key] = normalise(v);
    }
    return out;
  }
  return value;
}

/** Paths where `served` lacks or changes what `imported` holds. */
function missing(imported: Json, served: Json, path = ''): string[] {
  if (Array.isArray(imported)) {
    if (!Array.isArray(served) || served.length !== imported.length)
      return [`${path}: ${JSON.stringify(served)}`];
    return imported.flatMap((item, i) => missing(item, served[i]!, `${path}[${i}]`));
  }
  if (imported && typeof imported === 'object') {
    if (!served || typeof served !== 'object' || Array.isArray(served)) return [`${path}: not an object`];
    return Object.entries(imported).flatMap(([key, v]) =>
      key in served ? missing(v, served[key]!, `${path}.${key}`) : [`${path}.${key}: absent`],
    );
  }
  return imported === served
    ? []
    : [`${path}: ${JSON.stringify(served)} instead of ${JSON.stringify(imported)}`];
}

async function served(engine: Engine, index: string): Promise<Map<string, Json>> {
  const { body } = await engine.client.search({
    index: engine.name(index),
    body: { size: 1000, query: { match_all: {} } },
  } as never);
  const hits = body.hits.hits as unknown as { _source: { id: string; record: Json } }[];
  return new Map(hits.map((hit) => [hit._source.id, hit._source.record]));
}

describe.each([
  ['in source order', inOrder],
  ['shuffled, 50 records kept whole', shuffled],
  ['shuffled, 50 records kept whole and no hashes beyond them', throughStore],
])('a generated dataset imported (%s) and reindexed in small batches', (_, engine) => {
  it('serves every service with everything it was imported with', async () => {
    const services = await served(engine, 'services');
    const imported = [...dataset.services()] as unknown as Json[];
    expect(services.size).toBe(imported.length);
    const lost = imported.flatMap((service) => {
      const id = (service as { id: string }).id;
      return missing(normalise(service), normalise(services.get(id) ?? null)).map((p) => `${id}${p}`);
    });
    expect(lost.slice(0, 10)).toEqual([]);
  });

  it('serves every service-at-location with its location and its service as imported', async () => {
    const sals = await served(engine, 'service_at_locations');
    const lost: string[] = [];
    for (const service of dataset.services() as unknown as Iterable<{ service_at_locations: Json[] }>) {
      const { service_at_locations: atLocations, ...rest } = service;
      for (const sal of atLocations as { id: string }[]) {
        const expected = normalise({ ...sal, service: rest } as unknown as Json);
        lost.push(...missing(expected, normalise(sals.get(sal.id) ?? null)).map((p) => `${sal.id}${p}`));
      }
    }
    expect(sals.size).toBeGreaterThan(0);
    expect(lost.slice(0, 10)).toEqual([]);
  });

  it('serves every organization, taxonomy and term with everything it was imported with', async () => {
    const lost: string[] = [];
    const expectServed = async (index: string, records: Iterable<unknown>) => {
      const byId = await served(engine, index);
      for (const record of records as Iterable<{ id: string }>) {
        lost.push(
          ...missing(normalise(record as Json), normalise(byId.get(record.id) ?? null)).map(
            (p) => `${index} ${record.id}${p}`,
          ),
        );
      }
    };
    await expectServed('organizations', dataset.organizations());
    await expectServed('taxonomies', dataset.taxonomies);
    await expectServed('taxonomy_terms', dataset.taxonomyTerms);
    expect(lost.slice(0, 10)).toEqual([]);
  });
});

describe('the same dataset harvested from this API by another instance', () => {
  const harvester = createTestEngine('round-trip-harvest');
  afterAll(() => dropTestIndices(harvester));

  it('serves every service as the first instance serves it', async () => {
    const server = serve({ fetch: createTestApp(inOrder).fetch, port: 0, hostname: '127.0.0.1' });
    try {
      await once(server, 'listening');
      const { port } = server.address() as AddressInfo;
      const result = await importSource(harvester, `http://127.0.0.1:${port}`);
      expect(result.summary.rejected).toBe(0);
      await reindex(harvester, { batchSize: 10 });
    } finally {
      await new Promise((resolve) => server.close(resolve));
    }
    const original = await served(inOrder, 'services');
    const harvested = await served(harvester, 'services');
    expect(harvested.size).toBe(original.size);
    const lost = [...original].flatMap(([id, service]) =>
      missing(normalise(service), normalise(harvested.get(id) ?? null)).map((p) => `${id}${p}`),
    );
    expect(lost.slice(0, 10)).toEqual([]);
  });

  it('serves every organization as the first instance serves it, those without services too', async () => {
    const original = await served(inOrder, 'organizations');
    const harvested = await served(harvester, 'organizations');
    expect([...harvested.keys()].sort()).toEqual([...original.keys()].sort());
    const lost = [...original].flatMap(([id, organization]) =>
      missing(normalise(organization), normalise(harvested.get(id) ?? null)).map((p) => `${id}${p}`),
    );
    expect(lost.slice(0, 10)).toEqual([]);
  });
});
