import { describe, expect, it } from 'vitest';
import { SERVICE_TEXT_FIELDS } from '../../../src/index-mapping/service-search.query.ts';
import {
  countedWords,
  MATCH_NOTHING,
  MAX_FUZZY_WORD_CHARS,
  MAX_SEARCH_WORDS,
  parseSearch,
  relaxedRequiredWords,
  textQuery,
  typoTolerance,
} from '../../../src/index-mapping/text.query.ts';

describe('parseSearch', () => {
  it('splits words and quoted phrases', () => {
    expect(parseSearch('food "bank of scotland" aberdeen')).toEqual({
      text: 'food bank of scotland aberdeen',
      words: ['food', 'aberdeen'],
      phrases: ['bank of scotland'],
    });
  });

  it('treats an unmatched quote, operators and brackets as plain characters, not part of a word', () => {
    expect(parseSearch('"food AND (bank: OR -x')).toMatchObject({
      words: ['food', 'AND', 'bank', 'OR', 'x'],
      phrases: [],
    });
    expect(parseSearch('( ) : - " "" ***')).toEqual({ words: [], phrases: [], text: '' });
    // Inside a word, punctuation stays.
    expect(parseSearch("[drop-in] can't 24/7?").words).toEqual(['drop-in', "can't", '24/7']);
  });

  it('bounds long input instead of refusing it', () => {
    const parsed = parseSearch(Array.from({ length: 200 }, (_, i) => `w${i}`).join(' '));
    expect(parsed.words).toHaveLength(MAX_SEARCH_WORDS);
    expect(parseSearch('x'.repeat(100_000)).words[0]).toHaveLength(500);
  });
});

