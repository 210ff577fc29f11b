import { type Centroid, describeError, type Geocoder, GeocoderUnavailableError } from './geocoder.ts';
import type { PostalCode } from './postal-code.ts';

export const POSTCODES_IO_GEOCODER = 'postcodes-io';

export type PostcodesIoGeocoderOptions = {
  /** e.g. https://api.postcodes.io or http://host/pc-api for a self-hosted instance behind a prefix. */
  baseUrl: string;
  /**
   * The whole of one lookup: every attempt, the waits between them and an outcode fallback, with
   * the response bodies. A hung service costs a lookup this long, never more.
   */
  timeoutMs?: number;
  /** Extra attempts after the first, on network errors, timeouts, 429 and 5xx. */
  retries?: number;
  /** First backoff delay; doubles on each retry. */
  retryDelayMs?: number;
  /** Answer an unknown full postcode with its outcode centroid when the outcode exists. */
  outcodeFallback?: boolean;
  fetch?: typeof fetch;
  name?: string;
};

type LatLon = { lat: number; lon: number };

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * postcodes.io answers postcodes it knows but cannot place (some Channel Islands and non-geographic
 * codes) with null coordinates: that is "no centroid", not an error.
 */
function readLatLon(result: unknown): LatLon | null {
  if (!isRecord(result)) return null;
  const { latitude, longitude } = result;
  if (typeof latitude !== 'number' || typeof longitude !== 'number') return null;
  if (!Number.isFinite(latitude) || !Number.isFinite(longitude)) return null;
  return { lat: latitude, lon: longitude };
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/**
 * A client for the documented postcodes.io API: GET /postcodes/{postcode} and
 * GET /outcodes/{outcode}. 404 means unknown. Anything else that is not a 200 with the expected
 * body, after retries, is GeocoderUnavailableError.
 */
export function createPostcodesIoGeocoder(options: PostcodesIoGeocoderOptions): Geocoder {
  const name = options.name ?? POSTCODES_IO_GEOCODER;
  const timeoutMs = options.timeoutMs ?? 2000;
  const retries = options.retries ?? 2;
  const retryDelayMs = options.retryDelayMs ?? 100;
  const outcodeFallback = options.outcodeFallback ?? true;
  const fetchImpl = options.fetch ?? globalThis.fetch;

  let base: URL;
  try {
    // A trailing slash makes relative paths extend the prefix instead of replacing its last segment.
    base = new URL(options.baseUrl.endsWith('/') ? options.baseUrl : `${options.baseUrl}/`);
  } catch {
    throw new TypeError(`postcodes.io base URL is not a URL: "${options.baseUrl}"`);
  }
  if (base.protocol !== 'http:' && base.protocol !== 'https:') {
    throw new TypeError(`postcodes.io base URL must be http or https: "${options.baseUrl}"`);
  }

  /** When a lookup starting now must be over. */
  const deadlineFromNow = () => Date.now() + timeoutMs;

  /** Resolves the parsed body of a 200, or null for a 404; gives up at the deadline. */
  async function request(path: string, deadline: number, body?: unknown): Promise<unknown> {
    const url = new URL(path, base);
    const attempts = retries + 1;
    let lastProblem = '';
    for (let attempt = 0; attempt < attempts; attempt++) {
      if (attempt > 0) {
        const delay = retryDelayMs * 2 ** (attempt - 1);
        // Another attempt that could not finish before the deadline is not worth starting.
        if (Date.now() + delay >= deadline) break;
        await sleep(delay);
      }
      const left = deadline - Date.now();
      if (left <= 0) {
        lastProblem ||= `no answer within ${timeoutMs} ms`;
        break;
      }
      let response: Response;
      try {
        response = await fetchImpl(url, {
          method: body === undefined ? 'GET' : 'POST',
          headers:
            body === undefined
              ? { accept: 'application/json' }
              : { accept: 'application/json', 'content-type': 'application/json' },
          body: body === undefined ? undefined : JSON.stringify(body),
          signal: AbortSignal.timeout(left),
        });
        if (response.status === 404) {
          await response.body?.cancel();
          return null;
        }
        if (response.status === 200) return await response.json();
      } catch (error) {
        lastProblem =
          error instanceof Error && error.name === 'TimeoutError'
            ? `no answer within ${timeoutMs} ms`
            : error instanceof SyntaxError
              ? `unreadable reply (${error.message})`
              : describeError(error);
        continue;
      }
      await response.body?.cancel();
      lastProblem = `HTTP ${response.status}`;
      // A 4xx other than 404 and 429 will not change on retry (bad prefix, auth proxy, limits).
      if (response.status < 500 && response.status !== 429) break;
    }
    throw new GeocoderUnavailableError(name, `${url.pathname}: ${lastProblem}`);
  }

  function resultOf(reply: unknown, path: string): unknown {
    if (reply === null) return null;
    if (!isRecord(reply) || !('result' in reply)) {
      throw new GeocoderUnavailableError(name, `${path}: reply has no "result"`);
    }
    return reply.result;
  }

  function centroid(
    code: PostalCode,
    at: LatLon,
    matched: string,
    precision: Centroid['precision'],
  ): Centroid {
    return { lat: at.lat, lon: at.lon, query: code.normalised, matched, precision, source: name };
  }

  async function lookupOutcode(outcode: string, deadline = deadlineFromNow()): Promise<LatLon | null> {
    const path = `outcodes/${encodeURIComponent(outcode)}`;
    return readLatLon(resultOf(await request(path, deadline), path));
  }

  async function lookupPostcode(postcode: string, deadline: number): Promise<LatLon | null> {
    const path = `postcodes/${encodeURIComponent(postcode)}`;
    return readLatLon(resultOf(await request(path, deadline), path));
  }

  async function geocode(code: PostalCode): Promise<Centroid | null> {
    if (code.kind === 'us-zip' || !code.outcode) return null;
    const deadline = deadlineFromNow();
    if (code.kind === 'uk-outcode') {
      const area = await lookupOutcode(code.outcode, deadline);
      return area ? centroid(code, area, code.outcode, 'outcode') : null;
    }
    const found = await lookupPostcode(code.normalised, deadline);
    if (found) return centroid(code, found, code.normalised, 'postcode');
    if (!outcodeFallback) return null;
    const area = await lookupOutcode(code.outcode, deadline);
    return area ? centroid(code, area, code.outcode, 'outcode') : null;
  }

  return { name, geocode };
}
