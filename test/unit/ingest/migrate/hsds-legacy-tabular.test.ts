import { describe, expect, it } from 'vitest';
import { recordTypes, tabularRecordSchemas } from '../../../../src/hsds/index.ts';
import { coerceTabularRow } from '../../../../src/hsds/tabular.schema.ts';
import {
  collectFolded,
  createLegacyContext,
  isLegacyPackage,
  type LegacyTable,
  migrateLegacyRow,
  toByDay,
} from '../../../../src/ingest/migrate/hsds-legacy-tabular.ts';
import { migrateId } from '../../../../src/ingest/migrate/legacy-ids.ts';

const migrate = (table: LegacyTable, row: Record<string, string>) => {
  const context = createLegacyContext('2024-05-01');
  return { rows: migrateLegacyRow(table, row, context), notes: context.notes.entries() };
};

/** Every migrated row must pass the 3.1 tabular schema of its table. */
const expectValid = (rows: ReturnType<typeof migrateLegacyRow>) => {
  for (const { type, row } of rows) {
    expect(recordTypes).toContain(type);
    const result = tabularRecordSchemas[type].safeParse(coerceTabularRow(type, row));
    expect(result.error?.issues ?? []).toEqual([]);
  }
};

describe('telling an HSDS 1.x/2.0 package', () => {
  it('from the descriptor version or a table only old versions have', () => {
    expect(isLegacyPackage(['organizations.csv', 'services.csv'], '1.1')).toBe(true);
    expect(isLegacyPackage(['a/organizations.csv', 'a/services_at_location.csv'])).toBe(true);
    expect(isLegacyPackage(['physical_addresses.csv'])).toBe(true);
    expect(isLegacyPackage(['services.csv', 'service_at_location.csv', 'schedules.csv'], '3.1')).toBe(false);
    expect(isLegacyPackage(['organizations.csv', 'service_at_location.csv', 'taxonomies.csv'])).toBe(false);
  });
});

