/**
 * GET /services (and the services nested in organizations): parameters in, search request out.
 */
import {
  constraintFilters,
  constraintsFilter,
  type Understood,
  withConstraintBoosts,
} from './constraints.query.ts';
import { accessibilityFilter, ageFilter, freeFilter, languageFilter } from './eligibility.query.ts';
import { F } from './fields.ts';
import {
  ageFilters,
  modifiedAfterFilter,
  organizationFilter,
  organizationsFilter,
  presentFilters,
  type ScheduleParams,
  scheduleFilter,
  taxonomyFilter,
  taxonomyTermFilter,
} from './filters.query.ts';
import { type GeoQuery, serviceGeoFilter } from './geo.query.ts';
import { heldWordsOf, type Meaning, withMeaning } from './meaning.query.ts';
import { type OpenAt, openAtFilter } from './opening.query.ts';
import { rankedByTerms, termsThatAnswer } from './out-of-scope.query.ts';
import { composeQuery, type SearchRequest, STREAM_BATCH, sortOrder } from './search.query.ts';
import { FULL_RECORD, SERVICE_LIST_ITEM, SERVICE_MINIMAL, SERVICE_SUMMARY } from './sources.query.ts';
import {
  countedWords,
  MATCH_NOTHING,
  relaxedRequiredWords,
  type TextFields,
  textQuery,
} from './text.query.ts';

/** Searchable fields of services and service-at-locations: names first, then descriptions. */
export const SERVICE_TEXT_FIELDS: TextFields = {
  stemmed: [
    `${F.name}^4`,
    `${F.alternateName}^2`,
    `${F.organizationName}^2`,
    `${F.taxonomyTermNames}^2`,
    F.description,
    // Shared by every service filed under the term: a weak signal next to the service's own words.
    `${F.taxonomyTermDescriptions}^0.3`,
  ],
  fuzzy: [
    `${F.nameExact}^4`,
    `${F.organizationNameExact}^2`,
    `${F.taxonomyTermNamesExact}^2`,
    `${F.description}^0.5`,
    // "jbos" finds the jobcentre filed under "Employment support: job search, CVs..." (judged set:
    // typo_short 0.865 -> 0.917, and no `none` query found anything).
    `${F.taxonomyTermDescriptions}^0.3`,
  ],
  phrase: [
    `${F.nameExact}^4`,
    `${F.alternateName}^2`,
    `${F.organizationNameExact}^2`,
    `${F.taxonomyTermNamesExact}^2`,
    F.description,
  ],
  // Exact fields only: the words as typed, in a name. Through the vocabulary (the stemmed name and
  // alternate name) this phrase expanded every rule once more, for 8-15% of a search's engine time
  // with the rules, and ranked no better (judged set 0.942 -> 0.943; "food bank" no longer puts
  // "Torry Foodbank" first, "debt advice" and the lay needs gain).
  names: [`${F.nameExact}^4`, `${F.organizationNameExact}^2`],
  // Where a need's rule points (names, terms, descriptions: "can't pay rent" reaches "rent
  // arrears" in a term's description); not the organization's or alternate names, so fewer
  // expansions (judged set: the same score as all six fields, lay_need 0.876 -> 0.880 with the
  // term descriptions).
  vocabulary: [`${F.name}^4`, `${F.taxonomyTermNames}^2`, F.description, `${F.taxonomyTermDescriptions}^0.3`],
  // A need's phrases, not in term descriptions: every service filed under a term shares its
  // description, so a common phrase there ("food bank") walks long posting lists with positions
  // for a weak signal. Measured on 100,000 services, the development set's queries interleaved:
  // engine time a search 6.1 -> 5.5 ms (by words alone 4.0); development set 0.900 -> 0.898.
  needs: [`${F.name}^4`, `${F.taxonomyTermNames}^2`, F.description],
};

