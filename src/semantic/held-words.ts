/**
 * Which words of a search the directory holds as typed (src/engine/held-words.ts), remembered:
 * what people type repeats (a few hundred words make most searches), so after its first search a
 * word costs nothing. Cleared whenever the served data changes (understanding.ts checks that every
 * few seconds), so a word a publish brings or takes is looked up again.
 *
 * Why (issues 31 and 33): a typo expansion of a word the directory holds finds other words, not
 * the one meant ("car" becomes "care"), and it was about half of a common word's engine time at
 * 100,000 services ("help" 14 ms with it, 7 without), growing with the directory. Measured with
 * the judged sets (npm run bench:relevance), words looked up in each set's own corpus: development
 * set unchanged; held-out 0.794 -> 0.803, false positives 22% -> 17%.
 */
import type { Engine } from '../engine/engine.ts';
import { HELD_WORDS_TIMEOUT_MS, heldWords } from '../engine/held-words.ts';

export type HeldWords = {
  /** Those of the words the directory holds; none when the engine cannot say. */
  held(words: readonly string[]): Promise<Set<string>>;
  /** Forgets every answer (the served data changed). */
  clear(): void;
};

/** After a look-up fails, searches do without for this long (an engine in trouble is not asked twice a search). */
const PAUSE_AFTER_FAILURE_MS = 5_000;

export function createHeldWords(
  engine: Engine,
  options: { entries?: number; timeoutMs?: number } = {},
): HeldWords {
  const entries = options.entries ?? 50_000;
  const timeoutMs = options.timeoutMs ?? HELD_WORDS_TIMEOUT_MS;
  let known = new Map<string, boolean>();
  let pausedUntil = 0;
  return {
    async held(words) {
      const asked = [...new Set(words.map((w) => w.toLowerCase()))];
      const unknown = asked.filter((w) => !known.has(w));
      if (unknown.length > 0 && Date.now() >= pausedUntil) {
        let found: Set<string>;
        try {
          found = await heldWords(engine, unknown, timeoutMs);
        } catch (error) {
          // Not knowing keeps every typo expansion: the search as it was before words were looked up.
          pausedUntil = Date.now() + PAUSE_AFTER_FAILURE_MS;
          engine.logger.warn({ err: error }, 'search words not looked up; each keeps its typo expansion');
          return new Set(asked.filter((w) => known.get(w)));
        }
        if (known.size + unknown.length > entries) known = new Map();
        for (const word of unknown) known.set(word, found.has(word));
      }
      return new Set(asked.filter((w) => known.get(w)));
    },
    clear() {
      known = new Map();
    },
  };
}
