import { type Centroid, describeError, type Geocoder, GeocoderUnavailableError } from './geocoder.ts';
import type { PostalCode } from './postal-code.ts';

export const POSTCODE_INDEX_GEOCODER = 'postcode-index';

/**
 * Looks up one key in the operator's postcode index. Keys are normalised full postcodes
 * ('AB10 1AB') and outcodes ('AB10'): `npx hsds postcodes import` stores a centroid for each
 * outcode (the mean of its imported postcodes, see computeOutcodeCentroids) beside the postcodes.
 * Resolve null when the key is absent; reject when the engine cannot answer.
 */
export type PostcodeLookup = (key: string) => Promise<{ lat: number; lon: number } | null>;

export type IndexGeocoderOptions = {
  /** Answer an unknown full postcode with its outcode centroid when the index has it. */
  outcodeFallback?: boolean;
  /** Errors of the lookup passed on as they are (GeocoderChainOptions.passThrough). */
  passThrough?: (error: unknown) => boolean;
};

/**
 * Wraps an engine lookup supplied by the gateway, so this module needs no engine types. Errors from
 * the lookup become GeocoderUnavailableError, letting the chain move on to the next geocoder.
 */
export function createIndexGeocoder(
  lookup: PostcodeLookup,
  name: string = POSTCODE_INDEX_GEOCODER,
  options: IndexGeocoderOptions = {},
): Geocoder {
  const outcodeFallback = options.outcodeFallback ?? true;

  async function find(key: string): Promise<{ lat: number; lon: number } | null> {
    try {
      return await lookup(key);
    } catch (error) {
      if (options.passThrough?.(error)) throw error;
      throw new GeocoderUnavailableError(name, describeError(error), { cause: error });
    }
  }

  function centroid(
    code: PostalCode,
    at: { lat: number; lon: number },
    matched: string,
    precision: Centroid['precision'],
  ): Centroid {
    return { lat: at.lat, lon: at.lon, query: code.normalised, matched, precision, source: name };
  }

  async function geocode(code: PostalCode): Promise<Centroid | null> {
    if (code.kind === 'us-zip' || !code.outcode) return null;
    const exact = await find(code.normalised);
    if (exact)
      return centroid(code, exact, code.normalised, code.kind === 'uk-outcode' ? 'outcode' : 'postcode');
    if (code.kind === 'uk-outcode' || !outcodeFallback) return null;
    const area = await find(code.outcode);
    return area ? centroid(code, area, code.outcode, 'outcode') : null;
  }

  return { name, geocode };
}
