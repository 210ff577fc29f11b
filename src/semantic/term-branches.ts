/**
 * The branches of a directory's taxonomy, for search by meaning: a term a search means brings the
 * services filed under the terms below it ("Emergency Food" finds the services filed under
 * "Kosher Food" and "Food Vouchers"). Pure: terms in, each term's descendants out, computed once
 * when the served terms are read (understanding.ts), so a search pays nothing for them.
 *
 * A term's parents are the ones its publisher says, and, for taxonomies whose codes spell the
 * hierarchy (AIRS/211: `BD-1800.2000-640` sits under `BD-1800.2000`, under `BD-1800`, under
 * `BD`), the longest code the directory holds that the term's code extends at a `-` or `.`.
 * Published feeds link a term often only to its top-level facet (Miami 211 gives `parent_id: B`
 * for every term of "Basic Needs"), so the code's levels are what say "Food Vouchers" is food.
 *
 * A term with more than MAX_BRANCH descendants is too broad to stand for what a search means
 * (a top-level facet holds hundreds of terms): it brings none, and only its own services count.
 */

export type BranchTerm = {
  id: string;
  /** The publisher's parent term, when given. */
  parentId?: string | undefined;
  /** The term's code, when it has one (AIRS codes spell the hierarchy); else its id is read as one. */
  code?: string | undefined;
};

/**
 * At most this many descendants a term brings. AIRS's third level ("Emergency Food", "Housing
 * Search and Information") holds tens of terms; its second ("Food", "Housing") a hundred or more.
 */
export const MAX_BRANCH = 60;
/** A parent link that loops ends here, whatever the data says. */
const MAX_DEPTH = 12;

/** The shorter codes a code extends at a `-` or `.`, longest first ("BD-1800.2000-640": "BD-1800.2000", "BD-1800", "BD"). */
export function codePrefixes(code: string): string[] {
  const out: string[] = [];
  for (let i = code.length - 1; i > 0; i--)
    if (code[i] === '-' || code[i] === '.') out.push(code.slice(0, i));
  return out;
}

/** Each term's descendants (nearest first), for the terms that have any and at most MAX_BRANCH. */
export function termBranches(terms: readonly BranchTerm[], limit = MAX_BRANCH): Map<string, string[]> {
  const ids = new Set(terms.map((t) => t.id));
  const byCode = new Map<string, string>();
  for (const term of terms) byCode.set((term.code ?? term.id).toLowerCase(), term.id);
  const children = new Map<string, Set<string>>();
  const link = (parent: string | undefined, child: string) => {
    if (parent === undefined || parent === child || !ids.has(parent)) return;
    const set = children.get(parent) ?? new Set<string>();
    set.add(child);
    children.set(parent, set);
  };
  for (const term of terms) {
    link(term.parentId, term.id);
    const code = (term.code ?? term.id).toLowerCase();
    const parentByCode = codePrefixes(code)
      .map((prefix) => byCode.get(prefix))
      .find((id) => id !== undefined);
    link(parentByCode, term.id);
  }
  const branches = new Map<string, string[]>();
  for (const id of children.keys()) {
    const found = new Set<string>([id]);
    const out: string[] = [];
    let level = [id];
    for (let depth = 0; depth < MAX_DEPTH && level.length > 0 && out.length <= limit; depth++) {
      const next: string[] = [];
      for (const parent of level)
        for (const child of children.get(parent) ?? []) {
          if (found.has(child)) continue;
          found.add(child);
          next.push(child);
        }
      out.push(...next);
      level = next;
    }
    if (out.length > 0 && out.length <= limit) branches.set(id, out);
  }
  return branches;
}
