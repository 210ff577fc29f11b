/**
 * Lucene's English stop words (the `_english_` set), listed so the query builder can tell which
 * typed words analyse to nothing (text.query.ts).
 */
export const ENGLISH_STOP_WORDS = [
  'a',
  'an',
  'and',
  'are',
  'as',
  'at',
  'be',
  'but',
  'by',
  'for',
  'if',
  'in',
  'into',
  'is',
  'it',
  'no',
  'not',
  'of',
  'on',
  'or',
  'such',
  'that',
  'the',
  'their',
  'then',
  'there',
  'these',
  'they',
  'this',
  'to',
  'was',
  'will',
  'with',
] as const;

/**
 * Index settings shared by every read index: the analyzers search relies on.
 *
 * - `hsds_english`: stems English ("counselling" finds "counsellor"), folds accents, drops
 *   possessives and stop words. The main recall field.
 * - `hsds_exact`: lower-cased, accent-folded words, no stemming: name matches rank on it, fuzzy
 *   matching runs on it (fuzzing stems gives odd hits), and quoted phrases are precise on it.
 * - `hsds_english_search`: `hsds_english` at query time, with the search vocabulary (synonyms,
 *   needs, spellings, compounds, abbreviations: vocabulary/) as a `synonym_graph`. Only queries
 *   use it: the vocabulary can change (an operator's file, `npx hsds synonyms reload`) without a
 *   reindex. It also drops the filler words of a typed need ("I need somewhere to sleep tonight"
 *   is "somewhere sleep"), which no directory entry is found by.
 * - `hsds_sort`: a keyword normalizer so sorting and exact filters ignore case.
 */
export const analysisSettings = {
  analysis: {
    filter: {
      hsds_english_stop: { type: 'stop', stopwords: [...ENGLISH_STOP_WORDS] },
      hsds_english_stemmer: { type: 'stemmer', language: 'english' },
      hsds_english_possessive: { type: 'stemmer', language: 'possessive_english' },
    },
    analyzer: {
      hsds_english: {
        type: 'custom',
        tokenizer: 'standard',
        filter: [
          'hsds_english_possessive',
          'lowercase',
          'asciifolding',
          'hsds_english_stop',
          'hsds_english_stemmer',
        ],
      },
      hsds_exact: { type: 'custom', tokenizer: 'standard', filter: ['lowercase', 'asciifolding'] },
    },
    normalizer: {
      hsds_sort: { type: 'custom', filter: ['lowercase', 'asciifolding'] },
    },
  },
} as const;

/** The search-time synonym filter: its rules are the only part of the settings that a reload changes. */
export const SYNONYM_FILTER = 'hsds_synonyms';
export const SEARCH_ANALYZER = 'hsds_english_search';

/**
 * Words people add to a need that say nothing about it. Dropped from queries only (descriptions
 * keep them), after the vocabulary has matched: "my partner hits me" is a rule, "me" is not. The
 * last seven say how much ("so alone", "really struggling", "very much"): no entry is found by
 * them, and counted they were required words of a situation told at length.
 */
export const FILLER_WORDS = [
  'i',
  "i'm",
  'im',
  'me',
  'my',
  'need',
  'want',
  'feel',
  'get',
  'find',
  'looking',
  'tonight',
  'today',
  'now',
  'urgent',
  'urgently',
  'please',
  'near',
  'nearby',
  'local',
  'much',
  'very',
  'really',
  'lot',
  'lots',
  'many',
  'so',
] as const;

// The filler filter sees stemmed tokens: the stems of the words above that differ from them.
export const FILLER_STEMS = ['look', 'urgentli', 'pleas', 'nearbi', 'veri', 'realli', 'mani'] as const;

/**
 * The filler filter of the search analyzer. Search-time only, so a vocabulary reload (which clones
 * the served indices) sets it too: indices built by an earlier version then drop today's words.
 */
export const FILLER_FILTER = 'hsds_filler';
export const fillerFilterSettings = {
  type: 'stop',
  stopwords: [...FILLER_WORDS, ...FILLER_STEMS],
} as const;

