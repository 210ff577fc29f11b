import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { drawSearches, shuffledBy, vocabularyOf } from '../../../bench/lib/fresh-searches.ts';

const vocabulary = {
  words: ['food', 'advice', 'debt', 'housing', 'youth', 'carers', 'legal', 'health'],
  servicesHolding: [80, 40, 30, 20, 10, 5, 3, 1],
};

describe('fresh searches (bench:compare, issue 53)', () => {
  it('draws distinct texts of the asked number of words, no word twice in a text', () => {
    const texts = drawSearches(vocabulary, { count: 20, words: { min: 2, max: 2 }, seed: 3 });
    expect(texts).toHaveLength(20);
    expect(new Set(texts).size).toBe(20);
    for (const text of texts) {
      const words = text.split(' ');
      expect(words).toHaveLength(2);
      expect(new Set(words).size).toBe(2);
      for (const w of words) expect(vocabulary.words).toContain(w);
    }
  });

  it('is the same for a seed and another for another seed', () => {
    const draw = (seed: number) => drawSearches(vocabulary, { count: 10, words: { min: 1, max: 4 }, seed });
    expect(draw(11)).toEqual(draw(11));
    expect(draw(11)).not.toEqual(draw(12));
    for (const text of draw(11)) expect(text.split(' ').length).toBeLessThanOrEqual(4);
  });

  it('stops at the distinct texts a small vocabulary holds', () => {
    const tiny = { words: ['food', 'debt'], servicesHolding: [1, 1] };
    expect(drawSearches(tiny, { count: 50, words: { min: 1, max: 1 }, seed: 5 }).sort()).toEqual([
      'debt',
      'food',
    ]);
  });

  it('reads the words services hold, commonest first, leaving out rare and empty words', async () => {
    const file = join(mkdtempSync(join(tmpdir(), 'fresh-')), 'services.ndjson');
    const lines = [
      { name: 'Food bank', description: 'Free food and advice for families' },
      { name: 'Debt advice', description: 'Advice with debt, and food vouchers' },
      { name: 'Youth club', description: 'For the youth' },
    ];
    writeFileSync(file, lines.map((l) => JSON.stringify(l)).join('\n'));
    const v = await vocabularyOf(file, { minServices: 2 });
    // A word counts once a service, however often the service says it.
    expect(v.words).toEqual(['food', 'advice']);
    expect(v.servicesHolding).toEqual([2, 2]);
  });

  it('shuffles a copy, the same for a seed', () => {
    const items = [1, 2, 3, 4, 5, 6];
    expect(shuffledBy(items, 9)).toEqual(shuffledBy(items, 9));
    expect([...shuffledBy(items, 9)].sort()).toEqual(items);
    expect(items).toEqual([1, 2, 3, 4, 5, 6]);
  });
});
