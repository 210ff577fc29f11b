/**
 * A search by meaning as well as by words. Pure: the text's word query (text.query.ts) and what
 * the text means (src/semantic/understanding.ts: needs and taxonomy terms close to it) in, one
 * query out. Each is a way to match (`should`, at least one):
 *
 * - the words typed, ranked as before (names first, every word required...);
 * - each need the text means: the phrases an entry that meets it uses, as phrases, weighted by how
 *   close the need is (NEED_WEIGHT);
 * - each taxonomy term the text means: the services filed under it, at a constant weighted score
 *   (TERM_WEIGHT), so "I don't want to be alive any more" finds the services filed under a crisis
 *   term though none of its words is in them;
 * - a crisis (a need marked `!crisis`): the matching crisis services at CRISIS_BOOST, above any
 *   other match, so they come first whenever any exist.
 *
 * Weights were set on the development set (bench/relevance), never on the held-out set.
 */
import { F } from './fields.ts';
import type { QueryDsl } from './search.query.ts';
import { type TextFields, textQuery } from './text.query.ts';

export type Meaning = {
  needs: { name: string; phrases: readonly string[]; similarity: number }[];
  /**
   * `within`: the terms below the term (src/semantic/term-branches.ts), whose services count as
   * the term's: a parent term matches its children.
   */
  terms: { id: string; similarity: number; within?: readonly string[] }[];
  crisis?: {
    need: string;
    phrases: readonly string[];
    /** The operator's crisis terms (CRISIS_TAXONOMY_TERMS) served now. */
    onlyTermIds: readonly string[];
    /** Whether only services under those terms count as crisis services. */
    restricted: boolean;
  };
  /** The needs and terms a little further from the text: what a relaxed search means. */
  loose?: Meaning;
  /** The text with its unknown words corrected to the directory's words (src/semantic/spelling.ts). */
  correction?: string;
  /**
   * The words of the text (and of its correction) the directory holds as typed
   * (src/semantic/held-words.ts): matched without typo expansion.
   */
  heldWords?: readonly string[];
};

/** A meaning's held words as textQuery takes them. */
export const heldWordsOf = (meaning: Meaning | undefined): ReadonlySet<string> | undefined =>
  meaning?.heldWords && meaning.heldWords.length > 0 ? new Set(meaning.heldWords) : undefined;

// A need's phrases: low next to the words' scores, so the words typed rank first where they match
// (development set: weights of 0.5 scored 0.955; need 1 0.947, need 4 with term 8 0.905).
export const NEED_WEIGHT = 0.5;
// A term the text means is the publisher's own word for what a service does, and counts as much as
// a good match of the words: on the real development set whose feed carries its taxonomy (Miami
// 211, AIRS) term weight 0.5 scored 0.638, 5 0.679, 10 0.696, 20 0.715 (first-person 0.449 ->
// 0.621, needs 0.720 -> 0.806), 40 0.736 but names fell (0.940 -> 0.922); the synthetic development
// set 0.906 -> 0.910 at 20, no query that should find nothing found anything (a term only ranks
// what matches, it adds no match of its own beyond what the term's meaning already added).
export const TERM_WEIGHT = 20;
export const CRISIS_BOOST = 1000;

function needQuery(phrases: readonly string[], fields: TextFields, boost: number): QueryDsl {
  return {
    dis_max: {
      queries: phrases.map((phrase) => ({
        multi_match: {
          query: phrase,
          fields: [...(fields.needs ?? fields.vocabulary ?? fields.stemmed)],
          type: 'phrase',
          // Stemmed, without the search vocabulary: a need's phrases are already the directory's
          // words, and expanding each through the synonym graph made them most of a search's
          // engine time (development set: 0.957 -> 0.962 without it; engine time 14-20 ms -> 11 ms
          // a query on 100,000 services, against 7-11 ms by words alone).
          analyzer: 'hsds_english',
        },
      })),
      boost,
    },
  };
}

const termsFilter = (ids: readonly string[]): QueryDsl => ({ terms: { [F.taxonomyTermIds]: [...ids] } });

/** A term's own id and the ids of the terms below it. */
const branchIds = (term: Meaning['terms'][number]): string[] => [term.id, ...(term.within ?? [])];

/** The crisis services a crisis query puts first: they meet the need, by its phrases or its terms. */
function crisisQuery(meaning: Meaning, fields: TextFields): QueryDsl | undefined {
  const crisis = meaning.crisis;
  if (!crisis) return undefined;
  if (crisis.restricted && crisis.onlyTermIds.length === 0) return undefined;
  const meets: QueryDsl[] = [needQuery(crisis.phrases, fields, 1)];
  if (meaning.terms.length > 0) meets.push(termsFilter(meaning.terms.flatMap(branchIds)));
  return {
    constant_score: {
      filter: {
        bool: {
          should: meets,
          minimum_should_match: 1,
          ...(crisis.restricted ? { filter: [termsFilter(crisis.onlyTermIds)] } : {}),
        },
      },
      boost: CRISIS_BOOST,
    },
  };
}

/** The words' query widened by what the text means; the words' query alone when it means nothing. */
export function withMeaning(
  words: QueryDsl | undefined,
  meaning: Meaning | undefined,
  fields: TextFields,
): QueryDsl | undefined {
  if (!meaning) return words;
  const should: QueryDsl[] = words ? [words] : [];
  // The corrected words rank as typed words do, above the typo-tolerant match of the words as typed.
  const corrected = meaning.correction
    ? textQuery(meaning.correction, fields, { heldWords: heldWordsOf(meaning) })
    : undefined;
  if (corrected) should.push(corrected);
  for (const need of meaning.needs)
    should.push(needQuery(need.phrases, fields, NEED_WEIGHT * need.similarity));
  for (const term of meaning.terms) {
    should.push({
      constant_score: { filter: termsFilter(branchIds(term)), boost: TERM_WEIGHT * term.similarity },
    });
  }
  const crisis = crisisQuery(meaning, fields);
  if (crisis) should.push(crisis);
  // Nothing beside the words (a meaning that only says which words are held): the words' query.
  if (should.length === 0 || (words && should.length === 1)) return words;
  return { bool: { should, minimum_should_match: 1 } };
}
