import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { SourceItem } from '../../../../src/ingest/sources/source.ts';
import { readTabularSource } from '../../../../src/ingest/sources/tabular.source.ts';
import { detectCsvEncoding } from '../../../../src/ingest/sources/text-encoding.ts';

const fixtures = 'test/fixtures/real-world';

async function readAll(path: string) {
  const items: SourceItem[] = [];
  for await (const item of readTabularSource(path)) items.push(item);
  const rows = items.flatMap((i) => (i.kind === 'row' ? [i] : []));
  const issues = items.flatMap((i) => (i.kind === 'issue' ? [i.issue] : []));
  return { rows, issues };
}

describe('a data package whose CSVs sit in data/', () => {
  it('reads every resource from data/ and names the one file found nowhere', async () => {
    const { rows, issues } = await readAll(`${fixtures}/package-data-folder/datapackage.json`);
    const counts = Object.fromEntries(
      ['organization', 'service', 'location', 'service_at_location', 'address', 'phone'].map((t) => [
        t,
        rows.filter((r) => r.type === t).length,
      ]),
    );
    expect(counts).toEqual({
      organization: 1,
      service: 2,
      location: 1,
      service_at_location: 1,
      address: 1,
      phone: 1,
    });
    expect(issues).toEqual([
      expect.objectContaining({
        severity: 'error',
        kind: 'unreadable',
        reason: expect.stringMatching(
          /^resource funding: file funding\.csv not found \(looked for .*data\/funding\.csv\)/,
        ),
      }),
    ]);
  });

  it('drops a UTF-8 byte order mark before the header', async () => {
    const { rows } = await readAll(`${fixtures}/package-data-folder/datapackage.json`);
    const organization = rows.find((r) => r.type === 'organization');
    expect(organization?.row.id).toBe('1b000000-0000-4000-8000-000000000001');
    expect(Object.keys(organization?.row ?? {})[0]).toBe('id');
  });
});

describe('CSV saved by Excel in Windows-1252', () => {
  it('is decoded as Windows-1252, with a warning per file', async () => {
    const { rows, issues } = await readAll(`${fixtures}/cp1252-package`);
    expect(rows.find((r) => r.type === 'organization')?.row).toMatchObject({
      name: 'Café Hub Collective',
      description: 'Community café and advice hub – open to all.',
    });
    expect(rows.find((r) => r.type === 'service')?.row).toMatchObject({
      name: 'Crèche while you learn',
      fees_description: '£2 a session',
    });
    expect(JSON.stringify(rows)).not.toContain('\uFFFD');
    expect(issues.map((i) => [i.severity, i.kind, i.source.split('/').pop()])).toEqual([
      ['warning', 'encoding', 'organizations.csv'],
      ['warning', 'encoding', 'services.csv'],
    ]);
  });

  it('tells UTF-8 (accents split across chunks too), Windows-1252 and neither apart', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'encoding-'));
    const write = async (name: string, bytes: Buffer) => {
      await writeFile(join(dir, name), bytes);
      return join(dir, name);
    };
    const longUtf8 = Buffer.from(`${'a'.repeat(65_535)}é,Café\n`, 'utf8');
    expect(await detectCsvEncoding(await write('utf8.csv', longUtf8))).toEqual({ encoding: 'utf-8' });
    expect(await detectCsvEncoding(await write('cp1252.csv', Buffer.from([0x43, 0x61, 0x66, 0xe9])))).toEqual(
      { encoding: 'windows-1252' },
    );
    const utf16 = Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from('id,name\n', 'utf16le')]);
    expect(await detectCsvEncoding(await write('utf16.csv', utf16))).toEqual({
      refused: expect.stringContaining('UTF-16'),
    });
    expect(await detectCsvEncoding(await write('binary.csv', Buffer.from([0x61, 0xe9, 0x81, 0x62])))).toEqual(
      {
        refused: expect.stringContaining('neither UTF-8 nor Windows-1252'),
      },
    );
  });

  it('a file that is neither is refused with an error naming it, and no rows', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'encoding-'));
    await writeFile(
      join(dir, 'organizations.csv'),
      Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from('id,name\n1,x\n', 'utf16le')]),
    );
    const { rows, issues } = await readAll(dir);
    expect(rows).toEqual([]);
    expect(issues).toEqual([
      expect.objectContaining({
        severity: 'error',
        kind: 'encoding',
        source: join(dir, 'organizations.csv'),
      }),
    ]);
  });
});

describe('an HSDS 1.1 package', () => {
  it('is read as 3.1 rows, each mapping noted once with its count', async () => {
    const { rows, issues } = await readAll(`${fixtures}/legacy-hsds-1.1/datapackage.json`);
    const types = new Set(rows.map((r) => r.type));
    expect([...types].sort()).toEqual(
      [
        'accessibility',
        'address',
        'attribute',
        'contact',
        'funding',
        'language',
        'location',
        'metadata',
        'organization',
        'phone',
        'required_document',
        'schedule',
        'service',
        'service_at_location',
        'service_area',
        'taxonomy_term',
      ].sort(),
    );
    expect(issues.every((i) => i.kind === 'migrated' && i.severity === 'info')).toBe(true);
    expect(issues.map((i) => i.reason)).toContain('regular_schedule → HSDS 3.1 schedule (3 rows)');
    expect(new Set(issues.map((i) => i.reason)).size).toBe(issues.length);
  });
});
