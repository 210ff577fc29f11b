/**
 * Which words of a search the served services hold as typed (index-mapping/held-words.query.ts),
 * in one `_mtermvectors` request. With several shards the statistics are those of the shard the
 * artificial documents go to: a word held only in other shards is then taken as not held, and
 * keeps its typo expansion (a search as it was before words were looked up).
 */
import { heldWordsBody, heldWordsOf } from '../index-mapping/held-words.query.ts';
import { type Engine, engineCall } from './engine.ts';

export async function heldWords(engine: Engine, words: readonly string[]): Promise<Set<string>> {
  if (words.length === 0) return new Set();
  const { body } = await engineCall('look up search words', () =>
    engine.client.mtermvectors({ index: engine.name('services'), body: heldWordsBody(words) } as never),
  );
  return heldWordsOf(words, body);
}
