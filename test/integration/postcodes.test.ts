import { writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { countPostcodes, currentPostcodeIndices, lookupPostcode } from '../../src/engine/index.ts';
import { parsePostalCode } from '../../src/geo/postal-code.ts';
import { createIndexGeocoder } from '../../src/geo/postcode-index.geocoder.ts';
import { importPostcodeCsv } from '../../src/ingest/import/postcode-import.ts';
import { createTestEngine, dropTestIndices } from '../support/engine.ts';

const engine = createTestEngine('postcodes');
afterAll(() => dropTestIndices(engine));

const onspd = new URL('../fixtures/postcodes/onspd-sample.csv', import.meta.url).pathname;
const code = (input: string) => {
  const parsed = parsePostalCode(input);
  if (!parsed.ok) throw new Error(parsed.reason);
  return parsed.value;
};

describe('postcodes import', () => {
  it('loads live postcodes with coordinates and their outcode centroids, skipping the rest', async () => {
    const summary = await importPostcodeCsv(engine, onspd);
    // The sample: 8,048 rows, of which 3,811 terminated and one live row without coordinates.
    expect(summary.rows).toBe(8048);
    expect(summary.skipped).toEqual({ terminated: 3811, 'no-coordinates': 1, 'invalid-postcode': 0 });
    expect(summary.imported).toBe(8048 - 3811 - 1);
    expect(summary.outcodes).toBeGreaterThan(5);
    expect(await countPostcodes(engine)).toBe(summary.imported + summary.outcodes);
    expect(await lookupPostcode(engine, 'AB10 1AB')).toEqual({ lat: 57.149606, lon: -2.096916 });
    expect(await lookupPostcode(engine, 'AB1 0AA')).toBeNull(); // terminated in 1996
  });

  it('answers through the index geocoder, with the outcode centroid for an unknown full postcode', async () => {
    const geocoder = createIndexGeocoder((key) => lookupPostcode(engine, key));
    expect(await geocoder.geocode(code('ab101ab'))).toMatchObject({ precision: 'postcode', lat: 57.149606 });
    const fallback = await geocoder.geocode(code('AB10 9ZZ'));
    expect(fallback).toMatchObject({ precision: 'outcode', matched: 'AB10' });
    expect(fallback!.lat).toBeGreaterThan(57.0);
    expect(await geocoder.geocode(code('SW1A 1AA'))).toBeNull();
  });

  it('replaces the served index on re-import, and a failed import leaves it untouched', async () => {
    const [before] = await currentPostcodeIndices(engine);
    await importPostcodeCsv(engine, onspd, { includeTerminated: true });
    const [after] = await currentPostcodeIndices(engine);
    expect(after).not.toBe(before);
    expect(await lookupPostcode(engine, 'AB1 0AA')).not.toBeNull();

    const bad = join(tmpdir(), `not-postcodes-${process.pid}.csv`);
    writeFileSync(bad, 'name,colour\nfoo,blue\n');
    await expect(importPostcodeCsv(engine, bad)).rejects.toThrow();
    expect(await currentPostcodeIndices(engine)).toEqual([after]);
    expect(await lookupPostcode(engine, 'AB10 1AB')).not.toBeNull();
    const { body } = await engine.client.cat.indices({
      index: `${engine.settings.prefix}-postcodes-*`,
      format: 'json',
    });
    expect(body).toHaveLength(1);
  });
});
