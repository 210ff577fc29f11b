import { describe, expect, it } from 'vitest';
import { toRecordStoreDocument } from '../../../../src/index-mapping/record-store.document.ts';
import { nestRecord, RecordGraph } from '../../../../src/ingest/publish/assemble.ts';
import { flattenNested, flattenRow } from '../../../../src/ingest/records/flatten.ts';
import { linkFieldsOf, parentIdsOf } from '../../../../src/ingest/records/nesting.ts';
import { officialExample, officialService, syntheticServices } from '../fixtures.ts';

const SERVICE = 'ac148810-d857-441c-9679-408f346de14b';

describe('flattenNested', () => {
  it('turns the official full service into one record per object, parents implied by nesting', () => {
    const { records, issues, rejected } = flattenNested('service', officialService(), 'service_full.json');
    expect(rejected).toEqual([]);
    expect(issues).toEqual([]);
    const byKey = new Map(records.map((r) => [`${r.type}:${r.id}`, r]));
    // The official example repeats its phone under the service, its contact, its location...
    expect(records.filter((r) => r.type === 'phone').length).toBeGreaterThan(1);
    expect(new Set(records.map((r) => r.type)).size).toBe(23); // every table but meta_table_description
    expect(byKey.get('service_at_location:e94c9f38-1e8f-4564-91d4-d53501ab1765')?.record).toMatchObject({
      service_id: SERVICE,
      location_id: '3a19ff88-4620-4d17-9830-ac1d859eb5d5',
    });
    expect(byKey.get(`service:${SERVICE}`)?.record).toMatchObject({
      organization_id: 'd9d5e0f5-d3ce-4f73-9a2f-4dd0ecc6c610',
      program_id: 'e7ec2e57-4540-43fa-b2c7-6be5a0ef7f42',
    });
    expect(byKey.get(`service:${SERVICE}`)?.record).not.toHaveProperty('phones');
    expect(byKey.get('attribute:ae58cc39-8b70-4ab1-8aea-786882e5ac8e')?.record).toMatchObject({
      link_id: SERVICE,
      taxonomy_term_id: '3f7b145d-84af-42d7-8fae-eaca714b02b2',
      link_entity: 'link_entity', // stated by the example, so kept
    });
    expect(byKey.get('service_capacity:8896b788-7b3e-11ef-8db9-7f3d040352b3')?.record.unit_id).toBe(
      '8896b788-7b3e-11ef-8db9-7f3d040352b3',
    );
    // Everything it links to is inside it; the extent 'extent' is not GeoJSON, latitude 100 not a latitude.
    expect(records.flatMap((r) => r.external)).toEqual([]);
    expect(records.flatMap((r) => r.notes.map((n) => n.kind))).toContain('extent-invalid');
    expect(records.flatMap((r) => r.notes.map((n) => n.kind))).toContain('coordinates-out-of-range');
  });

  it('strict: reads null as absent, and skips a bad record with what it nests, naming field paths', () => {
    const service = {
      id: '11111111-1111-4111-8111-111111111111',
      name: 'Good service',
      status: 'active',
      alternate_name: null,
      contacts: [
        {
          id: '22222222-2222-4222-8222-222222222222',
          email: 'not an email',
          phones: [{ id: '33333333-3333-4333-8333-333333333333', number: '1' }],
        },
      ],
      service_at_locations: [
        {
          id: 'not-a-uuid',
          location: { id: '44444444-4444-4444-8444-444444444444', location_type: 'physical' },
        },
      ],
      phones: [{ id: '55555555-5555-4555-8555-555555555555' }],
    };
    const { records, issues, rejected } = flattenNested('service', service, 'x.ndjson:3', { strict: true });
    expect(records.map((r) => r.type).sort()).toEqual(['service']);
    expect(records[0]!.record).not.toHaveProperty('alternate_name');
    expect(rejected.map((r) => r.type).sort()).toEqual(['contact', 'phone', 'service_at_location']);
    // In the order of the official nesting: phones, service_at_locations, ..., contacts.
    expect(issues.map((i) => [i.kind, i.record_type, i.path, i.reason])).toEqual([
      ['invalid', 'phone', 'phones[0].number', 'required field is missing'],
      ['invalid', 'service_at_location', 'service_at_locations[0].id', 'Invalid UUID'],
      [
        'skipped-with-parent',
        'service_at_location',
        'service_at_locations[0]',
        '1 record(s) nested in this service_at_location were skipped with it',
      ],
      ['invalid', 'contact', 'contacts[0].email', 'Invalid email address'],
      [
        'skipped-with-parent',
        'contact',
        'contacts[0]',
        '1 record(s) nested in this contact were skipped with it',
      ],
    ]);
    for (const issue of issues) expect(issue.source).toBe('x.ndjson:3');
  });

  it('marks links to records the item does not contain', () => {
    const { records } = flattenNested(
      'service',
      {
        id: '11111111-1111-4111-8111-111111111111',
        name: 'Elsewhere',
        status: 'active',
        organization_id: '66666666-6666-4666-8666-666666666666',
        service_at_locations: [
          { id: '77777777-7777-4777-8777-777777777777', location_id: '88888888-8888-4888-8888-888888888888' },
        ],
      },
      'x',
    );
    expect(records.flatMap((r) => r.external)).toEqual([
      { field: 'organization_id', type: 'organization', id: '66666666-6666-4666-8666-666666666666' },
      { field: 'location_id', type: 'location', id: '88888888-8888-4888-8888-888888888888' },
    ]);
  });
});

