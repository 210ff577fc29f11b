/**
 * Old versions and odd packaging (test/fixtures/real-world): each fixture imported into the real
 * engine and reindexed, then every service, service-at-location (with its location) and
 * organization served through the API and validated against the official HSDS 3.1 schemas.
 */
import { readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Engine } from '../../src/engine/engine.ts';
import { countRecordsByType } from '../../src/engine/records.ts';
import type { ImportReport } from '../../src/ingest/import/import-report.ts';
import { PLACEHOLDER_ORGANIZATION_NAME } from '../../src/ingest/import/placeholder-organizations.ts';
import { formatSourceQuality, sourceQuality } from '../../src/ingest/maintenance/source-quality.ts';
import { migrateId } from '../../src/ingest/migrate/legacy-ids.ts';
import { importAndReindex } from '../../src/ingest/publish/pipeline.ts';
import { createTestApp, createTestEngine, dropTestIndices } from '../support/engine.ts';
import { assertHsds, assertHsdsPage } from '../support/hsds-validator.ts';

const fixtures = 'test/fixtures/real-world';
type Obj = Record<string, unknown> & { id: string };
type Page = { contents: Obj[]; total_items: number };

type Imported = {
  engine: Engine;
  report: ImportReport;
  get: (path: string) => Promise<{ status: number; body: Obj & Page }>;
};

async function load(tag: string, location: string): Promise<Imported> {
  const engine = createTestEngine(tag);
  const reportFile = join(tmpdir(), `${engine.settings.prefix}-report.json`);
  await importAndReindex(engine, location, { reportFile });
  const report = JSON.parse(await readFile(reportFile, 'utf8')) as ImportReport;
  const app = createTestApp(engine);
  const get = async (path: string) => {
    const response = await app.request(path);
    return { status: response.status, body: (await response.json()) as Obj & Page };
  };
  return { engine, report, get };
}

/**
 * Serves every service, service-at-location and organization in full, each valid HSDS 3.1, and
 * every service's organization link resolving. Returns them by id.
 */
async function serveEverything({ get }: Imported) {
  const list = async (
    path: string,
    shape: 'service_list_item' | 'service_at_location_list_item' | 'organization_list_item',
  ) => {
    const { status, body } = await get(`${path}?per_page=1000`);
    expect(status).toBe(200);
    assertHsdsPage(shape, body);
    return body.contents;
  };
  const one = async (path: string, shape: 'service' | 'service_at_location' | 'organization') => {
    const { status, body } = await get(path);
    expect(status, path).toBe(200);
    assertHsds(shape, body);
    return body;
  };
  const services = new Map<string, Obj>();
  for (const item of await list('/services', 'service_list_item'))
    services.set(item.id, await one(`/services/${item.id}`, 'service'));
  const serviceAtLocations = new Map<string, Obj>();
  for (const item of await list('/service_at_locations', 'service_at_location_list_item'))
    serviceAtLocations.set(item.id, await one(`/service_at_locations/${item.id}`, 'service_at_location'));
  const organizations = new Map<string, Obj>();
  for (const item of await list('/organizations', 'organization_list_item'))
    organizations.set(item.id, await one(`/organizations/${item.id}`, 'organization'));
  for (const service of services.values()) {
    expect(organizations.has(String(service.organization_id)), `${service.id}'s organization`).toBe(true);
  }
  return { services, serviceAtLocations, organizations };
}

const originalIdOf = (record: Obj) =>
  (record.metadata as Obj[] | undefined)?.find((m) => m.field_name === 'id')?.previous_value;

const migratedNotes = (report: ImportReport) =>
  report.issues.filter((i) => i.kind === 'migrated').map((i) => i.reason);

const loaded: Imported[] = [];
afterAll(async () => {
  for (const { engine } of loaded) await dropTestIndices(engine);
});

