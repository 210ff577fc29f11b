import pino from 'pino';
import { describe, expect, it } from 'vitest';
import { ApiProblem, toProblem } from '../../../../src/api/http/problem.ts';
import { geocodeHeaders, resolveGeoQuery } from '../../../../src/api/lists/geo-params.ts';
import {
  type Centroid,
  createGeocoderChain,
  type Geocoder,
  GeocoderUnavailableError,
} from '../../../../src/geo/geocoder.ts';
import type { PostalCode } from '../../../../src/geo/postal-code.ts';

const logger = pino({ level: 'silent' });

/** A geocoder that knows a few codes, with the precision it would answer them with. */
function knows(name: string, places: Record<string, Omit<Centroid, 'query' | 'source'>>): Geocoder {
  return {
    name,
    geocode: async (code: PostalCode) => {
      const place = places[code.normalised];
      return place ? { ...place, query: code.normalised, source: name } : null;
    },
  };
}

function failing(name: string, reason: string): Geocoder {
  return {
    name,
    geocode: async () => {
      throw new GeocoderUnavailableError(name, reason);
    },
  };
}

const index = knows('postcode-index', {
  'AB10 1AB': { lat: 57.149606, lon: -2.096916, matched: 'AB10 1AB', precision: 'postcode' },
  'AB10 9ZZ': { lat: 57.14, lon: -2.11, matched: 'AB10', precision: 'outcode' },
});

const deps = (...geocoders: Geocoder[]) => ({ geocoder: createGeocoderChain(geocoders), logger });

/** The problem a call throws, as a client would receive it. */
async function problemOf(promise: Promise<unknown>) {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(ApiProblem);
  return toProblem(error as ApiProblem);
}

describe('resolveGeoQuery', () => {
  it('is nothing without a postcode', async () => {
    expect(await resolveGeoQuery(deps(index), {})).toBeUndefined();
  });

  it('geocodes a postcode in any case and spacing, and passes proximity through in metres', async () => {
    const geo = await resolveGeoQuery(deps(index), { postcode: ' ab101ab ', proximity: 2500 });
    expect(geo).toMatchObject({
      point: { lat: 57.149606, lon: -2.096916 },
      proximityMetres: 2500,
      centroid: { query: 'AB10 1AB', matched: 'AB10 1AB', precision: 'postcode', source: 'postcode-index' },
    });
    expect(geocodeHeaders(geo!)).toEqual({
      'Postcode-Precision': 'postcode',
      'Postcode-Matched': 'AB10 1AB',
      'Postcode-Centroid': '57.149606,-2.096916',
    });
  });

  it('says when a full postcode was placed by its outcode', async () => {
    const geo = await resolveGeoQuery(deps(index), { postcode: 'AB10 9ZZ' });
    expect(geocodeHeaders(geo!)).toMatchObject({
      'Postcode-Precision': 'outcode',
      'Postcode-Matched': 'AB10',
    });
  });

  it('refuses a malformed postcode with a 400 naming it', async () => {
    const problem = await problemOf(resolveGeoQuery(deps(index), { postcode: 'AB10 1A' }));
    expect(problem).toMatchObject({
      status: 400,
      type: expect.stringMatching(/invalid-parameter$/),
      errors: [{ parameter: 'postcode', reason: expect.stringContaining('"AB10 1A" is not a UK postcode') }],
    });
  });

  it('refuses proximity without a postcode', async () => {
    const problem = await problemOf(resolveGeoQuery(deps(index), { proximity: 1000 }));
    expect(problem).toMatchObject({ status: 400, errors: [{ parameter: 'proximity' }] });
  });

  it('answers an unknown postcode with a 400 of its own type, naming the geocoders asked', async () => {
    const postcodesIo = knows('postcodes-io', {});
    const problem = await problemOf(resolveGeoQuery(deps(index, postcodesIo), { postcode: 'sw1a 1aa' }));
    expect(problem).toMatchObject({
      status: 400,
      type: expect.stringMatching(/unknown-postcode$/),
      title: 'Unknown postcode',
      errors: [{ parameter: 'postcode' }],
    });
    expect(problem.detail).toContain('"SW1A 1AA" is a well-formed postal code');
    expect(problem.detail).toContain('postcode-index, postcodes-io');
  });

  it('answers 503 when no geocoder can answer, with the reasons but no engine internals', async () => {
    const engineDown = failing('postcode-index', 'look up postcode: connect ECONNREFUSED 10.0.0.7:9200');
    const httpDown = failing('postcodes-io', '/postcodes/SW1A%201AA: HTTP 502');
    const problem = await problemOf(resolveGeoQuery(deps(engineDown, httpDown), { postcode: 'SW1A 1AA' }));
    expect(problem).toMatchObject({
      status: 503,
      type: expect.stringMatching(/geocoder-unavailable$/),
      title: 'Geocoder unavailable',
    });
    expect(problem.detail).toContain('postcode-index: the postcode index did not answer');
    expect(problem.detail).toContain('postcodes-io: /postcodes/SW1A%201AA: HTTP 502');
    expect(problem.detail).not.toContain('ECONNREFUSED');
    expect(problem.detail).not.toContain('9200');
  });

  it('trusts a later geocoder when an earlier one is down', async () => {
    const engineDown = failing('postcode-index', 'connect ECONNREFUSED');
    const postcodesIo = knows('postcodes-io', {
      'SW1A 1AA': { lat: 51.501009, lon: -0.141588, matched: 'SW1A 1AA', precision: 'postcode' },
    });
    const geo = await resolveGeoQuery(deps(engineDown, postcodesIo), { postcode: 'SW1A 1AA' });
    expect(geo?.centroid.source).toBe('postcodes-io');
  });

  it('lets unexpected errors through (a bug is a 500, not a 503)', async () => {
    const broken: Geocoder = {
      name: 'postcode-index',
      geocode: async () => {
        throw new TypeError('boom');
      },
    };
    // The chain reports any failure of its members as unavailability; a bare geocoder does not.
    const bare = {
      geocoder: { ...broken, geocodeMany: async () => new Map(), cache: null, order: [] },
      logger,
    };
    await expect(resolveGeoQuery(bare, { postcode: 'AB10 1AB' })).rejects.toThrow(TypeError);
  });
});
