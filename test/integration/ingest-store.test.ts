/**
 * The records store across imports: a nested item's new records are kept as one bundle, and a
 * record that another import brings again must still follow "the last import wins", in the store
 * and in what is served after a reindex.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { countRecords, readAllRecords, recordsIndex, StoreVersionError } from '../../src/engine/records.ts';
import { importSource } from '../../src/ingest/import/import-source.ts';
import { reindex } from '../../src/ingest/publish/reindex.ts';
import { createTestEngine, dropTestIndices } from '../support/engine.ts';

const engine = createTestEngine('ingest-store');
let dir: string;

const LOCATION = '21000000-0000-4000-8000-000000000001';
const service = (n: number, hall: string) => ({
  id: `2d000000-0000-4000-8000-00000000000${n}`,
  name: `Service ${n}`,
  status: 'active',
  organization: { id: '2a000000-0000-4000-8000-000000000001', name: 'Trust', description: 'A trust.' },
  phones: [{ id: `2b000000-0000-4000-8000-00000000000${n}`, number: '01632 960000' }],
  service_at_locations: [
    {
      id: `20000000-0000-4000-8000-00000000000${n}`,
      location: { id: LOCATION, location_type: 'physical', name: hall, latitude: 57.13, longitude: -2.09 },
    },
  ],
});

/** The location as each served service nests it. */
async function servedHalls(): Promise<string[]> {
  const { body } = await engine.client.search({
    index: engine.name('services'),
    body: { query: { match_all: {} }, sort: [{ id: 'asc' }] },
  } as never);
  return (
    body.hits.hits as unknown as {
      _source: { record: { service_at_locations: { location: { name: string } }[] } };
    }[]
  ).map((hit) => hit._source.record.service_at_locations[0]!.location.name);
}

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'hsds-store-'));
  await writeFile(join(dir, 'a.json'), JSON.stringify([service(1, 'Old Hall')]));
  await writeFile(join(dir, 'b.json'), JSON.stringify([service(2, 'New Hall')]));
  await writeFile(
    join(dir, 'c.json'),
    JSON.stringify({
      id: '2a000000-0000-4000-8000-000000000002',
      name: 'Quiet Trust',
      description: 'No services yet.',
      services: [],
    }),
  );
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
  await dropTestIndices(engine);
});

describe('the records store across imports', () => {
  it('keeps the records an item brings as one document', async () => {
    const result = await importSource(engine, join(dir, 'a.json'));
    expect(result.summary.records).toBe(5);
    expect(await countRecords(engine)).toBe(1);
    expect([...(await readAllRecords(engine)).keys()].sort()).toEqual([
      'location:21000000-0000-4000-8000-000000000001',
      'organization:2a000000-0000-4000-8000-000000000001',
      'phone:2b000000-0000-4000-8000-000000000001',
      'service:2d000000-0000-4000-8000-000000000001',
      'service_at_location:20000000-0000-4000-8000-000000000001',
    ]);
  });

  it('serves what a later import brings for a record an earlier one stored', async () => {
    await importSource(engine, join(dir, 'b.json'));
    const location = (await readAllRecords(engine)).get(`location:${LOCATION}`);
    expect(location?.record.name).toBe('New Hall');
    await reindex(engine);
    expect(await servedHalls()).toEqual(['New Hall', 'New Hall']);
  });

  it('serves the first source again when it is imported again', async () => {
    await importSource(engine, join(dir, 'a.json'));
    await reindex(engine);
    expect(await servedHalls()).toEqual(['Old Hall', 'Old Hall']);
    // Imported again, the same documents: nothing more is stored.
    const before = await countRecords(engine);
    await importSource(engine, join(dir, 'a.json'));
    expect(await countRecords(engine)).toBe(before);
  });

  it('serves organizations with and without services, each summarising its own', async () => {
    await importSource(engine, join(dir, 'c.json'));
    await reindex(engine);
    const { body } = await engine.client.search({
      index: engine.name('organizations'),
      body: { query: { match_all: {} }, sort: [{ id: 'asc' }] },
    } as never);
    expect(
      (body.hits.hits as unknown as { _source: { name: string; service_ids: string[] } }[]).map((hit) => [
        hit._source.name,
        hit._source.service_ids,
      ]),
    ).toEqual([
      ['Trust', ['2d000000-0000-4000-8000-000000000001', '2d000000-0000-4000-8000-000000000002']],
      ['Quiet Trust', []],
    ]);
  });
});

