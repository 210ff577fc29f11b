import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createGeocoderChain, GeocoderUnavailableError } from '../../../src/geo/geocoder.ts';
import { type PostalCode, parsePostalCode } from '../../../src/geo/postal-code.ts';
import { createPostcodesIoGeocoder } from '../../../src/geo/postcodes-io.geocoder.ts';
import { type FakePostcodesIo, startFakePostcodesIo } from '../../support/fake-postcodes-io.ts';

function code(input: string): PostalCode {
  const parsed = parsePostalCode(input);
  if (!parsed.ok) throw new Error(parsed.reason);
  return parsed.value;
}

// Real sockets against a real server, so timeouts, retries and connection refusals are the genuine
// article; delays are kept small so the file stays fast.
describe('postcodes.io geocoder against a fake postcodes.io', () => {
  let server: FakePostcodesIo;

  beforeAll(async () => {
    server = await startFakePostcodesIo({ pathPrefix: '/pc-api' });
  });
  afterAll(async () => {
    await server.close();
  });
  beforeEach(async () => {
    await server.setMode('up');
    server.resetRequests();
  });

  const client = (overrides: { timeoutMs?: number; retries?: number; outcodeFallback?: boolean } = {}) =>
    createPostcodesIoGeocoder({
      baseUrl: server.url,
      timeoutMs: 500,
      retries: 2,
      retryDelayMs: 5,
      ...overrides,
    });

  it('finds a live postcode (ONSPD coordinates) through a path prefix', async () => {
    await expect(client().geocode(code('ab10 1ab'))).resolves.toEqual({
      lat: 57.149606,
      lon: -2.096916,
      query: 'AB10 1AB',
      matched: 'AB10 1AB',
      precision: 'postcode',
      source: 'postcodes-io',
    });
    expect(server.log).toEqual(['GET /pc-api/postcodes/AB10%201AB']);
  });

  it('accepts a base URL with a trailing slash', async () => {
    const geocoder = createPostcodesIoGeocoder({ baseUrl: `${server.url}/`, retryDelayMs: 1 });
    await expect(geocoder.geocode(code('AB10 1AB'))).resolves.toMatchObject({ precision: 'postcode' });
  });

  it('falls back to the outcode centroid when the full postcode is unknown', async () => {
    const found = await client().geocode(code('AB10 9ZZ'));
    expect(found).toMatchObject({ query: 'AB10 9ZZ', matched: 'AB10', precision: 'outcode' });
    expect(found?.lat).toBeCloseTo(57.14, 1);
    expect(server.log).toEqual(['GET /pc-api/postcodes/AB10%209ZZ', 'GET /pc-api/outcodes/AB10']);
  });

  it('can be told not to fall back', async () => {
    await expect(client({ outcodeFallback: false }).geocode(code('AB10 9ZZ'))).resolves.toBeNull();
    expect(server.requests).toBe(1);
  });

  it('returns null for a terminated postcode whose outcode is gone too (404 is unknown, not an error)', async () => {
    // Every AB1 postcode was terminated in 1996, so postcodes.io knows neither AB1 0AA nor AB1.
    await expect(client().geocode(code('AB1 0AA'))).resolves.toBeNull();
    expect(server.requests).toBe(2);
  });

  it('treats a known postcode with null coordinates as having no centroid', async () => {
    // JE2 4WD is live in ONSPD without a grid reference; JE2 has no located postcodes in the sample.
    await expect(client().geocode(code('JE2 4WD'))).resolves.toBeNull();
  });

  it('looks up an outcode directly', async () => {
    await expect(client().geocode(code('AB11'))).resolves.toMatchObject({
      matched: 'AB11',
      precision: 'outcode',
    });
    expect(server.log).toEqual(['GET /pc-api/outcodes/AB11']);
  });

  it('leaves US ZIP codes alone without a request', async () => {
    await expect(client().geocode(code('90210'))).resolves.toBeNull();
    expect(server.requests).toBe(0);
  });

  it('retries 500s with backoff and succeeds when the server recovers', async () => {
    await server.setMode('flaky', { failures: 2 });
    await expect(client().geocode(code('AB10 1AB'))).resolves.toMatchObject({ precision: 'postcode' });
    expect(server.requests).toBe(3);
  });

  it('gives up after its retries on persistent 500s and says why', async () => {
    await server.setMode('error');
    const failure = await client({ retries: 1 })
      .geocode(code('AB10 1AB'))
      .catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(GeocoderUnavailableError);
    expect((failure as GeocoderUnavailableError).reason).toBe('/pc-api/postcodes/AB10%201AB: HTTP 500');
    expect(server.requests).toBe(2);
  });

  it('does not retry a 4xx that retrying cannot fix', async () => {
    let calls = 0;
    const behindAuthProxy = createPostcodesIoGeocoder({
      baseUrl: server.url,
      retries: 3,
      retryDelayMs: 1,
      fetch: async () => {
        calls += 1;
        return new Response('{}', { status: 401 });
      },
    });
    await expect(behindAuthProxy.geocode(code('AB10 1AB'))).rejects.toThrow('HTTP 401');
    expect(calls).toBe(1);
  });

  it('retries a 429 (rate limited)', async () => {
    const statuses = [429, 200];
    const rateLimited = createPostcodesIoGeocoder({
      baseUrl: server.url,
      retryDelayMs: 1,
      fetch: async () =>
        statuses.shift() === 429
          ? new Response('', { status: 429 })
          : Response.json({ status: 200, result: { latitude: 57.1, longitude: -2.1 } }),
    });
    await expect(rateLimited.geocode(code('AB10 1AB'))).resolves.toMatchObject({ lat: 57.1, lon: -2.1 });
    expect(statuses).toEqual([]);
  });

  it('treats a 200 without the expected body as unavailable', async () => {
    const wrongService = createPostcodesIoGeocoder({
      baseUrl: server.url,
      retries: 0,
      fetch: async () => new Response('<html>welcome to nginx</html>', { status: 200 }),
    });
    await expect(wrongService.geocode(code('AB10 1AB'))).rejects.toThrow('unreadable reply');
  });

  it('gives a slow server one timeout for the whole lookup, retries included', async () => {
    await server.setMode('slow', { delayMs: 400 });
    const started = performance.now();
    const failure = await client({ timeoutMs: 50, retries: 2 })
      .geocode(code('AB10 1AB'))
      .catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(GeocoderUnavailableError);
    expect((failure as GeocoderUnavailableError).reason).toContain('no answer within 50 ms');
    // No retry could finish before the deadline, so none was started.
    expect(server.requests).toBe(1);
    // It did not wait for the slow answer (400 ms).
    expect(performance.now() - started).toBeLessThan(390);
  });

  it('reports connection refused when the server is down, and works again when it is back', async () => {
    await server.setMode('down');
    const failure = await client({ retries: 1 })
      .geocode(code('AB10 1AB'))
      .catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(GeocoderUnavailableError);
    expect((failure as GeocoderUnavailableError).reason).toContain('ECONNREFUSED');
    await server.setMode('up');
    await expect(client().geocode(code('AB10 1AB'))).resolves.not.toBeNull();
  });

  it('rejects a base URL that is not http(s)', () => {
    expect(() => createPostcodesIoGeocoder({ baseUrl: 'not a url' })).toThrow('not a URL');
    expect(() => createPostcodesIoGeocoder({ baseUrl: 'ftp://example.org' })).toThrow('http or https');
  });

  it('behind a cached chain, a repeated postcode costs no HTTP call', async () => {
    const chain = createGeocoderChain([client()]);
    const first = await chain.geocode(code('AB10 1AB'));
    const again = await chain.geocode(code('ab10  1ab'));
    await chain.geocode(code('AB99 9ZZ'));
    await chain.geocode(code('AB99 9ZZ'));
    expect(again).toEqual(first);
    // AB10 1AB: one GET. AB99 9ZZ (unknown, no AB99 outcode): postcode + outcode, once.
    expect(server.requests).toBe(3);
    expect(chain.cache?.stats).toMatchObject({ hits: 2, misses: 2 });
  });

  it('behind a chain, an outage is 503 material and is not cached', async () => {
    const chain = createGeocoderChain([client({ retries: 0 })]);
    await server.setMode('down');
    await expect(chain.geocode(code('AB10 1AB'))).rejects.toBeInstanceOf(GeocoderUnavailableError);
    await server.setMode('up');
    await expect(chain.geocode(code('AB10 1AB'))).resolves.toMatchObject({ precision: 'postcode' });
  });
});
