/**
 * Record-level repairs of real feeds (issue 50): each fixture of test/fixtures/real-world (see its
 * README) reproduces one publisher's pattern; read as import reads it, what is kept and what the
 * report says.
 */
import { describe, expect, it } from 'vitest';
import { flattenNested, flattenRow } from '../../../../src/ingest/records/flatten.ts';
import { nestedKeysOf } from '../../../../src/ingest/records/nesting.ts';
import { applyLeniency } from '../../../../src/ingest/repairs/leniency.ts';
import { validateLocation } from '../../../../src/ingest/validate/validate-source.ts';

const realWorld = 'test/fixtures/real-world';
const SERVICE = '11111111-1111-4111-8111-111111111111';

const reasons = (issues: { record_type?: string; path: string; reason: string }[], field: string) =>
  issues.filter((i) => i.path === field || i.path.endsWith(`.${field}`)).map((i) => i.reason);

describe('a transformer\'s "HSDS 3" (wrapped-ids.json)', () => {
  it('unwraps `"id": [{"id": ...}]`, sets a missing status, location_type and address_type, keeps all', async () => {
    const report = await validateLocation(`${realWorld}/wrapped-ids.json`);
    expect(report.rejected).toBe(0);
    expect(report.by_type).toMatchObject({
      service: { kept: 3, rejected: 0 },
      location: { kept: 2, rejected: 0 },
      phone: { kept: 3, rejected: 0 },
      address: { kept: 1, rejected: 0 },
    });
    expect(reasons(report.issues, 'id').filter((r) => r.startsWith('a value wrapped'))).toHaveLength(3);
    expect(reasons(report.issues, 'status')).toEqual(
      Array(3).fill(
        'missing: set to "active" (HSDS requires it; a service the publisher lists is taken to be active)',
      ),
    );
    expect(reasons(report.issues, 'location_type')).toHaveLength(2);
    expect(reasons(report.issues, 'address_type')).toHaveLength(1);
  });

  it('the wrapped id maps to the same UUID as the bare one, so references agree', () => {
    const wrapped = flattenNested('service', { id: [{ id: '9401' }], name: 'x' }, 'x.json');
    const bare = flattenNested('service', { id: '9401', name: 'x' }, 'x.json');
    expect(wrapped.records[0]!.id).toBe(bare.records[0]!.id);
    // A list of one object with other keys is a record, not a wrapped value: left for validation.
    const other = flattenNested('service', { id: [{ id: '9401', name: 'y' }], name: 'x' }, 'x.json');
    expect(other.rejected).toHaveLength(1);
  });

  it('strict imports still reject them', async () => {
    const report = await validateLocation(`${realWorld}/wrapped-ids.json`, { strict: true });
    expect(report.by_type.service?.kept ?? 0).toBe(0);
  });
});

describe('ORUK 1.0 extensions and dates (oruk-1.0-extensions.json)', () => {
  it("keeps object and list extensions as published, and the publisher's modified date", () => {
    const items = [
      {
        id: '3f0c2a4e-1b7d-4e58-9a61-0c2d5e7f8a90',
        name: 'Lunch club',
        status: 'active',
        deliverable_type: '',
        pc_metadata: { date_created: '2020-03-02', date_modified: '2021-01-06' },
        pc_targetAudience: [{ id: 'OlderPeople', audienceType: 'Older people' }],
      },
    ];
    const flat = flattenNested('service', items[0], 'x.json');
    expect(flat.records[0]!.record).toMatchObject({
      pc_metadata: { date_created: '2020-03-02', date_modified: '2021-01-06' },
      pc_targetAudience: [{ id: 'OlderPeople', audienceType: 'Older people' }],
    });
  });

  it('reads the feed: both services kept with their extensions and pc_metadata.date_modified', async () => {
    const report = await validateLocation(`${realWorld}/oruk-1.0-extensions.json`);
    expect(report).toMatchObject({
      verdict: 'importable-with-repairs',
      importable: true,
      records: 3,
      rejected: 0,
    });
    expect(report.issues.filter((i) => i.kind === 'dropped-field')).toEqual([]);
    expect(reasons(report.issues, 'last_modified')).toEqual([
      'read as 2021-01-06T00:00:00Z',
      'read as 2023-11-30T00:00:00Z',
    ]);
    expect(report.issues.map((i) => i.reason)).toContain(
      "service: pc_metadata.date_modified → last_modified (the publisher's own date) (2 records)",
    );
  });

  it("takes a service's latest metadata last_action_date when it has no last_modified", () => {
    const flat = flattenNested(
      'service',
      {
        id: SERVICE,
        name: 'x',
        status: 'active',
        metadata: [
          {
            id: '22222222-2222-4222-8222-222222222222',
            resource_id: SERVICE,
            resource_type: 'service',
            last_action_date: '2023-02-01',
            last_action_type: 'update',
            field_name: 'name',
            previous_value: 'y',
            replacement_value: 'x',
            updated_by: 'editor',
          },
          {
            id: '33333333-3333-4333-8333-333333333333',
            resource_id: SERVICE,
            resource_type: 'service',
            last_action_date: '2022-06-30',
            last_action_type: 'create',
            field_name: '',
            previous_value: '',
            replacement_value: '',
            updated_by: 'editor',
          },
        ],
      },
      'x.json',
    );
    expect(flat.records[0]!.record.last_modified).toBe('2023-02-01T00:00:00Z');
    expect(flat.records[0]!.notes.find((n) => n.path === 'last_modified')?.reason).toMatch(
      /latest last_action_date of its metadata/,
    );
  });
});

