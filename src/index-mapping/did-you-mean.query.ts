/**
 * "Did you mean": for a search that found nothing, each word that no name holds is replaced by the
 * closest word that one does (a term suggester over the unstemmed name fields, so suggestions read
 * as words, not stems). Pure: words in, suggest request out; the engine's answer in, a correction out.
 */
import { F } from './fields.ts';
import type { QueryDsl } from './search.query.ts';
import { isEmptyWord, MAX_FUZZY_WORD_CHARS } from './text.query.ts';

/**
 * Cost bounds: a suggester builds a Levenshtein automaton (two edits) per word and walks the terms
 * dictionary with it, as a fuzzy query does, so the same limits apply: words of 3 to
 * MAX_FUZZY_WORD_CHARS letters only, and no suggestion at all for text of more than
 * MAX_SUGGESTED_WORDS words (a pasted sentence that found nothing gains little from one).
 */
export const MAX_SUGGESTED_WORDS = 6;

/** The text to correct, or undefined when it is beyond the bounds above. */
export function didYouMeanText(text: string): string | undefined {
  const words = text.toLowerCase().split(/\s+/).filter(Boolean);
  if (words.length === 0 || words.length > MAX_SUGGESTED_WORDS) return undefined;
  if (words.some((word) => [...word].length > MAX_FUZZY_WORD_CHARS)) return undefined;
  return words.join(' ');
}

const SUGGEST_FIELDS = [F.nameExact, F.organizationNameExact, F.taxonomyTermNamesExact] as const;

/** One term suggester per name field, over the words as typed. */
export function buildDidYouMeanSuggest(text: string): QueryDsl {
  return {
    text: text.toLowerCase(),
    ...Object.fromEntries(
      SUGGEST_FIELDS.map((field) => [
        field,
        {
          term: {
            field,
            // Only words no name holds are corrected; a word that is there is not a typo.
            suggest_mode: 'missing',
            max_edits: 2,
            prefix_length: 1,
            min_word_length: 3,
            size: 1,
            sort: 'score',
          },
        },
      ]),
    ),
  };
}

export type SuggestEntry = {
  text: string;
  options: { text: string; score: number; freq: number }[];
};

/**
 * The corrected text: each word replaced by its best option across the fields (highest score,
 * then most frequent), or undefined when no word has one.
 */
export function toCorrection(
  text: string,
  suggest: Record<string, SuggestEntry[] | undefined>,
): string | undefined {
  const best = new Map<string, { text: string; score: number; freq: number }>();
  for (const entries of Object.values(suggest)) {
    for (const entry of entries ?? []) {
      for (const option of entry.options) {
        const current = best.get(entry.text);
        if (
          !current ||
          option.score > current.score ||
          (option.score === current.score && option.freq > current.freq)
        )
          best.set(entry.text, option);
      }
    }
  }
  if (best.size === 0) return undefined;
  const corrected = text
    .toLowerCase()
    .split(/\s+/)
    .filter(Boolean)
    // A word that analyses to nothing ("was", "will", "needs") is no typo, whatever name is near it.
    .map((word) => (isEmptyWord(word) ? word : (best.get(word)?.text ?? word)))
    .join(' ');
  return corrected === text.toLowerCase().split(/\s+/).filter(Boolean).join(' ') ? undefined : corrected;
}

/** Only the suggestions for `text`: no hits and no total. */
export function buildDidYouMeanBody(text: string): QueryDsl {
  return { size: 0, track_total_hits: false, suggest: buildDidYouMeanSuggest(text) };
}
