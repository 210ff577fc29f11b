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

describe('a word corrected once', () => {
  /** A lexicon whose words count how often they are walked (each walk compares the word with all). */
  const countingLexicon = (words: string[]) => {
    const base = createLexicon(words, new Set());
    let walks = 0;
    const counted = new Set(base.words);
    const iterate = counted[Symbol.iterator].bind(counted);
    counted[Symbol.iterator] = () => {
      walks += 1;
      return iterate();
    };
    return { lexicon: { ...base, words: counted }, walks: () => walks };
  };

  it('costs nothing the next time, answer or none, until the lexicon changes (issue 53)', () => {
    const { lexicon: counting, walks } = countingLexicon(['eviction', 'pantry']);
    expect(correctWord('evction', counting)).toBe('eviction');
    expect(correctWord('Evction', counting)).toBe('eviction');
    expect(correctWord('tillydrone', counting)).toBeUndefined();
    expect(correctWord('tillydrone', counting)).toBeUndefined();
    expect(walks()).toBe(2);
    // Another lexicon (the served terms changed) works it out again.
    const other = countingLexicon(['eviction', 'tillydrone']);
    expect(correctWord('tillydrone', other.lexicon)).toBeUndefined();
    expect(correctWord('tillydrones', other.lexicon)).toBe('tillydrone');
    expect(other.walks()).toBe(1);
  });
});
