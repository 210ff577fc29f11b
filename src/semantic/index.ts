/**
 * Search by meaning: the public surface of src/semantic (embedder.ts, needs.ts, understanding.ts).
 */
import type { Logger } from 'pino';
import type { Config } from '../config.ts';
import type { Engine } from '../engine/engine.ts';
import { createEmbedder } from './embedder.ts';
import { shippedNeeds } from './needs.ts';
import { createUnderstanding, type Understanding } from './understanding.ts';

export type { Understanding } from './understanding.ts';

/**
 * The understanding a server searches with, as the configuration asks (SEARCH_MEANING,
 * CRISIS_TAXONOMY_TERMS); undefined when it is off, or when the model cannot be loaded (logged:
 * the server then searches by words alone rather than not at all).
 */
export async function openUnderstanding(
  config: Config,
  engine: Engine,
  logger: Logger,
): Promise<Understanding | undefined> {
  if (config.SEARCH_MEANING === 'off') return undefined;
  try {
    const started = Date.now();
    const understanding = await createUnderstanding({
      engine,
      embedder: await createEmbedder(),
      needs: shippedNeeds(),
      // The rules the engine handle was given at start (src/cli/runtime.ts), not read again.
      vocabulary: engine.settings.synonyms,
      settings: { crisisTerms: config.CRISIS_TAXONOMY_TERMS, cacheEntries: config.SEARCH_MEANING_CACHE },
    });
    logger.info({ ms: Date.now() - started }, 'search by meaning ready');
    return understanding;
  } catch (error) {
    logger.error({ err: error }, 'search by meaning is off: the embedding model could not be loaded');
    return undefined;
  }
}