describe('an item imported again', () => {
  const again = createTestEngine('ingest-store-again');
  afterAll(() => dropTestIndices(again));

  it('from the same source keeps only the records it carries now', async () => {
    await importSource(again, join(dir, 'a.json'));
    const { phones: _, ...withoutPhone } = service(1, 'Old Hall');
    await writeFile(join(dir, 'a2.json'), JSON.stringify([withoutPhone]));
    // The same feed published again (its name is the source, wherever the file now lies).
    await importSource(again, join(dir, 'a2.json'), { sourceName: join(dir, 'a.json') });
    const keys = [...(await readAllRecords(again)).keys()];
    expect(keys).toContain('service:2d000000-0000-4000-8000-000000000001');
    expect(keys).not.toContain('phone:2b000000-0000-4000-8000-000000000001');
  });

  it('from another source adds up: the first source still provides the phone', async () => {
    const other = createTestEngine('ingest-store-other');
    try {
      await importSource(other, join(dir, 'a.json'));
      await importSource(other, join(dir, 'a2.json'));
      expect([...(await readAllRecords(other)).keys()]).toContain(
        'phone:2b000000-0000-4000-8000-000000000001',
      );
    } finally {
      await dropTestIndices(other);
    }
  });
});

describe('a records store written by another version', () => {
  const old = createTestEngine('ingest-store-old');
  afterAll(() => dropTestIndices(old));

  it('is refused with what to do, not read', async () => {
    await old.client.indices.create({
      index: recordsIndex(old),
      body: { mappings: { properties: { key: { type: 'keyword' } } } },
    } as never);
    await expect(importSource(old, join(dir, 'a.json'))).rejects.toThrow(StoreVersionError);
    await expect(importSource(old, join(dir, 'a.json'))).rejects.toThrow(
      /delete it .* and import your sources again/,
    );
  });
});

describe('one import meeting a record again far from where it first met it', () => {
  const engines = {
    hashes: createTestEngine('ingest-store-far'),
    store: createTestEngine('ingest-store-far2'),
  };
  afterAll(async () => {
    for (const e of Object.values(engines)) await dropTestIndices(e);
  });

  // Between the two services that share the location, enough others that neither the window of
  // records kept whole nor, in the second case, the hashes kept beyond it still hold the first,
  // and that the two fall in different batches of items (a batch keeps what it met).
  const others = Array.from({ length: 250 }, (_, i) => ({
    id: `2e000000-0000-4000-8000-000000000${String(i).padStart(3, '0')}`,
    name: `Other ${i}`,
    status: 'active',
  }));

  it.each([
    ['the hashes of recent keys', engines.hashes, {}],
    ['the store', engines.store, { recentHashes: 1 }],
  ])('keeps the last version and reports the change, told by %s', async (_, far, options) => {
    const file = join(dir, 'far.json');
    await writeFile(file, JSON.stringify([service(1, 'Old Hall'), ...others, service(2, 'New Hall')]));
    const result = await importSource(far, file, { windowSize: 5, ...options });
    expect((await readAllRecords(far)).get(`location:${LOCATION}`)?.record.name).toBe('New Hall');
    // The organization both services nest is the same record again: a repeat, not a duplicate.
    const duplicates = result.firstIssues.filter((issue) => issue.kind === 'duplicate');
    expect(duplicates.map((issue) => `${issue.record_type} ${issue.record_id}`)).toEqual([
      `location ${LOCATION}`,
    ]);
    await reindex(far);
    const { body } = await far.client.search({
      index: far.name('services'),
      body: { query: { ids: { values: [service(1, '').id, service(2, '').id] } } },
    } as never);
    const halls = (
      body.hits.hits as unknown as {
        _source: { record: { service_at_locations: { location: { name: string } }[] } };
      }[]
    ).map((hit) => hit._source.record.service_at_locations[0]!.location.name);
    expect(halls).toEqual(['New Hall', 'New Hall']);
  });
});
