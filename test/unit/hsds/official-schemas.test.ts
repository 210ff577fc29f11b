import type { z } from '@hono/zod-openapi';
import { describe, expect, it } from 'vitest';
import {
  type RecordType,
  recordFullSchemas,
  recordSchemas,
  recordTypes,
  tabularPaths,
  tabularRecordSchemas,
  tabularRequired,
} from '../../../src/hsds/index.ts';
import { isScalar, type OfficialProperty, officialSchemaNames, readOfficialSchema } from './fixtures.ts';

// These tests hold the zod schemas to the vendored official HSDS 3.1.1 JSON Schemas, so that the
// two cannot drift apart: same objects, same fields, same required lists, same types and formats.

// The HSDS 3.3 optional fields this module declares on top of 3.1 (passed through unvalidated).
const laterFields: Partial<Record<RecordType, string[]>> = {
  service: ['operating_hours', 'events'],
  schedule: ['group'],
};

/** The keys a schema reports as missing when given an empty object: its required keys. */
const requiredKeysOf = (schema: z.ZodType): string[] =>
  (schema.safeParse({}).error?.issues ?? []).map((issue) => String(issue.path[0])).sort();

const official = Object.fromEntries(recordTypes.map((type) => [type, readOfficialSchema(type)]));

const scalarEntries = (type: RecordType): [string, OfficialProperty][] =>
  Object.entries(official[type]!.properties).filter(([, property]) => isScalar(property));

// A value each format accepts, and values it must refuse.
const uuidV1 = 'f75b808e-7bdb-11ef-afaa-ab00a77dc5c4';
const samples: Record<string, { good: unknown[]; bad: unknown[] }> = {
  uuid: {
    good: [uuidV1, 'AC148810-D857-441C-9679-408F346DE14B'],
    bad: ['not-a-uuid', 'ac148810d857441c9679408f346de14b', 7],
  },
  uri: {
    good: ['https://example.org/a?b=c', 'mailto:help@example.org'],
    bad: ['example.org', 'not a uri', 1],
  },
  email: { good: ['help@example.org'], bad: ['help', 'help@', '@example.org'] },
  'date-time': {
    good: ['2023-03-15T10:30:45.123Z', '2024-09-25T14:23:06.5+01:00'],
    bad: ['2023-03-15', '2023-03-15 10:30:45Z', '2023-03-15T10:30:45', '2023-13-15T10:30:45Z'],
  },
  date: { good: ['2024-02-29'], bad: ['2023-02-29', '2024-1-01', '01/02/2024', '2024-01-01T00:00:00Z'] },
  time: {
    good: ['10:00', '10:00:00', '09:00-05:00', '18:30:00Z'],
    bad: ['25:00', '10', '10am', '10:00:00 GMT'],
  },
  number: { good: [0, -1.5, 2011], bad: ['12', null] },
  string: { good: ['', 'text'], bad: [12, null, true] },
};

// JSON checks only `type` and `format`: a `datapackage_type` without a format (`assured_date`,
// `opens_at`) is any string in JSON and is typed by the tabular form alone.
const kindOf = (property: OfficialProperty): string =>
  property.type === 'number' ? 'number' : (property.format ?? 'string');
const tabularKindOf = (property: OfficialProperty): string =>
  property.type === 'number' ? 'number' : (property.format ?? property.datapackage_type ?? 'string');

/** A valid value for an official property, used to build minimal valid records. */
const validValue = (property: OfficialProperty): unknown =>
  property.enum?.[0] ?? samples[kindOf(property)]!.good[0];

/** The smallest record the direct-field schema must accept: its required scalars. */
const minimalRecord = (type: RecordType): Record<string, unknown> =>
  Object.fromEntries(
    scalarEntries(type)
      .filter(([name]) => official[type]!.required?.includes(name))
      .map(([name, property]) => [name, validValue(property)]),
  );

