/**
 * Full-text search that never fails on what people type. User text never reaches a query parser
 * (no query_string, no simple_query_string operators): it is split here into words and quoted
 * phrases, and each piece becomes a `match`-family query, which only analyses text.
 *
 * Ranking decisions:
 * - Every word must match somewhere (for up to two words; 75% of them beyond, so a pasted
 *   sentence still finds something and "english classes for adults" finds ESOL classes with no
 *   "adults" in them), in any of the searchable fields: the words of "food bank aberdeen" may sit
 *   in the service name, its organization's name and a taxonomy term. Stop words and filler
 *   words are not counted (judged set, multi_word and lay_need classes).
 * - A word matches on the stemmed fields (English: "counsellor" finds "counselling"), through the
 *   search vocabulary (the search analyzer's synonyms: "foodbank" finds "food bank", "GP" finds
 *   "general practice"), or with one typo (typoTolerance) on the unstemmed name fields and, at a
 *   low weight, on descriptions.
 * - The words together also go through the vocabulary (vocabularyQuery): rules of several words
 *   ("can't pay rent", "somewhere to sleep") match only there. Either way satisfies the search.
 * - A word found in several fields ranks above one found in one (FIELDS_TIE_BREAKER).
 * - Name fields carry the highest boosts, so a name match ranks above a description match; the
 *   whole input (of several words) as a phrase in a name adds more, so an exact name comes first.
 * - "Quoted phrases" must appear as phrases.
 *
 * Cost bounds (a search is the one request anyone can make expensive): the API refuses text over
 * MAX_SEARCH_CHARS, and here at most MAX_SEARCH_WORDS words and MAX_SEARCH_PHRASES phrases become
 * clauses. Typo forgiveness stops at MAX_FUZZY_WORD_CHARS letters: a fuzzy term builds a
 * Levenshtein automaton over the whole token and walks the terms dictionary with it, so a
 * 500-letter word cost 0.3-0.55 s of engine time against 13 ms for "food". No real word that
 * long needs a typo forgiven; it still matches exactly, stemmed, which costs a term look-up. (The
 * standard tokenizer cuts tokens at 255 characters, so exact terms stay bounded too.)
 */
import { stemmer } from 'stemmer';
import { ENGLISH_STOP_WORDS, FILLER_STEMS, FILLER_WORDS } from './analysis.ts';
import type { QueryDsl } from './search.query.ts';

/** The API refuses longer text (a 400 naming `search`); the builders cut it, never fail. */
export const MAX_SEARCH_CHARS = 500;
/** Words beyond these are ignored (a pasted sentence still searches by its first words). */
export const MAX_SEARCH_WORDS = 16;
export const MAX_SEARCH_PHRASES = 4;

/**
 * How many typos a word may carry, decided on the judged set (bench/relevance, class typo_short):
 * one edit from four letters ("dept" finds "debt", "rnet" finds "rent": a swap of two letters is
 * one edit), but in a four-letter word the first letter must be right, so "food" never becomes
 * "good" or "hood" and "debd" still finds "debt". Three letters and fewer match exactly: "fod",
 * "vet" or "gp" have too many neighbours one edit away. Two edits in long words were tried: with
 * the domain's typo correction (src/semantic/spelling.ts) they found nothing more on the
 * development set and cost 15-40% more engine time a search (a two-edit automaton is far larger).
 */
export function typoTolerance(word: string): { fuzziness: number; prefix_length: number } | undefined {
  const letters = [...word].length;
  if (letters < 3 || letters > MAX_FUZZY_WORD_CHARS) return undefined;
  return { fuzziness: 1, prefix_length: letters <= 4 ? 1 : 0 };
}

/** Longer words match exactly only (see above); "internationalisation" has 20 letters. */
export const MAX_FUZZY_WORD_CHARS = 24;

export type ParsedSearch = {
  words: string[];
  phrases: string[];
  /** Every word of the input, quoted or not, in order. */
  text: string;
};

