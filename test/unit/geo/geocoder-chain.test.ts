import { describe, expect, it } from 'vitest';
import {
  type Centroid,
  createGeocodeCache,
  createGeocoderChain,
  type Geocoder,
  GeocoderUnavailableError,
  selectGeocoders,
  withCircuitBreaker,
} from '../../../src/geo/geocoder.ts';
import { type PostalCode, parsePostalCode } from '../../../src/geo/postal-code.ts';

function code(input: string): PostalCode {
  const parsed = parsePostalCode(input);
  if (!parsed.ok) throw new Error(parsed.reason);
  return parsed.value;
}

type Known = Record<string, { lat: number; lon: number }>;

/**
 * An in-memory geocoder: knows some postcodes and outcodes, falls back to the outcode like the real
 * ones, and can be switched off. Counts its calls so tests can see what the chain asked.
 */
function tableGeocoder(name: string, known: Known) {
  const state = { down: false, calls: 0 };
  const answer = (c: PostalCode, key: string, precision: Centroid['precision']): Centroid | null => {
    const at = known[key];
    return at ? { ...at, query: c.normalised, matched: key, precision, source: name } : null;
  };
  const geocode = async (c: PostalCode): Promise<Centroid | null> => {
    state.calls += 1;
    if (state.down) throw new GeocoderUnavailableError(name, 'connection refused');
    if (c.kind === 'us-zip') return answer(c, c.normalised, 'zip');
    if (c.kind === 'uk-outcode') return answer(c, c.normalised, 'outcode');
    return answer(c, c.normalised, 'postcode') ?? answer(c, c.outcode!, 'outcode');
  };
  const geocoder: Geocoder = { name, geocode };
  return { geocoder, state };
}

const ABERDEEN = { lat: 57.149606, lon: -2.096916 };
const AB10 = { lat: 57.14, lon: -2.11 };

