import { describe, expect, it } from 'vitest';
import {
  organizationFullSchema,
  pageSchema,
  scheduleSchema,
  serviceFullSchema,
  serviceListItemSchema,
  serviceSchema,
} from '../../../src/hsds/index.ts';
import { readFixtureJson } from './fixtures.ts';

const service = {
  id: 'ac148810-d857-441c-9679-408f346de14b',
  name: 'Community Counselling',
  status: 'active',
};

const issuesOf = (result: { error?: { issues: { path: PropertyKey[]; message: string }[] } }) =>
  (result.error?.issues ?? []).map((issue) => ({ path: issue.path, message: issue.message }));

describe('bad values are rejected with the path of the bad field', () => {
  it('a bad uuid', () => {
    expect(issuesOf(serviceSchema.safeParse({ ...service, organization_id: 'org-1' }))).toEqual([
      { path: ['organization_id'], message: 'Invalid UUID' },
    ]);
  });

  it('a missing required name', () => {
    const { name: _, ...withoutName } = service;
    expect(issuesOf(serviceSchema.safeParse(withoutName))).toEqual([
      { path: ['name'], message: 'Invalid input: expected string, received undefined' },
    ]);
  });

  it('a bad email', () => {
    expect(issuesOf(serviceSchema.safeParse({ ...service, email: 'info at example.org' }))).toEqual([
      { path: ['email'], message: 'Invalid email address' },
    ]);
  });

  it('a bad date-time', () => {
    expect(issuesOf(serviceSchema.safeParse({ ...service, last_modified: '15/03/2023 10:30' }))).toEqual([
      { path: ['last_modified'], message: 'Invalid date-time (RFC 3339)' },
    ]);
  });

  it('a status outside the enum', () => {
    expect(
      issuesOf(serviceSchema.safeParse({ ...service, status: 'open' })).map((issue) => issue.path),
    ).toEqual([['status']]);
  });

  it('every bad field at once, not only the first', () => {
    const result = serviceSchema.safeParse({ id: 'x', status: 'active', email: 'x', url: 'x' });
    expect(issuesOf(result).map((issue) => issue.path)).toEqual([['id'], ['name'], ['url'], ['email']]);
  });

  it('a bad value deep inside a nested service, with its full path', () => {
    const example = structuredClone(readFixtureJson('examples/service_full.json')) as {
      service_at_locations: { location: { addresses: { id: string }[] } }[];
      capacities: { unit: { name?: string } }[];
    };
    example.service_at_locations[0]!.location.addresses[0]!.id = 'not-a-uuid';
    delete example.capacities[0]!.unit.name;
    expect(issuesOf(serviceFullSchema.safeParse(example)).map((issue) => issue.path)).toEqual([
      ['capacities', 0, 'unit', 'name'],
      ['service_at_locations', 0, 'location', 'addresses', 0, 'id'],
    ]);
  });

  it('a bad service inside an organization', () => {
    const result = organizationFullSchema.safeParse({
      id: 'd9d5e0f5-d3ce-4f73-9a2f-4dd0ecc6c610',
      name: 'Example Org',
      description: 'An organization',
      services: [{ ...service, phones: [{ id: 'e94c9f38-1e8f-4564-91d4-d53501ab1765' }] }],
    });
    expect(issuesOf(result).map((issue) => issue.path)).toEqual([['services', 0, 'phones', 0, 'number']]);
  });
});

describe('what HSDS allows beyond its fields', () => {
  it('keeps extra properties, at the top and nested', () => {
    const record = {
      ...service,
      x_rating: 5,
      organization: { id: service.id, name: 'Org', description: 'An organization', x_local: { a: 1 } },
    };
    expect(serviceListItemSchema.parse(record)).toEqual(record);
    const full = { ...service, phones: [{ id: service.id, number: '0123', x_hours: '9-5' }], x_rating: 5 };
    expect(serviceFullSchema.parse(full)).toEqual(full);
  });

  it('passes the HSDS 3.3 fields through untouched', () => {
    const later = {
      ...service,
      operating_hours: [{ id: service.id, byday: 'MO' }],
      events: [{ name: 'Fair' }],
    };
    expect(serviceSchema.parse(later)).toEqual(later);
    const schedule = { id: service.id, group: 'Winter timetable' };
    expect(scheduleSchema.parse(schedule)).toEqual(schedule);
  });

  // The official schemas type optional fields as plain strings and numbers, never null; a
  // publisher's nulls must be dropped before validation (ingest's job), not stored.
  it('rejects null in an optional field, as the official schema does', () => {
    expect(
      issuesOf(serviceSchema.safeParse({ ...service, description: null })).map((issue) => issue.path),
    ).toEqual([['description']]);
  });
});

describe('pageSchema', () => {
  const page = pageSchema(serviceListItemSchema);

  it('requires only `empty`, as the official HSDS 3.1.1 Page does', () => {
    expect(page.safeParse({ empty: true }).success).toBe(true);
    expect(issuesOf(page.safeParse({ contents: [] })).map((issue) => issue.path)).toEqual([['empty']]);
  });

  it('declares the official Page properties and `contents`', () => {
    const openapi = readFixtureJson('schema/openapi.json') as {
      components: { schemas: { Page: { properties: Record<string, { type: string }>; required: string[] } } };
    };
    const official = openapi.components.schemas.Page;
    expect(Object.keys(page.shape).sort()).toEqual([...Object.keys(official.properties), 'contents'].sort());
    expect(official.required).toEqual(['empty']);
    for (const [name, property] of Object.entries(official.properties)) {
      const wrong = property.type === 'boolean' ? 1 : true;
      expect(issuesOf(page.safeParse({ empty: false, [name]: wrong })).map((issue) => issue.path)).toEqual([
        [name],
      ]);
    }
    expect(page.safeParse({ empty: false, total_items: 1.5 }).success).toBe(false);
  });

  it('validates the items, reporting the index of a bad one', () => {
    const result = page.safeParse({ empty: false, contents: [service, { ...service, id: 'bad' }] });
    expect(issuesOf(result).map((issue) => issue.path)).toEqual([['contents', 1, 'id']]);
  });
});