export type TextFields = {
  /** Stemmed fields with boosts (`name^4`): every word is looked for here. */
  stemmed: readonly string[];
  /** Unstemmed name fields (and, at low weights, stemmed descriptions) where one typo is forgiven. */
  fuzzy: readonly string[];
  /** Fields where quoted phrases are looked for. */
  phrase: readonly string[];
  /** Name fields where the whole input as a phrase ranks a result first. */
  names: readonly string[];
  /** Keyword fields a word may equal exactly (a taxonomy term's code). */
  keywords?: readonly string[];
  /**
   * Stemmed fields where the words together go through the vocabulary (vocabularyQuery); the
   * `stemmed` fields unless given. Every field here expands the rules once more, so the fewer the
   * cheaper: the fields a need's rule points at (names, terms, descriptions) are enough.
   */
  vocabulary?: readonly string[];
  /**
   * Where a need's phrases (src/semantic, meaning.query.ts) are looked for; the `vocabulary`
   * fields unless given.
   */
  needs?: readonly string[];
};

/**
 * A word matching in several fields (the name, a taxonomy term and the description) scores above
 * one matching in the best field alone: the best field's score plus this share of the others'
 * (judged set: typo_short 0.843 -> 0.865, lay_need 0.857 -> 0.874 with 0.6; on the typo clause
 * too, typo_short 0.917 -> 0.924).
 */
export const FIELDS_TIE_BREAKER = 0.6;

// A word is worth a clause only if it holds a letter or a digit: "(", ":" or "-" analyse to nothing.
const hasWordCharacter = /[\p{L}\p{N}]/u;

// Punctuation around a word is not part of it: "(food" is food, "rent?" is rent, so each is
// matched exactly, held and equal to a taxonomy code as the bare word is. Inside a word it stays
// ("24/7", "drop-in", "can't").
export const bareWord = (word: string) => word.replace(/^[^\p{L}\p{N}]+|[^\p{L}\p{N}]+$/gu, '');

/** Splits user text into words and "quoted phrases"; an unmatched quote is just a character. */
export function parseSearch(input: string): ParsedSearch {
  const text = input.slice(0, MAX_SEARCH_CHARS);
  const phrases: string[] = [];
  const rest = text.replace(/"([^"]*)"/g, (_, phrase: string) => {
    const words = phrase.split(/\s+/).filter((w) => hasWordCharacter.test(w));
    if (words.length > 0 && phrases.length < MAX_SEARCH_PHRASES) phrases.push(words.join(' '));
    return ' ';
  });
  const words = rest
    .replaceAll('"', ' ')
    .split(/\s+/)
    .filter((w) => hasWordCharacter.test(w))
    .map(bareWord)
    .slice(0, MAX_SEARCH_WORDS);
  const all = text
    .replaceAll('"', ' ')
    .split(/\s+/)
    .filter((w) => hasWordCharacter.test(w))
    .map(bareWord)
    .slice(0, MAX_SEARCH_WORDS * 2);
  return { words, phrases, text: all.join(' ') };
}

function wordQuery(word: string, fields: TextFields, held?: ReadonlySet<string>): QueryDsl {
  return {
    dis_max: {
      queries: [
        // A stop word ("the") analyses to nothing: it then matches everything rather than nothing.
        {
          multi_match: {
            query: word,
            fields: [...fields.stemmed],
            type: 'best_fields',
            tie_breaker: FIELDS_TIE_BREAKER,
            operator: 'and',
            zero_terms_query: 'all',
          },
        },
        // A word the directory holds is taken as typed (src/semantic/held-words.ts).
        ...(held?.has(word.toLowerCase()) ? [] : fuzzyWordQuery(word, fields)),
        ...(fields.keywords ?? []).map((field) => ({ term: { [field]: { value: word } } })),
      ],
    },
  };
}

function fuzzyWordQuery(word: string, fields: TextFields): QueryDsl[] {
  const typos = typoTolerance(word);
  if (!typos) return [];
  return [
    {
      multi_match: {
        query: word,
        fields: [...fields.fuzzy],
        type: 'best_fields',
        tie_breaker: FIELDS_TIE_BREAKER,
        operator: 'and',
        ...typos,
        max_expansions: 50,
        // Below an exact hit on the same field: a typo is a weaker signal than the word itself.
        boost: 0.6,
      },
    },
  ];
}

/**
 * The words together, through the search vocabulary: what only several words say ("somewhere to
 * sleep", "can't pay rent", "food bank" for "foodbank") reaches the rules here, where each word
 * alone would not. Every word (or a rule's whole phrase) must match in one field.
 */
function vocabularyQuery(words: readonly string[], fields: TextFields): QueryDsl {
  return {
    multi_match: {
      query: words.join(' '),
      fields: [...(fields.vocabulary ?? fields.stemmed)],
      type: 'best_fields',
      tie_breaker: FIELDS_TIE_BREAKER,
      operator: 'and',
      zero_terms_query: 'none',
    },
  };
}