describe('createGeocoderChain', () => {
  it('returns the first exact hit and does not ask later geocoders', async () => {
    const first = tableGeocoder('index', { 'AB10 1AB': ABERDEEN });
    const second = tableGeocoder('http', { 'AB10 1AB': { lat: 0, lon: 0 } });
    const chain = createGeocoderChain([first.geocoder, second.geocoder], { cache: null });

    await expect(chain.geocode(code('ab10 1ab'))).resolves.toEqual({
      ...ABERDEEN,
      query: 'AB10 1AB',
      matched: 'AB10 1AB',
      precision: 'postcode',
      source: 'index',
    });
    expect(second.state.calls).toBe(0);
    expect(chain.order).toEqual(['index', 'http']);
  });

  it('moves past an outcode fallback to a geocoder that knows the full postcode', async () => {
    const index = tableGeocoder('index', { AB10: AB10 });
    const http = tableGeocoder('http', { 'AB10 1AB': ABERDEEN });
    const chain = createGeocoderChain([index.geocoder, http.geocoder], { cache: null });

    const found = await chain.geocode(code('AB10 1AB'));
    expect(found).toMatchObject({ precision: 'postcode', source: 'http' });
  });

  it('falls back to the first outcode centroid when nobody knows the full postcode', async () => {
    const index = tableGeocoder('index', { AB10: AB10 });
    const http = tableGeocoder('http', {});
    const chain = createGeocoderChain([index.geocoder, http.geocoder], { cache: null });

    await expect(chain.geocode(code('AB10 9ZZ'))).resolves.toEqual({
      ...AB10,
      query: 'AB10 9ZZ',
      matched: 'AB10',
      precision: 'outcode',
      source: 'index',
    });
  });

  it('says unknown (null) when every geocoder answered and none knows the code', async () => {
    const index = tableGeocoder('index', {});
    const http = tableGeocoder('http', {});
    const chain = createGeocoderChain([index.geocoder, http.geocoder], { cache: null });
    await expect(chain.geocode(code('ZE9 9ZZ'))).resolves.toBeNull();
    expect([index.state.calls, http.state.calls]).toEqual([1, 1]);
  });

  it('still answers when a later geocoder is down but an earlier one found it', async () => {
    const index = tableGeocoder('index', { 'AB10 1AB': ABERDEEN });
    const http = tableGeocoder('http', {});
    http.state.down = true;
    const chain = createGeocoderChain([index.geocoder, http.geocoder], { cache: null });
    await expect(chain.geocode(code('AB10 1AB'))).resolves.toMatchObject({ source: 'index' });
  });

  it('answers from a working geocoder when an earlier one is down', async () => {
    const index = tableGeocoder('index', {});
    index.state.down = true;
    const http = tableGeocoder('http', { 'AB10 1AB': ABERDEEN });
    const chain = createGeocoderChain([index.geocoder, http.geocoder], { cache: null });
    await expect(chain.geocode(code('AB10 1AB'))).resolves.toMatchObject({ source: 'http' });
  });

  it('is unavailable, not unknown, when one geocoder is down and the others do not know the code', async () => {
    const index = tableGeocoder('index', {});
    const http = tableGeocoder('http', {});
    http.state.down = true;
    const chain = createGeocoderChain([index.geocoder, http.geocoder], { cache: null });

    const failure = await chain.geocode(code('AB10 1AB')).catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(GeocoderUnavailableError);
    expect((failure as GeocoderUnavailableError).reason).toBe('http: connection refused');
  });

  it('answers with an outcode fallback when the geocoder that might know better is down', async () => {
    const index = tableGeocoder('index', { AB10: AB10 });
    const http = tableGeocoder('http', {});
    http.state.down = true;
    const cache = createGeocodeCache();
    const chain = createGeocoderChain([index.geocoder, http.geocoder], { cache });

    await expect(chain.geocode(code('AB10 1AB'))).resolves.toMatchObject({ precision: 'outcode' });
    // Not cached: once http is back it may know the full postcode.
    expect(cache.stats.size).toBe(0);
    http.state.down = false;
    http.geocoder.geocode = async (c) => ({
      ...ABERDEEN,
      query: c.normalised,
      matched: c.normalised,
      precision: 'postcode',
      source: 'http',
    });
    await expect(chain.geocode(code('AB10 1AB'))).resolves.toMatchObject({
      precision: 'postcode',
      source: 'http',
    });
  });

  it('treats a geocoder that does not handle a kind as not knowing it', async () => {
    const ukOnly = tableGeocoder('http', { 'AB10 1AB': ABERDEEN });
    const zips = tableGeocoder('zips', { '90210': { lat: 34.1, lon: -118.4 } });
    const chain = createGeocoderChain([ukOnly.geocoder, zips.geocoder], { cache: null });
    await expect(chain.geocode(code('90210-1234'))).resolves.toMatchObject({
      precision: 'zip',
      source: 'zips',
    });
  });

  it('with no geocoders, knows nothing', async () => {
    await expect(createGeocoderChain([], { cache: null }).geocode(code('AB10 1AB'))).resolves.toBeNull();
  });
});