describe('migrating HSDS 1.1 rows', () => {
  it('gives a service a UUID, its organization reference the same UUID as the organization', () => {
    const org = migrate('organization', {
      id: '1',
      name: 'Riverside Food Bank',
      description: 'Food.',
      url: 'https://food.example.org',
    });
    const service = migrate('service', { id: '101', organization_id: '1', name: 'Pantry', status: '' });
    expectValid([...org.rows, ...service.rows]);
    const [orgRow] = org.rows;
    const [serviceRow, metadata] = service.rows;
    expect(orgRow?.row).toMatchObject({
      id: migrateId('organization', '1'),
      website: 'https://food.example.org',
    });
    expect(serviceRow?.row).toMatchObject({
      id: migrateId('service', '101'),
      organization_id: orgRow?.row.id,
      status: 'active',
    });
    expect(metadata).toEqual({
      type: 'metadata',
      row: expect.objectContaining({ resource_id: serviceRow?.row.id, previous_value: '101' }),
    });
    expect(service.notes.map(([note]) => note)).toContain(
      'service: empty status set to active (HSDS 3.1 requires one)',
    );
  });

  it('folds eligibility and payment_accepted into the service', () => {
    const context = createLegacyContext('2024-05-01');
    collectFolded('eligibility', { id: '1', service_id: '101', eligibility: 'Residents' }, context);
    collectFolded('eligibility', { id: '2', service_id: '101', eligibility: 'Low income' }, context);
    collectFolded('payment_accepted', { id: '1', service_id: '101', payment: 'Cash' }, context);
    const [service] = migrateLegacyRow(
      'service',
      { id: '101', organization_id: '1', name: 'Pantry', status: 'active', fees: 'Free' },
      context,
    );
    expect(service?.row).toMatchObject({
      eligibility_description: 'Residents; Low income',
      fees_description: 'Free Payment accepted: Cash.',
    });
  });

  it('turns addresses into 3.1 addresses that do not collide between physical and postal', () => {
    const row = {
      id: '1',
      location_id: '11',
      address_1: '1 Main St',
      address_3: 'Dock',
      address_4: 'Rear',
      city: 'X',
      state_province: 'CA',
      postal_code: '1',
      country: 'US',
    };
    const physical = migrate('physical_address', row).rows;
    const postal = migrate('postal_address', row).rows;
    expectValid([...physical, ...postal]);
    expect(physical[0]?.row).toMatchObject({
      address_type: 'physical',
      address_2: 'Dock, Rear',
      location_id: migrateId('location', '11'),
    });
    expect(physical[0]?.row).not.toHaveProperty('address_3');
    expect(postal[0]?.row.address_type).toBe('postal');
    expect(postal[0]?.row.id).not.toBe(physical[0]?.row.id);
  });

  it('makes a schedule of each span of hours a row writes only in original_text', () => {
    const row = {
      id: '7',
      service_id: '101',
      weekday: 'Wednesday',
      opens_at: '',
      closes_at: '',
      original_text: '9:00am-1:00pm / 2:00pm-6:00pm, Mon, Wed;\\n8:30am-12:30pm, Sat',
    };
    const { rows, notes } = migrate('regular_schedule', row);
    const schedules = rows.filter((r) => r.type === 'schedule');
    expect(schedules.map((r) => [r.row.byday, r.row.opens_at, r.row.closes_at])).toEqual([
      ['WE', '09:00', '13:00'],
      ['WE', '14:00', '18:00'],
    ]);
    // The row's own id for the first span; the second its own, the same on every import, with
    // its original id in a metadata record like the first.
    expect(schedules[0]?.row.id).toBe(migrateId('schedule:regular', '7'));
    expect(schedules[1]?.row.id).not.toBe(schedules[0]?.row.id);
    expect(migrate('regular_schedule', row).rows.map((r) => r.row.id)).toEqual(rows.map((r) => r.row.id));
    expect(rows.filter((r) => r.type === 'metadata').map((r) => r.row.resource_id)).toEqual(
      schedules.map((r) => r.row.id).reverse(),
    );
    expect(schedules.every((r) => r.row.original_text === row.original_text)).toBe(true);
    expect(schedules.every((r) => r.repairs?.[0]?.field === 'original_text')).toBe(true);
    expect(notes.map(([note]) => note)).toContain(
      'regular_schedule.original_text → opens_at, closes_at (one schedule per span of hours)',
    );
    expectValid(rows);
    // Read as published (a strict import): one record, no times.
    const strict = createLegacyContext('2024-05-01', { asPublished: true });
    const asPublished = migrateLegacyRow('regular_schedule', row, strict).filter(
      (r) => r.type === 'schedule',
    );
    expect(asPublished.map((r) => r.row.opens_at)).toEqual([undefined]);
  });

  it('turns regular and holiday schedules into 3.1 schedules', () => {
    const [regular] = migrate('regular_schedule', {
      id: '1',
      service_id: '101',
      weekday: 'Monday',
      opens_at: '09:00',
      closes_at: '12:00',
    }).rows;
    expect(regular?.row).toMatchObject({ freq: 'WEEKLY', byday: 'MO', opens_at: '09:00' });
    const [holiday] = migrate('holiday_schedule', {
      id: '1',
      service_id: '101',
      closed: 'true',
      start_date: '2024-12-24',
      end_date: '2024-12-26',
    }).rows;
    expect(holiday?.row).toMatchObject({
      valid_from: '2024-12-24',
      valid_to: '2024-12-26',
      description: 'Closed',
    });
    expect(holiday?.row.id).not.toBe(regular?.row.id);
    expectValid([regular!, holiday!]);
    expect([toByDay('3'), toByDay('7'), toByDay('0'), toByDay('sat'), toByDay('someday')]).toEqual([
      'WE',
      'SU',
      'SU',
      'SA',
      undefined,
    ]);
  });

  it('turns taxonomy and services_taxonomy into terms and attributes that point at them', () => {
    const [term] = migrate('taxonomy', {
      id: 'BD-1800',
      name: 'Food',
      parent_id: 'BD',
      parent_name: 'Basic Needs',
      vocabulary: 'AIRS',
    }).rows;
    const [attribute] = migrate('service_taxonomy', {
      id: '1',
      service_id: '101',
      taxonomy_id: 'BD-1800',
      taxonomy_detail: 'Seasonal',
    }).rows;
    expectValid([term!, attribute!]);
    expect(term?.row).toMatchObject({
      name: 'Food',
      description: 'Food',
      taxonomy: 'AIRS',
      parent_id: migrateId('taxonomy_term', 'BD'),
    });
    expect(attribute?.row).toMatchObject({
      link_id: migrateId('service', '101'),
      link_entity: 'service',
      taxonomy_term_id: term?.row.id,
      value: 'Seasonal',
    });
  });

  it('gives a phone its languages and a location a location_type', () => {
    const phone = migrate('phone', {
      id: '5',
      service_id: '101',
      number: '555',
      language: 'en, Spanish',
      department: 'Admin',
    }).rows;
    expectValid(phone);
    expect(phone.filter((r) => r.type === 'language').map((r) => r.row)).toEqual([
      expect.objectContaining({ code: 'en', phone_id: phone[0]?.row.id }),
      expect.objectContaining({ name: 'Spanish', phone_id: phone[0]?.row.id }),
    ]);
    expect(phone[0]?.row).not.toHaveProperty('department');
    const [location] = migrate('location', { id: '11', name: 'Warehouse' }).rows;
    expect(location?.row.location_type).toBe('physical');
  });

  it("does not make a language of a number in a phone's language list (an id into a languages table)", () => {
    const phone = migrate('phone', {
      id: '7',
      service_id: '101',
      number: '555',
      language: '136, Spanish,139',
    }).rows;
    expectValid(phone);
    expect(phone.filter((r) => r.type === 'language').map((r) => r.row)).toEqual([
      expect.objectContaining({ name: 'Spanish', phone_id: phone[0]?.row.id }),
    ]);
    expect(phone[0]?.repairs).toEqual([
      expect.objectContaining({
        field: 'language',
        found: '136, Spanish,139',
        effect: 'dropped',
        severity: 'warning',
        action: expect.stringContaining('136, 139: numbers (ids into a languages table)'),
      }),
    ]);
    const only = migrate('phone', { id: '8', service_id: '101', number: '555', language: '136,' }).rows;
    expect(only.filter((r) => r.type === 'language')).toEqual([]);
    expect(only[0]?.repairs?.[0]?.action).toMatch(/^136: a number/);
  });

  it('reads the 2.0 taxonomy_terms and service_attributes', () => {
    const [term] = migrate('taxonomy_term', {
      id: 'health',
      term: 'Health',
      taxonomy: 'Open Eligibility',
    }).rows;
    const [attribute] = migrate('service_attribute', {
      id: 'sa-1',
      service_id: 'svc-1',
      taxonomy_term_id: 'health',
    }).rows;
    expectValid([term!, attribute!]);
    expect(attribute?.row.taxonomy_term_id).toBe(term?.row.id);
  });

  it('leaves a row without an id for validation to report', () => {
    const [service] = migrate('service', {
      id: '',
      organization_id: '1',
      name: 'No id',
      status: 'active',
    }).rows;
    expect(service?.row).not.toHaveProperty('id');
  });
});

describe('an HSDS 1.1 organization without a description (Miami 211)', () => {
  it('is kept, its name as its description, so its services keep their organization', () => {
    const { rows, notes } = migrate('organization', { id: '1532', name: 'I & R HOTLINES', description: '' });
    expectValid(rows);
    expect(rows[0]?.row).toMatchObject({ name: 'I & R HOTLINES', description: 'I & R HOTLINES' });
    expect(notes).toContainEqual([
      "organization: no description; the organization's name is used (HSDS 3.1 requires one)",
      1,
    ]);
  });
});
