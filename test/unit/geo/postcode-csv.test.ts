import { createReadStream, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'csv-parse';
import { parse as parseSync } from 'csv-parse/sync';
import { describe, expect, it } from 'vitest';
import {
  computeOutcodeCentroids,
  convertBritishNationalGrid,
  createOutcodeCentroidAccumulator,
  createPostcodeImportCounts,
  detectPostcodeCsvLayout,
  PostcodeCsvFormatError,
  type PostcodeCsvLayout,
  type PostcodeRow,
  parsePostcodeRow,
  parsePostcodeRows,
} from '../../../src/geo/postcode-csv.ts';

const FIXTURES = join(import.meta.dirname, '..', '..', 'fixtures', 'postcodes');
const ONSPD = join(FIXTURES, 'onspd-sample.csv');
const CODE_POINT = join(FIXTURES, 'code-point-open-sample.csv');

const readRecords = (path: string) => createReadStream(path).pipe(parse({ relax_column_count: true }));

async function collect<T>(rows: AsyncIterable<T>): Promise<T[]> {
  const out: T[] = [];
  for await (const row of rows) out.push(row);
  return out;
}

/** Distance in metres between two WGS84 points (equirectangular; exact enough over metres). */
function metresBetween(a: { lat: number; lon: number }, b: { lat: number; lon: number }): number {
  const rad = Math.PI / 180;
  const x = (b.lon - a.lon) * rad * Math.cos(((a.lat + b.lat) / 2) * rad);
  const y = (b.lat - a.lat) * rad;
  return Math.hypot(x, y) * 6_371_000;
}

describe('detectPostcodeCsvLayout', () => {
  it('reads the ONSPD header', () => {
    expect(detectPostcodeCsvLayout(['pcds', 'lat', 'long', 'dointr', 'doterm', 'oslaua', 'ctry'])).toEqual({
      ok: true,
      layout: { style: 'onspd', hasHeader: true, postcode: 0, lat: 1, lon: 2, doterm: 4 },
    });
  });

  it('reads an NSPL-style header (upper case, BOM, pcds preferred over pcd)', () => {
    const header = [
      '\uFEFFPCD',
      'PCD2',
      'PCDS',
      'DOINTR',
      'DOTERM',
      'USERTYPE',
      'OSEAST1M',
      'OSNRTH1M',
      'LAT',
      'LONG',
    ];
    expect(detectPostcodeCsvLayout(header)).toEqual({
      ok: true,
      layout: { style: 'onspd', hasHeader: true, postcode: 2, lat: 8, lon: 9, doterm: 4 },
    });
  });

  it('recognises headerless Code-Point Open data by its first record', () => {
    const first = [
      'AB101QQ',
      '10',
      '393347',
      '806245',
      'S92000003',
      'S08000020',
      '',
      '',
      'S12000033',
      'S13002841',
    ];
    expect(detectPostcodeCsvLayout(first)).toEqual({
      ok: true,
      layout: {
        style: 'code-point-open',
        hasHeader: false,
        postcode: 0,
        quality: 1,
        eastings: 2,
        northings: 3,
      },
    });
  });

  it('recognises Code-Point Open with its column header file prepended', () => {
    const header = ['Postcode', 'Positional_quality_indicator', 'Eastings', 'Northings', 'Country_code'];
    expect(detectPostcodeCsvLayout(header)).toMatchObject({
      ok: true,
      layout: { style: 'code-point-open', hasHeader: true },
    });
  });

  it('says what is missing from an unrecognised file', () => {
    const result = detectPostcodeCsvLayout(['name', 'address', 'lat']);
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.reason).toContain('missing a postcode column (pcds or pcd), long');
  });
});

describe('parsePostcodeRow (ONSPD)', () => {
  const layout: PostcodeCsvLayout = {
    style: 'onspd',
    hasHeader: true,
    postcode: 0,
    lat: 1,
    lon: 2,
    doterm: 4,
  };

  it('reads a live postcode', () => {
    expect(
      parsePostcodeRow(layout, ['AB10 1AB', '57.149606', '-2.096916', '201106', '', 'S12000033']),
    ).toEqual({
      postcode: 'AB10 1AB',
      outcode: 'AB10',
      lat: 57.149606,
      lon: -2.096916,
    });
  });

  it('skips a terminated postcode unless asked to include it', () => {
    const row = ['AB1 0AA', '57.101474', '-2.242851', '198001', '199606'];
    expect(parsePostcodeRow(layout, row)).toEqual({ skip: 'terminated' });
    expect(parsePostcodeRow(layout, row, { includeTerminated: true })).toMatchObject({ postcode: 'AB1 0AA' });
  });

  it('skips rows without coordinates: the 99.999999 marker, blanks, nonsense', () => {
    for (const [lat, lon] of [
      ['99.999999', '0.000000'],
      ['', ''],
      ['north', 'west'],
    ]) {
      expect(parsePostcodeRow(layout, ['JE2 4WD', lat!, lon!, '199507', ''])).toEqual({
        skip: 'no-coordinates',
      });
    }
  });

  it('skips malformed postcodes and outcode-only values', () => {
    expect(parsePostcodeRow(layout, ['ZZZ', '57', '-2', '', ''])).toEqual({ skip: 'invalid-postcode' });
    expect(parsePostcodeRow(layout, ['AB10', '57', '-2', '', ''])).toEqual({ skip: 'invalid-postcode' });
  });
});

