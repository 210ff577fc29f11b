import { describe, expect, it } from 'vitest';
import { flattenNested, flattenRow } from '../../../../src/ingest/records/flatten.ts';
import { nestedKeysOf } from '../../../../src/ingest/records/nesting.ts';
import {
  applyLeniency,
  isOtherSchemeDrop,
  normaliseDate,
  normaliseDateTime,
  OTHER_SCHEME_DROPPED,
} from '../../../../src/ingest/repairs/leniency.ts';
import { officialService, syntheticServices } from '../fixtures.ts';

const SERVICE = '11111111-1111-4111-8111-111111111111';

describe('date and time normalisation', () => {
  it('reads dates that say one day without doubt as YYYY-MM-DD', () => {
    const cases: [string, string | undefined][] = [
      ['2021-01-06T00:00:00', '2021-01-06'],
      ['2021/1/6', '2021-01-06'],
      ['6 January 2021', '2021-01-06'],
      ['6th Jan 2021', '2021-01-06'],
      ['January 6, 2021', '2021-01-06'],
      ['06/01/2021', undefined], // June or January: depends who wrote it
      ['31 February 2021', undefined],
      ['end of term', undefined],
    ];
    for (const [input, expected] of cases) expect(normaliseDate(input), input).toBe(expected);
  });

  it('reads date-times without an offset as UTC, and dates as their midnight', () => {
    expect(normaliseDateTime('2021-01-06T09:30:00')).toBe('2021-01-06T09:30:00Z');
    expect(normaliseDateTime('2021-01-06 09:30')).toBe('2021-01-06T09:30:00Z');
    expect(normaliseDateTime('2021-01-06')).toBe('2021-01-06T00:00:00Z');
    expect(normaliseDateTime('2021-01-06T09:30:00+0100')).toBe('2021-01-06T09:30:00+01:00');
    expect(normaliseDateTime('last spring')).toBeUndefined();
  });
});

