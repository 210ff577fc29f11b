/**
 * The served taxonomy terms' texts (id, name, description, parent and code), for search by meaning
 * (src/semantic/understanding.ts), and what tells when they may have changed.
 */
import { buildTaxonomyTermSearch } from '../index-mapping/taxonomy-search.query.ts';
import type { Engine } from './engine.ts';
import { servedDataSignature } from './record-cache.ts';
import { streamRecords } from './search.ts';

export type TermText = {
  id: string;
  name: string;
  description: string | undefined;
  /** Where the term sits (src/semantic/term-branches.ts): its publisher's parent and its code. */
  parentId?: string | undefined;
  code?: string | undefined;
};

const present = (value: unknown) => (typeof value === 'string' && value !== '' ? value : undefined);

/**
 * The term's code: its own `code`, else the id its publisher gave it, which an import that mapped
 * a non-UUID id keeps in the record's metadata (`field_name: id`, `previous_value`): AIRS terms
 * of an HSDS 1.1 feed arrive with their codes as ids ("BD-1800.2250") and no `code`.
 */
export function termCode(record: Record<string, unknown>): string | undefined {
  const own = present(record.code);
  if (own) return own;
  if (!Array.isArray(record.metadata)) return undefined;
  for (const entry of record.metadata as unknown[]) {
    if (typeof entry !== 'object' || entry === null) continue;
    const { field_name, previous_value } = entry as Record<string, unknown>;
    if (field_name === 'id' && present(previous_value)) return previous_value as string;
  }
  return undefined;
}

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
        parentId: present(record.parent_id),
        code: termCode(record),
      });
    }
  }
  return terms;
}

/** Changes whenever any served read index is written or swapped (terms among them). */
export const servedTermsVersion = (engine: Engine): Promise<string> => servedDataSignature(engine);
