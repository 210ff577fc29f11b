/**
 * The served taxonomy as a tree (each term's parent and taxonomy), for filters that include the
 * terms below the one asked for (`include_child_terms`). The whole tree is read in one search:
 * terms are few (the AIRS taxonomy, the largest in use, has about 9,000; one page of the engine's
 * result window holds 10,000), and a walk level by level cost a search per level, each inside a
 * point in time. The API keeps the tree until the served data changes.
 */
import { buildTermTreePageBody, TERM_TREE_PAGE } from '../index-mapping/taxonomy-search.query.ts';
import { type Engine, engineCall } from './engine.ts';
import { EngineNotFoundError } from './errors.ts';

/**
 * Enough for any real taxonomy's branch (AIRS's largest top-level branch holds a few thousand
 * terms) while keeping a filter's `terms` list bounded.
 */
export const MAX_DESCENDANTS = 5000;
/** A parent link that loops (a term its own ancestor) ends here, whatever the data says. */
const MAX_DEPTH = 12;

type TermRow = { id: string; parentId?: string | undefined; taxonomyId?: string | undefined };

/** Children and taxonomies by lower-cased id (ids are matched in any case, as filters match them). */
export type TermTree = {
  children: ReadonlyMap<string, readonly string[]>;
  taxonomyOf: ReadonlyMap<string, string>;
  byTaxonomy: ReadonlyMap<string, readonly string[]>;
};

/** The tree of these terms. Pure. */
export function termTreeOf(rows: readonly TermRow[]): TermTree {
  const children = new Map<string, string[]>();
  const taxonomyOf = new Map<string, string>();
  const byTaxonomy = new Map<string, string[]>();
  for (const { id, parentId, taxonomyId } of rows) {
    if (parentId) {
      const key = parentId.toLowerCase();
      const list = children.get(key) ?? [];
      list.push(id);
      children.set(key, list);
    }
    if (taxonomyId) {
      taxonomyOf.set(id.toLowerCase(), taxonomyId.toLowerCase());
      const key = taxonomyId.toLowerCase();
      const list = byTaxonomy.get(key) ?? [];
      list.push(id);
      byTaxonomy.set(key, list);
    }
  }
  return { children, taxonomyOf, byTaxonomy };
}

/** The ids of the terms below any of `ids` (not `ids` themselves), nearest first, at most MAX_DESCENDANTS. Pure. */
export function descendantsIn(tree: TermTree, ids: readonly string[]): string[] {
  const found = new Set(ids.map((id) => id.toLowerCase()));
  const out: string[] = [];
  let level = [...ids];
  for (let depth = 0; depth < MAX_DEPTH && level.length > 0 && out.length < MAX_DESCENDANTS; depth++) {
    const next: string[] = [];
    for (const parent of level) {
      for (const child of tree.children.get(parent.toLowerCase()) ?? []) {
        if (found.has(child.toLowerCase())) continue;
        found.add(child.toLowerCase());
        next.push(child);
      }
    }
    out.push(...next);
    level = next;
  }
  return out.slice(0, MAX_DESCENDANTS);
}

/**
 * The terms below a taxonomy's terms that are not of that taxonomy themselves (a child term that
 * names no taxonomy, or another one): a `taxonomy_id` filter already finds the rest. Pure.
 */
export function taxonomyDescendantsIn(tree: TermTree, taxonomyId: string): string[] {
  const own = tree.byTaxonomy.get(taxonomyId.toLowerCase()) ?? [];
  return descendantsIn(tree, own).filter(
    (id) => tree.taxonomyOf.get(id.toLowerCase()) !== taxonomyId.toLowerCase(),
  );
}

type TreeHit = {
  _source?: { record?: { id?: unknown }; parent_id?: unknown; taxonomy_id?: unknown };
  sort?: unknown[];
};

const text = (value: unknown) => (typeof value === 'string' && value !== '' ? value : undefined);

/**
 * The served taxonomy's tree: one search (a taxonomy beyond 10,000 terms takes one more per
 * 10,000). No served taxonomy_terms index reads as an empty tree.
 */
export async function readTermTree(engine: Engine): Promise<TermTree> {
  const rows: TermRow[] = [];
  let after: unknown[] | undefined;
  for (;;) {
    let hits: TreeHit[];
    try {
      const { body } = await engineCall('read the taxonomy tree', () =>
        engine.client.search({
          index: engine.name('taxonomy_terms'),
          filter_path: ['hits.hits._source', 'hits.hits.sort'],
          body: buildTermTreePageBody(TERM_TREE_PAGE, after),
        } as Record<string, unknown>),
      );
      hits = ((body as { hits?: { hits?: TreeHit[] } }).hits?.hits ?? []) as TreeHit[];
    } catch (error) {
      if (error instanceof EngineNotFoundError) break;
      throw error;
    }
    for (const hit of hits) {
      const id = text(hit._source?.record?.id);
      if (id)
        rows.push({ id, parentId: text(hit._source?.parent_id), taxonomyId: text(hit._source?.taxonomy_id) });
    }
    if (hits.length < TERM_TREE_PAGE) break;
    after = hits[hits.length - 1]?.sort;
  }
  return termTreeOf(rows);
}
