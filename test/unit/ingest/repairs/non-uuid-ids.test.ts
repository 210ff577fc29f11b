import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { migrateId } from '../../../../src/ingest/migrate/legacy-ids.ts';
import { flattenNested, flattenRow } from '../../../../src/ingest/records/flatten.ts';
import { validateBody, WriteRejectedError } from '../../../../src/ingest/write/write.ts';

const feed = JSON.parse(readFileSync('test/fixtures/real-world/numeric-ids.json', 'utf8')) as unknown[];
const flattenFeed = (strict = false) =>
  feed.map((org, i) => flattenNested('organization', org, `numeric-ids.json[${i}]`, { strict }));

describe('ids that are not UUIDs (test/fixtures/real-world/numeric-ids.json)', () => {
  it('keeps every organization and all 18 services, which --strict rejects', () => {
    const lenient = flattenFeed();
    const count = (type: string) =>
      new Set(lenient.flatMap((f) => f.records.filter((r) => r.type === type).map((r) => r.id))).size;
    expect(lenient.flatMap((f) => f.rejected)).toEqual([]);
    expect(count('organization')).toBe(10);
    expect(count('service')).toBe(18);
    expect(count('location')).toBe(10);
    expect(count('address')).toBe(10);
    const strict = flattenFeed(true);
    expect(strict.flatMap((f) => f.records)).toEqual([]);
    expect(strict.flatMap((f) => f.rejected.filter((r) => r.type === 'organization'))).toHaveLength(10);
  });

  it('maps an id and every reference to it to the same UUID v5 of type:id, noting the repair', () => {
    const [first] = flattenFeed();
    const byKey = new Map(first!.records.map((r) => [`${r.type}:${r.id}`, r]));
    const service = byKey.get(`service:${migrateId('service', '240')}`);
    expect(service?.record).toMatchObject({ organization_id: migrateId('organization', '100') });
    expect(byKey.get(`organization:${migrateId('organization', '100')}`)).toBeDefined();
    expect(byKey.get(`service_at_location:${migrateId('service_at_location', '700')}`)?.record).toMatchObject(
      {
        service_id: service?.id,
        location_id: migrateId('location', '300'),
      },
    );
    expect(byKey.get(`phone:${migrateId('phone', '500')}`)?.record).toMatchObject({
      service_id: service?.id,
    });
    // The id was a list of one: both repairs are one note on the field.
    expect(service?.notes.find((n) => n.path === 'services[0].id')).toMatchObject({
      severity: 'info',
      kind: 'repaired',
      value: 'an array of 1',
      reason: expect.stringMatching(
        /^a list of one where a single value belongs: read as its value, not a UUID: mapped to [0-9a-f-]{36}, the UUID of service "240"/,
      ),
    });
    expect(service?.notes.find((n) => n.path === 'services[0].organization_id')).toMatchObject({
      value: 'string "100"',
    });
  });

  it('keeps the original id in a metadata record of the mapped record', () => {
    const [first] = flattenFeed();
    const id = migrateId('service', '240');
    const metadata = first!.records.filter((r) => r.type === 'metadata' && r.record.resource_id === id);
    expect(metadata.map((m) => m.record)).toEqual([
      expect.objectContaining({
        resource_type: 'service',
        field_name: 'id',
        previous_value: '240',
        replacement_value: id,
        last_action_type: 'id migrated',
        last_action_date: '2025-03-01',
      }),
    ]);
    // Importing again writes the same record: its id and date depend on the feed only.
    expect(flattenFeed()[0]!.records.find((r) => r.id === metadata[0]!.id)?.record).toEqual(
      metadata[0]!.record,
    );
  });

  it('reads an unambiguous misspelt collection (`addresss`) as the collection, with a warning', () => {
    const [first] = flattenFeed();
    const location = first!.records.find((r) => r.type === 'location')!;
    expect(first!.records.find((r) => r.type === 'address')?.record).toMatchObject({
      location_id: location.id,
      postal_code: 'AB10 1AB',
    });
    expect(location.notes.find((n) => n.path === 'locations[0].addresss')).toMatchObject({
      severity: 'warning',
      kind: 'repaired',
      reason: 'a misspelt collection: read as `addresses`',
    });
  });

  it('maps numbers, link_id by its link_entity, and tabular rows alike; leaves UUIDs and strict imports alone', () => {
    const service = {
      id: 17,
      name: 'Lunch club',
      status: 'active',
      attributes: [{ id: '9', taxonomy_term_id: '33', link_id: '17', link_entity: 'service' }],
      phones: [{ id: '0a000000-0000-4000-8000-000000000001', number: '1' }],
    };
    const { records, rejected } = flattenNested('service', service, 'x.json');
    expect(rejected).toEqual([]);
    const attribute = records.find((r) => r.type === 'attribute');
    expect(attribute?.record).toMatchObject({
      link_id: migrateId('service', '17'),
      taxonomy_term_id: migrateId('taxonomy_term', '33'),
    });
    expect(records.find((r) => r.type === 'phone')?.id).toBe('0a000000-0000-4000-8000-000000000001');
    const row = flattenRow('phone', { id: '5', service_id: '17', number: '1' }, 'phones.csv:2');
    expect(row.records.map((r) => [r.type, r.record.service_id ?? r.record.previous_value])).toEqual([
      ['phone', migrateId('service', '17')],
      ['metadata', '5'],
    ]);
    expect(row.records[0]!.id).toBe(migrateId('phone', '5'));
    expect(flattenNested('service', service, 'x.json', { strict: true }).records).toEqual([]);
  });

  it('leaves ids alone when told to (the write API refuses an id that is no UUID)', () => {
    const service = { id: '240', name: 'Lunch club', status: 'active', phones: [{ id: '5', number: '1' }] };
    const { records, issues, rejected } = flattenNested('service', service, 'PUT', { mapIds: false });
    expect(records).toEqual([]);
    expect(rejected).toEqual([{ type: 'service', id: '240' }]);
    expect(issues[0]).toMatchObject({ path: 'id', reason: 'Invalid UUID', value: 'string "240"' });
    const row = flattenRow('phone', { id: '5', number: '1' }, 'phones.csv:2', { mapIds: false });
    expect(row.rejected).toEqual([{ type: 'phone', id: '5' }]);
  });

  it('makes a write (PUT) with an id that is no UUID a refusal naming the field, not a record under another id', () => {
    const body = { id: '240', name: 'Lunch club', status: 'active' };
    expect(() => validateBody('service', '240', body)).toThrow(WriteRejectedError);
    try {
      validateBody('service', '240', { ...body });
    } catch (error) {
      expect((error as WriteRejectedError).issues[0]).toMatchObject({ path: 'id', reason: 'Invalid UUID' });
    }
  });

  it('does not read a misspelt key as a collection when it could mean two keys or the collection is there', () => {
    const location = {
      id: '0b000000-0000-4000-8000-000000000001',
      location_type: 'physical',
      addresses: [],
      addresss: [{ id: '0b000000-0000-4000-8000-000000000002' }],
    };
    const { records, issues } = flattenNested('location', location, 'x.json');
    expect(records.filter((r) => r.type === 'address')).toEqual([]);
    expect(issues.concat(records.flatMap((r) => r.notes)).find((n) => n.path === 'addresss')).toMatchObject({
      kind: 'dropped-field',
    });
  });
});
