import { describe, expect, it } from 'vitest';
import { heldWordsBody, heldWordsOf } from '../../../src/index-mapping/held-words.query.ts';
import { withMeaning } from '../../../src/index-mapping/meaning.query.ts';
import { SERVICE_TEXT_FIELDS } from '../../../src/index-mapping/service-search.query.ts';
import { textQuery, typoWords } from '../../../src/index-mapping/text.query.ts';

/** The word of every typo-forgiving clause in a query. */
const fuzzyWords = (query: unknown): string[][] => {
  const found: string[][] = [];
  JSON.stringify(query, (_, value: { fuzziness?: unknown; fields?: string[]; query?: string }) => {
    if (value && typeof value === 'object' && value.fuzziness !== undefined) found.push([value.query!]);
    return value;
  });
  return found;
};

describe('held words', () => {
  it('asks for one artificial document a word, with term statistics, over names and descriptions', () => {
    const body = heldWordsBody(['car', 'cloths']);
    expect(body.docs).toHaveLength(2);
    expect(body.docs[0]!.doc).toEqual({
      name: 'car',
      organization_name: 'car',
      taxonomy_term_names: 'car',
      description: 'car',
    });
    expect(body.docs[0]!.term_statistics).toBe(true);
  });

  it('reads a word as held when some field holds every term it analyses to', () => {
    const answer = {
      docs: [
        { term_vectors: { 'name.exact': { terms: { car: { doc_freq: 3, term_freq: 1 } } } } },
        {
          term_vectors: {
            'name.exact': { terms: { cloths: { term_freq: 1 } } },
            description: { terms: { cloth: { doc_freq: 12, term_freq: 1 } } },
          },
        },
        { term_vectors: { description: { terms: { wi: { doc_freq: 2 }, fi: { term_freq: 1 } } } } },
        { term_vectors: { description: { terms: { zzqx: { term_freq: 1 } } } } },
        {},
      ],
    };
    expect(heldWordsOf(['car', 'cloths', 'wi-fi', 'zzqx', 'the'], answer)).toEqual(
      new Set(['car', 'cloths']),
    );
  });

  it('lists the words a typo is forgiven in, lower case, once', () => {
    expect(typoWords('Car CAR to the GP "food bank" dept')).toEqual(['car', 'dept']);
  });

  it('leaves a held word without its typo expansion, and the others with theirs', () => {
    const all = textQuery('car scheme', SERVICE_TEXT_FIELDS);
    const held = textQuery('Car scheme', SERVICE_TEXT_FIELDS, { heldWords: new Set(['car']) });
    expect(fuzzyWords(all)).toEqual([['car'], ['scheme']]);
    expect(fuzzyWords(held)).toEqual([['scheme']]);
  });

  it('adds nothing to the words when a meaning only says which words are held', () => {
    const words = textQuery('car', SERVICE_TEXT_FIELDS, { heldWords: new Set(['car']) });
    expect(withMeaning(words, { needs: [], terms: [], heldWords: ['car'] }, SERVICE_TEXT_FIELDS)).toBe(words);
  });
});
