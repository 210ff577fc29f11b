/**
 * The messy-feed fixtures (test/fixtures/real-world, see its README) imported into the real engine
 * and served: what each keeps, repairs and rejects, what the report says, and what the API serves
 * and finds.
 */
import { readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ImportReport } from '../../src/ingest/import/import-report.ts';
import { importSource } from '../../src/ingest/import/import-source.ts';
import { migrateId } from '../../src/ingest/migrate/legacy-ids.ts';
import { importAndReindex } from '../../src/ingest/publish/pipeline.ts';
import { reindex } from '../../src/ingest/publish/reindex.ts';
import type { Issue } from '../../src/ingest/records/flatten.ts';
import { getJson, getPage, type JsonObject } from '../support/api-requests.ts';
import { createTestApp, createTestEngine, dropTestIndices } from '../support/engine.ts';
import { assertHsds } from '../support/hsds-validator.ts';

const fixtures = 'test/fixtures/real-world';
const engine = createTestEngine('real-world');
const strictEngine = createTestEngine('real-world-strict');
const app = createTestApp(engine);
afterAll(async () => {
  await dropTestIndices(engine);
  await dropTestIndices(strictEngine);
});

const id = (prefix: string, n: number) => `${prefix}000000-0000-4000-8000-${String(n).padStart(12, '0')}`;

// Per fixture: distinct records kept (of which repaired) and rejected, with the leniency policy
// and with --strict (what main did before it: the same counts).
const expected: Record<
  string,
  { records: number; repaired: number; rejected: number; strict: [number, number] }
> = {
  // Under --strict, a service whose organization is rejected is kept with a placeholder organization
  // (one more record), so its organization_id still resolves.
  'empty-strings.json': { records: 8, repaired: 7, rejected: 0, strict: [2, 2] },
  'bad-optional-url.json': { records: 11, repaired: 6, rejected: 0, strict: [3, 2] },
  'free-text-times.json': { records: 5, repaired: 5, rejected: 0, strict: [0, 2] },
  'whitespace.json': { records: 6, repaired: 4, rejected: 0, strict: [0, 1] },
  // `addresss` is read as `addresses`: its address is kept.
  'enum-case-and-types.json': { records: 8, repaired: 6, rejected: 1, strict: [0, 3] },
  'html-descriptions.json': { records: 3, repaired: 2, rejected: 0, strict: [3, 0] },
  'no-last-modified.json': { records: 3, repaired: 2, rejected: 0, strict: [3, 0] },
  // The rejected organization is replaced by a placeholder: 3 services and it.
  'repeated-organization.json': { records: 4, repaired: 3, rejected: 1, strict: [4, 1] },
  // Ids that are numbers written as strings: every record kept under a mapped UUID, with its
  // original-id metadata (84 records, 84 metadata); under --strict all 10 organizations are
  // rejected with what they nest.
  'numeric-ids.json': { records: 168, repaired: 84, rejected: 0, strict: [0, 10] },
  'tabular-messy': { records: 5, repaired: 5, rejected: 1, strict: [2, 5] },
};

const reports: Record<string, ImportReport> = {};
let importStarted = '';

beforeAll(async () => {
  importStarted = new Date(Date.now() - 1000).toISOString();
  for (const name of Object.keys(expected)) {
    const reportFile = join(tmpdir(), `real-world-${process.pid}-${name}.json`);
    await importSource(engine, `${fixtures}/${name}`, { reportFile });
    reports[name] = JSON.parse(await readFile(reportFile, 'utf8')) as ImportReport;
  }
  await reindex(engine);
}, 120_000);

const notes = (name: string, path: string): Issue[] => reports[name]!.issues.filter((i) => i.path === path);

