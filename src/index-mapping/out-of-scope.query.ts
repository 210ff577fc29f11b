/**
 * A search that names no need the directory knows (no need, not even loosely, and no crisis):
 * a shopping, leisure or travel search, or a name. Such a search answers by its words; the
 * taxonomy terms its text is loosely close to only rank what the words found.
 *
 * Why: a large taxonomy (AIRS, 211 Miami) holds a term close to almost anything, so a term alone
 * answered "sunglasses store" with thrift shops, "South Beach nightclubs" with 36 services and
 * "best Cuban sandwich" with a grant programme (similarities 0.45-0.58). Names and plain needs
 * with no need understood reach the same similarities ("Goodwill" 0.56, "free clinic" 0.65), so
 * no floor on the similarity alone separates them; what separates them is that a real need's
 * or a name's words match in the directory's own text.
 */
import { F } from './fields.ts';
import { type Meaning, TERM_WEIGHT } from './meaning.query.ts';
import type { QueryDsl } from './search.query.ts';

/**
 * Whether the search was understood, and understood as no need nor crisis, not even loosely. A
 * search with a correction is a mistyped search for the directory's own words (as in
 * meansNothing): its typed words may match nothing, and the term is what finds it.
 */
export function meansNoNeed(meaning: Meaning | undefined): boolean {
  if (!meaning || meaning.crisis || meaning.correction) return false;
  return meaning.needs.length === 0 && (meaning.loose?.needs.length ?? 0) === 0;
}

/**
 * At or above this similarity a term answers a search that names no need on its own. Measured on
 * the real development sets: at 0.52 Miami's out-of-scope false positives fell 46.7% -> 33.3%
 * with every other class as before (need 0.806, name 0.939 -> 0.940); at 0.6 plain needs fell
 * (0.806 -> 0.790: "free clinic", "eye exam and glasses" lean on terms at 0.52-0.6).
 */
export const TERM_ALONE_SIMILARITY = 0.52;

/**
 * A meaning split in two: the terms that still answer on their own (close to the text), and the
 * terms that only rank what the words found (loosely close, for a search that names no need).
 */
export function termsThatAnswer(meaning: Meaning | undefined): {
  meaning: Meaning | undefined;
  rankOnly: Meaning['terms'];
} {
  if (!meaning || !meansNoNeed(meaning)) return { meaning, rankOnly: [] };
  const answer = meaning.terms.filter((t) => t.similarity >= TERM_ALONE_SIMILARITY);
  const rankOnly = meaning.terms.filter((t) => t.similarity < TERM_ALONE_SIMILARITY);
  return { meaning: { ...meaning, terms: answer }, rankOnly };
}

/** The words' (and meaning's) query, with the rank-only terms ranking what it found, as terms do. */
export function rankedByTerms(query: QueryDsl | undefined, rankOnly: Meaning['terms']): QueryDsl | undefined {
  if (query === undefined || rankOnly.length === 0) return query;
  return {
    bool: {
      must: [query],
      should: rankOnly.map((term) => ({
        constant_score: {
          filter: { terms: { [F.taxonomyTermIds]: [term.id, ...(term.within ?? [])] } },
          boost: TERM_WEIGHT * term.similarity,
        },
      })),
    },
  };
}
