import { describe, expect, it } from 'vitest';
import {
  type Constraint,
  constraintBoosts,
  constraintFilters,
  constraintsFilter,
  type Understood,
} from '../../../src/index-mapping/constraints.query.ts';

const hialeah: Constraint = {
  kind: 'place',
  text: 'in Hialeah',
  place: 'hialeah',
  words: 'Hialeah',
  known: true,
};
const fishponds: Constraint = {
  kind: 'place',
  text: 'in Fishponds',
  place: 'fishponds',
  words: 'Fishponds',
  known: false,
};
const of = (...constraints: Constraint[]): Understood => ({ constraints, needText: 'food' });

describe('constraintFilters', () => {
  it('filters a known place by its addresses or its naming', () => {
    expect(constraintFilters(of(hialeah))).toMatchInlineSnapshot(`
      [
        {
          "bool": {
            "minimum_should_match": 1,
            "should": [
              {
                "term": {
                  "places": "hialeah",
                },
              },
              {
                "multi_match": {
                  "fields": [
                    "name",
                    "description",
                    "organization_name",
                  ],
                  "query": "Hialeah",
                  "type": "phrase",
                },
              },
            ],
          },
        },
      ]
    `);
  });

  it('filters an age range by overlap, an unstated bound holding', () => {
    const [filter] = constraintFilters(
      of({ kind: 'age', text: 'over 50s', from: 50, to: 120, words: 'over 50s' }),
    );
    expect(JSON.stringify(filter)).toContain('{"range":{"minimum_age":{"lte":120}}}');
    expect(JSON.stringify(filter)).toContain('{"range":{"maximum_age":{"gte":50}}}');
  });

  it('does not filter by a place only named, by cost, once relaxed or in a crisis', () => {
    expect(constraintFilters(of(fishponds, { kind: 'cost', text: 'free', words: 'free' }))).toEqual([]);
    expect(constraintFilters({ ...of(hialeah), relaxed: true })).toEqual([]);
    expect(constraintsFilter({ ...of(hialeah), boostOnly: true })).toBe(false);
  });
});

describe('constraintBoosts', () => {
  it('ranks a known place by address, a named one by its naming, free by the free field', () => {
    const boosts = JSON.stringify(
      constraintBoosts(of(hialeah, fishponds, { kind: 'cost', text: 'free', words: 'free' }), ['name']),
    );
    expect(boosts).toContain('{"constant_score":{"filter":{"term":{"places":"hialeah"}},"boost":50}}');
    expect(boosts).toContain(
      '"query":"Fishponds","fields":["name","description","organization_name"],"type":"phrase"}},"boost":50}',
    );
    expect(boosts).toContain('{"constant_score":{"filter":{"term":{"free":true}},"boost":2}}');
  });
});