describe('flattenRow (tabular)', () => {
  it('requires the parent ids of the tabular form and lists every link as external', () => {
    const ok = flattenRow(
      'phone',
      {
        id: '55555555-5555-4555-8555-555555555555',
        number: '01632 960000',
        service_id: '11111111-1111-4111-8111-111111111111',
      },
      'phones.csv:2',
    );
    expect(ok.records[0]!.external).toEqual([
      { field: 'service_id', type: 'service', id: '11111111-1111-4111-8111-111111111111' },
    ]);
    const bad = flattenRow(
      'service',
      { id: '11111111-1111-4111-8111-111111111111', name: 'x', status: 'active' },
      's.csv:2',
    );
    expect(bad.rejected).toEqual([{ type: 'service', id: '11111111-1111-4111-8111-111111111111' }]);
    expect(bad.issues.map((i) => [i.path, i.reason])).toEqual([
      ['organization_id', 'required field is missing'],
    ]);
  });
});

describe('ids in lower case', () => {
  // Every id and reference (`id`, `*_id`) as a publisher of upper-case UUIDs writes them.
  const shouting = <T>(value: T): T =>
    JSON.parse(
      JSON.stringify(value, (key, v) =>
        (key === 'id' || key.endsWith('_id')) && typeof v === 'string' ? v.toUpperCase() : v,
      ),
    ) as T;
  const stored = (records: { type: string; id: string; record: unknown }[]) =>
    records.map((r) => [r.type, r.id, r.record]);

  it('stores every id and reference in lower case, strict or not, one note per field changed', () => {
    const service = syntheticServices(1)[0]!;
    for (const strict of [false, true]) {
      const lower = flattenNested('service', service, 'feed.json', { strict });
      const upper = flattenNested('service', shouting(service), 'feed.json', { strict });
      expect(upper.rejected).toEqual([]);
      expect(upper.issues).toEqual([]);
      expect(stored(upper.records)).toEqual(stored(lower.records));
      const notes = upper.records.flatMap((r) => r.notes);
      expect(notes.length).toBeGreaterThan(upper.records.length);
      for (const note of notes) {
        expect(note).toMatchObject({ severity: 'info', kind: 'repaired' });
        expect(note.reason).toMatch(/^read in lower case/);
      }
      expect(notes.find((n) => n.path === 'id')).toMatchObject({
        record_id: service.id,
        value: `string "${service.id.toUpperCase()}"`,
      });
    }
  });

  it('says so beside a spaces repair, and leaves an id that is no UUID for validation', () => {
    const id = '0D2A7C1E-1111-4111-8111-111111111111';
    const row = { id: ` ${id}`, number: '01632 960000', service_id: '11111111-1111-4111-8111-11111111111A' };
    const { records } = flattenRow('phone', row, 'phones.csv:2');
    expect(records[0]!.record).toMatchObject({
      id: id.toLowerCase(),
      service_id: '11111111-1111-4111-8111-11111111111a',
    });
    expect(records[0]!.notes.find((n) => n.path === 'id')!.reason).toBe(
      'spaces removed, read in lower case (ids are stored in lower case: a UUID names one record in any case)',
    );
    const bad = flattenRow('phone', { ...row, id: 'PHONE-1' }, 'phones.csv:3', { strict: true });
    expect(bad.issues.map((i) => [i.path, i.value])).toEqual([['id', 'string "PHONE-1"']]);
  });
});

