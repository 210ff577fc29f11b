/**
 * The ceiling of a search scenario (issue 53): the engine requests the API sends for a list of
 * searches, built by the API's own functions (its understanding of each text, the service search
 * of src/index-mapping, the page request of src/engine/search.ts), so a benchmark can post them
 * straight to the engine and measure the most the API could serve with no work of its own.
 */
import pino from 'pino';
import { pageSearchParams } from '../../src/engine/search.ts';
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
  close(): Promise<void>;
};

/** Opens the understanding a server under `prefix` would have (the same environment). */
export async function openSearchBodies(url: string, prefix: string): Promise<SearchBodies> {
  const { config, engine } = serverEngine(url, prefix);
  const understanding = await openUnderstanding(config, engine, pino({ level: 'warn' }));
  return {
    async requestsOf(searches, perPage, options) {
      const out: EngineRequest[] = [];
      for (const { search, taxonomyId } of searches) {
        const meaning = await understanding?.understand(search);
        const request = buildServiceSearch({ search, taxonomyId, meaning }, 'list');
        const { index, body, filter_path, ignore_unavailable } = pageSearchParams(engine, request, {
          from: 0,
          size: perPage,
        }) as { index: string; body: unknown; filter_path: string[]; ignore_unavailable: boolean };
        const query = new URLSearchParams({
          ignore_unavailable: String(ignore_unavailable),
          request_cache: String(options.requestCache),
          filter_path: filter_path.join(','),
        });
        out.push({ path: `/${index}/_search?${query}`, body: JSON.stringify(body) });
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