export type ServiceFilters = {
  search?: string | undefined;
  taxonomyTermId?: string | undefined;
  /** The terms below `taxonomyTermId`, matched with it (`include_child_terms`). */
  childTermIds?: readonly string[] | undefined;
  taxonomyId?: string | undefined;
  /** The terms below `taxonomyId`'s terms that are not of it, matched with it (`include_child_terms`). */
  taxonomyChildTermIds?: readonly string[] | undefined;
  organizationId?: string | undefined;
  modifiedAfter?: string | undefined;
  /** UK profile. */
  minimumAge?: number | undefined;
  maximumAge?: number | undefined;
  schedule?: ScheduleParams | undefined;
  /** Who it is for and how it is reached (eligibility.query.ts). */
  age?: number | undefined;
  language?: string | undefined;
  free?: boolean | undefined;
  accessibility?: string | undefined;
  /** `open_at` / `open_now`: open at this instant by one of its schedules. */
  open?: OpenAt | undefined;
  /** What `search` means beside its words (src/semantic/understanding.ts), if it was understood. */
  meaning?: Meaning | undefined;
  /**
   * Constraints read from `search` (src/semantic/constraints.ts): the need is searched by
   * `needText`, the constraints filter and boost (constraints.query.ts).
   */
  understood?: Understood | undefined;
  /**
   * A search whose text as typed found nothing, relaxed: `fewer_words` requires half its words
   * (relaxedRequiredWords), `meaning` searches by its loose meaning alone (Meaning.loose).
   */
  relax?: Relaxation | undefined;
  /** A geocoded `postcode` (and `proximity`): on /services, by the service's locations (serviceGeoFilter). */
  geo?: GeoQuery | undefined;
};

/** `constraints`: the constraints read from the search dropped their filters (tried first). */
export type Relaxation = 'constraints' | 'fewer_words' | 'meaning';

/** The relaxations that can widen a search, in the order they are tried. */
export function relaxationsOf(params: ServiceFilters): Relaxation[] {
  const search = params.search;
  if (search === undefined || search.trim() === '') return [];
  // Only a search that means something the directory offers is widened: half the words of "luxury
  // hotel Miami Beach" found 112 services of Miami Beach, and a taxonomy term loosely close to
  // "tattoo shop" (thrift shops) answered it. A need is the vocabulary's own sense of a human
  // service; a large taxonomy (AIRS) holds a term loosely close to almost anything.
  const loose = params.meaning?.loose;
  const needed = loose !== undefined && loose.needs.length > 0;
  const means = needed || (loose !== undefined && loose.terms.length > 0);
  // Constraints relax only for a need the text plainly means, not loosely ("cheap flights to New
  // York" found a charity's flights once the place was dropped); without an understanding
  // nothing is known, and they relax.
  const out: Relaxation[] =
    constraintsFilter(params.understood) && (loose === undefined || (params.meaning?.needs.length ?? 0) > 0)
      ? ['constraints']
      : [];
  if (means && relaxedRequiredWords(countedWords(search)) !== undefined) out.push('fewer_words');
  if (needed) out.push('meaning');
  return out;
}

/** `list`: direct fields with organization and program; `full`: fully nested; `minimal`: id and last_modified. */
export type ServiceShape = 'list' | 'full' | 'minimal';

const serviceSources: Record<ServiceShape, readonly string[]> = {
  list: SERVICE_LIST_ITEM,
  full: FULL_RECORD,
  minimal: SERVICE_MINIMAL,
};

/** The filters shared by services and service-at-locations (both indices carry these fields). */
export function serviceFilters(params: ServiceFilters) {
  return presentFilters(
    taxonomyTermFilter(params.taxonomyTermId, params.childTermIds),
    taxonomyFilter(params.taxonomyId, params.taxonomyChildTermIds),
    organizationFilter(params.organizationId),
    modifiedAfterFilter(params.modifiedAfter),
    ageFilters(params.minimumAge, params.maximumAge),
    params.schedule ? scheduleFilter(params.schedule) : undefined,
    ageFilter(params.age),
    languageFilter(params.language),
    freeFilter(params.free),
    accessibilityFilter(params.accessibility),
    openAtFilter(params.open),
    // Relaxed by the constraints' own relaxation, served without them; the others keep them.
    ...constraintFilters(params.relax === 'constraints' ? undefined : params.understood),
  );
}