describe('importing messy real-world feeds', () => {
  it.each(Object.entries(expected))('%s: kept, repaired and rejected by distinct record', (name, counts) => {
    expect(reports[name]).toMatchObject({
      records: counts.records,
      repaired: counts.repaired,
      rejected: counts.rejected,
    });
  });

  it('--strict keeps the old behaviour: a record with any bad value is rejected', async () => {
    for (const [name, { strict }] of Object.entries(expected)) {
      const result = await importSource(strictEngine, `${fixtures}/${name}`, { strict: true });
      expect([result.summary.records, result.summary.rejected], name).toEqual(strict);
    }
  });

  it('reports each repair with its field path, the value found and what was done', () => {
    expect(notes('empty-strings.json', 'organization.uri')).toEqual([
      expect.objectContaining({
        severity: 'info',
        kind: 'repaired',
        record_type: 'organization',
        value: 'string ""',
        reason: 'empty, read as absent',
      }),
    ]);
    expect(notes('bad-optional-url.json', 'url').map((i) => [i.severity, i.value, i.reason])).toEqual([
      ['info', 'string "www.riverside-shelter.example.org"', 'https:// added'],
      ['warning', 'string "see our facebook page"', 'Invalid URI: dropped, the record is kept'],
    ]);
    expect(notes('free-text-times.json', 'schedules[0].opens_at')[0]).toMatchObject({
      value: 'string "9:00am"',
      reason: 'read as 09:00',
    });
    expect(
      notes('whitespace.json', 'service_at_locations[0].location.addresses[0].country')[0],
    ).toMatchObject({
      // Its UK postcode says the country (issue 50): no longer kept as "".
      severity: 'info',
      value: 'string "   "',
      reason: 'no country: read as "GB" from the postal code\'s shape',
    });
    expect(notes('enum-case-and-types.json', 'service_at_locations[0].location.addresss')[0]).toMatchObject({
      severity: 'warning',
      kind: 'repaired',
      reason: 'a misspelt collection: read as `addresses`',
    });
    expect(notes('enum-case-and-types.json', 'languages')[0]).toMatchObject({
      severity: 'warning',
      value: 'string "English"',
    });
    expect(notes('enum-case-and-types.json', 'maximum_age')[0]?.reason).toBe(
      'expected number, got string "18 years": dropped, the record is kept',
    );
  });

  it('counts and reports a record rejected in every item once', () => {
    const report = reports['repeated-organization.json']!;
    // Imported: the placeholder that keeps the three services' organization_id resolvable.
    expect(report.by_type.organization).toMatchObject({ imported: 1, rejected: 1 });
    expect(report.issues.filter((i) => i.kind === 'placeholder')).toHaveLength(1);
    expect(report.by_type.service).toMatchObject({ imported: 3 });
    expect(report.issues.filter((i) => i.severity === 'error')).toEqual([
      expect.objectContaining({
        record_type: 'organization',
        record_id: id('0b', 101),
        path: 'organization.description',
        reason: 'required field is missing',
        source: expect.stringMatching(/repeated-organization\.json:1$|repeated-organization\.json\[0\]$/),
      }),
    ]);
  });
});

