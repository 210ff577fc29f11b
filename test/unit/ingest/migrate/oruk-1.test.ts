import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { migrateId } from '../../../../src/ingest/migrate/legacy-ids.ts';
import {
  createOruk1Context,
  looksLikeOruk1,
  migrateOruk1Service,
} from '../../../../src/ingest/migrate/oruk-1.ts';
import { flattenNested } from '../../../../src/ingest/records/flatten.ts';

type Obj = Record<string, unknown>;
const feed = JSON.parse(readFileSync('test/fixtures/real-world/oruk-1.0.json', 'utf8')) as Obj[];
const official = JSON.parse(readFileSync('test/fixtures/hsds/examples/service_full.json', 'utf8')) as Obj;

const migrate = (item: Obj) => {
  const context = createOruk1Context('2024-05-01');
  return {
    service: migrateOruk1Service(item, context),
    notes: context.notes.entries().map(([note]) => note),
  };
};

describe('telling an ORUK 1.0 service', () => {
  it('by its 1.0 collections, not an HSDS 3.1 service', () => {
    expect(feed.map(looksLikeOruk1)).toEqual([true, true, true]);
    expect(looksLikeOruk1(official)).toBe(false);
  });
});

describe('migrating an ORUK 1.0 service', () => {
  it('gives a 3.1 service whose every record validates', () => {
    for (const item of feed) {
      const flat = flattenNested('service', migrate(item).service, 'test');
      expect(flat.issues).toEqual([]);
      expect(flat.rejected).toEqual([]);
    }
  });

  it('imports the nested organization under the same UUID for every service of it', () => {
    const [first, second] = feed.map((item) => migrate(item).service) as [Obj, Obj];
    const organization = first.organization as Obj;
    expect(organization).toMatchObject({
      id: migrateId('organization', 'ORG77'),
      website: 'https://www.example-council.gov.uk/early-years',
      pc_organisationType: 'Local authority',
    });
    expect((second.organization as Obj).id).toBe(organization.id);
    const records = flattenNested('service', first, 'test').records;
    expect(records.find((r) => r.type === 'service')?.record.organization_id).toBe(organization.id);
    expect(records.some((r) => r.type === 'organization' && r.id === organization.id)).toBe(true);
  });

  it('maps the 1.0 collections and fields to their 3.1 homes', () => {
    const { service, notes } = migrate(feed[0]!);
    expect(service).toMatchObject({
      id: migrateId('service', 'SVC1042'),
      fees_description: 'Free',
      eligibility_description: 'Children under five with a parent or carer',
      minimum_age: 0,
      maximum_age: 5,
      funding: [{ source: 'Family Hubs programme' }],
      languages: [{ name: 'English' }, { name: 'Polish' }],
      schedules: [{ byday: 'TU', freq: 'WEEKLY', opens_at: '09:30:00' }],
      service_areas: [{ name: 'Example Borough' }],
      service_at_locations: [
        {
          id: migrateId('service_at_location', 'SAL31'),
          schedules: [{ byday: 'TH' }],
          location: {
            id: migrateId('location', 'LOC31'),
            location_type: 'physical',
            addresses: [
              {
                address_type: 'physical',
                postal_code: 'EX1 2AB',
                id: migrateId('address:physical', 'ADDR31'),
              },
            ],
            accessibility: [{ description: 'Step-free access' }],
          },
        },
      ],
      attributes: [
        {
          taxonomy_term: {
            id: migrateId('taxonomy_term', 'esdsvc:1234'),
            name: 'Play and toddler groups',
            description: 'Play and toddler groups',
            taxonomy: 'esdServiceTypes',
          },
        },
        { taxonomy_term_id: migrateId('taxonomy_term', 'pcage:under5') },
      ],
      contacts: [{ phones: [{ number: '01632 960001', languages: [{ name: 'English' }] }] }],
    });
    for (const gone of ['fees', 'eligibilitys', 'fundings', 'regular_schedules', 'service_taxonomys'])
      expect(service).not.toHaveProperty(gone);
    expect(notes).toContain('service_taxonomys[].taxonomy → attributes[].taxonomy_term');
  });

  it('keeps publisher extensions and 1.0-only fields as published, and says so', () => {
    const { service, notes } = migrate(feed[0]!);
    expect(service).toMatchObject({
      pc_targetAudience: 'Parents and carers',
      deliverable_type: 'Information',
      reviews: [{ title: 'Parent feedback' }],
    });
    expect(notes).toContain('service.pc_targetAudience kept as published (not an HSDS 3.1 field)');
  });

  it('keeps each original id in a metadata record, and a UUID id as published', () => {
    const { service } = migrate(feed[0]!);
    expect(service.metadata).toEqual([
      expect.objectContaining({ field_name: 'id', previous_value: 'SVC1042', replacement_value: service.id }),
    ]);
    const { service: third, notes } = migrate(feed[2]!);
    expect(third.id).toBe('8d1f5c7e-3b2a-4c6d-9e0f-1a2b3c4d5e6f');
    expect(third).not.toHaveProperty('metadata');
    expect(third.status).toBe('active');
    expect(notes).toContain(
      'service: empty status set to active (HSDS 3.1 requires one; the publisher lists it)',
    );
  });

  it('gives the same ids on every run, and leaves a service without an id for validation to reject', () => {
    expect(JSON.stringify(migrate(feed[0]!).service)).toBe(JSON.stringify(migrate(feed[0]!).service));
    const { service } = migrate({
      name: 'No id',
      status: 'active',
      regular_schedules: [{ weekday: 'Monday' }],
    });
    expect(service).not.toHaveProperty('id');
    expect(flattenNested('service', service, 'test').rejected.map((r) => r.type)).toContain('service');
  });
});