describe('an HSDS 1.1 tabular package', () => {
  let imported: Imported;
  beforeAll(async () => {
    imported = await load('legacy-1-1', `${fixtures}/legacy-hsds-1.1/datapackage.json`);
    loaded.push(imported);
  });

  it('keeps every record, migrated to 3.1, with each mapping noted once', async () => {
    expect(imported.report).toMatchObject({ rejected: 0, by_severity: { error: 0 } });
    expect(await countRecordsByType(imported.engine)).toMatchObject({
      organization: 3, // two published, one placeholder
      service: 4,
      location: 2,
      service_at_location: 3,
      address: 3,
      schedule: 4,
      taxonomy_term: 3,
      attribute: 2,
      phone: 3,
      language: 4,
    });
    const notes = migratedNotes(imported.report);
    expect(notes).toContain('an HSDS 1.1 data package: migrated to HSDS 3.1 on import');
    expect(notes).toContain('physical_address → HSDS 3.1 address (2 rows)');
    expect(notes).toContain('location: no location_type; set to physical (HSDS 3.1 requires one) (2 rows)');
  });

  it('serves every service, location and organization as valid HSDS 3.1, under UUIDs', async () => {
    const { services, serviceAtLocations, organizations } = await serveEverything(imported);
    expect(services.size).toBe(4);
    expect(serviceAtLocations.size).toBe(3);
    const pantry = services.get(migrateId('service', '101'));
    expect(pantry).toMatchObject({
      name: 'Emergency Food Pantry',
      status: 'active',
      organization_id: migrateId('organization', '1'),
      eligibility_description:
        'Riverside County residents; Household income below 200% of the federal poverty level',
      schedules: expect.arrayContaining([
        expect.objectContaining({ byday: 'MO', opens_at: '09:00' }),
        expect.objectContaining({ valid_from: '2024-12-24', description: 'Closed' }),
      ]),
      attributes: [
        expect.objectContaining({ taxonomy_term: expect.objectContaining({ name: 'Food Pantries' }) }),
      ],
    });
    expect(originalIdOf(pantry!)).toBe('101');
    expect(services.get(migrateId('service', '102'))?.status).toBe('active');
    const [sal] = [...serviceAtLocations.values()].filter((s) => s.service_id === pantry?.id);
    expect(sal?.location).toMatchObject({
      location_type: 'physical',
      addresses: expect.arrayContaining([
        expect.objectContaining({ address_type: 'physical', address_2: 'Unit B, Loading dock' }),
        expect.objectContaining({ address_type: 'postal', address_1: 'PO Box 2210' }),
      ]),
    });
    expect(organizations.get(migrateId('organization', '1'))).toMatchObject({
      website: 'https://riverside-food.example.org',
    });
  });

  it('serves a service whose organization no table has under a reported placeholder', async () => {
    const missing = migrateId('organization', '3');
    const { body } = await imported.get(`/organizations/${missing}`);
    expect(body.name).toBe(PLACEHOLDER_ORGANIZATION_NAME);
    expect(imported.report.issues).toContainEqual(
      expect.objectContaining({ kind: 'placeholder', record_type: 'organization', record_id: missing }),
    );
  });

  it('marks the placeholder so that clients can tell it, in JSON both profiles validate', async () => {
    const missing = migrateId('organization', '3');
    const { body } = await imported.get(`/organizations/${missing}`);
    expect(body['x-placeholder']).toBe(true);
    assertHsds('organization', body);
    assertHsds('organization', body, 'oruk');
    // Nested in its service, in full and in a list item, the mark travels with it.
    const taxHelp = migrateId('service', '202');
    const { body: service } = await imported.get(`/services/${taxHelp}`);
    expect(service.organization).toMatchObject({ id: missing, 'x-placeholder': true });
    assertHsds('service', service);
    const { body: list } = await imported.get('/services?per_page=100');
    expect(list.contents.find((s) => s.id === taxHelp)?.organization).toMatchObject({
      'x-placeholder': true,
    });
    // The made-up name is no word of the service's: searching it does not find the service.
    const { body: found } = await imported.get('/services?search=unknown');
    expect(found.contents.map((s) => s.id)).not.toContain(taxHelp);
    // Real organizations carry no mark.
    const { body: real } = await imported.get(`/organizations/${migrateId('organization', '1')}`);
    expect(real['x-placeholder']).toBeUndefined();
  });

  it('counts the placeholder and the services that name it in the source report', async () => {
    const [quality] = await sourceQuality(imported.engine);
    expect(quality).toMatchObject({
      placeholder_organizations: 1,
      services_with_placeholder_organization: 1,
    });
    expect(formatSourceQuality([quality!])).toContain(
      'placeholder organizations: 1 stored; 1 services name an organization no source describes',
    );
  });

  it('gives the same UUIDs and records when imported again', async () => {
    const again = await load('legacy-1-1-again', `${fixtures}/legacy-hsds-1.1`);
    loaded.push(again);
    const first = (await imported.get('/services?per_page=1000')).body.contents.map((s) => s.id).sort();
    const second = (await again.get('/services?per_page=1000')).body.contents.map((s) => s.id).sort();
    expect(second).toEqual(first);
    expect(await countRecordsByType(again.engine)).toEqual(await countRecordsByType(imported.engine));
  });
});