/**
 * Whether the search was understood (src/semantic) as nothing the directory offers, not even
 * loosely: a shopping or leisure search. Without an understanding (SEARCH_MEANING=off, or the
 * model failed) nothing is known, and this is false.
 */
export function meansNothing(meaning: Meaning | undefined): boolean {
  const loose = meaning?.loose;
  return loose !== undefined && loose.needs.length === 0 && loose.terms.length === 0 && !meaning?.correction;
}

/**
 * Words a search that means nothing the directory offers requires: every one, up to
 * STRICT_WORDS (75% beyond, as any search). Two of three words found wheelchair vehicles for
 * hire for "used cars for sale" and a youth centre by a park for "theme park tickets"; every word
 * of every short search cost plain needs with a place ("food bank Bedminster": 0.89 -> 0.73),
 * which mean something and keep the 75%.
 */
const STRICT_WORDS = 3;
function strictRequiredWords(search: string): number | undefined {
  const count = countedWords(search);
  return count <= STRICT_WORDS ? count : undefined;
}

/** The text a search's need is searched by: without the words its constraints consumed. */
const needTextOf = (params: ServiceFilters): string | undefined =>
  params.understood ? params.understood.needText : params.search;

/** The scored part of a services or service-at-locations search: its words and what it means. */
export function serviceTextQuery(params: ServiceFilters) {
  const search = needTextOf(params);
  const boosted = (need: ReturnType<typeof withMeaning>) =>
    withConstraintBoosts(need, params.understood, SERVICE_TEXT_FIELDS.stemmed);
  if (params.relax === 'meaning') {
    return boosted(withMeaning(undefined, params.meaning?.loose, SERVICE_TEXT_FIELDS) ?? MATCH_NOTHING);
  }
  const relaxed =
    params.relax === 'fewer_words' && search !== undefined
      ? relaxedRequiredWords(countedWords(search))
      : search !== undefined && meansNothing(params.meaning)
        ? strictRequiredWords(search)
        : undefined;
  // A search that names no need answers by its words; loosely close terms only rank (out-of-scope.query.ts).
  const { meaning, rankOnly } = termsThatAnswer(params.meaning);
  return boosted(
    rankedByTerms(
      withMeaning(
        textQuery(search, SERVICE_TEXT_FIELDS, {
          requiredWords: relaxed,
          heldWords: heldWordsOf(params.meaning),
        }),
        meaning,
        SERVICE_TEXT_FIELDS,
      ),
      rankOnly,
    ),
  );
}

export function buildServiceSearch(params: ServiceFilters, shape: ServiceShape): SearchRequest {
  const text = serviceTextQuery(params);
  const geo = serviceGeoFilter(params.geo);
  return {
    index: 'services',
    query: composeQuery(text, [...serviceFilters(params), ...geo.filters]),
    // A harvest of ids has no use for alphabetical order; the id alone is the cheapest total order.
    sort: sortOrder({ relevance: text !== undefined, byName: shape !== 'minimal', leading: geo.sort }),
    source: serviceSources[shape],
    batchSize: STREAM_BATCH[shape],
  };
}

/** The services of some organizations: fully nested, or the summary the organization schema requires. */
export function buildOrganizationServicesSearch(
  organizationIds: readonly string[],
  full: boolean,
): SearchRequest {
  return {
    index: 'services',
    query: composeQuery(undefined, [organizationsFilter(organizationIds)]),
    sort: sortOrder({ relevance: false }),
    source: full ? FULL_RECORD : SERVICE_SUMMARY,
    batchSize: full ? STREAM_BATCH.full : STREAM_BATCH.list,
  };
}