describe('parsePostcodeRows on the ONSPD fixture', () => {
  it('imports live located postcodes and counts every skip', async () => {
    const counts = createPostcodeImportCounts();
    const rows = await collect(parsePostcodeRows(readRecords(ONSPD), { counts }));
    expect(counts).toEqual({
      rows: 8048,
      imported: 4236,
      skipped: { terminated: 3811, 'no-coordinates': 1, 'invalid-postcode': 0 },
    });
    expect(rows).toHaveLength(4236);
    expect(rows.find((r) => r.postcode === 'AB10 1QQ')).toEqual({
      postcode: 'AB10 1QQ',
      outcode: 'AB10',
      lat: 57.147042,
      lon: -2.111584,
    });
    expect(rows.some((r) => r.postcode === 'JE2 4WD' || r.postcode === 'AB1 0AA')).toBe(false);
  });

  it('includes terminated postcodes when asked, still skipping those without coordinates', async () => {
    const counts = createPostcodeImportCounts();
    await collect(parsePostcodeRows(readRecords(ONSPD), { counts, includeTerminated: true }));
    expect(counts).toEqual({
      rows: 8048,
      imported: 8046,
      skipped: { terminated: 0, 'no-coordinates': 2, 'invalid-postcode': 0 },
    });
  });

  it('computes outcode centroids as the mean of the imported postcodes', async () => {
    const outcodes = createOutcodeCentroidAccumulator();
    const rows = await collect(parsePostcodeRows(readRecords(ONSPD), { outcodes }));
    const centroids = outcodes.centroids();
    const ab10 = rows.filter((r) => r.outcode === 'AB10');
    const expected = {
      outcode: 'AB10',
      postcodes: ab10.length,
      lat: ab10.reduce((sum, r) => sum + r.lat, 0) / ab10.length,
      lon: ab10.reduce((sum, r) => sum + r.lon, 0) / ab10.length,
    };
    const found = centroids.find((c) => c.outcode === 'AB10');
    expect(found?.postcodes).toBe(expected.postcodes);
    expect(found?.lat).toBeCloseTo(expected.lat, 5);
    expect(found?.lon).toBeCloseTo(expected.lon, 5);
    expect(centroids.reduce((sum, c) => sum + c.postcodes, 0)).toBe(4236);
    // Every AB1 postcode is terminated: no AB1 centroid from live data.
    expect(centroids.some((c) => c.outcode === 'AB1')).toBe(false);
    expect(centroids.map((c) => c.outcode)).toEqual([...centroids.map((c) => c.outcode)].sort());
  });

  it('fails clearly on a file that is not a postcode directory', async () => {
    const records = [
      ['id', 'name', 'description'],
      ['1', 'Food bank', 'Tuesdays'],
    ];
    await expect(collect(parsePostcodeRows(records))).rejects.toBeInstanceOf(PostcodeCsvFormatError);
  });
});

describe('Code-Point Open', () => {
  it('converts British National Grid to WGS84 within metres of ONSPD lat/long', async () => {
    const onspd = new Map<string, { lat: number; lon: number }>(
      (parseSync(readFileSync(ONSPD, 'utf8'), { columns: true }) as Record<string, string>[]).map((r) => [
        r.pcds!,
        { lat: Number(r.lat), lon: Number(r.long) },
      ]),
    );
    const counts = createPostcodeImportCounts();
    const rows = await collect(parsePostcodeRows(readRecords(CODE_POINT), { counts }));

    expect(counts).toEqual({
      rows: 18,
      imported: 16,
      skipped: { terminated: 0, 'no-coordinates': 1, 'invalid-postcode': 1 },
    });
    const errors = rows.map((row) => {
      const reference = onspd.get(row.postcode);
      if (!reference) throw new Error(`${row.postcode} is not in the ONSPD fixture`);
      return metresBetween(row, reference);
    });
    // ONSPD's own lat/long for AB10 1QT sits 10 m from its grid reference; the rest agree closely.
    expect(Math.max(...errors)).toBeLessThan(12);
    expect(errors.reduce((sum, e) => sum + e, 0) / errors.length).toBeLessThan(1.5);
    expect(rows.map((r) => r.postcode)).toContain('AB10 1QQ');
  });

  it('converts a single grid reference', () => {
    const at = convertBritishNationalGrid(393347, 806245);
    expect(metresBetween(at, { lat: 57.147042, lon: -2.111584 })).toBeLessThan(10);
  });
});

describe('computeOutcodeCentroids', () => {
  it('averages rows per outcode from any iterable', async () => {
    const rows: PostcodeRow[] = [
      { postcode: 'AB10 1AA', outcode: 'AB10', lat: 57.1, lon: -2.1 },
      { postcode: 'AB10 1AB', outcode: 'AB10', lat: 57.2, lon: -2.3 },
      { postcode: 'AB11 5AA', outcode: 'AB11', lat: 57.15, lon: -2.09 },
    ];
    await expect(computeOutcodeCentroids(rows)).resolves.toEqual([
      { outcode: 'AB10', lat: 57.15, lon: -2.2, postcodes: 2 },
      { outcode: 'AB11', lat: 57.15, lon: -2.09, postcodes: 1 },
    ]);
  });
});