describe('applyLeniency', () => {
  const apply = (type: 'service' | 'location' | 'schedule', fields: Record<string, unknown>, json = true) => {
    const repairs = applyLeniency(type, fields, json, nestedKeysOf(type));
    return { fields, repairs };
  };

  it('finds nothing to repair in valid records, and leaves them as they were', () => {
    for (const service of [officialService(), ...syntheticServices(10)]) {
      const fields = { ...service } as Record<string, unknown>;
      const before = JSON.stringify(fields);
      expect(applyLeniency('service', fields, true, nestedKeysOf('service'))).toBeUndefined();
      expect(JSON.stringify(fields)).toBe(before);
    }
  });

  it('reads blank values as absent and trims the rest, long free text aside', () => {
    const { fields, repairs } = apply('service', {
      id: SERVICE,
      name: '\u00a0Food bank\u200b',
      url: '   ',
      email: 'help\u200b@example.org ',
      description: 'As published. ',
      status: 'active',
    });
    expect(fields).toEqual({
      id: SERVICE,
      name: 'Food bank',
      email: 'help@example.org',
      description: 'As published. ',
      status: 'active',
    });
    expect(repairs?.map((r) => [r.field, r.action, r.severity])).toEqual([
      ['name', 'trimmed of spaces', 'info'],
      ['url', 'empty, read as absent', 'info'],
      ['email', 'spaces removed', 'info'],
    ]);
    expect(repairs?.[1]?.found).toBe('   ');
  });

  it('drops links of schemes other than http, https, mailto and tel, however written, with a warning', () => {
    for (const url of [
      'javascript:alert(1)',
      'JavaScript:alert(1)',
      ' javascript:alert(1)',
      'java\tscript:alert(1)',
      '\u0001javascript:alert(1)',
      'data:text/html,<script>alert(1)</script>',
      'vbscript:msgbox(1)',
      'file:///etc/passwd',
    ]) {
      const { fields, repairs } = apply('service', { id: SERVICE, name: 'x', status: 'active', url });
      expect(fields, url).toEqual({ id: SERVICE, name: 'x', status: 'active' });
      expect(repairs).toEqual([
        { field: 'url', found: url, action: OTHER_SCHEME_DROPPED, effect: 'dropped', severity: 'warning' },
      ]);
      expect(OTHER_SCHEME_DROPPED).toMatch(/^not an http, https, mailto or tel link/);
    }
    // A logo is a link too, though the 3.1 schema leaves it a plain string.
    const organization = { id: SERVICE, name: 'x', description: 'x', logo: 'data:image/svg+xml,<svg/>' };
    expect(applyLeniency('organization', organization, true, nestedKeysOf('organization'))).toHaveLength(1);
    expect(organization).not.toHaveProperty('logo');
    // Links people follow are kept; a value that is no URL is left for validation.
    for (const url of [
      'https://example.org/a',
      'HTTP://EXAMPLE.ORG',
      'mailto:help@example.org',
      'tel:+441224000000',
    ]) {
      expect(
        apply('service', { id: SERVICE, name: 'x', status: 'active', url }).repairs,
        url,
      ).toBeUndefined();
    }
    expect(
      apply('service', { id: SERVICE, name: 'x', status: 'active', url: 'see our facebook page' }).repairs,
    ).toBeUndefined();
  });

  it('strict: a link of another scheme rejects its record, as the schema refuses it', () => {
    const service = { ...syntheticServices(1)[0]!, url: 'javascript:alert(1)' };
    const strict = flattenNested('service', service, 'feed.json', { strict: true });
    expect(strict.rejected[0]).toEqual({ type: 'service', id: service.id });
    expect(strict.issues[0]).toMatchObject({ path: 'url', reason: 'not an http, https, mailto or tel link' });
    const lenient = flattenNested('service', service, 'feed.json');
    expect(lenient.rejected).toEqual([]);
    expect(lenient.records[0]!.record).not.toHaveProperty('url');
    expect(lenient.records[0]!.notes.filter(isOtherSchemeDrop).map((n) => [n.path, n.severity])).toEqual([
      ['url', 'warning'],
    ]);
  });

  it('matches enums in any case, reads numbers and www. addresses, and reports each', () => {
    const { fields: service } = apply('service', {
      id: SERVICE,
      name: 'x',
      status: 'Temporarily Closed',
      minimum_age: ' 12 ',
      url: 'www.example.org/help',
      email: 'mailto:help@example.org',
    });
    expect(service).toMatchObject({
      status: 'temporarily closed',
      minimum_age: 12,
      url: 'https://www.example.org/help',
      email: 'help@example.org',
    });
    const { fields: location } = apply('location', {
      id: SERVICE,
      location_type: 'PHYSICAL',
      latitude: '51.5',
    });
    expect(location).toEqual({ id: SERVICE, location_type: 'physical', latitude: 51.5 });
  });

  it('keeps unparsable dates and times as published in JSON, where 3.1 allows any string', () => {
    const json = apply('schedule', { id: SERVICE, opens_at: '9:00am', closes_at: 'late', dtstart: 'soon' });
    expect(json.fields).toEqual({ id: SERVICE, opens_at: '09:00', closes_at: 'late', dtstart: 'soon' });
    expect(json.repairs?.map((r) => r.action)).toEqual([
      'read as 09:00',
      'not an HH:MM time: kept as published',
      'not a YYYY-MM-DD date: kept as published',
    ]);
    // A tabular row types them: left for validation to drop.
    const row = apply('schedule', { id: SERVICE, closes_at: 'late' }, false);
    expect(row.repairs).toBeUndefined();
  });

  it('drops unknown keys that look misspelt, keeps other extensions, objects and lists too', () => {
    const { fields, repairs } = apply('location', {
      id: SERVICE,
      location_type: 'physical',
      addresss: [{ id: SERVICE }],
      Name: 'Hall',
      x_extra: { a: 1 },
      pc_ward: 'Central',
    });
    expect(fields).toEqual({ id: SERVICE, location_type: 'physical', x_extra: { a: 1 }, pc_ward: 'Central' });
    expect(repairs?.map((r) => [r.field, r.action, r.severity])).toEqual([
      ['addresss', 'unknown field, dropped (did you mean `addresses`?)', 'warning'],
      ['Name', 'unknown field, dropped (did you mean `name`?)', 'warning'],
    ]);
  });
});

