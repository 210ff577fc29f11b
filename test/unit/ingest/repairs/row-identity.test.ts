import { describe, expect, it } from 'vitest';
import { flattenItems } from '../../../../src/ingest/import/validate.ts';
import { migrateId } from '../../../../src/ingest/migrate/legacy-ids.ts';
import { recordContent } from '../../../../src/ingest/repairs/record-content.ts';
import { firstOfIdLists, RowIdentities, splitIdLists } from '../../../../src/ingest/repairs/row-identity.ts';
import type { SourceItem } from '../../../../src/ingest/sources/source.ts';
import { readTabularSource } from '../../../../src/ingest/sources/tabular.source.ts';
import { validateItems } from '../../../../src/ingest/validate/validate-items.ts';

const fixtures = 'test/fixtures/real-world';

describe('RowIdentities', () => {
  it('mints an id from the content of a row without one, whatever its place in the file', () => {
    const rows = new RowIdentities();
    const row = { id: '', service_id: '136', weekday: 'Monday', opens_at: '9:00am' };
    const identity = rows.identify(row, true);
    expect(identity).toEqual({ kind: 'minted', name: recordContent(row) });
    // The same cells in another column order are the same row.
    expect(recordContent({ opens_at: '9:00am', weekday: 'Monday', service_id: '136', id: '' })).toBe(
      recordContent(row),
    );
  });

  it('keeps the first row of an id, tells later rows with other content apart, and lets repeats be', () => {
    const rows = new RowIdentities();
    const english = { id: '136', location_id: '136', language: 'English' };
    const spanish = { id: '136', location_id: '136', language: 'Spanish' };
    expect(rows.identify(english, true)).toBeUndefined();
    expect(rows.identify({ ...english }, true)).toBeUndefined();
    expect(rows.identify(spanish, true)).toEqual({
      kind: 'copy',
      original: '136',
      name: recordContent(spanish),
    });
    // Tables not split (a service met twice) keep the import's duplicate rule.
    expect(rows.identify(spanish, false)).toBeUndefined();
    // Ids are told apart within one table.
    rows.startTable();
    expect(rows.identify(spanish, true)).toBeUndefined();
  });

  it('splits a link column listing several ids, one row for each', () => {
    const parts = splitIdLists({ id: '2', service_id: 'a1, b2,c3', number: '555' });
    expect(parts?.map((p) => p.row)).toEqual([
      { id: '2', service_id: 'a1', number: '555' },
      { id: '2', service_id: 'b2', number: '555' },
      { id: '2', service_id: 'c3', number: '555' },
    ]);
    expect(parts?.[1]?.repair).toMatchObject({
      field: 'service_id',
      found: 'a1, b2,c3',
      action: 'a list of 3 ids: one record for each (this one for b2, 2 of 3)',
    });
    expect(splitIdLists({ id: '2', service_id: 'a1', description: 'Mon, Tue' })).toBeUndefined();
  });

  it('splits each listing column into records of one link each', () => {
    const parts = splitIdLists({ id: '2', service_id: 'a1,b2', location_id: 'x9,y8', contact_id: 'c1' });
    expect(parts?.map((p) => p.row)).toEqual([
      { id: '2', service_id: 'a1', contact_id: 'c1' },
      { id: '2', service_id: 'b2', contact_id: 'c1' },
      { id: '2', location_id: 'x9', contact_id: 'c1' },
      { id: '2', location_id: 'y8', contact_id: 'c1' },
    ]);
  });

  it('puts the links a phone gives singly on its first record only, so each shows it once', () => {
    const row = { id: '4', service_id: 'a1,b2', location_id: 'x9', organization_id: 'o1', contact_id: '' };
    const parts = splitIdLists(row, { linksOnce: true });
    expect(parts?.map((p) => p.row)).toEqual([
      { id: '4', service_id: 'a1', location_id: 'x9', organization_id: 'o1', contact_id: '' },
      { id: '4', service_id: 'b2', contact_id: '' },
    ]);
    expect(parts?.[1]?.repair.action).toBe(
      'a list of 2 ids: one record for each (this one for b2, 2 of 2); location_id, organization_id on the first record only (each link shows it once)',
    );
    // Hours keep them: a schedule for a service at a location is that service's hours there.
    expect(splitIdLists(row)?.[1]?.row).toEqual({ ...row, service_id: 'b2' });
  });

  it('reads the first of a list where a record has room for one id, and warns of the others', () => {
    expect(firstOfIdLists({ id: '14', organization_id: 'o1, o2', name: 'Meals' })).toEqual({
      row: { id: '14', organization_id: 'o1', name: 'Meals' },
      repairs: [
        expect.objectContaining({
          field: 'organization_id',
          severity: 'warning',
          action: 'a list of 2 ids where HSDS has room for one: read as the first, o1 (not linked: o2)',
        }),
      ],
    });
    expect(firstOfIdLists({ id: '14', organization_id: 'o1' })).toBeUndefined();
  });
});

