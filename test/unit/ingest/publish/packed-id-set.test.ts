import { describe, expect, it } from 'vitest';
import { PackedIdSet } from '../../../../src/ingest/publish/packed-id-set.ts';

/** A small seeded generator, so a failure can be replayed. */
function random(seed: number) {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 2 ** 32;
  };
}

const uuidLike = (next: () => number) =>
  Array.from({ length: 32 }, () => Math.floor(next() * 16).toString(16))
    .join('')
    .replace(/^(.{8})(.{4})(.{4})(.{4})/, '$1-$2-$3-$4-');

const byBytes = (a: string, b: string) => Buffer.compare(Buffer.from(a), Buffer.from(b));

describe('PackedIdSet', () => {
  it('answers as a Set does for ids in the order a grouped build writes them, across chunks', () => {
    const next = random(7);
    const ids = Array.from({ length: 5_000 }, () => uuidLike(next)).sort(byBytes);
    const packed = new PackedIdSet();
    for (const id of ids) packed.add(id);
    expect(packed.size).toBe(new Set(ids).size);
    // 5,000 ids of 36 bytes fill three 64 KiB chunks: every one is found, and nothing else is.
    for (const id of ids) expect(packed.has(id)).toBe(true);
    for (let i = 0; i < 2_000; i++) {
      const other = uuidLike(next);
      expect(packed.has(other)).toBe(ids.includes(other));
    }
    expect(packed.has(`${ids[10]}x`)).toBe(false);
    expect(packed.has((ids[10] as string).slice(0, 35))).toBe(false);
  });

  it('keeps ids that arrive out of order or again, counting each id once', () => {
    const next = random(11);
    const reference = new Set<string>();
    const packed = new PackedIdSet();
    // Mostly ascending runs, with ids from anywhere and repeats mixed in.
    let run = Array.from({ length: 300 }, () => uuidLike(next)).sort(byBytes);
    for (let i = 0; i < 3_000; i++) {
      if (run.length === 0) run = Array.from({ length: 300 }, () => uuidLike(next)).sort(byBytes);
      const pick = next();
      const id =
        pick < 0.1 && reference.size > 0
          ? ([...reference][Math.floor(next() * reference.size)] as string)
          : pick < 0.2
            ? uuidLike(next)
            : (run.shift() as string);
      reference.add(id);
      packed.add(id);
      expect(packed.size).toBe(reference.size);
    }
    for (const id of reference) expect(packed.has(id)).toBe(true);
    for (let i = 0; i < 1_000; i++) {
      const other = uuidLike(next);
      expect(packed.has(other)).toBe(reference.has(other));
    }
  });

  it('orders by UTF-8 bytes, as the engine sorts keywords, and keeps any id whatever its characters', () => {
    // UTF-16 puts U+FF61 after the surrogates of U+1F600; UTF-8 puts it before.
    const ids = ['', 'a', 'ab', 'b', 'é', '\uff61', '\u{1f600}', 'organisation:1'];
    const packed = new PackedIdSet();
    for (const id of [...ids].sort(byBytes)) packed.add(id);
    for (const id of ids) expect(packed.has(id)).toBe(true);
    expect(packed.size).toBe(ids.length);
    for (const id of ['abc', 'A', '\uff62', '\u{1f601}', ' ']) expect(packed.has(id)).toBe(false);
  });

  it('keeps an id longer than a chunk', () => {
    const long = 'x'.repeat(70_000);
    const packed = new PackedIdSet();
    packed.add('a').add(long).add('y');
    expect(packed.has(long)).toBe(true);
    expect(packed.has(long.slice(1))).toBe(false);
    expect(packed.has('y')).toBe(true);
    expect(packed.size).toBe(3);
  });
});
