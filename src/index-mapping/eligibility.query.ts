/**
 * Who a service is for and how it can be reached: `age`, `language`, `free`, `accessibility`
 * (both profiles; the UK profile's `minimum_age`/`maximum_age` keep their meaning beside them).
 * Each takes its parameter and answers a filter, or nothing when it is absent.
 */
import { F } from './fields.ts';
import type { QueryDsl } from './search.query.ts';

type Maybe<T> = T | undefined;

/** A bound that is absent holds for everyone: a service with no minimum age takes any age. */
const boundHolds = (field: string, range: Record<string, number>): QueryDsl => ({
  bool: {
    should: [{ range: { [field]: range } }, { bool: { must_not: [{ exists: { field } }] } }],
    minimum_should_match: 1,
  },
});

/** Services whose age range (`minimum_age` to `maximum_age`, each optional) takes someone this old. */
export const ageFilter = (age: Maybe<number>): Maybe<QueryDsl> =>
  age === undefined
    ? undefined
    : { bool: { filter: [boundHolds(F.minimumAge, { lte: age }), boundHolds(F.maximumAge, { gte: age })] } };

/** Services with someone speaking this language (a code or a name, any case) at the service, a location or a phone. */
export const languageFilter = (language: Maybe<string>): Maybe<QueryDsl> =>
  language === undefined ? undefined : { term: { [F.languages]: language.trim().toLowerCase() } };

/** `free=true`: services that say they are free (eligibility.document.ts); `false` filters nothing. */
export const freeFilter = (free: Maybe<boolean>): Maybe<QueryDsl> =>
  free ? { term: { [F.free]: true } } : undefined;

/** Locations whose accessibility records hold every word (stemmed): "wheelchair ramp". */
export const accessibilityFilter = (text: Maybe<string>): Maybe<QueryDsl> =>
  text === undefined ? undefined : { match: { [F.accessibility]: { query: text, operator: 'and' } } };

/** The `age` facet's bands: a service counts in each band its age range overlaps. */
export const AGE_BANDS = [
  [0, 4],
  [5, 11],
  [12, 17],
  [18, 24],
  [25, 64],
  [65, 200],
] as const;

export const ageBandName = ([from, to]: readonly [number, number]) =>
  to >= 200 ? `${from}+` : `${from}-${to}`;

/** One filter per band, keyed by its name, for a `filters` aggregation. */
export function ageBandFilters(): Record<string, QueryDsl> {
  return Object.fromEntries(
    AGE_BANDS.map((band) => [
      ageBandName(band),
      {
        bool: {
          filter: [boundHolds(F.minimumAge, { lte: band[1] }), boundHolds(F.maximumAge, { gte: band[0] })],
        },
      },
    ]),
  );
}
