import { describe, expect, it } from 'vitest';
import { scoreQuery } from '../../../bench/relevance/metrics.ts';
import {
  betterOfTwo,
  fuseRankings,
  isSentence,
  rankByMeaning,
} from '../../../bench/relevance/service-meaning.ts';

describe('bench:relevance --service-meaning', () => {
  it('ranks services by similarity, ties by key so that runs repeat', () => {
    const similarities = new Map([
      ['shelter', 0.4],
      ['food-bank', 0.7],
      ['crisis-line', 0.4],
    ]);
    expect(rankByMeaning(similarities)).toEqual(['food-bank', 'crisis-line', 'shelter']);
  });

  it('puts a service both rankings hold above one that only one holds', () => {
    const fused = fuseRankings(['a', 'b', 'c'], ['c', 'x', 'y'], { k: 10, depth: 2 });
    expect(fused[0]).toBe('c');
    expect(fused).toContain('x');
    // Only the first `depth` services by meaning join the page.
    expect(fused).not.toContain('y');
    expect(new Set(fused).size).toBe(fused.length);
  });

  it('keeps a query search finds nothing for empty: fusion adds no false positive', () => {
    expect(fuseRankings([], ['a', 'b'])).toEqual([]);
  });

  it('takes, per query, the better-scoring ranking', () => {
    const judgment = { query: 'food', class: 'lay', grades: { 'food-bank': 2 } };
    const miss = scoreQuery(judgment, ['shelter'], 1);
    const hit = scoreQuery(judgment, ['food-bank'], 1);
    expect(betterOfTwo(miss, hit)).toBe(hit);
    expect(betterOfTwo(hit, miss)).toBe(hit);
  });

  it('fuses only queries of three words or more in its sentences ranking', () => {
    expect(isSentence('AA')).toBe(false);
    expect(isSentence('  food bank ')).toBe(false);
    expect(isSentence('nowhere to sleep')).toBe(true);
  });
});
