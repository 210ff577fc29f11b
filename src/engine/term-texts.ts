/**
 * The served taxonomy terms' texts (id, name, description), for search by meaning
 * (src/semantic/understanding.ts), and what tells when they may have changed.
 */
import { buildTaxonomyTermSearch } from '../index-mapping/taxonomy-search.query.ts';
import type { Engine } from './engine.ts';
import { servedDataSignature } from './record-cache.ts';
import { streamRecords } from './search.ts';

export type TermText = { id: string; name: string; description: string | undefined };

/** Every served term, in id order; none when no taxonomy_terms index is served. */
export async function readTermTexts(engine: Engine): Promise<TermText[]> {
  const terms: TermText[] = [];
  for await (const batch of streamRecords(engine, buildTaxonomyTermSearch({}))) {
    for (const text of batch.texts) {
      const record = JSON.parse(text) as Record<string, unknown>;
      if (typeof record.id !== 'string' || typeof record.name !== 'string') continue;
      terms.push({
        id: record.id,
        name: record.name,
        description: typeof record.description === 'string' ? record.description : undefined,
      });
    }
  }
  return terms;
}

/** Changes whenever any served read index is written or swapped (terms among them). */
export const servedTermsVersion = (engine: Engine): Promise<string> => servedDataSignature(engine);