async function readPackage(path: string) {
  const items: SourceItem[] = [];
  for await (const item of readTabularSource(path)) items.push(item);
  const records = flattenItems(items, {}).flatMap((f) => f?.records ?? []);
  const report = await validateItems(readTabularSource(path), { source: path, kind: 'tabular' });
  return { records, report };
}

describe('an HSDS 1.1 package as Miami publishes it (legacy-rows-miami)', () => {
  it('keeps every schedule row without an id, each with a stable id, and reads its day and times', async () => {
    const { records, report } = await readPackage(`${fixtures}/legacy-rows-miami`);
    // 10 rows, two of them alike in every cell, one giving its day two spans of hours: 10 schedules.
    expect(report.by_type.schedule).toEqual({ kept: 10, repaired: 10, rejected: 0 });
    const schedules = records.filter((r) => r.type === 'schedule');
    expect(schedules[0]?.record).toMatchObject({
      freq: 'WEEKLY',
      byday: 'MO',
      opens_at: '09:00',
      closes_at: '17:00',
    });
    expect(schedules[0]?.notes[0]?.reason).toMatch(
      /^no id: given [0-9a-f-]{36}, the UUID v5 of its table and content/,
    );
    // Read again: the same ids.
    const again = await readPackage(`${fixtures}/legacy-rows-miami`);
    expect(again.records.filter((r) => r.type === 'schedule').map((r) => r.id)).toEqual(
      schedules.map((r) => r.id),
    );
  });

  it("reads hours written only in original_text: one schedule per span of the row's day", async () => {
    const { records } = await readPackage(`${fixtures}/legacy-rows-miami`);
    const tenant = records.filter(
      (r) => r.type === 'schedule' && r.record.service_id === migrateId('service', '219'),
    );
    const text = 'Clinic:\\n8:30amGÇô12:00pm & 1:00pm-3:00pm, Tue-Fri\\n9:00am-1:00pm, Sat';
    expect(tenant.map((r) => [r.record.byday, r.record.opens_at, r.record.closes_at])).toEqual([
      ['TU', '08:30', '12:00'],
      ['TU', '13:00', '15:00'],
      ['SA', '09:00', '13:00'],
      // Not a span of hours anyone can trust: kept as published, without times.
      ['SU', undefined, undefined],
    ]);
    // The text is kept on every record, and each reading is a repair.
    expect(tenant.slice(0, 3).every((r) => r.record.original_text === text)).toBe(true);
    expect(tenant[1]?.notes.map((n) => n.reason)).toContainEqual(
      expect.stringMatching(/^no opens_at\/closes_at: read from the text as TU 13:00-15:00 \(span 2 of 2/),
    );
    // Each span its own stable id.
    expect(new Set(tenant.map((r) => r.id)).size).toBe(4);
    const again = await readPackage(`${fixtures}/legacy-rows-miami`);
    expect(
      again.records
        .filter((r) => r.type === 'schedule' && r.record.service_id === migrateId('service', '219'))
        .map((r) => r.id),
    ).toEqual(tenant.map((r) => r.id));
  });

  it('keeps each language of a location although the feed gives them one id', async () => {
    const { records, report } = await readPackage(`${fixtures}/legacy-rows-miami`);
    expect(report.by_type.language).toEqual({ kept: 4, repaired: 2, rejected: 0 });
    const names = records.filter((r) => r.type === 'language').map((r) => r.record.name);
    expect(new Set(names)).toEqual(new Set(['English', 'Spanish', 'Haitian Creole']));
  });
});

describe('HSDS 2.0-style CSVs as DC publishes them (hsds-2.0-shared-schedules)', () => {
  it('keeps a schedule shared by several services for each, and splits id lists', async () => {
    const { records, report } = await readPackage(`${fixtures}/hsds-2.0-shared-schedules`);
    // 7 rows: id 44 for two services, one row listing two services.
    expect(report.by_type.schedule).toEqual({ kept: 8, repaired: 8, rejected: 0 });
    // Phone 2 lists 3 services and 2 locations: 5 records, one link each; phone 3 (a number among
    // its languages) is repaired; phone 4 lists 2 services: 2 records.
    expect(report.by_type.phone).toEqual({ kept: 9, repaired: 8, rejected: 0 });
    const linked = (type: string, field: string) =>
      new Set(
        records.filter((r) => r.type === type && r.record[field] !== undefined).map((r) => r.record[field]),
      ).size;
    expect(linked('phone', 'service_id')).toBe(4);
    expect(linked('phone', 'location_id')).toBe(2);
    // Phone 4's lone location and organization are on one of its records, not on both.
    const phone4 = records.filter((r) => r.type === 'phone' && r.record.number === '(202) 555-0104');
    expect(phone4.map((r) => [r.record.location_id, r.record.organization_id])).toEqual([
      [migrateId('location', '700000000000021'), migrateId('organization', '700000000000001')],
      [undefined, undefined],
    ]);
    expect(linked('schedule', 'service_id')).toBe(4);
  });

  it('reads the first organization of a service that lists two, with a warning', async () => {
    const { records } = await readPackage(`${fixtures}/hsds-2.0-shared-schedules`);
    const service = records.find(
      (r) => r.type === 'service' && r.id === migrateId('service', '700000000000014'),
    );
    expect(service?.record.organization_id).toBe(migrateId('organization', '700000000000001'));
    expect(service?.notes).toContainEqual(
      expect.objectContaining({ kind: 'repaired', severity: 'warning', path: 'organization_id' }),
    );
  });

  it('gives every schedule an opening day and time', async () => {
    const { records } = await readPackage(`${fixtures}/hsds-2.0-shared-schedules`);
    const schedules = records.filter((r) => r.type === 'schedule').map((r) => r.record);
    expect(schedules.every((s) => typeof s.opens_at === 'string' && typeof s.closes_at === 'string')).toBe(
      true,
    );
    // All but the one that names no day (valid_from/valid_to times only).
    expect(schedules.filter((s) => typeof s.byday === 'string')).toHaveLength(7);
  });
});

describe('Miami: services whose organization the feed names as a site, or without a description', () => {
  it('gives each service the organization the feed means', async () => {
    const { records, report } = await readPackage(`${fixtures}/legacy-rows-miami`);
    expect(report.by_type.organization).toEqual({ kept: 3, repaired: 0, rejected: 0 });
    const service = (id: string) =>
      records.find((r) => r.type === 'service' && r.id === migrateId('service', id));
    // 219 names 218, a service (the north office), whose organization is 217.
    expect(service('219')?.record.organization_id).toBe(migrateId('organization', '217'));
    expect(service('219')?.notes.map((n) => n.reason)).toContain(
      'names service 218 (a site of its organization), not an organization: read as 217, the organization of that service',
    );
    expect(service('218')?.record.organization_id).toBe(migrateId('organization', '217'));
    // 224's organization has no description: kept, its name as one.
    expect(service('224')?.record.organization_id).toBe(migrateId('organization', '224'));
    const organizations = new Set(records.filter((r) => r.type === 'organization').map((r) => r.id));
    for (const r of records.filter((r) => r.type === 'service'))
      expect(organizations.has(String(r.record.organization_id)), r.id).toBe(true);
  });
});

describe('a --strict import', () => {
  it('reads rows as published: no id minted, no row split', async () => {
    const path = `${fixtures}/hsds-2.0-shared-schedules`;
    const report = await validateItems(readTabularSource(path, { strict: true }), {
      source: path,
      kind: 'tabular',
      strict: true,
    });
    // No row split, no id made: 4 phones (kept or rejected as published), no such repair noted.
    const phones = report.by_type.phone;
    expect((phones?.kept ?? 0) + (phones?.rejected ?? 0)).toBe(4);
    expect(report.issues.filter((i) => /record of its own|a list of|no id: given/.test(i.reason))).toEqual(
      [],
    );
    const miami = `${fixtures}/legacy-rows-miami`;
    const strict = await validateItems(readTabularSource(miami, { strict: true }), {
      source: miami,
      kind: 'tabular',
      strict: true,
    });
    expect(strict.by_type.schedule).toEqual({ kept: 0, repaired: 0, rejected: 10 });
  });
});