describe('flatten with the leniency policy', () => {
  it('keeps a record whose optional field is invalid, with what it nests, and says what it dropped', () => {
    const item = {
      id: SERVICE,
      name: 'Night shelter',
      status: 'active',
      url: 'see our facebook page',
      maximum_age: '18 years',
      phones: [{ id: '22222222-2222-4222-8222-222222222222', number: '01632 960000' }],
    };
    const lenient = flattenNested('service', item, 'x.json:1');
    expect(lenient.rejected).toEqual([]);
    expect(lenient.records.map((r) => r.type)).toEqual(['service', 'phone']);
    expect(lenient.records[0]!.record).not.toHaveProperty('url');
    expect(lenient.records[0]!.notes.map((n) => [n.severity, n.kind, n.path, n.reason, n.value])).toEqual([
      [
        'warning',
        'dropped-field',
        'url',
        'Invalid URI: dropped, the record is kept',
        'string "see our facebook page"',
      ],
      [
        'warning',
        'dropped-field',
        'maximum_age',
        'expected number, got string "18 years": dropped, the record is kept',
        'string "18 years"',
      ],
    ]);

    const strict = flattenNested('service', item, 'x.json:1', { strict: true });
    expect(strict.records).toEqual([]);
    expect(strict.rejected).toEqual([{ type: 'service', id: SERVICE }]);
    expect(strict.issues.find((i) => i.path === 'maximum_age')?.reason).toBe(
      'expected number, got string "18 years"',
    );
  });

  it('still rejects a record whose required field is blank where "" is not valid, saying so', () => {
    const { records, issues, rejected } = flattenNested(
      'service',
      { id: ' ', name: 'Lunch club', status: 'active' },
      'x.json:1',
    );
    expect(records).toEqual([]);
    expect(rejected).toEqual([{ type: 'service' }]);
    expect(issues.map((i) => [i.path, i.reason])).toEqual([['id', 'required field is empty']]);
  });

  it('keeps a blank required text field as "", which HSDS JSON allows, with a warning', () => {
    const { records, rejected } = flattenNested(
      'service',
      { id: SERVICE, name: '  ', status: 'active' },
      'x.json:1',
    );
    expect(rejected).toEqual([]);
    expect(records[0]!.record.name).toBe('');
    expect(records[0]!.notes.map((n) => [n.severity, n.kind, n.path, n.reason])).toEqual([
      ['warning', 'repaired', 'name', 'required field is empty: kept as ""'],
    ]);
  });

  it('reads a single record where a list belongs as a list; drops a string there with a warning', () => {
    const { records } = flattenNested(
      'service',
      {
        id: SERVICE,
        name: 'x',
        status: 'active',
        phones: { id: '22222222-2222-4222-8222-222222222222', number: '1' },
        languages: 'English',
      },
      'x.json:1',
    );
    expect(records.map((r) => r.type)).toEqual(['service', 'phone']);
    expect(records[0]!.notes.map((n) => [n.severity, n.path, n.reason])).toEqual([
      ['info', 'phones', 'a single record where a list belongs: read as a list of one'],
      ['warning', 'languages', 'a list of records belongs here (each with an id); dropped'],
    ]);
  });

  it('applies the same policy to tabular rows, which keep their typed dates and times', () => {
    const row = flattenRow(
      'schedule',
      { id: SERVICE, service_id: SERVICE, opens_at: '9:30am', closes_at: 'after lunch' },
      'schedules.csv:2',
    );
    expect(row.records[0]!.record).toEqual({ id: SERVICE, service_id: SERVICE, opens_at: '09:30' });
    expect(row.records[0]!.notes.map((n) => [n.severity, n.path])).toEqual([
      ['info', 'opens_at'],
      ['warning', 'closes_at'],
    ]);
  });
});
