/**
 * The geocoder chain the API uses for `postcode`, built from configuration: the operator's postcode
 * index in the engine, a postcodes.io-compatible service and offline US ZIP centroids, in the order
 * GEOCODERS names them, behind one cache.
 */
import type { Logger } from 'pino';
import type { Config } from '../../config.ts';
import { type Engine, EngineUnavailableError, lookupPostcode } from '../../engine/index.ts';
import {
  createGeocodeCache,
  createGeocoderChain,
  type Geocoder,
  type GeocoderChain,
  selectGeocoders,
  withCircuitBreaker,
} from '../../geo/geocoder.ts';
import { createIndexGeocoder } from '../../geo/postcode-index.geocoder.ts';
import { createPostcodesIoGeocoder } from '../../geo/postcodes-io.geocoder.ts';
import { createUsZipGeocoder } from '../../geo/us-zip.geocoder.ts';

/**
 * The engine gateway refusing a lookup because this process has ENGINE_MAX_IN_FLIGHT requests in
 * flight: answered as this server busy (app.ts), never taken for the postcode index failing.
 */
const isLocalRefusal = (error: unknown) =>
  error instanceof EngineUnavailableError && error.shed?.why === 'busy';

export function createGeocoder(config: Config, engine: Engine, logger?: Logger): GeocoderChain {
  // The postcode index is in the engine, behind the engine's own breaker; the remote service gets
  // one of its own, so a hung postcodes.io is skipped instead of costing every lookup its timeout.
  const postcodesIo = withCircuitBreaker(
    createPostcodesIoGeocoder({ baseUrl: config.POSTCODES_IO_URL, timeoutMs: config.GEOCODER_TIMEOUT_MS }),
    {
      failureThreshold: config.GEOCODER_BREAKER_FAILURES,
      cooldownMs: config.GEOCODER_BREAKER_COOLDOWN_MS,
      onStateChange: ({ name, state, reason }) => {
        if (state === 'open') {
          logger?.error(
            { geocoder: name, reason, retryInMs: config.GEOCODER_BREAKER_COOLDOWN_MS },
            'geocoder circuit breaker open: skipping it until it answers again',
          );
        } else {
          logger?.info({ geocoder: name }, 'geocoder circuit breaker closed: it answers again');
        }
      },
    },
  );
  const available: Geocoder[] = [
    createIndexGeocoder((key) => lookupPostcode(engine, key), undefined, { passThrough: isLocalRefusal }),
    postcodesIo,
    createUsZipGeocoder(),
  ];
  const cache =
    config.GEOCODER_CACHE_SIZE > 0 ? createGeocodeCache({ maxEntries: config.GEOCODER_CACHE_SIZE }) : null;
  return createGeocoderChain(selectGeocoders(available, config.GEOCODERS), {
    cache,
    failureTtlMs: config.GEOCODER_FAILURE_TTL_MS,
    passThrough: isLocalRefusal,
  });
}
