/**
 * Filters: exact, unscored conditions (the engine caches them). Each takes its parameter and
 * answers a fragment, or nothing when the parameter is absent, so builders read as a list.
 */
import { F } from './fields.ts';
import { caseVariants } from './ids.ts';
import type { QueryDsl } from './search.query.ts';

type Maybe<T> = T | undefined;

const term = (field: string, value: string): QueryDsl => ({ term: { [field]: value } });
/** An id in any case (see caseVariants): a `terms` of two or three values costs what a `term` does. */
const idTerm = (field: string, id: string): QueryDsl => ({ terms: { [field]: caseVariants(id) } });

/**
 * Records linked to this taxonomy term (through their attributes), or to any of the terms below it
 * when they are given (`include_child_terms`; read from the served terms, so in the case they hold).
 */
export const taxonomyTermFilter = (
  id: Maybe<string>,
  descendants: readonly string[] = [],
): Maybe<QueryDsl> =>
  id === undefined
    ? undefined
    : descendants.length === 0
      ? idTerm(F.taxonomyTermIds, id)
      : { terms: { [F.taxonomyTermIds]: [...caseVariants(id), ...descendants] } };

/**
 * Records with any term from this taxonomy, or with any of `descendants`: terms below the
 * taxonomy's own that name no taxonomy or another (`include_child_terms`).
 */
export const taxonomyFilter = (id: Maybe<string>, descendants: readonly string[] = []): Maybe<QueryDsl> =>
  id === undefined
    ? undefined
    : descendants.length === 0
      ? idTerm(F.taxonomyIds, id)
      : {
          bool: {
            should: [idTerm(F.taxonomyIds, id), { terms: { [F.taxonomyTermIds]: [...descendants] } }],
            minimum_should_match: 1,
          },
        };

/** Services (or service-at-locations) run by this organization. */
export const organizationFilter = (id: Maybe<string>): Maybe<QueryDsl> =>
  id === undefined ? undefined : idTerm(F.organizationId, id);

/** Records modified on or after this instant (RFC 3339; a date alone means its start, UTC). */
export const modifiedAfterFilter = (instant: Maybe<string>): Maybe<QueryDsl> =>
  instant === undefined ? undefined : { range: { [F.lastModified]: { gte: instant } } };

/** Taxonomy terms of this taxonomy. */
export const taxonomyIdFilter = (id: Maybe<string>): Maybe<QueryDsl> =>
  id === undefined ? undefined : idTerm(F.taxonomyId, id);

/** Taxonomy terms whose parent is this term. */
export const parentFilter = (id: Maybe<string>): Maybe<QueryDsl> =>
  id === undefined ? undefined : idTerm(F.parentId, id);

/**
 * `top_only`: the specification's text is garbled ("terms that have not child terms"); it is read
 * as top-level terms, those without a parent.
 */
export const topLevelFilter = (topOnly: Maybe<boolean>): Maybe<QueryDsl> =>
  topOnly ? { bool: { must_not: [{ exists: { field: F.parentId } }] } } : undefined;

/** Services of any of these organizations (the services nested in organization responses). */
export const organizationsFilter = (ids: readonly string[]): QueryDsl => ({
  terms: { [F.organizationId]: [...ids] },
});

/**
 * UK profile ages, as its OpenAPI words them: `minimum_age` keeps services "with a minimum age of
 * at least" the value, `maximum_age` those "with a maximum age equal to or below" it.
 */
export function ageFilters(minimumAge: Maybe<number>, maximumAge: Maybe<number>): QueryDsl[] {
  return [
    ...(minimumAge === undefined ? [] : [{ range: { [F.minimumAge]: { gte: minimumAge } } }]),
    ...(maximumAge === undefined ? [] : [{ range: { [F.maximumAge]: { lte: maximumAge } } }]),
  ];
}

export type ScheduleParams = {
  /** RFC 5545 day code: MO, TU, WE, TH, FR, SA, SU. */
  day?: string | undefined;
  /** HH:MM: the slot opens at or after it. */
  startTime?: string | undefined;
  /** HH:MM: the slot closes at or before it. */
  endTime?: string | undefined;
};

/**
 * UK profile opening times. `schedules` is nested so that one weekly slot must satisfy the day and
 * both times together: "Monday from 18:00" must not match Monday 09:00-12:00 plus Friday 18:00-20:00.
 * Times are compared as HH:MM strings, the form the document builder indexes.
 */
export function scheduleFilter(params: ScheduleParams): Maybe<QueryDsl> {
  const conditions: QueryDsl[] = [
    ...(params.day === undefined ? [] : [term(F.scheduleByDay, params.day)]),
    ...(params.startTime === undefined
      ? []
      : [{ range: { [F.scheduleOpensAt]: { gte: params.startTime } } }]),
    ...(params.endTime === undefined ? [] : [{ range: { [F.scheduleClosesAt]: { lte: params.endTime } } }]),
  ];
  if (conditions.length === 0) return undefined;
  return { nested: { path: F.schedules, query: { bool: { filter: conditions } } } };
}

/** Drops the absent filters. */
export function presentFilters(...filters: (Maybe<QueryDsl> | QueryDsl[])[]): QueryDsl[] {
  return filters.flatMap((f) => (f === undefined ? [] : Array.isArray(f) ? f : [f]));
}
