/**
 * Index settings shared by every read index: the analyzers search relies on.
 *
 * - `hsds_english`: stems English ("counselling" finds "counsellor"), folds accents, drops
 *   possessives and stop words. The main recall field.
 * - `hsds_exact`: lower-cased, accent-folded words, no stemming: name matches rank on it, fuzzy
 *   matching runs on it (fuzzing stems gives odd hits), and quoted phrases are precise on it.
 * - `hsds_sort`: a keyword normalizer so sorting and exact filters ignore case.
 */
export const analysisSettings = {
  analysis: {
    filter: {
      hsds_english_stop: { type: 'stop', stopwords: '_english_' },
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

/** A searchable text field: stemmed, with an unstemmed `.exact` twin and a `.sort` keyword. */
export const searchableText = {
  type: 'text',
  analyzer: 'hsds_english',
  fields: {
    exact: { type: 'text', analyzer: 'hsds_exact' },
    sort: { type: 'keyword', normalizer: 'hsds_sort', ignore_above: 256 },
  },
} as const;

export const keyword = { type: 'keyword' } as const;
export const date = { type: 'date', format: 'strict_date_optional_time||epoch_millis' } as const;
/** The record as the API returns it: kept in _source, never indexed (the mapping stays small). */
export const storedOnly = { type: 'object', enabled: false } as const;
