/**
 * A taxonomy term's descendants (its children, theirs, and so on), for a filter that includes
 * them (`include_child_terms`): read level by level from the served taxonomy_terms index.
 */
import { buildChildTermsSearch } from '../index-mapping/taxonomy-search.query.ts';
import type { Engine } from './engine.ts';
import { streamRecords } from './search.ts';

/**
 * Enough for any real taxonomy's branch (AIRS's largest top-level branch holds a few thousand
 * terms) while keeping a filter's `terms` list, and the look-up, bounded.
 */
export const MAX_DESCENDANTS = 5000;
/** A parent link that loops (a term its own ancestor) ends here, whatever the data says. */
const MAX_DEPTH = 12;

/** The ids of the terms below `id`, nearest first, at most MAX_DESCENDANTS; none when it has none. */
export async function descendantTermIds(engine: Engine, id: string): Promise<string[]> {
  const found = new Set<string>([id.toLowerCase()]);
  const out: string[] = [];
  let level = [id];
  for (let depth = 0; depth < MAX_DEPTH && level.length > 0 && out.length < MAX_DESCENDANTS; depth++) {
    const next: string[] = [];
    for await (const batch of streamRecords(engine, buildChildTermsSearch(level))) {
      for (const text of batch.texts) {
        const child = (JSON.parse(text) as { id?: unknown }).id;
        if (typeof child !== 'string' || found.has(child.toLowerCase())) continue;
        found.add(child.toLowerCase());
        next.push(child);
      }
    }
    out.push(...next);
    level = next;
  }
  return out.slice(0, MAX_DESCENDANTS);
}
