/**
 * `include_child_terms`: a category filter that includes the terms below the one asked for. A
 * directory files services under its most specific terms (AIRS's `BD-1800.2000`, a council's
 * "Food banks" under "Food"), so filtering by a broad term alone finds only the few filed under it
 * directly. The descendants are read from the served taxonomy terms for each such request.
 */
import { descendantTermIds } from '../../engine/term-tree.ts';
import type { ServiceFilters } from '../../index-mapping/service-search.query.ts';
import type { AppContext } from '../types.ts';

export async function childTermsOf(
  c: AppContext,
  p: { taxonomy_term_id?: string | undefined; include_child_terms?: boolean | undefined },
): Promise<Pick<ServiceFilters, 'childTermIds'>> {
  if (!p.include_child_terms || p.taxonomy_term_id === undefined) return {};
  return { childTermIds: await descendantTermIds(c.get('deps').engine, p.taxonomy_term_id) };
}
