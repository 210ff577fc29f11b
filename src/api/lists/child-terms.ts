/**
 * `include_child_terms` (on unless `false`): a category filter that includes the terms below the
 * one asked for. A directory files services under its most specific terms (AIRS's
 * `BD-1800.2000`, a council's "Food banks" under "Food"), so filtering by a broad term alone found
 * only the few filed under it directly (issue 54: a top-level term found 0 services, its child 3).
 * `taxonomy_id` likewise takes the terms below its terms that name no taxonomy of their own.
 *
 * The served taxonomy's tree is read in one search and kept until the served data changes (the
 * build or publish time the `{id}` routes' Last-Modified reads, itself read at most once a
 * second), so a filter costs no engine call while the data stays as it is.
 */
import type { Engine } from '../../engine/engine.ts';
import { descendantsIn, readTermTree, type TermTree, taxonomyDescendantsIn } from '../../engine/term-tree.ts';
import type { ServiceFilters } from '../../index-mapping/service-search.query.ts';
import { servedDataChangedAt } from '../records/http-cache.ts';
import type { AppContext } from '../types.ts';

const trees = new WeakMap<Engine, { stamp: string; tree: Promise<TermTree> }>();

/** The served tree, read again only when the served data changed (or its change time is unknown). */
async function servedTree(engine: Engine): Promise<TermTree> {
  const stamp = await servedDataChangedAt(engine);
  const cached = trees.get(engine);
  if (stamp !== undefined && cached?.stamp === stamp) return cached.tree;
  const tree = readTermTree(engine);
  if (stamp !== undefined) {
    trees.set(engine, { stamp, tree });
    // A failed read is not kept: the next request reads again.
    tree.catch(() => {
      if (trees.get(engine)?.tree === tree) trees.delete(engine);
    });
  }
  return tree;
}

export async function childTermsOf(
  c: AppContext,
  p: {
    taxonomy_term_id?: string | undefined;
    taxonomy_id?: string | undefined;
    include_child_terms?: boolean | undefined;
  },
): Promise<Pick<ServiceFilters, 'childTermIds' | 'taxonomyChildTermIds'>> {
  if (p.include_child_terms === false) return {};
  if (p.taxonomy_term_id === undefined && p.taxonomy_id === undefined) return {};
  const tree = await servedTree(c.get('deps').engine);
  return {
    ...(p.taxonomy_term_id === undefined ? {} : { childTermIds: descendantsIn(tree, [p.taxonomy_term_id]) }),
    ...(p.taxonomy_id === undefined
      ? {}
      : { taxonomyChildTermIds: taxonomyDescendantsIn(tree, p.taxonomy_id) }),
  };
}
