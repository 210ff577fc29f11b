import { describe, expect, it } from 'vitest';
import {
  formatSyntheticUuid,
  hashSeed,
  IdSequence,
  SeededRandom,
} from '../../../src/synthetic/seeded-random.ts';

const UUID_V4 = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

const draws = (random: SeededRandom, n: number) => Array.from({ length: n }, () => random.uint32());

describe('hashSeed', () => {
  it('treats a number and its decimal string alike and tells other seeds apart', () => {
    expect(hashSeed(42)).toBe(hashSeed('42'));
    expect(hashSeed(42)).not.toBe(hashSeed(43));
    expect(hashSeed('demo')).not.toBe(hashSeed('Demo'));
  });
});

describe('SeededRandom', () => {
  it('repeats a stream for the same seed and stream number', () => {
    expect(draws(new SeededRandom(7, 3), 50)).toEqual(draws(new SeededRandom(7, 3), 50));
  });

  it('gives different streams for different seeds or stream numbers', () => {
    const base = draws(new SeededRandom(7, 3), 20);
    expect(draws(new SeededRandom(8, 3), 20)).not.toEqual(base);
    expect(draws(new SeededRandom(7, 4), 20)).not.toEqual(base);
  });

  it('keeps int() within its inclusive bounds and reaches both ends', () => {
    const random = new SeededRandom(1, 1);
    const seen = new Set<number>();
    for (let i = 0; i < 2000; i++) seen.add(random.int(2, 5));
    expect([...seen].sort()).toEqual([2, 3, 4, 5]);
  });

  it('samples distinct items and respects weights', () => {
    const random = new SeededRandom(1, 2);
    const picked = random.sample(['a', 'b', 'c', 'd', 'e'], 3);
    expect(new Set(picked).size).toBe(3);
    const counts = [0, 0];
    for (let i = 0; i < 10_000; i++) counts[random.weighted([9, 1])]!++;
    expect(counts[0]! / 10_000).toBeGreaterThan(0.85);
    expect(counts[0]! / 10_000).toBeLessThan(0.95);
  });
});

describe('formatSyntheticUuid', () => {
  it('is RFC 4122 version-4 shaped and deterministic', () => {
    const id = formatSyntheticUuid(hashSeed(1), 5, 9);
    expect(id).toMatch(UUID_V4);
    expect(formatSyntheticUuid(hashSeed(1), 5, 9)).toBe(id);
    expect(formatSyntheticUuid(hashSeed(2), 5, 9)).not.toBe(id);
  });

  it('never repeats across groups and sequence numbers', () => {
    const seen = new Set<string>();
    for (let group = 0; group < 300; group++) {
      const ids = new IdSequence(hashSeed('unique'), group);
      for (let n = 0; n < 300; n++) seen.add(ids.next());
    }
    expect(seen.size).toBe(90_000);
  });
});