const EMPTY_WORDS: ReadonlySet<string> = new Set([...ENGLISH_STOP_WORDS, ...FILLER_WORDS]);

function requiredWords(count: number): number | string {
  return count <= 2 ? count : '75%';
}

/**
 * The words a relaxed search (one whose text as typed found nothing) requires: half of them,
 * rounded up, from three words on. One or two words are never relaxed: "cheap flights" must not
 * become "cheap", which the directory would answer with cheap meals.
 */
export function relaxedRequiredWords(count: number): number | undefined {
  return count >= 3 ? Math.ceil(count / 2) : undefined;
}

/** How many words a search's text counts (stop and filler words aside, when it has others). */
export function countedWords(input: string): number {
  const { words } = parseSearch(input);
  const meaningful = words.filter((word) => !isEmptyWord(word)).length;
  return meaningful > 0 ? meaningful : words.length;
}

/**
 * A search with nothing searchable in it ("the", "of and", "!!!", an emoji) is not a search for
 * everything: it finds nothing, as the PostGIS baseline's tsvector search does.
 */
export const MATCH_NOTHING: QueryDsl = { match_none: {} };

/** The words of a search a typo is forgiven in (typoTolerance), lower case, each once. */
export function typoWords(input: string): string[] {
  const { words } = parseSearch(input);
  return [...new Set(words.filter((w) => !isEmptyWord(w) && typoTolerance(w)).map((w) => w.toLowerCase()))];
}

/**
 * What the search analyzer drops, as it sees tokens: stemmed (readIndexAnalysisSettings puts the
 * stop and filler filters after the English stemmer, Porter's, as the `stemmer` package is).
 */
const DROPPED_STEMS: ReadonlySet<string> = new Set([...ENGLISH_STOP_WORDS, ...FILLER_WORDS, ...FILLER_STEMS]);

/**
 * Whether a word analyses to nothing: a stop word or a filler word of a typed need, in any form
 * the stemmer brings back to one ("needs", "wanted", "feeling"). Such a word's clause matches
 * every service, so it is neither counted nor required; missed, "needs" alone found the whole
 * directory, and in "my car needs an MOT" it stood in for a required word.
 */
export const isEmptyWord = (word: string) => {
  const lower = word.toLowerCase();
  return EMPTY_WORDS.has(lower) || DROPPED_STEMS.has(stemmer(lower.replace(/['’]s?$/u, '')));
};

/**
 * The scored part of a search: undefined when there is none (no `search`, or only blanks: a
 * listing), MATCH_NOTHING when the text holds no word that can match.
 */
export function textQuery(
  input: string | undefined,
  fields: TextFields,
  options: {
    requiredWords?: number | undefined;
    /** Words the directory holds as typed (lower case): matched without typo expansion. */
    heldWords?: ReadonlySet<string> | undefined;
  } = {},
): QueryDsl | undefined {
  if (input === undefined || input.trim() === '') return undefined;
  const { words, phrases, text } = parseSearch(input);
  if (phrases.length === 0 && words.every(isEmptyWord)) return MATCH_NOTHING;
  const must: QueryDsl[] = phrases.map((phrase) => ({
    multi_match: { query: phrase, fields: [...fields.phrase], type: 'phrase' },
  }));
  if (words.length > 0) {
    // Words that analyse to nothing match everything: counted among the words required, they
    // would let "I need somewhere to sleep tonight" match any service by its stop words alone.
    const meaningful = words.filter((word) => !isEmptyWord(word));
    const counted = meaningful.length > 0 ? meaningful : words;
    const eachWord: QueryDsl = {
      bool: {
        should: counted.map((word) => wordQuery(word, fields, options.heldWords)),
        minimum_should_match: options.requiredWords ?? requiredWords(counted.length),
      },
    };
    must.push(
      words.length === 1
        ? eachWord
        : { bool: { should: [eachWord, vocabularyQuery(words, fields)], minimum_should_match: 1 } },
    );
  }
  // One word: its own clause already weighs the names most, and a "phrase" of one word through the
  // vocabulary is a span query over every expansion ("dv": domestic violence, domestic abuse...),
  // the dearest part of such a search for the same ranking (judged set: 0.942 either way).
  if (words.length + phrases.length < 2) return { bool: { must } };
  return {
    bool: {
      must,
      should: [{ multi_match: { query: text, fields: [...fields.names], type: 'phrase', boost: 2 } }],
    },
  };
}
