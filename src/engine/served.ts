/**
 * Reads of the served (read) indices that incremental publishing and deletion make beside the
 * searches of search.ts: documents by a field's values, the mappings the aliases serve, a refresh.
 * Query bodies come from index-mapping/served-documents.query.ts.
 */
import { servedLookupBody, servedPageBody } from '../index-mapping/served-documents.query.ts';
import { type Engine, engineCall } from './engine.ts';

const chunks = <T>(list: readonly T[], size: number): T[][] => {
  const out: T[][] = [];
  for (let i = 0; i < list.length; i += size) out.push(list.slice(i, i + size));
  return out;
};

/** Values a terms query takes at a time (the engine's limit is 65,536). */
const TERMS_PER_QUERY = 8000;
const PAGE_SIZE = 5000;

/**
 * Every document of `index` whose `field` holds any of `values`, with the `fields` asked for, page
 * by page in id order.
 */
export async function findServedDocuments(
  engine: Engine,
  index: string,
  field: string,
  values: readonly string[],
  fields: readonly string[],
): Promise<Record<string, unknown>[]> {
  const found: Record<string, unknown>[] = [];
  for (const chunk of chunks(values, TERMS_PER_QUERY)) {
    let after: unknown[] | undefined;
    for (;;) {
      const { body } = await engineCall(`find documents in ${index}`, () =>
        engine.client.search({
          index,
          body: servedPageBody(field, chunk, fields, PAGE_SIZE, after),
        } as never),
      );
      const hits = (body as { hits: { hits: { _source: Record<string, unknown>; sort: unknown[] }[] } }).hits
        .hits;
      for (const hit of hits) found.push(hit._source);
      if (hits.length < PAGE_SIZE) break;
      after = hits[hits.length - 1]!.sort;
    }
  }
  return found;
}

/**
 * Up to 10,000 documents of the served `alias` whose `field` holds any of `values`, with the
 * `fields` asked for; none when nothing is served yet (or the engine refuses the lookup).
 */
export async function lookupServed(
  engine: Engine,
  alias: string,
  field: string,
  values: readonly string[],
  fields: readonly string[],
): Promise<Record<string, unknown>[]> {
  if (values.length === 0) return [];
  try {
    const { body } = await engineCall(`find ${alias} by ${field}`, () =>
      engine.client.search({
        index: engine.name(alias),
        body: servedLookupBody(field, values, fields, 10_000),
      } as never),
    );
    return (body as { hits: { hits: { _source: Record<string, unknown> }[] } }).hits.hits.map(
      (h) => h._source,
    );
  } catch {
    // Nothing published yet: nothing served refers to anything.
    return [];
  }
}

/** The top-level mapped fields of each of `indices` (by physical index name). */
export async function readMappedFields(
  engine: Engine,
  indices: readonly string[],
): Promise<Record<string, object>> {
  const { body } = await engineCall('read served mappings', () =>
    engine.client.indices.getMapping({ index: [...indices] }),
  );
  const mappings = body as Record<string, { mappings?: { properties?: object } }>;
  return Object.fromEntries(indices.map((index) => [index, mappings[index]?.mappings?.properties ?? {}]));
}

/** Makes what was written to `indices` searchable. */
export async function refreshIndices(
  engine: Engine,
  indices: readonly string[],
  label = 'refresh',
): Promise<void> {
  await engineCall(label, () => engine.client.indices.refresh({ index: indices.join(',') }));
}
