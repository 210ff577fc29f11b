/**
 * Lookups of served documents by a field's values (the read indices, read-indices.mapping.ts):
 * pure request bodies, which engine/served.ts runs. Incremental publishing finds the documents
 * that show a changed record by them (ingest/publish.ts), a deletion the records that refer to
 * what it deletes (ingest/deletion.ts).
 */
import { F } from './fields.ts';

/** Documents whose `field` holds any of `values`. */
const holdingAny = (field: string, values: readonly string[]) => ({
  bool: { filter: [{ terms: { [field]: [...values] } }] },
});

/**
 * One page of the documents whose `field` holds any of `values`, with the `fields` asked for, in
 * id order from `after` (the sort values of the previous page's last hit).
 */
export const servedPageBody = (
  field: string,
  values: readonly string[],
  fields: readonly string[],
  size: number,
  after?: unknown[],
): Record<string, unknown> => ({
  size,
  _source: [...fields],
  query: holdingAny(field, values),
  sort: [{ [F.id]: 'asc' }],
  track_total_hits: false,
  ...(after ? { search_after: after } : {}),
});

/** Up to `size` documents whose `field` holds any of `values`, with the `fields` asked for. */
export const servedLookupBody = (
  field: string,
  values: readonly string[],
  fields: readonly string[],
  size: number,
): Record<string, unknown> => ({
  size,
  _source: [...fields],
  query: holdingAny(field, values),
});
