import { describe, expect, it } from 'vitest';
import { didYouMeanText, toCorrection } from '../../../src/index-mapping/did-you-mean.query.ts';
import {
  buildCompletionSuggest,
  buildNameSuggestBody,
  toPostcodePrefix,
  toSuggestField,
} from '../../../src/index-mapping/suggest.query.ts';

describe('toSuggestField', () => {
  it('offers a name from each of its words on, without markup', () => {
    expect(toSuggestField('Torry <b>Community</b> Foodbank')).toEqual({
      input: ['Torry Community Foodbank', 'Community Foodbank', 'Foodbank'],
    });
    expect(toSuggestField('Food & Drink - Help')?.input).toEqual([
      'Food & Drink - Help',
      'Drink - Help',
      'Help',
    ]);
    expect(toSuggestField('  ')).toBeUndefined();
    expect(toSuggestField(undefined)).toBeUndefined();
  });
});

describe('toPostcodePrefix', () => {
  it('reads the start of a UK postcode as the index keys it', () => {
    expect(toPostcodePrefix('ab')).toBe('AB');
    expect(toPostcodePrefix('ab10')).toBe('AB10');
    expect(toPostcodePrefix('AB101')).toBe('AB10 1');
    expect(toPostcodePrefix('ab10 1a')).toBe('AB10 1A');
    expect(toPostcodePrefix('sw1a 1aa')).toBe('SW1A 1AA');
  });

  it('is undefined for text that cannot start a postcode', () => {
    expect(toPostcodePrefix('food')).toBeUndefined();
    expect(toPostcodePrefix('12345')).toBeUndefined();
    expect(toPostcodePrefix('')).toBeUndefined();
  });
});

describe('buildCompletionSuggest', () => {
  it('forgives one typo from four characters only', () => {
    expect(JSON.stringify(buildCompletionSuggest('foo', 5))).not.toContain('fuzzy');
    expect(buildCompletionSuggest('food', 5)).toMatchObject({
      names: { prefix: 'food', completion: { fuzzy: { fuzziness: 1 }, skip_duplicates: true, size: 5 } },
    });
  });
});

describe('buildNameSuggestBody', () => {
  it('asks a read index for completions with their names, and no hits', () => {
    expect(buildNameSuggestBody('food', 5)).toEqual({
      size: 0,
      _source: ['record.name'],
      suggest: buildCompletionSuggest('food', 5),
    });
  });
});

describe('didYouMeanText', () => {
  it('bounds what a suggester is asked to correct, as typo forgiveness is bounded', () => {
    expect(didYouMeanText('Hawsing  Options')).toBe('hawsing options');
    expect(didYouMeanText('x'.repeat(25))).toBeUndefined();
    expect(didYouMeanText(Array.from({ length: 7 }, () => 'word').join(' '))).toBeUndefined();
    expect(didYouMeanText('')).toBeUndefined();
  });
});

describe('toCorrection', () => {
  const option = (text: string) => ({ text, score: 0.8, freq: 3 });
  it('replaces each word by its best suggestion, but never a word that analyses to nothing', () => {
    const suggest = {
      'name.exact': [
        { text: 'will', options: [option('walk')] },
        { text: 'hosing', options: [option('housing')] },
      ],
    };
    expect(toCorrection('will hosing', suggest)).toBe('will housing');
    expect(
      toCorrection('will', { 'name.exact': [{ text: 'will', options: [option('walk')] }] }),
    ).toBeUndefined();
  });
});
