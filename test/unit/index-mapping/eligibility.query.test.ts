/**
 * Eligibility and access (eligibility.document.ts, eligibility.query.ts): what a service says
 * about cost, and the filters' DSL. The engine proves the matches (test/integration/eligibility.test.ts).
 */
import { describe, expect, it } from 'vitest';
import type { ServiceFull } from '../../../src/hsds/index.ts';
import { isFree, toEligibilityFields } from '../../../src/index-mapping/eligibility.document.ts';
import { ageFilter, freeFilter, languageFilter } from '../../../src/index-mapping/eligibility.query.ts';

const service = (fields: Partial<ServiceFull>) =>
  ({ id: 'a', name: 'A', status: 'active', ...fields }) as ServiceFull;
const option = (fields: Record<string, unknown>) => ({ id: 'c', ...fields });

describe('isFree', () => {
  it.each([
    [{ cost_options: [option({ amount: 0 })] }, true],
    [{ cost_options: [option({ option: 'Free for residents' })] }, true],
    [{ fees_description: 'No charge' }, true],
    [{ cost_options: [option({ amount: 4.5 })] }, false],
    [{ cost_options: [option({ option: 'Not free' })] }, false],
    [{ fees_description: 'Donations welcome' }, undefined],
    [{}, undefined],
  ])('%j is %s', (fields, free) => {
    expect(isFree(service(fields as Partial<ServiceFull>))).toBe(free);
  });
});

describe('toEligibilityFields', () => {
  it('lower-cases languages of the service, locations and phones, one facet value each', () => {
    const fields = toEligibilityFields(
      service({ languages: [{ id: 'l', code: 'EN', name: 'English' }] } as Partial<ServiceFull>),
      [
        {
          languages: [{ id: 'm', name: 'Welsh' }],
          phones: [{ id: 'p', number: '1', languages: [{ id: 'n', code: 'pl', name: 'Polish' }] }],
          accessibility: [{ id: 'x', description: 'Step-free access ' }],
        },
      ] as never,
    );
    expect(fields).toEqual({
      languages: ['en', 'english', 'welsh', 'pl', 'polish'],
      language_codes: ['en', 'welsh', 'pl'],
      accessibility: ['Step-free access'],
    });
  });
});

describe('filters', () => {
  it('age: each bound holds, or is not stated', () => {
    expect(ageFilter(7)).toMatchInlineSnapshot(`
      {
        "bool": {
          "filter": [
            {
              "bool": {
                "minimum_should_match": 1,
                "should": [
                  {
                    "range": {
                      "minimum_age": {
                        "lte": 7,
                      },
                    },
                  },
                  {
                    "bool": {
                      "must_not": [
                        {
                          "exists": {
                            "field": "minimum_age",
                          },
                        },
                      ],
                    },
                  },
                ],
              },
            },
            {
              "bool": {
                "minimum_should_match": 1,
                "should": [
                  {
                    "range": {
                      "maximum_age": {
                        "gte": 7,
                      },
                    },
                  },
                  {
                    "bool": {
                      "must_not": [
                        {
                          "exists": {
                            "field": "maximum_age",
                          },
                        },
                      ],
                    },
                  },
                ],
              },
            },
          ],
        },
      }
    `);
    expect(ageFilter(undefined)).toBeUndefined();
  });

  it('language matches lower case; free=false filters nothing', () => {
    expect(languageFilter(' Polish ')).toEqual({ term: { languages: 'polish' } });
    expect(freeFilter(false)).toBeUndefined();
    expect(freeFilter(true)).toEqual({ term: { free: true } });
  });
});
