/**
 * The extension fields of a services or service-at-locations page, each absent unless it applies,
 * so plain HSDS clients see nothing new:
 * - `facets` (asked for with `facets=taxonomy_term,organization,...`): counts of the matches per
 *   value, for the current search and filters, counted beside the page search (not after it);
 * - `did_you_mean` (a search that found nothing): the search with its unknown words corrected,
 *   offered only when the corrected search finds something; never sought for text beyond the
 *   bounds of didYouMeanText (a 500-letter word would cost the engine a second per request);
 * - `relaxed` (a search that found nothing as typed, served wider): `fewer_words` when half its
 *   words found something, `meaning` when what it means did (relaxedSearches). A search that asks
 *   for what the directory does not offer stays empty: one or two words are never relaxed, nor is
 *   a search that means nothing the directory offers (relaxationsOf), and meaning counts only
 *   above its loose thresholds, by a need;
 * - `crisis_lines` (a search that means a risk to life or safety, when the operator configures
 *   CRISIS_LINES): the lines, on every page of such a search, found or not, relaxed or not; read
 *   from what the search was already understood to mean, so no engine request.
 */
import type { Context } from 'hono';
import { didYouMean, searchFacets } from '../../engine/facets.ts';
import { searchPage } from '../../engine/search.ts';
import type { Understood } from '../../index-mapping/constraints.query.ts';
import { didYouMeanText } from '../../index-mapping/did-you-mean.query.ts';
import type { FacetName } from '../../index-mapping/facets.query.ts';
import type { SearchRequest } from '../../index-mapping/search.query.ts';
import {
  type Relaxation,
  relaxationsOf,
  type ServiceFilters,
} from '../../index-mapping/service-search.query.ts';
import { parseSearch } from '../../index-mapping/text.query.ts';
import type { AppEnv } from '../types.ts';
import type { Extend, Relaxed } from './list-route.ts';
import { understoodMember } from './understood.ts';

export function searchExtensions(
  c: Context<AppEnv>,
  request: SearchRequest,
  params: {
    search?: string | undefined;
    facets?: readonly FacetName[] | undefined;
    /** Whether the search means a risk to life or safety (Meaning.crisis). */
    crisis?: boolean | undefined;
    /** The constraints read from the search (understood.ts): said on every page of it. */
    understood?: Understood | undefined;
  },
  rebuild: (search: string) => SearchRequest,
): Extend | undefined {
  const { engine, config } = c.get('deps');
  const facets = params.facets?.length ? searchFacets(engine, request, params.facets) : undefined;
  // A failure of the page search leaves this promise unawaited: it must not become unhandled.
  facets?.catch(() => {});
  const search = params.search;
  if (!facets && search === undefined) return undefined;
  return async (total) => {
    const extensions: Record<string, unknown> = { ...understoodMember(params.understood) };
    if (facets) extensions.facets = await facets;
    if (params.crisis && config.CRISIS_LINES.length > 0) extensions.crisis_lines = config.CRISIS_LINES;
    if (total === 0 && search !== undefined) {
      const text = didYouMeanText(parseSearch(search).text);
      const corrected = text ? await didYouMean(engine, request.index, text) : undefined;
      if (corrected) {
        const found = await searchPage(engine, rebuild(corrected), { from: 0, size: 0 });
        if (found.total > 0) extensions.did_you_mean = corrected;
      }
    }
    return extensions;
  };
}

/** The wider searches a page serves when its search finds nothing, in the order they are tried. */
export function relaxedSearches(
  filters: ServiceFilters,
  build: (relax: Relaxation) => SearchRequest,
): Relaxed[] {
  // The constraints' relaxation is served without their filters; the page says they were dropped.
  const understood = filters.understood && { ...filters.understood, relaxed: true };
  return relaxationsOf(filters).map((relax) => ({
    request: build(relax),
    extensions: { relaxed: relax, ...(relax === 'constraints' ? understoodMember(understood) : {}) },
  }));
}
