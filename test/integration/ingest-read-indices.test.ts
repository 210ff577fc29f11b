import { afterAll, describe, expect, it } from 'vitest';
import type { Engine } from '../../src/engine/engine.ts';
import { beginBuild, listVersionedIndices, newVersion, readAliasTargets } from '../../src/engine/indices.ts';
import { READ_INDICES } from '../../src/index-mapping/read-indices.mapping.ts';
import { createTestEngine, dropTestIndices } from '../support/engine.ts';
import { officialExamples, seedReadIndices } from '../support/seed.ts';

const engine = createTestEngine('read-indices');
afterAll(() => dropTestIndices(engine));

const getDoc = async (e: Engine, kind: string, id: string) =>
  (await e.client.get({ index: e.name(kind), id })).body._source as Record<string, unknown>;

const SERVICE = 'ac148810-d857-441c-9679-408f346de14b';
const SAL = 'e94c9f38-1e8f-4564-91d4-d53501ab1765';
const ORGANIZATION = 'd9d5e0f5-d3ce-4f73-9a2f-4dd0ecc6c610';
const TERM = '3f7b145d-84af-42d7-8fae-eaca714b02b2';

describe('seedReadIndices (writeReadIndices) with the official examples', () => {
  it('builds every read index behind its alias, with the records the API serves', async () => {
    const report = await seedReadIndices(engine, officialExamples());
    expect(report.counts).toEqual({
      services: 1,
      service_at_locations: 1,
      organizations: 1,
      taxonomies: 1,
      taxonomy_terms: 1,
    });
    const { current } = await readAliasTargets(engine);
    for (const kind of READ_INDICES) expect(current[kind]).toBe(report.indices[kind]);

    const service = await getDoc(engine, 'services', SERVICE);
    expect(service).toMatchObject({
      id: SERVICE,
      name: 'Community Counselling',
      organization_id: ORGANIZATION,
      organization_name: 'Example Organization Inc.',
      taxonomy_term_ids: [TERM],
      // The example location's latitude 100 is out of range: no point rather than a refused document.
      location_points: [],
    });
    expect((service.record as { service_at_locations: unknown[] }).service_at_locations).toHaveLength(1);

    const sal = await getDoc(engine, 'service_at_locations', SAL);
    expect(sal).toMatchObject({ id: SAL, service_id: SERVICE, has_coverage: false });
    const salRecord = sal.record as { location: { id: string }; service: Record<string, unknown> };
    expect(salRecord.location.id).toBe('3a19ff88-4620-4d17-9830-ac1d859eb5d5');
    expect(salRecord.service.id).toBe(SERVICE);
    expect(salRecord.service).not.toHaveProperty('service_at_locations');

    const organization = await getDoc(engine, 'organizations', ORGANIZATION);
    expect(organization).toMatchObject({ service_ids: [SERVICE], taxonomy_term_ids: [TERM] });
    expect(organization.record).not.toHaveProperty('services');

    const term = await getDoc(engine, 'taxonomy_terms', TERM);
    expect(term.record).toHaveProperty('taxonomy_detail.id', '5c4d79d7-cc55-470e-9f1f-8cad074e4892');
  });

  it('keeps the previous version for rollback and removes older ones', async () => {
    const before = await readAliasTargets(engine);
    const second = await seedReadIndices(engine, officialExamples());
    const after = await readAliasTargets(engine);
    expect(after.previous).toEqual(before.current);
    expect(after.current.services).toBe(second.indices.services);
    await seedReadIndices(engine, officialExamples());
    const versions = new Set((await listVersionedIndices(engine)).map((i) => i.version));
    expect(versions.size).toBe(2);
    expect(versions.has(second.version)).toBe(true);
  });

  it('leaves the served aliases untouched when a build fails midway, and removes its indices', async () => {
    const before = await readAliasTargets(engine);
    const versionsBefore = await listVersionedIndices(engine);
    await expect(
      seedReadIndices(engine, officialExamples(), {
        onProgress: (p) => {
          if (p.phase === 'organizations') throw new Error('injected failure');
        },
      }),
    ).rejects.toThrow('injected failure');
    expect(await readAliasTargets(engine)).toEqual(before);
    expect(await listVersionedIndices(engine)).toEqual(versionsBefore);
  });
});

describe('beginBuild', () => {
  it("begins a build whose indices a retried request finds already created (the client's retry after a timeout)", async () => {
    const version = newVersion();
    const first = await beginBuild(engine, version);
    // The same creation sent again, as the client does when the first answer outlived its timeout.
    const again = await beginBuild(engine, version);
    expect(again).toEqual(first);
    const { body } = await engine.client.indices.get({ index: Object.values(first.indices) });
    expect(Object.keys(body).sort()).toEqual(Object.values(first.indices).sort());
    await engine.client.indices.delete({ index: Object.values(first.indices) });
  });
});