describe('chain cache', () => {
  it('serves a repeated code from the cache, hits and known-unknowns alike', async () => {
    const http = tableGeocoder('http', { 'AB10 1AB': ABERDEEN });
    const chain = createGeocoderChain([http.geocoder]);

    await chain.geocode(code('AB10 1AB'));
    await chain.geocode(code('ab101ab'));
    await chain.geocode(code('ZE9 9ZZ'));
    await chain.geocode(code('ZE9 9ZZ'));
    expect(http.state.calls).toBe(2);
    expect(chain.cache?.stats).toEqual({ hits: 2, misses: 2, size: 2 });
  });

  it('does not cache unavailability', async () => {
    const http = tableGeocoder('http', { 'AB10 1AB': ABERDEEN });
    http.state.down = true;
    const chain = createGeocoderChain([http.geocoder]);
    await expect(chain.geocode(code('AB10 1AB'))).rejects.toBeInstanceOf(GeocoderUnavailableError);
    http.state.down = false;
    await expect(chain.geocode(code('AB10 1AB'))).resolves.toMatchObject({ source: 'http' });
  });

  it('remembers unavailability for failureTtlMs only: one outage costs one lookup per code, not one per request', async () => {
    const http = tableGeocoder('http', { 'AB10 1AB': ABERDEEN });
    http.state.down = true;
    let clock = 0;
    const chain = createGeocoderChain([http.geocoder], { failureTtlMs: 10_000, now: () => clock });
    await expect(chain.geocode(code('AB10 1AB'))).rejects.toBeInstanceOf(GeocoderUnavailableError);
    await expect(chain.geocode(code('AB10 1AB'))).rejects.toBeInstanceOf(GeocoderUnavailableError);
    expect(http.state.calls).toBe(1);
    http.state.down = false;
    clock = 9_999;
    await expect(chain.geocode(code('AB10 1AB'))).rejects.toBeInstanceOf(GeocoderUnavailableError);
    clock = 10_000;
    await expect(chain.geocode(code('AB10 1AB'))).resolves.toMatchObject({ source: 'http' });
    expect(http.state.calls).toBe(2);
  });

  it('skips a geocoder whose breaker is open and goes on down the chain', async () => {
    const http = tableGeocoder('http', { 'AB10 1AB': ABERDEEN });
    const offline = tableGeocoder('offline', { AB10 });
    http.state.down = true;
    const chain = createGeocoderChain(
      [withCircuitBreaker(http.geocoder, { failureThreshold: 2, cooldownMs: 60_000 }), offline.geocoder],
      { cache: null },
    );
    for (const postcode of ['AB10 1AB', 'AB10 1AD', 'AB10 1AF', 'AB10 1AG']) {
      await expect(chain.geocode(code(postcode))).resolves.toMatchObject({
        source: 'offline',
        matched: 'AB10',
      });
    }
    // Two failures opened the breaker: the last two lookups never reached the sick geocoder.
    expect(http.state.calls).toBe(2);
    expect(offline.state.calls).toBe(4);
  });

  it('counts "unknown" as an answer: a geocoder that knows nothing is not sick', async () => {
    const http = tableGeocoder('http', {});
    const guarded = withCircuitBreaker(http.geocoder, { failureThreshold: 1, cooldownMs: 60_000 });
    for (let i = 0; i < 3; i++) await expect(guarded.geocode(code('ZE9 9ZZ'))).resolves.toBeNull();
    expect(http.state.calls).toBe(3);
  });

  it('shares one lookup between concurrent requests for the same code', async () => {
    const http = tableGeocoder('http', { 'AB10 1AB': ABERDEEN });
    const chain = createGeocoderChain([http.geocoder]);
    const answers = await Promise.all(Array.from({ length: 20 }, () => chain.geocode(code('AB10 1AB'))));
    expect(new Set(answers.map((a) => a?.lat))).toEqual(new Set([ABERDEEN.lat]));
    expect(http.state.calls).toBe(1);
  });

  it('evicts the least recently used entry beyond its bound', () => {
    const cache = createGeocodeCache({ maxEntries: 2 });
    cache.set('A', null);
    cache.set('B', null);
    cache.get('A');
    cache.set('C', null);
    expect([cache.get('A'), cache.get('B'), cache.get('C')]).toEqual([
      { value: null },
      undefined,
      { value: null },
    ]);
  });

  it('expires found centroids after ttlMs and unknowns after unknownTtlMs', () => {
    let now = 0;
    const cache = createGeocodeCache({ ttlMs: 1000, unknownTtlMs: 100, now: () => now });
    const centroid: Centroid = {
      ...ABERDEEN,
      query: 'AB10 1AB',
      matched: 'AB10 1AB',
      precision: 'postcode',
      source: 'x',
    };
    cache.set('AB10 1AB', centroid);
    cache.set('ZE9 9ZZ', null);
    now = 150;
    expect(cache.get('ZE9 9ZZ')).toBeUndefined();
    expect(cache.get('AB10 1AB')).toEqual({ value: centroid });
    now = 1000;
    expect(cache.get('AB10 1AB')).toBeUndefined();
    expect(cache.stats.size).toBe(0);
  });
});

describe('selectGeocoders', () => {
  const a = tableGeocoder('postcode-index', {}).geocoder;
  const b = tableGeocoder('postcodes-io', {}).geocoder;

  it('orders geocoders as configured', () => {
    expect(selectGeocoders([a, b], ['postcodes-io', 'postcode-index']).map((g) => g.name)).toEqual([
      'postcodes-io',
      'postcode-index',
    ]);
  });

  it('names unknown and repeated geocoders', () => {
    expect(() => selectGeocoders([a, b], ['google'])).toThrow(
      'unknown geocoder "google"; choose from postcode-index, postcodes-io',
    );
    expect(() => selectGeocoders([a, b], ['postcodes-io', 'postcodes-io'])).toThrow('listed twice');
  });
});
