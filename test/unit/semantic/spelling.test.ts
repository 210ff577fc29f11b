import { describe, expect, it } from 'vitest';
import { correctText, correctWord, createLexicon } from '../../../src/semantic/spelling.ts';

// Words of the directory (needs, terms, vocabulary) and words the model knows as words.
const lexicon = createLexicon(
  [
    'counseling and counselling',
    'council tax',
    'suicide crisis line',
    'apprenticeships',
    'eviction',
    'pantry',
    'party',
  ],
  new Set(['council', 'food', 'bank', 'help', 'naloxone']),
);

describe('typo correction that knows the domain', () => {
  it('reads a misspelt word as the closest word of the directory, not the nearest English word', () => {
    expect(correctWord('counciling', lexicon)).toBe('counseling');
    expect(correctWord('sucide', lexicon)).toBe('suicide');
    expect(correctWord('apprentiships', lexicon)).toBe('apprenticeships');
    expect(correctText('eviciton help', lexicon)).toBe('eviction help');
  });

  it('leaves known words, short words and words with no single closest candidate alone', () => {
    expect(correctWord('council', lexicon)).toBeUndefined();
    expect(correctWord('naloxone', lexicon)).toBeUndefined();
    expect(correctWord('fod', lexicon)).toBeUndefined();
    // "panty" is one edit from both "pantry" and "party": no guess.
    expect(correctWord('panty', lexicon)).toBeUndefined();
    expect(correctWord('zzzzzzzz', lexicon)).toBeUndefined();
    expect(correctText('food bank', lexicon)).toBeUndefined();
  });
});
