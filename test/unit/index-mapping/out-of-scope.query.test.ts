import { describe, expect, it } from 'vitest';
import type { Meaning } from '../../../src/index-mapping/meaning.query.ts';
import {
  meansNoNeed,
  TERM_ALONE_SIMILARITY,
  termsThatAnswer,
} from '../../../src/index-mapping/out-of-scope.query.ts';
import type { QueryDsl } from '../../../src/index-mapping/search.query.ts';
import { serviceTextQuery } from '../../../src/index-mapping/service-search.query.ts';

const thriftShops = 'aaaaaaaa-0000-4000-8000-0000000000a1';
const foodPantries = 'aaaaaaaa-0000-4000-8000-0000000000a2';

// "sunglasses store" in a directory with an AIRS-like taxonomy: no need, a thrift-shop term at 0.45.
const shopping: Meaning = {
  needs: [],
  terms: [{ id: thriftShops, similarity: 0.45 }],
  loose: { needs: [], terms: [{ id: thriftShops, similarity: 0.45 }] },
};

/** The clauses any one of which lets a service match (a bool's should with minimum_should_match 1). */
function alternatives(query: QueryDsl | undefined): QueryDsl[] {
  const bool = (query as { bool?: { should?: QueryDsl[]; minimum_should_match?: number; must?: QueryDsl[] } })
    ?.bool;
  if (bool?.must) return [];
  return bool?.minimum_should_match === 1 ? (bool.should ?? []) : [];
}

const filtersByTerm = (clause: QueryDsl, id: string) => JSON.stringify(clause).includes(id);

describe('a search that names no need', () => {
  it('is not answered by a loosely close taxonomy term alone', () => {
    const query = serviceTextQuery({ search: 'sunglasses store', meaning: shopping });
    expect(alternatives(query).some((clause) => filtersByTerm(clause, thriftShops))).toBe(false);
    // The term still ranks what the words find.
    expect(JSON.stringify(query)).toContain(thriftShops);
  });

  it('is answered by a term close to its text', () => {
    const close: Meaning = { ...shopping, terms: [{ id: thriftShops, similarity: TERM_ALONE_SIMILARITY }] };
    const query = serviceTextQuery({ search: 'thrift shop', meaning: close });
    expect(alternatives(query).some((clause) => filtersByTerm(clause, thriftShops))).toBe(true);
  });

  it('leaves a need, loose or plain, and a crisis answered by their terms', () => {
    const pantry = { name: 'food', phrases: ['food pantry'], similarity: 0.5 };
    const need: Meaning = {
      needs: [],
      terms: [{ id: foodPantries, similarity: 0.45 }],
      loose: { needs: [pantry], terms: [] },
    };
    expect(meansNoNeed(need)).toBe(false);
    expect(termsThatAnswer(need).rankOnly).toEqual([]);
    const crisis: Meaning = {
      ...shopping,
      crisis: { need: 'suicide', phrases: ['suicide'], onlyTermIds: [], restricted: false },
    };
    expect(meansNoNeed(crisis)).toBe(false);
    expect(termsThatAnswer(crisis).rankOnly).toEqual([]);
  });

  it('leaves a mistyped search answered by its terms', () => {
    const mistyped: Meaning = { ...shopping, correction: 'thrift shop' };
    expect(meansNoNeed(mistyped)).toBe(false);
    expect(termsThatAnswer(mistyped).rankOnly).toEqual([]);
  });

  it('is searched as before without an understanding', () => {
    expect(meansNoNeed(undefined)).toBe(false);
    expect(termsThatAnswer(undefined)).toEqual({ meaning: undefined, rankOnly: [] });
  });
});
