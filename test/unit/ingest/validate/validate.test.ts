/**
 * Validation without import (src/ingest/validate): the official examples valid, each messy fixture's
 * problems reported, the body formats (JSON, NDJSON, a zipped data package), and the guard of
 * remote URLs. Nothing here needs an engine: validation writes nothing.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { unzipTo, ZipError, ZipTooLargeError } from '../../../../src/ingest/validate/unzip.ts';
import {
  bodyFormat,
  validateBody,
  validateLocation,
} from '../../../../src/ingest/validate/validate-source.ts';
import { formatValidationReport } from '../../../../src/ingest/validate/validation-summary.ts';
import { checkRemoteUrl, isPrivateAddress, RemoteRefused } from '../../../../src/outbound/remote-guard.ts';
import { deflatedRepeat, zipFiles, zipOf } from '../../../support/zip.ts';

const examples = 'test/fixtures/hsds/examples';
const realWorld = 'test/fixtures/real-world';

const folderAsZip = (folder: string, prefix = '') =>
  zipFiles(
    Object.fromEntries(
      readdirSync(folder).map((name) => [`${prefix}${name}`, readFileSync(join(folder, name))]),
    ),
  );

describe('hsds validate: a file or folder', () => {
  it.each([
    'service_full.json',
    'organization_full.json',
    'service_at_location_full.json',
    'service_list.json',
    'organization_list.json',
    'service_at_location_list.json',
    'taxonomy.json',
    'taxonomy_list.json',
    'taxonomy_term.json',
    'taxonomy_term_list.json',
    'csv',
  ])('finds the official example %s valid, as published (strict)', async (name) => {
    const report = await validateLocation(join(examples, name), { strict: true });
    expect(report.issues.filter((i) => i.severity === 'error')).toEqual([]);
    expect(report).toMatchObject({ verdict: 'valid', valid: true, strict: true, rejected: 0, repaired: 0 });
    expect(report.records).toBeGreaterThan(0);
  });

  it('says what the numeric-id feed needs: every record kept, each id repaired, nothing written', async () => {
    const report = await validateLocation(join(realWorld, 'numeric-ids.json'));
    expect(report).toMatchObject({
      verdict: 'importable-with-repairs',
      valid: false,
      importable: true,
      items: 10,
      records: 168,
      repaired: 84,
      rejected: 0,
    });
    expect(report.by_type.service).toEqual({ kept: 18, repaired: 18, rejected: 0 });
    expect(report.by_type.organization).toEqual({ kept: 10, repaired: 10, rejected: 0 });
    expect(report.issues.find((i) => i.path === 'services[0].id')).toMatchObject({
      severity: 'info',
      kind: 'repaired',
      record_type: 'service',
      source: `${realWorld}/numeric-ids.json[0]`,
    });
    const strict = await validateLocation(join(realWorld, 'numeric-ids.json'), { strict: true });
    expect(strict).toMatchObject({ verdict: 'not-importable', valid: false, records: 0, rejected: 10 });
    expect(strict.by_type.organization?.rejected).toBe(10);
  });

  it('reports the broken fixture as an import does: the rejected record, its field path, the dangling link', async () => {
    const report = await validateLocation('test/fixtures/broken');
    expect(report).toMatchObject({
      verdict: 'not-importable',
      valid: false,
      rejected: 1,
      dangling_references: 1,
    });
    expect(report.issues).toContainEqual(
      expect.objectContaining({
        severity: 'error',
        kind: 'invalid',
        record_type: 'service',
        record_id: '0d000000-0000-4000-8000-000000000003',
        path: 'name',
        reason: 'required field is missing',
      }),
    );
    expect(report.issues).toContainEqual(
      expect.objectContaining({
        kind: 'dangling-reference',
        path: 'service_at_locations[1].location_id',
        reason: expect.stringContaining('11000000-0000-4000-8000-00000000dead'),
      }),
    );
    const strict = await validateLocation('test/fixtures/broken', { strict: true });
    expect(strict.rejected).toBe(4); // as the strict import of ingest-broken.test.ts counts
  });

  // Per fixture (test/fixtures/real-world/README.md says what each plants): valid, records kept, of
  // which repaired, rejected, and issues, as an import into an empty directory would count them
  // (an import also stores a placeholder for a rejected organization; validation does not).
  it.each([
    ['bad-optional-url.json', 'importable-with-repairs', 11, 5, 0, 6],
    ['cp1252-package', 'valid', 2, 0, 0, 2],
    ['empty-strings.json', 'importable-with-repairs', 8, 7, 0, 20],
    ['enum-case-and-types.json', 'not-importable', 8, 6, 1, 17],
    ['free-text-times.json', 'importable-with-repairs', 5, 5, 0, 13],
    ['hsds-2.0-csv', 'valid', 44, 0, 0, 24], // migrated from 2.0, nothing repaired
    ['html-descriptions.json', 'valid', 3, 0, 0, 0], // HTML is valid HSDS: search reads it, not validation
    ['legacy-hsds-1.1', 'valid', 68, 0, 0, 55],
    ['no-last-modified.json', 'valid', 3, 0, 0, 0], // last_modified is optional
    ['oruk-1.0.json', 'valid', 48, 0, 0, 38], // its `reviews` list kept as published
    ['oruk-list-items.json', 'importable-with-repairs', 5, 5, 0, 30], // pc_ extensions kept as published,
    ['package-data-folder', 'not-importable', 7, 0, 0, 1], // funding.csv listed but missing: an error
    ['repeated-organization.json', 'not-importable', 3, 0, 1, 4],
    ['tabular-messy', 'not-importable', 5, 5, 1, 12],
    ['whitespace.json', 'importable-with-repairs', 6, 4, 0, 12],
  ] as const)(
    'reports the problems of the real-world fixture %s',
    async (name, verdict, records, repaired, rejected, issues) => {
      const report = await validateLocation(join(realWorld, name));
      expect(report).toMatchObject({
        verdict,
        valid: verdict === 'valid',
        importable: verdict !== 'not-importable',
        records,
        repaired,
        rejected,
        issues_total: issues,
      });
      expect(report.repairs.records).toBe(repaired);
      expect(report.issues.every((i) => i.source && i.reason && typeof i.path === 'string')).toBe(true);
    },
  );

  it('says an ORUK list whose every record needs a repair is importable with repairs, not valid: how many, which, why', async () => {
    const report = await validateLocation(join(realWorld, 'oruk-list-items.json'));
    expect(report).toMatchObject({ verdict: 'importable-with-repairs', valid: false, importable: true });
    expect(report.repairs).toMatchObject({ records: 5, by_type: { service: 3, organization: 2 } });
    expect(report.repairs.by_reason).toMatchObject({
      'repaired: service.url: https:// added': 1,
      'repaired: organization.description: required field is empty: kept as "…"': 1,
    });
    // Only repairs are counted there: a note that changes nothing is not a repair.
    expect(Object.keys(report.repairs.by_reason).every((k) => /^(repaired|dropped-field): /.test(k))).toBe(
      true,
    );
    const text = formatValidationReport(report);
    expect(text.split('\n')[0]).toMatch(/^IMPORTABLE WITH REPAIRS: /);
    expect(text).toContain('5 of 5 records repaired (service 3, organization 2)');
    // Validated as published, the same feed is valid: strict reads it without repairing anything.
    const strict = await validateLocation(join(realWorld, 'oruk-list-items.json'), { strict: true });
    expect(strict.repairs.records).toBe(0);
  });

  it('lists at most maxIssues issues, and counts them all', async () => {
    const report = await validateLocation(join(realWorld, 'numeric-ids.json'), { maxIssues: 5 });
    expect(report.issues).toHaveLength(5);
    expect(report.issues_total).toBe(166);
  });
});

describe('a feed in a request body', () => {
  it('tells JSON, NDJSON and ZIP by Content-Type, else by the first bytes', () => {
    const text = (s: string) => new TextEncoder().encode(s);
    expect(bodyFormat('application/json; charset=utf-8', text('[]'))).toBe('json');
    expect(bodyFormat('application/x-ndjson', text('{}'))).toBe('ndjson');
    expect(bodyFormat('application/zip', text('PK'))).toBe('zip');
    expect(bodyFormat(undefined, zipFiles({ 'a.csv': Buffer.from('x') }))).toBe('zip');
    expect(bodyFormat('application/octet-stream', text('  [{"id":1}]'))).toBe('json');
    expect(bodyFormat('text/plain', text('hello'))).toBeUndefined();
  });

  it('validates JSON and NDJSON bodies, naming the body, not a temporary file', async () => {
    const feed = readFileSync(join(realWorld, 'numeric-ids.json'));
    const report = await validateBody(feed, 'json', { name: 'feed.json' });
    expect(report).toMatchObject({ source: 'feed.json', verdict: 'importable-with-repairs', records: 168 });
    expect(report.issues[0]?.source).toMatch(/^feed\.json\[\d+\]$/);
    const ndjson = (JSON.parse(feed.toString()) as unknown[]).map((o) => JSON.stringify(o)).join('\n');
    const lines = await validateBody(Buffer.from(ndjson), 'ndjson');
    expect(lines).toMatchObject({
      source: '(body)',
      verdict: 'importable-with-repairs',
      items: 10,
      records: 168,
    });
    expect(lines.issues[0]?.source).toMatch(/^\(body\):\d+$/);
  });

  it('validates a zipped tabular data package, at the top or in a folder of the archive', async () => {
    const official = await validateBody(folderAsZip(join(examples, 'csv')), 'zip', { strict: true });
    expect(official).toMatchObject({ kind: 'tabular', verdict: 'valid', valid: true, items: 24 });
    const messy = await validateBody(folderAsZip(join(realWorld, 'tabular-messy'), 'export/'), 'zip');
    expect(messy).toMatchObject({ kind: 'tabular', verdict: 'not-importable', records: 5, rejected: 1 });
  });

  it('refuses an archive that is none, or whose names climb out of its folder', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'hsds-unzip-test-'));
    try {
      await expect(unzipTo(Buffer.from('not a zip at all, not even close'), dir)).rejects.toThrow(ZipError);
      await expect(unzipTo(zipFiles({ '../evil.csv': Buffer.from('x') }), join(dir, 'p'))).rejects.toThrow(
        /outside the package/,
      );
      await expect(
        unzipTo(zipFiles({ 'big.csv': Buffer.alloc(5000) }), join(dir, 'q'), 1000),
      ).rejects.toThrow(/more than 1000 bytes/);
      expect(await readdir(dir)).not.toContain('evil.csv');
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});

describe('unzipping an untrusted body', () => {
  it('refuses a package whose directory declares more than the bound, before inflating anything', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'hsds-unzip-test-'));
    try {
      const big = await deflatedRepeat(Buffer.alloc(1000, 'a'), 1000);
      const error = await unzipTo(zipOf([{ name: 'services.csv', ...big }]), dir, 100_000).catch((e) => e);
      expect(error).toBeInstanceOf(ZipTooLargeError);
      expect(error.message).toMatch(/1000000 bytes: more than 100000 bytes/);
      expect(await readdir(dir).catch(() => [])).toEqual([]);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('stops an entry that unpacks to more than its directory declares, naming it (not a buffer error)', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'hsds-unzip-test-'));
    try {
      const real = await deflatedRepeat(Buffer.alloc(1000, 'a'), 2000);
      const lying = zipOf([{ name: 'data/services.csv', ...real, size: 1000 }]);
      const error = await unzipTo(lying, dir).catch((e) => e);
      expect(error).toBeInstanceOf(ZipError);
      expect(error).not.toBeInstanceOf(ZipTooLargeError);
      expect(error.message).toBe(
        'data/services.csv: unpacks to more than the 1000 bytes its directory entry declares',
      );
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});

describe('remote URLs', () => {
  it('tells loopback, private, link-local and reserved addresses from public ones', () => {
    for (const address of [
      '127.0.0.1',
      '10.1.2.3',
      '172.20.0.1',
      '192.168.1.1',
      '169.254.169.254',
      '0.0.0.0',
      '100.64.0.1',
      '::1',
      'fd00::1',
      'fe80::1',
      '::ffff:127.0.0.1',
    ])
      expect(isPrivateAddress(address), address).toBe(true);
    for (const address of ['93.184.216.34', '8.8.8.8', '2606:4700:4700::1111'])
      expect(isPrivateAddress(address), address).toBe(false);
  });

  it('fetches nothing when off, no private address when public, anything when any', async () => {
    await expect(checkRemoteUrl('https://example.org/', 'off')).rejects.toThrow(/not enabled/);
    await expect(checkRemoteUrl('http://127.0.0.1:9200/', 'public')).rejects.toThrow(RemoteRefused);
    await expect(checkRemoteUrl('http://[::1]/', 'public')).rejects.toThrow(/private or reserved/);
    await expect(checkRemoteUrl('http://localhost/', 'public')).rejects.toThrow(RemoteRefused);
    await expect(checkRemoteUrl('file:///etc/passwd', 'any')).rejects.toThrow(/only http and https/);
    await expect(checkRemoteUrl('http://user:pw@example.org/', 'any')).rejects.toThrow(/credentials/);
    await expect(checkRemoteUrl('http://127.0.0.1:9200/', 'any')).resolves.toBeInstanceOf(URL);
  });

  it('refuses a URL the policy refuses before reading anything', async () => {
    await expect(validateLocation('http://127.0.0.1:1/', { remote: 'public' })).rejects.toThrow(
      RemoteRefused,
    );
    await expect(validateLocation('http://127.0.0.1:1/')).rejects.toThrow(/not enabled/);
  });
});
