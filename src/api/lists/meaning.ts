/**
 * What a list's `search` means beside its words (src/semantic/understanding.ts, given as
 * AppDeps.understanding). Without an understanding, or when it fails, a search is by its words
 * alone: meaning widens a search, it is never what makes one answer.
 */
import type { Meaning } from '../../index-mapping/meaning.query.ts';
import type { AppContext } from '../types.ts';

export async function meaningOf(c: AppContext, search: string | undefined): Promise<Meaning | undefined> {
  const { understanding, logger } = c.get('deps');
  if (!understanding || search === undefined || search.trim() === '') return undefined;
  try {
    return await understanding.understand(search);
  } catch (error) {
    logger.warn({ err: error }, 'search by meaning failed; searching by the words alone');
    return undefined;
  }
}
