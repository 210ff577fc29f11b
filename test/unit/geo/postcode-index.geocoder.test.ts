import { describe, expect, it } from 'vitest';
import { createGeocoderChain, GeocoderUnavailableError } from '../../../src/geo/geocoder.ts';
import { type PostalCode, parsePostalCode } from '../../../src/geo/postal-code.ts';
import { createIndexGeocoder, type PostcodeLookup } from '../../../src/geo/postcode-index.geocoder.ts';

function code(input: string): PostalCode {
  const parsed = parsePostalCode(input);
  if (!parsed.ok) throw new Error(parsed.reason);
  return parsed.value;
}

// Stands in for the engine gateway's lookup: a table keyed as the importer stores postcodes and
// outcode centroids.
function tableLookup(table: Record<string, { lat: number; lon: number }>) {
  const asked: string[] = [];
  const lookup: PostcodeLookup = async (key) => {
    asked.push(key);
    return table[key] ?? null;
  };
  return { lookup, asked };
}

const table = { 'AB10 1AB': { lat: 57.149606, lon: -2.096916 }, AB10: { lat: 57.14, lon: -2.11 } };

describe('createIndexGeocoder', () => {
  it('finds a postcode by its normalised key', async () => {
    const { lookup, asked } = tableLookup(table);
    await expect(createIndexGeocoder(lookup).geocode(code('ab101ab'))).resolves.toEqual({
      lat: 57.149606,
      lon: -2.096916,
      query: 'AB10 1AB',
      matched: 'AB10 1AB',
      precision: 'postcode',
      source: 'postcode-index',
    });
    expect(asked).toEqual(['AB10 1AB']);
  });

  it('falls back to the stored outcode centroid, unless told not to', async () => {
    const { lookup, asked } = tableLookup(table);
    await expect(createIndexGeocoder(lookup).geocode(code('AB10 9ZZ'))).resolves.toMatchObject({
      matched: 'AB10',
      precision: 'outcode',
    });
    expect(asked).toEqual(['AB10 9ZZ', 'AB10']);
    const strict = createIndexGeocoder(lookup, 'strict-index', { outcodeFallback: false });
    await expect(strict.geocode(code('AB10 9ZZ'))).resolves.toBeNull();
  });

  it('answers an outcode query from the outcode key', async () => {
    const { lookup } = tableLookup(table);
    await expect(createIndexGeocoder(lookup, 'idx').geocode(code('ab10'))).resolves.toMatchObject({
      matched: 'AB10',
      precision: 'outcode',
      source: 'idx',
    });
  });

  it('does not ask the engine about US ZIP codes', async () => {
    const { lookup, asked } = tableLookup(table);
    await expect(createIndexGeocoder(lookup).geocode(code('90210'))).resolves.toBeNull();
    expect(asked).toEqual([]);
  });

  it('turns a failing lookup into GeocoderUnavailableError so the chain can move on', async () => {
    const failing = createIndexGeocoder(async () => {
      throw new Error('connect ECONNREFUSED 127.0.0.1:9200');
    });
    await expect(failing.geocode(code('AB10 1AB'))).rejects.toBeInstanceOf(GeocoderUnavailableError);

    const { lookup } = tableLookup(table);
    const chain = createGeocoderChain([failing, createIndexGeocoder(lookup, 'replica')], { cache: null });
    await expect(chain.geocode(code('AB10 1AB'))).resolves.toMatchObject({ source: 'replica' });
  });
});