describe('the HSDS record types', () => {
  it('are exactly the objects of the official schemas', () => {
    expect([...recordTypes].sort()).toEqual(officialSchemaNames());
  });

  it.each(recordTypes)('%s: tabular path is the official one', (type) => {
    expect(tabularPaths[type]).toBe(official[type]!.path);
  });
});

describe.each(recordTypes)('%s', (type) => {
  const schema = official[type]!;
  const scalars = scalarEntries(type);

  it('JSON form requires exactly the official `required` list', () => {
    expect(requiredKeysOf(recordFullSchemas[type])).toEqual([...(schema.required ?? [])].sort());
  });

  it('direct fields require the official required scalars', () => {
    const scalarNames = new Set(scalars.map(([name]) => name));
    expect(requiredKeysOf(recordSchemas[type])).toEqual(
      (schema.required ?? []).filter((n) => scalarNames.has(n)).sort(),
    );
  });

  it('tabular form also requires the official `tabular_required` list', () => {
    expect([...tabularRequired[type]].sort()).toEqual([...(schema.tabular_required ?? [])].sort());
    const expected = new Set([...requiredKeysOf(recordSchemas[type]), ...(schema.tabular_required ?? [])]);
    expect(requiredKeysOf(tabularRecordSchemas[type])).toEqual([...expected].sort());
  });

  it('direct fields are the official scalar properties (plus later optional fields)', () => {
    expect(Object.keys(recordSchemas[type].shape).sort()).toEqual(
      [...scalars.map(([name]) => name), ...(laterFields[type] ?? [])].sort(),
    );
  });

  it('JSON form declares every official property', () => {
    const declared = Object.keys(recordFullSchemas[type].shape);
    expect(Object.keys(schema.properties).filter((name) => !declared.includes(name))).toEqual([]);
  });

  it('accepts the minimal record and extra properties', () => {
    const record = { ...minimalRecord(type), x_extension: { any: ['thing'] } };
    expect(recordSchemas[type].parse(record)).toEqual(record);
  });

  it.each(scalars)('%s: accepts and rejects values as its official type says', (name, property) => {
    const base = minimalRecord(type);
    const kind = kindOf(property);
    const good = property.enum ?? samples[kind]!.good;
    const bad = property.enum
      ? ['not-in-the-enum', `${property.enum[0]!.toUpperCase()}!`]
      : samples[kind]!.bad;
    for (const value of good) {
      const result = recordSchemas[type].safeParse({ ...base, [name]: value });
      expect(result.error?.issues ?? [], `${name} = ${JSON.stringify(value)}`).toEqual([]);
    }
    for (const value of bad) {
      const result = recordSchemas[type].safeParse({ ...base, [name]: value });
      expect(
        result.error?.issues.map((issue) => issue.path),
        `${name} = ${JSON.stringify(value)}`,
      ).toEqual([[name]]);
    }
  });

  const tabularTyped = scalars.filter(
    ([, p]) => !p.format && (p.datapackage_type === 'date' || p.datapackage_type === 'time'),
  );
  if (tabularTyped.length > 0) {
    it.each(tabularTyped)('%s: any string in JSON, typed by the tabular form', (name, property) => {
      const base = {
        ...minimalRecord(type),
        ...Object.fromEntries((schema.tabular_required ?? []).map((k) => [k, uuidV1])),
      };
      for (const value of ['9:00am', 'January 2021', '']) {
        expect(recordSchemas[type].safeParse({ ...base, [name]: value }).success, value).toBe(true);
      }
      const { good, bad } = samples[tabularKindOf(property)]!;
      for (const value of good) {
        expect(tabularRecordSchemas[type].safeParse({ ...base, [name]: value }).error?.issues ?? []).toEqual(
          [],
        );
      }
      for (const value of bad) {
        const result = tabularRecordSchemas[type].safeParse({ ...base, [name]: value });
        expect(
          result.error?.issues.map((issue) => issue.path),
          `${name} = ${JSON.stringify(value)}`,
        ).toEqual([[name]]);
      }
    });
  }
});
