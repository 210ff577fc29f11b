import { describe, expect, it } from 'vitest';
import type { Meaning } from '../../../src/index-mapping/meaning.query.ts';
import { MEANING_TTL_MS, rememberedMeanings } from '../../../src/semantic/meaning-memo.ts';

const meaningOf = (text: string): Meaning => ({ needs: [], terms: [{ id: text, similarity: 0.5 }] });

/** An understanding that counts what it is asked. */
function counting() {
  const asked: string[] = [];
  const understand = async (text: string) => {
    asked.push(text);
    return meaningOf(text);
  };
  return { asked, understand };
}

describe('remembered meanings (issue 53)', () => {
  it('understands a text asked again once, and sixteen at once once', async () => {
    const { asked, understand } = counting();
    const remembered = rememberedMeanings(understand, { entries: 10, version: () => 'v1' });
    await Promise.all(Array.from({ length: 16 }, () => remembered('food bank')));
    expect(await remembered('food bank')).toEqual(meaningOf('food bank'));
    expect(asked).toEqual(['food bank']);
  });

  it('works a text out again when the served terms change or the answer is old', async () => {
    const { asked, understand } = counting();
    let version = 'v1';
    let clock = 0;
    const remembered = rememberedMeanings(understand, {
      entries: 10,
      version: () => version,
      now: () => clock,
    });
    await remembered('debt');
    version = 'v2';
    await remembered('debt');
    await remembered('debt');
    clock += MEANING_TTL_MS;
    await remembered('debt');
    expect(asked).toEqual(['debt', 'debt', 'debt']);
  });

  it('forgets the least recently used first, and never a failure', async () => {
    const asked: string[] = [];
    let fail = true;
    const remembered = rememberedMeanings(
      async (text) => {
        asked.push(text);
        if (text === 'broken' && fail) throw new Error('engine down');
        return meaningOf(text);
      },
      { entries: 2, version: () => 'v1' },
    );
    await remembered('a');
    await remembered('b');
    await remembered('a');
    await remembered('c');
    await remembered('a');
    await remembered('b');
    expect(asked).toEqual(['a', 'b', 'c', 'b']);
    await expect(remembered('broken')).rejects.toThrow('engine down');
    fail = false;
    expect(await remembered('broken')).toEqual(meaningOf('broken'));
  });

  it('remembers nothing with no entries', async () => {
    const { asked, understand } = counting();
    const remembered = rememberedMeanings(understand, { entries: 0, version: () => 'v1' });
    await remembered('food');
    await remembered('food');
    expect(asked).toEqual(['food', 'food']);
  });
});
