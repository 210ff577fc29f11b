/**
 * Constraints read from a search's text (src/semantic/constraints.ts), as query pieces: a place,
 * a language, an age or group, a cost. Pure: what was understood in, filters and boosts out.
 *
 * - A **filter** keeps the services the constraint holds for, by their structured fields or, where
 *   a directory publishes none (ORUK feeds without locations), by their own words: a place is an
 *   address's city, region or postal code (F.places) or the place named in the service's name,
 *   description or organization; a language one the service or its locations speak
 *   (F.languages) or named in its description; an age range overlaps the service's (a bound
 *   that is absent holds for everyone, as `age=` does). Cost never filters: few feeds say what a
 *   service costs, and "free" is often only in the description.
 * - A **boost**: a place's, language's or cost's own words still rank (a service naming the
 *   place), but are no longer required words of the search; "free" ranks the services that say
 *   they are free (F.free) first among equals. An age's words stay words of the need.
 * - A search that found nothing with its filters is served again without them (`relaxed`), and
 *   the page says so (Understood.relaxed).
 */
import { F } from './fields.ts';
import { composeQuery, type QueryDsl, type SearchRequest, sortOrder } from './search.query.ts';
import { SERVICE_MINIMAL } from './sources.query.ts';

export type Constraint =
  | {
      kind: 'place';
      text: string;
      place: string;
      words: string;
      /** A place the directory's addresses name (it filters); else only named ("in Fishponds"), it ranks. */
      known: boolean;
    }
  | { kind: 'language'; text: string; language: string; values: readonly string[] }
  | { kind: 'age'; text: string; from: number; to: number; words: string }
  | { kind: 'cost'; text: string; words: string };

export type ConstraintKind = Constraint['kind'];
export const CONSTRAINT_KINDS: readonly ConstraintKind[] = ['place', 'language', 'age', 'cost'];

/** What a search's text was understood to ask beside its need. */
export type Understood = {
  constraints: readonly Constraint[];
  /** The text without the words the constraints consumed: what the need is searched by. */
  needText: string;
  /** The filters emptied the answer and were dropped (boosts stay). */
  relaxed?: boolean;
  /** The constraints only rank (a crisis: help elsewhere is never left out). */
  boostOnly?: boolean;
};

/** How much a constraint's own words weigh next to the need's (a typed word's match scores 2-20). */
// Bristol development set: 2 ranked "LGBT youth group" better than 1 (0.91 -> 0.96), nothing worse.
export const CONSTRAINT_WORDS_BOOST = 2;
/** A service naming the place a search names, above the need's own matches (a strong boost). */
export const PLACE_BOOST = 50;
/** A service that says it is free, for a search that asks for free (constant, like a term's match). */
export const FREE_BOOST = 2;

/** The fields a place or language may be named in when no structured field says it. */
const NAMED_IN = [F.name, F.description, F.organizationName];

const namedIn = (text: string): QueryDsl => ({
  multi_match: { query: text, fields: [...NAMED_IN], type: 'phrase' },
});

const boundHolds = (field: string, range: Record<string, number>): QueryDsl => ({
  bool: {
    should: [{ range: { [field]: range } }, { bool: { must_not: [{ exists: { field } }] } }],
    minimum_should_match: 1,
  },
});

function constraintFilter(constraint: Constraint): QueryDsl | undefined {
  switch (constraint.kind) {
    case 'place':
      if (!constraint.known) return undefined;
      return {
        bool: {
          should: [{ term: { [F.places]: constraint.place } }, namedIn(constraint.words)],
          minimum_should_match: 1,
        },
      };
    case 'language':
      return {
        bool: {
          should: [{ terms: { [F.languages]: [...constraint.values] } }, namedIn(constraint.language)],
          minimum_should_match: 1,
        },
      };
    case 'age':
      return {
        bool: {
          filter: [
            boundHolds(F.minimumAge, { lte: constraint.to }),
            boundHolds(F.maximumAge, { gte: constraint.from }),
          ],
        },
      };
    case 'cost':
      return undefined;
  }
}

/** The filters of what was understood; none once relaxed. */
export function constraintFilters(understood: Understood | undefined): QueryDsl[] {
  if (!understood || understood.relaxed || understood.boostOnly) return [];
  return understood.constraints.flatMap((c): QueryDsl[] => {
    const filter = constraintFilter(c);
    return filter ? [filter] : [];
  });
}

/** Whether any constraint filters (so a relaxed search without them may find more). */
export const constraintsFilter = (understood: Understood | undefined): boolean =>
  constraintFilters(understood).length > 0;

/**
 * The services naming a place, counted to tell a place a directory speaks of ("Bedminster") from
 * one it never names ("Tenerife"), which stays a required word of the search.
 */
export const placeNamedSearch = (words: string): SearchRequest => ({
  index: 'services',
  query: composeQuery(undefined, [namedIn(words)]),
  sort: sortOrder({ relevance: false, byName: false }),
  source: SERVICE_MINIMAL,
  batchSize: 1,
});

/** The boosts of what was understood: its words on the stemmed fields, and free services for "free". */
export function constraintBoosts(understood: Understood | undefined, fields: readonly string[]): QueryDsl[] {
  if (!understood) return [];
  return understood.constraints.flatMap((c): QueryDsl[] => {
    // An age's words are still the need's (src/semantic/constraints.ts): no second boost; nor
    // for "free", which ranks by the free field alone.
    if (c.kind === 'age') return [];
    if (c.kind === 'cost')
      return [{ constant_score: { filter: { term: { [F.free]: true } }, boost: FREE_BOOST } }];
    const words = c.kind === 'language' ? c.language : c.words;
    const boost: QueryDsl[] = [
      { multi_match: { query: words, fields: [...fields], boost: CONSTRAINT_WORDS_BOOST } },
    ];
    // A place ranks the services that name it above any that do not: the person said where.
    // A known place by the directory's addresses (a service merely named after it, "MIAMI BEACH"
    // office, is not nearer help), an unknown one by the services naming it.
    if (c.kind === 'place') {
      const at = c.known ? { term: { [F.places]: c.place } } : namedIn(c.words);
      boost.push({ constant_score: { filter: at, boost: PLACE_BOOST } });
    }
    return boost;
  });
}

/**
 * The need's query with the constraints' boosts beside it; with no need words (the search was
 * only a place: "in Hialeah"), the boosts rank and match nothing away.
 */
export function withConstraintBoosts(
  need: QueryDsl | undefined,
  understood: Understood | undefined,
  fields: readonly string[],
): QueryDsl | undefined {
  const should = constraintBoosts(understood, fields);
  if (should.length === 0) return need;
  return need ? { bool: { must: [need], should } } : { bool: { should, minimum_should_match: 0 } };
}

/** The directory's places: one aggregation over the served services' F.places (places.document.ts). */
export const MAX_PLACES = 20_000;
export const placesBody = (): QueryDsl => ({
  size: 0,
  track_total_hits: false,
  aggs: { places: { terms: { field: F.places, size: MAX_PLACES } } },
});
