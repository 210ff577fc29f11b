/**
 * The read of a taxonomy_terms index for its terms' alternate names (taxonomy-vocabulary.ts): a
 * page of terms in id order, each with only its name and alternates. Pure.
 */
import type { QueryDsl } from './search.query.ts';
import { ALTERNATE_NAMES_FIELD } from './taxonomy-vocabulary.ts';

/** `size` terms after the sort values `after` (from the start when none). */
export function buildTermNamesPageBody(size: number, after: readonly unknown[] | undefined): QueryDsl {
  return {
    size,
    sort: [{ id: 'asc' }],
    _source: ['record.name', `record.${ALTERNATE_NAMES_FIELD}`],
    ...(after ? { search_after: after } : {}),
  };
}
