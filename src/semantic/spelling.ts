/**
 * Typo correction that knows the domain: a word of a search that is no English word the model
 * knows, and no word of the directory's own vocabulary, is read as the closest word of that
 * vocabulary (the needs, the served taxonomy terms, the search vocabulary's rules), if exactly one
 * is closest. "counciling" is then "counseling", not "council" (three edits away), and "sucide"
 * is "suicide". Pure: the lexicon and the known words are given.
 *
 * The engine's own typo tolerance (text.query.ts typoTolerance) still runs on the words as typed;
 * the correction is searched beside them (meaning.query.ts), so a rare word the lexicon lacks
 * loses nothing.
 */
import distance from 'damerau-levenshtein';

/**
 * Words shorter than this are left alone: too many neighbours ("fod", "vet"). Four letters, one
 * edit, only to a word of the directory's own vocabulary when exactly one is that close ("lgal" is
 * legal): development set typo_short 0.940 -> 0.955 against five letters, no query that should
 * find nothing found anything (held-out typo_short 0.794 -> 0.810, reported, not tuned on).
 */
const MIN_LETTERS = 4;

/** Edits a correction may be: one below TWO_EDITS_FROM letters, two from there. */
const TWO_EDITS_FROM = 8;

/** Unknown words a search has corrected at most (a pasted sentence of nonsense costs no more). */
const MAX_CORRECTED_WORDS = 4;

const WORD = /[\p{L}][\p{L}'-]*/gu;

/** The words of a text, lower case. */
export const wordsOf = (text: string): string[] => text.toLowerCase().match(WORD) ?? [];

export type Lexicon = {
  /** Words a correction may become. */
  readonly words: ReadonlySet<string>;
  /** Words that are words: never corrected (the model's whole-word vocabulary, and the lexicon). */
  isKnown(word: string): boolean;
};

export function createLexicon(texts: Iterable<string>, knownWords: ReadonlySet<string>): Lexicon {
  const words = new Set<string>();
  for (const text of texts) for (const word of wordsOf(text)) if (word.length >= MIN_LETTERS) words.add(word);
  return { words, isKnown: (word) => words.has(word) || knownWords.has(word) };
}

/**
 * Corrections worked out, per lexicon: a word seen before costs nothing. An unknown word (a place
 * name such as "tillydrone") is compared with every lexicon word, 2-4 ms a search on a busy
 * 2-core machine, as much as embedding the text; what people type repeats by the word even when
 * the searches are new (issue 53). A new lexicon (the served terms changed) starts afresh.
 */
const corrections = new WeakMap<Lexicon, Map<string, string | undefined>>();
/** Words remembered per lexicon; past this, forgotten all at once (a flood of nonsense words costs no memory). */
const REMEMBERED_WORDS = 50_000;

/** The closest lexicon word to an unknown word, or undefined (known, too short, none or a tie). */
export function correctWord(word: string, lexicon: Lexicon): string | undefined {
  const lower = word.toLowerCase();
  let known = corrections.get(lexicon);
  if (!known) {
    known = new Map();
    corrections.set(lexicon, known);
  }
  if (known.has(lower)) return known.get(lower);
  const corrected = closestWord(lower, lexicon);
  if (known.size >= REMEMBERED_WORDS) known.clear();
  known.set(lower, corrected);
  return corrected;
}

function closestWord(lower: string, lexicon: Lexicon): string | undefined {
  if ([...lower].length < MIN_LETTERS || lexicon.isKnown(lower) || !/^[\p{L}'-]+$/u.test(lower))
    return undefined;
  const allowed = lower.length >= TWO_EDITS_FROM ? 2 : 1;
  let best: string | undefined;
  let bestSteps = allowed + 1;
  let tie = false;
  for (const candidate of lexicon.words) {
    if (Math.abs(candidate.length - lower.length) > allowed) continue;
    const { steps } = distance(lower, candidate);
    if (steps < bestSteps) {
      best = candidate;
      bestSteps = steps;
      tie = false;
    } else if (steps === bestSteps && candidate !== best) tie = true;
  }
  return best && !tie ? best : undefined;
}

/** The text with each unknown word corrected, or undefined when no word was. */
export function correctText(text: string, lexicon: Lexicon): string | undefined {
  let changed = false;
  let tried = 0;
  const corrected = text.replace(WORD, (word) => {
    // Each unknown word is compared with the whole lexicon: a few per search at most.
    if (tried >= MAX_CORRECTED_WORDS || lexicon.isKnown(word.toLowerCase())) return word;
    tried += 1;
    const fixed = correctWord(word, lexicon);
    if (!fixed) return word;
    changed = true;
    return fixed;
  });
  return changed ? corrected : undefined;
}
