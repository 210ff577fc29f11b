import { describe, expect, it } from 'vitest';
import { codePrefixes, termBranches } from '../../../src/semantic/term-branches.ts';

describe('codePrefixes', () => {
  it('reads the levels an AIRS code spells, longest first', () => {
    expect(codePrefixes('BD-1800.2000-640')).toEqual(['BD-1800.2000', 'BD-1800', 'BD']);
    expect(codePrefixes('food')).toEqual([]);
  });
});

describe('termBranches', () => {
  // As Miami 211 publishes AIRS: every term's parent_id is its top-level facet, the code says the rest.
  const airs = [
    { id: 'B', name: 'Basic Needs' },
    { id: 'BD', parentId: 'B' },
    { id: 'BD-1800', parentId: 'B' },
    { id: 'BD-1800.2250', parentId: 'B' },
    { id: 'BD-1800.8200-380', parentId: 'B' },
    { id: 'BD-1800.2000-640', parentId: 'B' },
    { id: 'BH-1800', parentId: 'B' },
  ];

  it('brings the terms below a term by its code as well as its parent link', () => {
    const branches = termBranches(airs);
    expect(branches.get('BD-1800')).toEqual(['BD-1800.2250', 'BD-1800.8200-380', 'BD-1800.2000-640']);
    expect(branches.get('BD')).toEqual(['BD-1800', 'BD-1800.2250', 'BD-1800.8200-380', 'BD-1800.2000-640']);
    expect(branches.has('BD-1800.2250')).toBe(false);
  });

  it("reads a code field before the id, and follows a publisher's parent links down several levels", () => {
    const branches = termBranches([
      { id: 'a', code: 'X-1' },
      { id: 'b', code: 'X-1.1' },
      { id: 'c', parentId: 'b' },
    ]);
    expect(branches.get('a')).toEqual(['b', 'c']);
  });

  it('gives a term too broad to stand for a search (more than the limit below it) no branch', () => {
    const branches = termBranches(airs, 3);
    expect(branches.has('B')).toBe(false);
    expect(branches.has('BD')).toBe(false);
    expect(branches.get('BD-1800')).toHaveLength(3);
  });

  it('ends a loop of parent links', () => {
    const branches = termBranches([
      { id: 'a', parentId: 'b' },
      { id: 'b', parentId: 'a' },
    ]);
    expect(branches.get('a')).toEqual(['b']);
    expect(branches.get('b')).toEqual(['a']);
  });
});