describe('an HSDS 2.0-style CSV export without a descriptor', () => {
  let imported: Imported;
  beforeAll(async () => {
    imported = await load('legacy-2-0', `${fixtures}/hsds-2.0-csv`);
    loaded.push(imported);
  });

  it('keeps every record and serves it as valid HSDS 3.1', async () => {
    expect(imported.report).toMatchObject({ rejected: 0, by_severity: { error: 0 }, dangling_references: 0 });
    const { services, serviceAtLocations, organizations } = await serveEverything(imported);
    expect([services.size, serviceAtLocations.size, organizations.size]).toEqual([3, 3, 2]);
    const clinic = services.get(migrateId('service', 'svc-walk-in-clinic'));
    expect(clinic).toMatchObject({
      schedules: [expect.objectContaining({ freq: 'WEEKLY', byday: 'MO,TU,WE,TH,FR' })],
      attributes: [
        expect.objectContaining({
          taxonomy_term: expect.objectContaining({
            name: 'Primary Care',
            parent_id: migrateId('taxonomy_term', 'health'),
          }),
        }),
      ],
    });
    expect(originalIdOf(clinic!)).toBe('svc-walk-in-clinic');
    expect(services.get(migrateId('service', 'svc-dental-day'))?.status).toBe('inactive');
  });
});

describe('an ORUK 1.0 feed', () => {
  let imported: Imported;
  beforeAll(async () => {
    imported = await load('oruk-1-0', `${fixtures}/oruk-1.0.json`);
    loaded.push(imported);
  });

  it('keeps every service with its nested organization, and serves them as valid HSDS 3.1', async () => {
    expect(imported.report).toMatchObject({ items: 3, rejected: 0, by_severity: { error: 0 } });
    const { services, serviceAtLocations, organizations } = await serveEverything(imported);
    expect([services.size, serviceAtLocations.size, organizations.size]).toEqual([3, 2, 2]);
    const council = organizations.get(migrateId('organization', 'ORG77'));
    expect(council).toMatchObject({
      name: 'Example Council Early Years Team',
      pc_organisationType: 'Local authority',
    });
    expect(((council?.services ?? []) as Obj[]).map((s) => s.id).sort()).toEqual(
      [migrateId('service', 'SVC1042'), migrateId('service', 'SVC1043')].sort(),
    );
    const play = services.get(migrateId('service', 'SVC1042'));
    expect(play).toMatchObject({ pc_targetAudience: 'Parents and carers', minimum_age: 0, maximum_age: 5 });
    expect(originalIdOf(play!)).toBe('SVC1042');
    expect(services.get('8d1f5c7e-3b2a-4c6d-9e0f-1a2b3c4d5e6f')?.status).toBe('active');
    expect(migratedNotes(imported.report)).toContain(
      'an ORUK 1.0 feed: 3 service(s) migrated to HSDS 3.1 on import',
    );
  });

  it('finds services by their taxonomy terms, migrated ids and all', async () => {
    const under5 = migrateId('taxonomy_term', 'pcage:under5');
    const { body } = await imported.get(`/services?taxonomy_term_id=${under5}`);
    expect(body.contents.map((s) => s.name).sort()).toEqual([
      'Baby Weighing Clinic',
      'Little Acorns Stay and Play',
    ]);
  });
});

describe('a data package whose CSVs sit in data/', () => {
  let imported: Imported;
  beforeAll(async () => {
    imported = await load('data-folder', `${fixtures}/package-data-folder/datapackage.json`);
    loaded.push(imported);
  });

  it('imports every resource it can find and names the file it cannot', async () => {
    expect(imported.report.issues.filter((i) => i.severity === 'error')).toEqual([
      expect.objectContaining({
        severity: 'error',
        reason: expect.stringContaining('resource funding: file funding.csv not found'),
      }),
    ]);
    const { services, serviceAtLocations, organizations } = await serveEverything(imported);
    expect([services.size, serviceAtLocations.size, organizations.size]).toEqual([2, 1, 1]);
    expect([...organizations.values()][0]?.name).toBe('Westgate Debt Advice');
  });
});

describe('a CSV package saved by Excel in Windows-1252', () => {
  let imported: Imported;
  beforeAll(async () => {
    imported = await load('cp1252', `${fixtures}/cp1252-package`);
    loaded.push(imported);
  });

  it('stores and serves Café as Café, with a warning naming each file', async () => {
    expect(imported.report.issues.filter((i) => i.kind === 'encoding')).toHaveLength(2);
    const { services, organizations } = await serveEverything(imported);
    expect([...organizations.values()][0]).toMatchObject({ name: 'Café Hub Collective' });
    expect([...services.values()][0]).toMatchObject({
      name: 'Crèche while you learn',
      fees_description: '£2 a session',
    });
    const found = await imported.get('/services?search=creche');
    expect(found.body.total_items).toBe(1);
  });
});