describe('serving the imported feeds', () => {
  const service = async (serviceId: string) => {
    const { status, body } = await getJson(app, `/services/${serviceId}`);
    expect(status, serviceId).toBe(200);
    assertHsds('service', body);
    return body;
  };

  it('serves every kept service by id, repaired, with what it nests', async () => {
    const shelter = await service(id('b2', 1));
    expect(shelter.url).toBe('https://www.riverside-shelter.example.org');
    expect(shelter.phones).toHaveLength(1);
    expect(shelter.schedules).toHaveLength(1);
    expect((shelter.service_at_locations as JsonObject[])[0]?.location).toMatchObject({ id: id('b2', 401) });
    const dayCentre = await service(id('b2', 2));
    expect(dayCentre).not.toHaveProperty('url');
    expect((dayCentre.contacts as JsonObject[])[0]).not.toHaveProperty('email');

    const lunchClub = await service(id('e1', 1));
    expect(lunchClub).not.toHaveProperty('url');
    expect(lunchClub.organization).toMatchObject({
      id: id('e1', 101),
      name: 'Westfield Community Association',
    });
    expect(lunchClub.organization).not.toHaveProperty('uri');

    const dropIn = await service(id('f3', 1));
    expect(dropIn.assured_date).toBe('2021-01-06');
    expect((dropIn.schedules as JsonObject[]).map((s) => [s.opens_at, s.closes_at])).toEqual([
      ['09:00', '17:00'],
      ['09:00', '12:30'],
      ['by appointment', 'late'],
    ]);

    const foodBank = await service(id('a4', 1));
    expect(foodBank).toMatchObject({
      name: 'Eastgate Food Bank',
      status: 'active',
      email: 'help@eastgate-foodbank.example.org',
    });

    const youthClub = await service(id('c5', 1));
    expect(youthClub).toMatchObject({ status: 'active', minimum_age: 11 });
    expect((youthClub.phones as JsonObject[])[0]).toMatchObject({ number: '1632960505' });
    expect((youthClub.service_at_locations as JsonObject[])[0]?.location).toMatchObject({
      latitude: 51.5,
      location_type: 'physical',
    });

    expect((await getJson(app, `/services/${id('c5', 3)}`)).status).toBe(404); // status "open": rejected
    await service(id('7b', 1));
    await service(id('7b', 2));
  });

  it('serves every service of a feed whose ids are not UUIDs, each link resolved, the original id in its metadata', async () => {
    const feed = JSON.parse(await readFile(`${fixtures}/numeric-ids.json`, 'utf8')) as JsonObject[];
    const published = feed.flatMap((org) =>
      (org.services as JsonObject[]).map((s) => ({ id: String(s.id), organization: String(org.id) })),
    );
    expect(published).toHaveLength(18);
    for (const { id: original, organization } of published) {
      const served = await service(migrateId('service', original));
      expect(served.organization).toMatchObject({ id: migrateId('organization', organization) });
      const [sal] = served.service_at_locations as JsonObject[];
      expect(sal?.location).toMatchObject({ location_type: 'physical' });
      expect((sal?.location as JsonObject | undefined)?.addresses).toHaveLength(1);
      expect(served.phones).toHaveLength(1);
      expect(served.metadata).toEqual([
        expect.objectContaining({ field_name: 'id', previous_value: original, replacement_value: served.id }),
      ]);
    }
    const org = await getJson(app, `/organizations/${migrateId('organization', '100')}`);
    expect(org.status).toBe(200);
  });

  it('searches the text of descriptions, not their HTML, and serves them as published', async () => {
    for (const word of ['nbsp', 'strong', 'amp', 'ndash', 'li']) {
      const page = await getPage(app, `/services?search=${word}`, 'service_list_item');
      expect(page.total_items, word).toBe(0);
    }
    const debt = await getPage(app, '/services?search=debt%20advice', 'service_list_item');
    expect(debt.contents.map((s) => s.id)).toContain(id('d6', 1));
    const forms = await getPage(app, '/services?search=form%20filling', 'service_list_item');
    expect(forms.contents.map((s) => s.id)).toEqual([id('d6', 2)]);
    const organizations = await getPage(app, '/organizations?search=nbsp', 'organization_list_item');
    expect(organizations.total_items).toBe(0);
    const served = await service(id('d6', 1));
    expect(served.description).toContain('&nbsp;');
    expect(served.description).toContain('<strong>');
  });

  it('gives services without last_modified the time they were first seen: modified_after finds them', async () => {
    const walking = await service(id('9a', 1));
    expect(Date.parse(walking.last_modified as string)).toBeGreaterThanOrEqual(Date.parse(importStarted));
    const page = await getPage(
      app,
      `/services?modified_after=${encodeURIComponent(importStarted)}&per_page=100`,
      'service_list_item',
    );
    const found = page.contents.map((s) => s.id);
    expect(found).toEqual(expect.arrayContaining([id('9a', 1), id('9a', 2), id('e1', 1), id('7b', 1)]));
    // A feed that states last_modified keeps it (repaired to RFC 3339 where it parses).
    expect((await service(id('f3', 1))).last_modified).toBe('2024-05-01T09:30:00Z');
  });

  it('keeps that time when the same content is imported again, and moves it when the content changes', async () => {
    const before = (await service(id('9a', 1))).last_modified;
    await importSource(engine, `${fixtures}/no-last-modified.json`);
    const changedFile = join(tmpdir(), `no-last-modified-changed-${process.pid}.json`);
    const items = JSON.parse(await readFile(`${fixtures}/no-last-modified.json`, 'utf8')) as JsonObject[];
    items[1] = { ...items[1], description: 'Now also on Sundays.' };
    await new Promise((resolve) => setTimeout(resolve, 5));
    await writeFile(changedFile, JSON.stringify(items));
    await importSource(engine, changedFile);
    await reindex(engine);
    expect((await service(id('9a', 1))).last_modified).toBe(before);
    const changed = await service(id('9a', 2));
    expect(Date.parse(changed.last_modified as string)).toBeGreaterThan(Date.parse(before as string));
  });

  it('reads empty query parameters as absent, in the query string and in a POST form', async () => {
    const all = await getPage(app, '/services?per_page=100', 'service_list_item');
    const blank = await getPage(
      app,
      '/services?search=&taxonomy_id=&taxonomy_term_id=&organization_id=&modified_after=&page=&per_page=100&format=',
      'service_list_item',
    );
    expect(blank.total_items).toBe(all.total_items);
    const form = await getPage(app, '/services', 'service_list_item', {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: 'search=&taxonomy_id=&page=&per_page=',
    });
    expect(form.total_items).toBe(all.total_items);
  });
});

describe('the import summary', () => {
  it('is handed over before the reindex, also when everything was rejected and the reindex fails', async () => {
    const empty = createTestEngine('real-world-empty');
    const feed = join(tmpdir(), `all-rejected-${process.pid}.json`);
    await writeFile(feed, JSON.stringify([{ id: 'not-a-uuid', status: 'active' }]));
    const seen: string[] = [];
    try {
      await expect(
        importAndReindex(empty, feed, {
          onImported: (result) => {
            seen.push(`imported ${result.summary.records}, rejected ${result.summary.rejected}`);
          },
        }),
      ).rejects.toThrow(/records store is empty/);
    } finally {
      await dropTestIndices(empty);
    }
    expect(seen).toEqual(['imported 0, rejected 1']);
  });
});
