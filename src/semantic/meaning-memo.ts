/**
 * What recent search texts meant, remembered (issue 53): a text asked again costs no embedding, no
 * correction and no comparison with the needs and terms. A popular search is asked many times a
 * second; sixteen people asking it at once share one understanding (the pending answer is kept).
 *
 * An answer is kept while the served terms it was worked out against are still those served
 * (`version`, the understanding's own check of the served data) and for at most MEANING_TTL_MS,
 * so an answer worked out while the engine could not say which words it holds (held-words.ts)
 * is worked out again soon. Least recently used first out.
 */
import type { Meaning } from '../index-mapping/meaning.query.ts';

/** How long a remembered meaning is served at most. */
export const MEANING_TTL_MS = 60_000;

type Kept = { meaning: Promise<Meaning | undefined>; version: string | undefined; at: number };

export function rememberedMeanings(
  understand: (text: string) => Promise<Meaning | undefined>,
  options: { entries: number; version: () => string | undefined; now?: () => number },
): (text: string) => Promise<Meaning | undefined> {
  const now = options.now ?? Date.now;
  const kept = new Map<string, Kept>();
  if (options.entries <= 0) return understand;
  return (text) => {
    const version = options.version();
    const had = kept.get(text);
    if (had) {
      kept.delete(text);
      if (had.version === version && now() - had.at < MEANING_TTL_MS) {
        kept.set(text, had);
        return had.meaning;
      }
    }
    const meaning = understand(text);
    // A failure is not remembered: the next search tries again.
    meaning.catch(() => {
      if (kept.get(text)?.meaning === meaning) kept.delete(text);
    });
    if (kept.size >= options.entries) kept.delete(kept.keys().next().value as string);
    kept.set(text, { meaning, version, at: now() });
    return meaning;
  };
}