// What import stores and reindex reads back, without an engine: flatten, merge repeats the way
// import does, file under parents, nest again.
function roundTrip(service: unknown) {
  const { records } = flattenNested('service', service, 'test');
  const merged = new Map<string, (typeof records)[number]>();
  for (const r of records) {
    const key = `${r.type}:${r.id}`;
    const before = merged.get(key);
    merged.set(key, before ? { ...r, record: { ...before.record, ...r.record } } : r);
  }
  const graph = new RecordGraph();
  const docs = [...merged.values()].map((r) =>
    toRecordStoreDocument(r.type, r.id, r.record, parentIdsOf(r.type, r.record), 'test', r.geometry),
  );
  for (const doc of docs) graph.add(doc);
  const root = docs.find((d) => d.type === 'service')!;
  return nestRecord(graph, root);
}

/** The value without parent-link fields, empty arrays, and with arrays in id order. */
function normalise(value: unknown, type?: string): unknown {
  if (Array.isArray(value)) {
    return value
      .map((v) => normalise(v, type))
      .sort((a, b) => String((a as { id?: string }).id).localeCompare(String((b as { id?: string }).id)));
  }
  if (typeof value !== 'object' || value === null) return value;
  const out: Record<string, unknown> = {};
  for (const [key, v] of Object.entries(value)) {
    if (Array.isArray(v) && v.length === 0) continue;
    if (key.endsWith('_id') || key === 'link_entity' || key === 'resource_type') continue;
    out[key] = normalise(v);
  }
  return out;
}

describe('reassembly is the inverse of flattening', () => {
  it('gives back the official full service', () => {
    const original = officialService();
    expect(normalise(roundTrip(original))).toEqual(normalise(original));
  });

  it('gives back synthetic services (nested organizations gain their locations, as the spec nests them)', () => {
    for (const service of syntheticServices(25)) {
      const again = roundTrip(service) as Record<string, unknown>;
      const { organization: o1, ...rest1 } = normalise(again) as Record<string, unknown>;
      const { organization: o2, ...rest2 } = normalise(service) as Record<string, unknown>;
      expect(rest1).toEqual(rest2);
      expect(o1).toMatchObject(o2 as object);
    }
  });

  it('keeps the links of a record met under several parents', () => {
    const phone = flattenNested('service', officialExample('service_full.json'), 't').records.filter(
      (r) => r.type === 'phone',
    );
    const links = new Set(
      phone.flatMap((p) => Object.keys(p.record).filter((k) => linkFieldsOf('phone').has(k))),
    );
    expect([...links].sort()).toEqual([
      'contact_id',
      'location_id',
      'organization_id',
      'service_at_location_id',
      'service_id',
    ]);
  });
});
