/**
 * Facet counts and "did you mean" for a search (extensions of the list endpoints). Requests come
 * from the pure builders (facets.query.ts, did-you-mean.query.ts); this module runs them.
 */
import { buildDidYouMeanBody, type SuggestEntry, toCorrection } from '../index-mapping/did-you-mean.query.ts';
import {
  buildFacetAggregations,
  buildFacetsBody,
  FACET_RECORDS,
  type FacetName,
} from '../index-mapping/facets.query.ts';
import type { ReadIndex } from '../index-mapping/read-indices.mapping.ts';
import type { SearchRequest } from '../index-mapping/search.query.ts';
import { type Engine, engineCall } from './engine.ts';

const READ = { compression: false } as never;

export type FacetBucket = { id: string; name?: string; count: number };
export type Facets = Partial<Record<FacetName, FacetBucket[]>>;

/** The names of some records (taxonomy terms, organizations), by id; unknown ids are left out. */
async function namesOf(engine: Engine, index: ReadIndex, ids: string[]): Promise<Map<string, string>> {
  if (ids.length === 0) return new Map();
  const { body } = await engineCall(`names in ${index}`, () =>
    engine.client.mget(
      { index: engine.name(index), body: { ids }, _source_includes: ['record.name'] } as never,
      READ,
    ),
  );
  const names = new Map<string, string>();
  for (const doc of (
    body as { docs?: { _id: string; found?: boolean; _source?: { record?: { name?: string } } }[] }
  ).docs ?? []) {
    const name = doc._source?.record?.name;
    if (doc.found && typeof name === 'string') names.set(doc._id, name);
  }
  return names;
}

/** Counts of the request's matches per value of each facet asked for, each value with its name. */
export async function searchFacets(
  engine: Engine,
  request: SearchRequest,
  names: readonly FacetName[],
): Promise<Facets> {
  const aggs = buildFacetAggregations(names);
  const { body } = await engineCall(`facets of ${request.index}`, () =>
    engine.client.search(
      {
        index: engine.name(request.index),
        ignore_unavailable: true,
        body: buildFacetsBody(request.query, aggs),
      } as never,
      READ,
    ),
  );
  type Bucket = { key: string | number; key_as_string?: string; doc_count: number };
  const aggregations =
    (body as { aggregations?: Record<string, { buckets: Bucket[] | Record<string, { doc_count: number }> }> })
      .aggregations ?? {};
  const facets: Facets = {};
  await Promise.all(
    names.map(async (name) => {
      const raw = aggregations[name]?.buckets ?? [];
      // A `filters` aggregation (age bands) answers its buckets keyed by name: given in the order asked.
      const asked = Object.keys((aggs[name] as { filters?: { filters?: object } }).filters?.filters ?? {});
      const buckets = Array.isArray(raw)
        ? raw.map((b) => ({ key: b.key_as_string ?? String(b.key), doc_count: b.doc_count }))
        : asked.map((key) => ({ key, doc_count: raw[key]?.doc_count ?? 0 }));
      const index = FACET_RECORDS[name];
      const named = index
        ? await namesOf(
            engine,
            index,
            buckets.map((b) => b.key),
          )
        : new Map<string, string>();
      facets[name] = buckets.map((b) => {
        const label = named.get(b.key);
        return { id: b.key, ...(label ? { name: label } : {}), count: b.doc_count };
      });
    }),
  );
  return facets;
}

/** A correction of a search's text from the words names hold, or undefined. */
export async function didYouMean(
  engine: Engine,
  index: ReadIndex,
  text: string,
): Promise<string | undefined> {
  const { body } = await engineCall(`did you mean in ${index}`, () =>
    engine.client.search(
      {
        index: engine.name(index),
        ignore_unavailable: true,
        body: buildDidYouMeanBody(text),
      } as never,
      READ,
    ),
  );
  return toCorrection(text, (body as { suggest?: Record<string, SuggestEntry[]> }).suggest ?? {});
}