describe('textQuery', () => {
  it('is absent without a search or with a blank one (a listing), and matches nothing without a searchable word', () => {
    expect(textQuery(undefined, SERVICE_TEXT_FIELDS)).toBeUndefined();
    expect(textQuery('   ', SERVICE_TEXT_FIELDS)).toBeUndefined();
    for (const text of ['  :: ', 'the', 'of and', 'I need', '!!!', '😀'])
      expect(textQuery(text, SERVICE_TEXT_FIELDS), text).toEqual(MATCH_NOTHING);
    // A quoted phrase is searchable, whatever its words.
    expect(textQuery('"the the"', SERVICE_TEXT_FIELDS)).not.toEqual(MATCH_NOTHING);
  });

  it('relaxes a search of three words or more to half of them, never one of one or two words', () => {
    expect([1, 2, 3, 4, 5, 6].map(relaxedRequiredWords)).toEqual([undefined, undefined, 2, 2, 3, 3]);
    expect(countedWords('I need somewhere to sleep tonight')).toBe(2);
    expect(countedWords('the')).toBe(1);
  });

  it('requires each word (stemmed, or one typo in names) and each quoted phrase; boosts the whole input as a name phrase', () => {
    expect(textQuery('counselling "young people"', SERVICE_TEXT_FIELDS)).toMatchInlineSnapshot(`
      {
        "bool": {
          "must": [
            {
              "multi_match": {
                "fields": [
                  "name.exact^4",
                  "alternate_name^2",
                  "organization_name.exact^2",
                  "taxonomy_term_names.exact^2",
                  "description",
                ],
                "query": "young people",
                "type": "phrase",
              },
            },
            {
              "bool": {
                "minimum_should_match": 1,
                "should": [
                  {
                    "dis_max": {
                      "queries": [
                        {
                          "multi_match": {
                            "fields": [
                              "name^4",
                              "alternate_name^2",
                              "organization_name^2",
                              "taxonomy_term_names^2",
                              "description",
                              "taxonomy_term_descriptions^0.3",
                            ],
                            "operator": "and",
                            "query": "counselling",
                            "tie_breaker": 0.6,
                            "type": "best_fields",
                            "zero_terms_query": "all",
                          },
                        },
                        {
                          "multi_match": {
                            "boost": 0.6,
                            "fields": [
                              "name.exact^4",
                              "organization_name.exact^2",
                              "taxonomy_term_names.exact^2",
                              "description^0.5",
                              "taxonomy_term_descriptions^0.3",
                            ],
                            "fuzziness": 1,
                            "max_expansions": 50,
                            "operator": "and",
                            "prefix_length": 0,
                            "query": "counselling",
                            "tie_breaker": 0.6,
                            "type": "best_fields",
                          },
                        },
                      ],
                    },
                  },
                ],
              },
            },
          ],
          "should": [
            {
              "multi_match": {
                "boost": 2,
                "fields": [
                  "name.exact^4",
                  "organization_name.exact^2",
                ],
                "query": "counselling young people",
                "type": "phrase",
              },
            },
          ],
        },
      }
    `);
  });

  it('requires 75% of the words beyond two, or the words together through the vocabulary', () => {
    type Bool = { bool: { minimum_should_match: unknown; should: unknown[] } };
    const query = textQuery('food bank harbour street aberdeen', SERVICE_TEXT_FIELDS) as {
      bool: { must: Bool[] };
    };
    const [eachWord, together] = (query.bool.must[0] as Bool).bool.should as [Bool, unknown];
    expect(eachWord.bool.minimum_should_match).toBe('75%');
    expect(eachWord.bool.should).toHaveLength(5);
    expect(together).toEqual({
      multi_match: expect.objectContaining({ query: 'food bank harbour street aberdeen', operator: 'and' }),
    });
  });

  it('sends the words together through the vocabulary on fewer fields than each word (each field expands the rules once more)', () => {
    type Bool = { bool: { should: { multi_match: { fields: string[] } }[] } };
    const query = textQuery('somewhere to sleep', SERVICE_TEXT_FIELDS) as { bool: { must: Bool[] } };
    const together = (query.bool.must[0] as Bool).bool.should[1]!;
    expect(together.multi_match.fields).toEqual([
      'name^4',
      'taxonomy_term_names^2',
      'description',
      'taxonomy_term_descriptions^0.3',
    ]);
    expect(together.multi_match.fields.length).toBeLessThan(SERVICE_TEXT_FIELDS.stemmed.length);
    // Without its own list, a kind of record uses its stemmed fields.
    const plain = textQuery('somewhere to sleep', { ...SERVICE_TEXT_FIELDS, vocabulary: undefined }) as {
      bool: { must: Bool[] };
    };
    expect((plain.bool.must[0] as Bool).bool.should[1]!.multi_match.fields).toEqual(
      SERVICE_TEXT_FIELDS.stemmed,
    );
  });

  it('does not count stop words and filler words among the words required', () => {
    type Bool = { bool: { minimum_should_match: unknown; should: unknown[] } };
    const eachWordOf = (search: string) =>
      ((textQuery(search, SERVICE_TEXT_FIELDS) as { bool: { must: Bool[] } }).bool.must[0]?.bool.should[0] ??
        {}) as Bool;
    const needs = eachWordOf('I need somewhere to sleep tonight');
    expect(needs.bool.should).toHaveLength(2);
    expect(needs.bool.minimum_should_match).toBe(2);
    // In any form the engine's stemmer brings back to a filler word: "needs" is "need", dropped.
    const car = eachWordOf('my car needs an MOT');
    expect(car.bool.should).toHaveLength(2);
    expect(car.bool.minimum_should_match).toBe(2);
  });

  it('matches nothing for filler words in any form, not the whole directory', () => {
    for (const text of ['needs', 'wanted', 'feeling', 'getting looked', "need's"])
      expect(textQuery(text, SERVICE_TEXT_FIELDS), text).toEqual(MATCH_NOTHING);
    for (const text of ['food', 'news', 'needle', 'feelings of anxiety'])
      expect(textQuery(text, SERVICE_TEXT_FIELDS), text).not.toEqual(MATCH_NOTHING);
  });

  it('forgives one typo from three letters, with the first letter right below five', () => {
    expect(typoTolerance('gp')).toBeUndefined();
    expect(typoTolerance('fod')).toEqual({ fuzziness: 1, prefix_length: 1 });
    expect(typoTolerance('dept')).toEqual({ fuzziness: 1, prefix_length: 1 });
    expect(typoTolerance('advise')).toEqual({ fuzziness: 1, prefix_length: 0 });
  });

  it('forgives typos in words up to MAX_FUZZY_WORD_CHARS only: a longer word matches exactly, cheaply', () => {
    const fuzzyClauses = (search: string) =>
      JSON.stringify(textQuery(search, SERVICE_TEXT_FIELDS)).split('fuzziness').length - 1;
    expect(fuzzyClauses('x'.repeat(MAX_FUZZY_WORD_CHARS))).toBe(1);
    expect(fuzzyClauses('x'.repeat(MAX_FUZZY_WORD_CHARS + 1))).toBe(0);
    expect(fuzzyClauses(`food ${'x'.repeat(400)} bank`)).toBe(2);
    // The long word is still required, on the stemmed fields.
    expect(JSON.stringify(textQuery('x'.repeat(500), SERVICE_TEXT_FIELDS))).toContain('x'.repeat(500));
  });
});
