/**
 * Which words of a search the served services hold as typed (index-mapping/held-words.query.ts),
 * in one `_mtermvectors` request. With several shards the statistics are those of the shard the
 * artificial documents go to: a word held only in other shards is then taken as not held, and
 * keeps its typo expansion (a search as it was before words were looked up).
 */
import { heldWordsBody, heldWordsOf } from '../index-mapping/held-words.query.ts';
import { type Engine, engineCall } from './engine.ts';

/**
 * How long a look-up may take. It saves a search work, it is never what the search waits for: an
 * engine that does not answer this soon (a frozen engine, a long pause) leaves the words with their
 * typo expansion, and the search itself meets the read timeout once, not twice. A cold look-up of
 * a few words took 1-95 ms at 100,000 services on a loaded machine.
 */
export const HELD_WORDS_TIMEOUT_MS = 300;

export async function heldWords(
  engine: Engine,
  words: readonly string[],
  timeoutMs: number,
): Promise<Set<string>> {
  if (words.length === 0) return new Set();
  const { body } = await engineCall('look up search words', () =>
    engine.client.mtermvectors(
      { index: engine.name('services'), body: heldWordsBody(words) } as never,
      {
        requestTimeout: timeoutMs,
        maxRetries: 0,
      } as never,
    ),
  );
  return heldWordsOf(words, body);
}
