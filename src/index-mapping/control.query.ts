/**
 * The control index's queries (src/engine/control-index.ts and the modules of its jobs): pure
 * request bodies. Every control document has a `kind` (lease, import, build, change, audit,
 * vocabulary-rule) and, for changes, audit intents and vocabulary rules, the time `at` (epoch ms)
 * it was logged.
 */

export type ControlKind = 'lease' | 'import' | 'build' | 'change' | 'audit' | 'vocabulary-rule';

/** Up to `size` documents of one kind, oldest first when `oldestFirst`. */
export const controlKindBody = (kind: ControlKind, size: number, oldestFirst = false) => ({
  size,
  ...(oldestFirst ? { sort: [{ at: 'asc' }] } : {}),
  query: { term: { kind } },
});

/** Change entries logged at or after `since` (all without it), oldest first. */
export const changesSinceBody = (size: number, since?: number) => ({
  size,
  sort: [{ at: 'asc' }],
  query: {
    bool: {
      filter: [
        { term: { kind: 'change' } },
        ...(since !== undefined ? [{ range: { at: { gte: since } } }] : []),
      ],
    },
  },
});

/** Change entries logged before `before` (epoch ms). */
export const changesBeforeQuery = (before: number) => ({
  bool: { filter: [{ term: { kind: 'change' } }, { range: { at: { lt: before } } }] },
});
