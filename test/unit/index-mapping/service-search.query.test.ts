import { describe, expect, it } from 'vitest';
import type { Meaning } from '../../../src/index-mapping/meaning.query.ts';
import {
  buildOrganizationServicesSearch,
  buildServiceSearch,
  relaxationsOf,
} from '../../../src/index-mapping/service-search.query.ts';
import { SERVICE_LIST_ITEM } from '../../../src/index-mapping/sources.query.ts';

const term = 'aaaaaaaa-0000-4000-8000-000000000001';
const taxonomy = 'aaaaaaaa-0000-4000-8000-000000000002';
const organization = 'aaaaaaaa-0000-4000-8000-000000000003';

describe('buildServiceSearch', () => {
  it('lists everything alphabetically when nothing is asked', () => {
    const request = buildServiceSearch({}, 'list');
    expect({ query: request.query, sort: request.sort }).toMatchInlineSnapshot(`
      {
        "query": {
          "match_all": {},
        },
        "sort": [
          {
            "name.sort": {
              "missing": "_last",
              "order": "asc",
            },
          },
          {
            "id": {
              "order": "asc",
            },
          },
        ],
      }
    `);
  });

  it('combines every filter with AND, as unscored filters', () => {
    const request = buildServiceSearch(
      {
        taxonomyTermId: term,
        taxonomyId: taxonomy,
        organizationId: organization,
        modifiedAfter: '2024-01-01T00:00:00.000Z',
        minimumAge: 5,
        maximumAge: 18,
        schedule: { day: 'MO', startTime: '09:00', endTime: '17:00' },
      },
      'full',
    );
    expect(request.query).toMatchInlineSnapshot(`
      {
        "bool": {
          "filter": [
            {
              "terms": {
                "taxonomy_term_ids": [
                  "aaaaaaaa-0000-4000-8000-000000000001",
                  "AAAAAAAA-0000-4000-8000-000000000001",
                ],
              },
            },
            {
              "terms": {
                "taxonomy_ids": [
                  "aaaaaaaa-0000-4000-8000-000000000002",
                  "AAAAAAAA-0000-4000-8000-000000000002",
                ],
              },
            },
            {
              "terms": {
                "organization_id": [
                  "aaaaaaaa-0000-4000-8000-000000000003",
                  "AAAAAAAA-0000-4000-8000-000000000003",
                ],
              },
            },
            {
              "range": {
                "last_modified": {
                  "gte": "2024-01-01T00:00:00.000Z",
                },
              },
            },
            {
              "range": {
                "minimum_age": {
                  "gte": 5,
                },
              },
            },
            {
              "range": {
                "maximum_age": {
                  "lte": 18,
                },
              },
            },
            {
              "nested": {
                "path": "schedules",
                "query": {
                  "bool": {
                    "filter": [
                      {
                        "term": {
                          "schedules.byday": "MO",
                        },
                      },
                      {
                        "range": {
                          "schedules.opens_at": {
                            "gte": "09:00",
                          },
                        },
                      },
                      {
                        "range": {
                          "schedules.closes_at": {
                            "lte": "17:00",
                          },
                        },
                      },
                    ],
                  },
                },
              },
            },
          ],
        },
      }
    `);
    expect(request.source).toEqual(['record']);
  });

  it('ranks by relevance when searching, then name, then id', () => {
    expect(buildServiceSearch({ search: 'food' }, 'list').sort).toMatchInlineSnapshot(`
      [
        {
          "_score": {
            "order": "desc",
          },
        },
        {
          "name.sort": {
            "missing": "_last",
            "order": "asc",
          },
        },
        {
          "id": {
            "order": "asc",
          },
        },
      ]
    `);
  });

  it('fetches only direct fields, organization and program for list items', () => {
    const source = buildServiceSearch({}, 'list').source;
    expect(source).toBe(SERVICE_LIST_ITEM);
    expect(source).toContain('record.name');
    expect(source).toContain('record.organization.name');
    expect(source).toContain('record.program.name');
    expect(
      source.some(
        (path) => path.startsWith('record.phones') || path.startsWith('record.organization.phones'),
      ),
    ).toBe(false);
  });

  it('asks only for id and last_modified, ordered by id, for minimal', () => {
    const request = buildServiceSearch({ modifiedAfter: '2024-01-01T00:00:00.000Z' }, 'minimal');
    expect(request.source).toEqual(['record.id', 'record.last_modified']);
    expect(request.sort).toEqual([{ id: { order: 'asc' } }]);
  });

  it('leaves out a schedule filter with no condition', () => {
    expect(buildServiceSearch({ schedule: {} }, 'list').query).toEqual({ match_all: {} });
  });
});

