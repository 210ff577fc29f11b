import { describe, expect, it } from 'vitest';
import { descendantsIn, taxonomyDescendantsIn, termTreeOf } from '../../../src/engine/term-tree.ts';

// Food > Food banks > Emergency parcels; Food > Lunch clubs; Money (no children); a loop a <-> b.
const tree = termTreeOf([
  { id: 'food', taxonomyId: 'local' },
  { id: 'food-banks', parentId: 'food', taxonomyId: 'local' },
  { id: 'parcels', parentId: 'FOOD-BANKS' },
  { id: 'lunch', parentId: 'food', taxonomyId: 'other' },
  { id: 'money', taxonomyId: 'local' },
  { id: 'a', parentId: 'b' },
  { id: 'b', parentId: 'a' },
]);

describe('the taxonomy tree', () => {
  it('gives every level below a term, nearest first, matching parents in any case', () => {
    expect(descendantsIn(tree, ['Food'])).toEqual(['food-banks', 'lunch', 'parcels']);
    expect(descendantsIn(tree, ['food-banks'])).toEqual(['parcels']);
  });

  it('gives nothing below a term without children, or one it does not hold', () => {
    expect(descendantsIn(tree, ['money'])).toEqual([]);
    expect(descendantsIn(tree, ['nowhere'])).toEqual([]);
  });

  it('ends a parent link that loops', () => {
    expect(descendantsIn(tree, ['a'])).toEqual(['b']);
  });

  it('gives a taxonomy the terms below its own that are not of it', () => {
    expect(taxonomyDescendantsIn(tree, 'LOCAL')).toEqual(['lunch', 'parcels']);
    expect(taxonomyDescendantsIn(tree, 'none')).toEqual([]);
  });
});