describe('an HSDS 1.1 package with a blank country, bare domains and mojibake (mojibake-blank-country-1.1)', () => {
  it('infers the country from the postal code, else DEFAULT_COUNTRY; never drops the address for it', async () => {
    const without = await validateLocation(`${realWorld}/mojibake-blank-country-1.1`);
    expect(without.by_type.address).toMatchObject({ kept: 2, rejected: 1 }); // K1A 0B1: neither US nor UK
    const withDefault = await validateLocation(`${realWorld}/mojibake-blank-country-1.1`, {
      defaultCountry: 'CA',
    });
    expect(withDefault.by_type.address).toMatchObject({ kept: 3, rejected: 0 });
    expect(reasons(withDefault.issues, 'country')).toEqual([
      'no country: read as "US" from the postal code\'s shape',
      'no country: read as "GB" from the postal code\'s shape',
      'no country: set to "CA" (DEFAULT_COUNTRY)',
    ]);
  });

  it('gives bare domains https://, not e-mail addresses', async () => {
    const report = await validateLocation(`${realWorld}/mojibake-blank-country-1.1`);
    const bare = report.issues
      .filter((i) => i.reason === 'a bare domain: https:// added')
      .map((i) => i.value);
    expect(bare).toEqual(['string "bayside-legal.org"', 'string "baysidelegal.org/victims"']);
    expect(reasons(report.issues, 'url')).toContain('Invalid URI: dropped, the record is kept');
  });

  it('repairs mojibake in text fields and reports it; clean text pays nothing', async () => {
    const report = await validateLocation(`${realWorld}/mojibake-blank-country-1.1`);
    const repaired = report.issues.filter((i) => i.reason.startsWith('mojibake repaired'));
    expect(repaired.map((i) => `${i.record_type}.${i.path}`)).toEqual([
      'organization.description',
      'organization.name',
      'organization.description',
      'service.description',
      'service.name',
      'service.description',
    ]);
    const row = flattenRow(
      'organization',
      { id: SERVICE, name: 'Centro Hispano L+ízaro', description: 'The directorGÇÖs office.' },
      'organizations.csv:2',
    );
    expect(row.records[0]!.record).toMatchObject({
      name: 'Centro Hispano Lázaro',
      description: 'The director’s office.',
    });
  });

  it('applies to JSON too, and leaves clean records untouched', () => {
    const fields = {
      id: SERVICE,
      name: 'Night shelter',
      status: 'active',
      url: 'https://example.org',
      description: 'Beds for the night.',
    };
    expect(applyLeniency('service', { ...fields }, true, nestedKeysOf('service'))).toBeUndefined();
    const email = { ...fields, url: 'help@example.org' };
    applyLeniency('service', email, true, nestedKeysOf('service'));
    expect(email.url).toBe('help@example.org'); // left for validation to drop
    const bare = { ...fields, url: 'example.org/beds', name: 'Shelter GÇô nights' };
    applyLeniency('service', bare, true, nestedKeysOf('service'));
    expect(bare).toMatchObject({ url: 'https://example.org/beds', name: 'Shelter – nights' });
    // Not a domain: a file name, free text, a made-up last label.
    for (const url of ['report.pdf', 'see our facebook page', 'example.notatld']) {
      const other = { ...fields, url };
      applyLeniency('service', other, true, nestedKeysOf('service'));
      expect(other.url, url).toBe(url);
    }
  });
});