describe('relaxationsOf', () => {
  const meaningOf = (needs: number, terms: number): Meaning => ({
    needs: [],
    terms: [],
    loose: {
      needs: Array.from({ length: needs }, () => ({
        name: 'hunger',
        phrases: ['food bank'],
        similarity: 0.57,
      })),
      terms: Array.from({ length: terms }, (_, i) => ({ id: `term-${i}`, similarity: 0.42 })),
    },
  });
  it('widens only a search that means a need, or a term, the directory offers', () => {
    const relaxations = (search: string, meaning?: Meaning) =>
      `${search} (${meaning ? `${meaning.loose?.needs.length} needs, ${meaning.loose?.terms.length} terms` : 'no meaning'}): ${relaxationsOf({ search, meaning }).join(', ') || 'none'}`;
    expect([
      relaxations('luxury hotel Miami Beach'),
      relaxations('tattoo shop near me', meaningOf(0, 1)),
      relaxations('cheap groceries riverside zeppelin', meaningOf(1, 1)),
      relaxations('groceries', meaningOf(1, 0)),
    ]).toMatchInlineSnapshot(`
      [
        "luxury hotel Miami Beach (no meaning): none",
        "tattoo shop near me (0 needs, 1 terms): none",
        "cheap groceries riverside zeppelin (1 needs, 1 terms): fewer_words, meaning",
        "groceries (1 needs, 0 terms): meaning",
      ]
    `);
  });
});

describe('a search understood as nothing the directory offers', () => {
  const nothing: Meaning = { needs: [], terms: [], loose: { needs: [], terms: [] } };
  const food: Meaning = {
    needs: [{ name: 'hunger', phrases: ['food bank'], similarity: 0.7 }],
    terms: [],
    loose: { needs: [{ name: 'hunger', phrases: ['food bank'], similarity: 0.7 }], terms: [] },
  };
  /** The minimum_should_match of the words' own clause (each word, not the words together). */
  const required = (search: string, meaning?: Meaning) => {
    const text = JSON.stringify(buildServiceSearch({ search, meaning }, 'list').query);
    return `${search} (${meaning === undefined ? 'not understood' : meaning === nothing ? 'nothing' : 'a need'}): ${text.match(/"minimum_should_match":("75%"|\d+)/)?.[1]}`;
  };
  it('requires every one of up to three words; a search that means something, or was not understood, 75%', () => {
    expect([
      required('used cars for sale', nothing),
      required('luxury hotel Miami Beach', nothing),
      required('food bank Bedminster', food),
      required('used cars for sale'),
    ]).toMatchInlineSnapshot(`
      [
        "used cars for sale (nothing): 3",
        "luxury hotel Miami Beach (nothing): "75%"",
        "food bank Bedminster (a need): "75%"",
        "used cars for sale (not understood): "75%"",
      ]
    `);
  });
});

describe('buildOrganizationServicesSearch', () => {
  it('finds the services of a page of organizations', () => {
    const request = buildOrganizationServicesSearch([organization], false);
    expect(request.query).toMatchInlineSnapshot(`
      {
        "bool": {
          "filter": [
            {
              "terms": {
                "organization_id": [
                  "aaaaaaaa-0000-4000-8000-000000000003",
                ],
              },
            },
          ],
        },
      }
    `);
    expect(request.source).toEqual(['record.id', 'record.name', 'record.status', 'record.organization_id']);
  });
});