/** The synonym filter's settings for a list of rules (Solr format, one rule a line). */
export function synonymFilterSettings(rules: readonly string[]) {
  return {
    // An empty rule list is refused by the engine; a rule that can never match stands in for none.
    type: 'synonym_graph',
    synonyms: rules.length > 0 ? [...rules] : ['hsdsnosynonyms => hsdsnosynonyms'],
    // A rule whose words analyse to nothing (all stop words) is skipped rather than failing the index.
    lenient: true,
  } as const;
}

/**
 * A noun or adjective made of a verb and a particle ("drop-in", "walk-in", "top-up", "one-off")
 * is split at the hyphen by the tokenizer, and its particle is a stop word ("in", "on") or says
 * little, so "walk-in centre" was read as "walk ... centre": every rule pointing at walk-in centres
 * also found "Health Walks". It is also read as one word ("walk-in" as "walkin walk in"), which the
 * vocabulary points to (`walk in => walkin`); the words apart still match as before. Not between
 * two hyphens, so place names such as "Stoke-on-Trent" are left alone.
 */
const PARTICLE_COMPOUNDS = 'hsds_particle_compounds';
const particleCompoundsSettings = {
  type: 'pattern_replace',
  pattern: '(?<![\\p{L}\\p{N}-])(\\p{L}+)-(in|on|up|out|off)(?![\\p{L}\\p{N}-])',
  replacement: '$1$2 $1 $2',
  flags: 'CASE_INSENSITIVE',
} as const;

/**
 * The settings of a read index: the shared analyzers plus the search analyzer with the given
 * vocabulary (see above). The records store needs no search analyzer (`analysisSettings`).
 */
export function readIndexAnalysisSettings(rules: readonly string[]) {
  const { analysis } = analysisSettings;
  const charFilter = [PARTICLE_COMPOUNDS];
  return {
    analysis: {
      ...analysis,
      char_filter: { [PARTICLE_COMPOUNDS]: particleCompoundsSettings },
      filter: {
        ...analysis.filter,
        [SYNONYM_FILTER]: synonymFilterSettings(rules),
        [FILLER_FILTER]: fillerFilterSettings,
      },
      analyzer: {
        hsds_english: { ...analysis.analyzer.hsds_english, char_filter: charFilter },
        hsds_exact: { ...analysis.analyzer.hsds_exact, char_filter: charFilter },
        [SEARCH_ANALYZER]: {
          type: 'custom',
          tokenizer: 'standard',
          char_filter: charFilter,
          // Stemming before the vocabulary: its rules are parsed by the filters before it, so they
          // are written in plain words and match every form ("food banks" meets "food bank").
          // Stop words after it: the parser refuses a rule with a gap where a stop word was, and
          // needs such as "somewhere to sleep" hold them. Filler words go there too (see below).
          filter: [
            'hsds_english_possessive',
            'lowercase',
            'asciifolding',
            'hsds_english_stemmer',
            SYNONYM_FILTER,
            'hsds_english_stop',
            FILLER_FILTER,
          ],
        },
      },
    },
  };
}

/** A searchable text field: stemmed, with an unstemmed `.exact` twin and a `.sort` keyword. */
export const searchableText = {
  type: 'text',
  analyzer: 'hsds_english',
  search_analyzer: SEARCH_ANALYZER,
  fields: {
    exact: { type: 'text', analyzer: 'hsds_exact' },
    sort: { type: 'keyword', normalizer: 'hsds_sort', ignore_above: 256 },
  },
} as const;

/** Stemmed text without the name twins (descriptions, alternate names). */
export const stemmedText = {
  type: 'text',
  analyzer: 'hsds_english',
  search_analyzer: SEARCH_ANALYZER,
} as const;

export const keyword = { type: 'keyword' } as const;
/**
 * Completion inputs (GET /suggest): an in-memory automaton per shard, so a prefix answers in about
 * a millisecond however many services there are. `simple`: lower case, split at non-letters.
 */
export const completion = {
  type: 'completion',
  analyzer: 'simple',
  preserve_separators: true,
  max_input_length: 60,
} as const;
export const date = { type: 'date', format: 'strict_date_optional_time||epoch_millis' } as const;
/** The record as the API returns it: kept in _source, never indexed (the mapping stays small). */
export const storedOnly = { type: 'object', enabled: false } as const;
