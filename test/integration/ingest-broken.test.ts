import { readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { countRecordsByType, getRecords } from '../../src/engine/records.ts';
import type { ImportReport } from '../../src/ingest/import/import-report.ts';
import { importSource } from '../../src/ingest/import/import-source.ts';
import { reindex } from '../../src/ingest/publish/reindex.ts';
import type { Issue } from '../../src/ingest/records/flatten.ts';
import { createTestEngine, dropTestIndices } from '../support/engine.ts';

const engine = createTestEngine('ingest-broken');
afterAll(() => dropTestIndices(engine));

const reportFile = join(tmpdir(), `broken-report-${process.pid}.json`);

describe('importing a deliberately broken source (test/fixtures/broken) with --strict', () => {
  let report: ImportReport;

  it('imports every good record', async () => {
    const result = await importSource(engine, 'test/fixtures/broken', { reportFile, strict: true });
    report = JSON.parse(await readFile(reportFile, 'utf8')) as ImportReport;
    // Rejected by distinct record: line 5 repeats line 1's bad contact, counted once.
    expect(report).toMatchObject({ items: 8, rejected: 4, duplicates: 1, dangling_references: 1 });
    expect(result.summary.records).toBe(report.records);
    expect(await countRecordsByType(engine)).toEqual({
      organization: 1,
      service: 2,
      contact: 1,
      service_area: 3,
      service_at_location: 3,
      location: 1,
      attribute: 1,
      taxonomy: 1,
      taxonomy_term: 1,
    });
    const [winner] = (await getRecords(engine, ['service:0d000000-0000-4000-8000-000000000001'])).values();
    expect(winner?.record.description).toBe('Emergency food parcels, now also on Saturdays.');
  });

  it('reports each bad record with its source, type, id, field path and reason', () => {
    const line = (n: number) => expect.stringMatching(new RegExp(`services\\.ndjson:${n}$`));
    const find = (kind: Issue['kind'], path: string) =>
      report.issues.filter((i) => i.kind === kind && i.path === path);
    const badEmail = {
      severity: 'error',
      kind: 'invalid',
      record_type: 'contact',
      record_id: '0e000000-0000-4000-8000-000000000002',
      path: 'contacts[1].email',
      reason: 'Invalid email address',
    };
    // Line 5 repeats line 1's service, bad contact included: reported once, where first met.
    expect(find('invalid', 'contacts[1].email')).toEqual([
      { ...badEmail, source: line(1), value: 'string "bob at pantry dot org"' },
    ]);
    expect(find('invalid', 'id')).toEqual([
      expect.objectContaining({
        source: line(2),
        record_type: 'service',
        record_id: 'not-a-uuid-at-all',
        reason: 'Invalid UUID',
        value: 'string "not-a-uuid-at-all"',
      }),
    ]);
    expect(find('skipped-with-parent', '')).toEqual([
      expect.objectContaining({
        source: line(2),
        reason: '1 record(s) nested in this service were skipped with it',
      }),
    ]);
    expect(find('invalid', 'name')).toEqual([
      expect.objectContaining({
        source: line(3),
        record_type: 'service',
        record_id: '0d000000-0000-4000-8000-000000000003',
        reason: 'required field is missing',
      }),
    ]);
    expect(find('invalid', 'term_uri')).toEqual([
      expect.objectContaining({
        record_type: 'taxonomy_term',
        record_id: '0c000000-0000-4000-8000-000000000002',
        reason: 'Invalid URI',
      }),
    ]);
    expect(find('dangling-reference', 'service_at_locations[1].location_id')).toEqual([
      expect.objectContaining({
        severity: 'warning',
        source: line(1),
        record_type: 'service_at_location',
        record_id: '10000000-0000-4000-8000-000000000002',
        reason: expect.stringContaining('location_id 11000000-0000-4000-8000-00000000dead: no location'),
      }),
    ]);
    const [bowTie] = find('extent-invalid', 'service_areas[1].extent');
    expect(bowTie).toMatchObject({ record_id: '0f000000-0000-4000-8000-000000000002' });
    expect(bowTie?.reason).toMatch(/intersects itself/);
    expect(find('extent-not-geojson', 'service_areas[2].extent_type')).toHaveLength(1);
    expect(report.issues.filter((i) => i.kind === 'duplicate')).toEqual([
      expect.objectContaining({
        source: line(5),
        record_type: 'service',
        record_id: '0d000000-0000-4000-8000-000000000001',
        reason: expect.stringMatching(
          /different content \(first at .*services\.ndjson:1\); the last one is kept/,
        ),
      }),
    ]);
    // Counts by reason add up to the issues, and name the kinds.
    expect(Object.values(report.by_reason).reduce((a, b) => a + b, 0)).toBe(report.issues_total);
    expect(report.issues).toHaveLength(report.issues_total);
    expect(
      Object.keys(report.by_reason).some((k) =>
        k.startsWith('invalid: contact.email: Invalid email address'),
      ),
    ).toBe(true);
  });

  it('publishes the good records: the broken area gives no coverage, the good one does', async () => {
    const result = await reindex(engine);
    expect(result.counts).toMatchObject({
      services: 2,
      service_at_locations: 3,
      organizations: 1,
      taxonomy_terms: 1,
    });
    const { body } = await engine.client.get({
      index: engine.name('service_at_locations'),
      id: '10000000-0000-4000-8000-000000000001',
    });
    const doc = body._source as {
      has_coverage: boolean;
      coverage: { type: string };
      location_point: unknown;
    };
    expect(doc.has_coverage).toBe(true);
    expect(doc.coverage.type).toBe('Polygon'); // the square only: the bow tie and the text area add nothing
    expect(doc.location_point).toEqual({ lat: 57.13, lon: -2.09 });
    const organization = await engine.client.get({
      index: engine.name('organizations'),
      id: '0a000000-0000-4000-8000-000000000001',
    });
    expect((organization.body._source as { service_ids: string[] }).service_ids.sort()).toEqual([
      '0d000000-0000-4000-8000-000000000001',
      '0d000000-0000-4000-8000-000000000004',
    ]);
  });
});

describe('importing the same broken source with the leniency policy (the default)', () => {
  const lenient = createTestEngine('ingest-broken-lenient');
  afterAll(() => dropTestIndices(lenient));

  it('keeps records whose only fault is an optional value, without that value', async () => {
    const file = join(tmpdir(), `broken-lenient-report-${process.pid}.json`);
    await importSource(lenient, 'test/fixtures/broken', { reportFile: file });
    const lenientReport = JSON.parse(await readFile(file, 'utf8')) as ImportReport;
    // Only the missing name still rejects: the contact and the term are kept, and the service
    // whose id is no UUID is kept under the UUID it maps to (src/ingest/repairs/non-uuid-ids.ts).
    expect(lenientReport).toMatchObject({ rejected: 1 });
    expect(lenientReport.by_type).toMatchObject({
      contact: { imported: 2, rejected: 0 },
      taxonomy_term: { imported: 2, rejected: 0 },
      service: { rejected: 1 },
    });
    const contact = '0e000000-0000-4000-8000-000000000002';
    const [bob] = (await getRecords(lenient, [`contact:${contact}`])).values();
    expect(bob?.record).toMatchObject({ id: contact, name: 'Bob Persona' });
    expect(bob?.record).not.toHaveProperty('email');
    expect(lenientReport.issues.filter((i) => i.kind === 'dropped-field' && i.record_id === contact)).toEqual(
      [
        expect.objectContaining({
          severity: 'warning',
          path: 'contacts[1].email',
          value: 'string "bob at pantry dot org"',
          reason: 'Invalid email address: dropped, the record is kept',
        }),
      ],
    );
  });
});
