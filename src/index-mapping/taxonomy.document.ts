/**
 * The `taxonomies` and `taxonomy_terms` documents. A term's record carries its taxonomy as
 * `taxonomy_detail`, as the official examples/taxonomy_term.json does. Pure.
 */
import type { TaxonomyFull, TaxonomyTermFull } from '../hsds/index.ts';
import type { TaxonomyDocument, TaxonomyTermDocument } from './documents.ts';
import { nestedIdsOf } from './nested-ids.ts';
import { toSearchText } from './search-text.ts';
import { toSuggestField } from './suggest.query.ts';

export function toTaxonomyDocument(taxonomy: TaxonomyFull): TaxonomyDocument {
  return {
    id: taxonomy.id,
    name: toSearchText(taxonomy.name),
    ...(taxonomy.description ? { description: toSearchText(taxonomy.description) } : {}),
    nested_ids: nestedIdsOf(taxonomy),
    record: taxonomy as Record<string, unknown>,
  };
}

/** `taxonomy`: the term's taxonomy when known; it replaces any `taxonomy_detail` the term carried. */
export function toTaxonomyTermDocument(
  term: TaxonomyTermFull,
  taxonomy?: TaxonomyFull,
): TaxonomyTermDocument {
  const detail = taxonomy ?? term.taxonomy_detail;
  const taxonomyId = term.taxonomy_id ?? detail?.id;
  const record = { ...term, ...(detail ? { taxonomy_detail: detail } : {}) };
  const suggest = toSuggestField(term.name);
  return {
    id: term.id,
    name: toSearchText(term.name),
    ...(term.description ? { description: toSearchText(term.description) } : {}),
    ...(term.code ? { code: term.code } : {}),
    ...(taxonomyId ? { taxonomy_id: taxonomyId } : {}),
    ...(term.parent_id ? { parent_id: term.parent_id } : {}),
    nested_ids: nestedIdsOf(record),
    ...(suggest ? { suggest } : {}),
    record,
  };
}
