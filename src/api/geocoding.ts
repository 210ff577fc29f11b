/**
 * The geocoder chain the API uses for `postcode`, built from configuration: the operator's postcode
 * index in the engine, a postcodes.io-compatible service and offline US ZIP centroids, in the order
 * GEOCODERS names them, behind one cache.
 */
import type { Config } from '../config.ts';
import { type Engine, lookupPostcode } from '../engine/index.ts';
import {
  createGeocodeCache,
  createGeocoderChain,
  type Geocoder,
  type GeocoderChain,
  selectGeocoders,
} from '../geo/geocoder.ts';
import { createIndexGeocoder } from '../geo/postcode-index.geocoder.ts';
import { createPostcodesIoGeocoder } from '../geo/postcodes-io.geocoder.ts';
import { createUsZipGeocoder } from '../geo/us-zip.geocoder.ts';

export function createGeocoder(config: Config, engine: Engine): GeocoderChain {
  const available: Geocoder[] = [
    createIndexGeocoder((key) => lookupPostcode(engine, key)),
    createPostcodesIoGeocoder({ baseUrl: config.POSTCODES_IO_URL, timeoutMs: config.GEOCODER_TIMEOUT_MS }),
    createUsZipGeocoder(),
  ];
  const cache =
    config.GEOCODER_CACHE_SIZE > 0 ? createGeocodeCache({ maxEntries: config.GEOCODER_CACHE_SIZE }) : null;
  return createGeocoderChain(selectGeocoders(available, config.GEOCODERS), { cache });
}
