import { parse } from 'csv-parse/sync';
import { describe, expect, it } from 'vitest';
import {
  coerceTabularRow,
  findTableOfPath,
  type RecordType,
  recordTypes,
  type TabularRow,
  tabularPaths,
  tabularRecordSchemas,
} from '../../../src/hsds/index.ts';
import { listFixtureFiles, readFixtureText } from './fixtures.ts';

const readCsv = (file: string): TabularRow[] =>
  parse(readFixtureText(`examples/csv/${file}`), { columns: true, skip_empty_lines: true }) as TabularRow[];

const csvFiles = listFixtureFiles('examples/csv/', '.csv');

describe('the official example data package (examples/csv)', () => {
  it('has a file for every one of the 24 tables, and no file for an unknown table', () => {
    expect(csvFiles.map((file) => findTableOfPath(file))).not.toContain(undefined);
    expect(csvFiles.map((file) => findTableOfPath(file)).sort()).toEqual([...recordTypes].sort());
  });

  it.each(csvFiles)('every row of %s validates once coerced', (file) => {
    const table = findTableOfPath(file) as RecordType;
    const rows = readCsv(file);
    expect(rows.length).toBeGreaterThan(0);
    for (const row of rows) {
      const result = tabularRecordSchemas[table].safeParse(coerceTabularRow(table, row));
      expect(result.error?.issues ?? []).toEqual([]);
    }
  });

  it('coerces the number columns of the example schedule and keeps strings that look numeric', () => {
    const [row] = readCsv(tabularPaths.schedule);
    const record = coerceTabularRow('schedule', row!);
    expect(record).toMatchObject({
      timezone: 3,
      count: 3,
      interval: 1,
      bymonthday: '2,3,4',
      opens_at: '10:00:00',
    });
    const [identifier] = readCsv(tabularPaths.organization_identifier);
    expect(coerceTabularRow('organization_identifier', identifier!).identifier).toBe('1234567');
  });
});

describe('coerceTabularRow', () => {
  const service = {
    id: 'ac148810-d857-441c-9679-408f346de14b',
    organization_id: 'd9d5e0f5-d3ce-4f73-9a2f-4dd0ecc6c610',
    name: 'Community Counselling',
    status: 'active',
  };

  it('leaves empty cells out, so an empty optional column is simply absent', () => {
    expect(coerceTabularRow('service', { ...service, email: '', minimum_age: '' })).toEqual(service);
  });

  it('reports an empty required cell as missing, at its column', () => {
    const result = tabularRecordSchemas.service.safeParse(
      coerceTabularRow('service', { ...service, name: '' }),
    );
    expect(result.error?.issues.map((issue) => issue.path)).toEqual([['name']]);
  });

  it('turns decimal numbers in number columns into numbers', () => {
    expect(
      coerceTabularRow('service', { ...service, minimum_age: '12', maximum_age: ' 17.5 ' }),
    ).toMatchObject({
      minimum_age: 12,
      maximum_age: 17.5,
    });
    expect(coerceTabularRow('location', { latitude: '-0.5e1', longitude: '+.25' })).toEqual({
      latitude: -5,
      longitude: 0.25,
    });
  });

  it('leaves a non-number in a number column as text, so validation names the column', () => {
    for (const cell of ['twelve', '0x10', 'Infinity', '12 years']) {
      const record = coerceTabularRow('service', { ...service, minimum_age: cell });
      expect(record.minimum_age).toBe(cell);
      const result = tabularRecordSchemas.service.safeParse(record);
      expect(result.error?.issues.map((issue) => issue.path)).toEqual([['minimum_age']]);
    }
  });

  it('keeps string columns as written, numeric-looking or not, and passes unknown columns through', () => {
    expect(coerceTabularRow('phone', { number: '01234 567890', extension: '100', x_local: '7' })).toEqual({
      number: '01234 567890',
      extension: 100,
      x_local: '7',
    });
  });

  it('requires the parent ids of the tabular form that the JSON form leaves out', () => {
    const { organization_id: _, ...withoutOrganization } = service;
    const result = tabularRecordSchemas.service.safeParse(coerceTabularRow('service', withoutOrganization));
    expect(result.error?.issues.map((issue) => issue.path)).toEqual([['organization_id']]);
  });
});
