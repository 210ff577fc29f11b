import { describe, expect, it } from 'vitest';
import { taxonomyFilter, taxonomyTermFilter } from '../../../src/index-mapping/filters.query.ts';
import { geoFilter } from '../../../src/index-mapping/geo.query.ts';
import { buildOrganizationSearch } from '../../../src/index-mapping/organization-search.query.ts';
import { pageWindow, streamOrder } from '../../../src/index-mapping/search.query.ts';
import { buildServiceAtLocationSearch } from '../../../src/index-mapping/service-at-location-search.query.ts';
import {
  buildTaxonomySearch,
  buildTaxonomyTermSearch,
  buildTermTreePageBody,
} from '../../../src/index-mapping/taxonomy-search.query.ts';

const id = 'aaaaaaaa-0000-4000-8000-000000000001';

describe('include_child_terms', () => {
  it('reads the whole tree in one page, and matches the term with its descendants', () => {
    const child = 'aaaaaaaa-0000-4000-8000-000000000002';
    // The whole tree in one page, each term's id, parent and taxonomy only, in id order.
    expect(buildTermTreePageBody(10_000, undefined)).toEqual({
      size: 10_000,
      sort: [{ id: 'asc' }],
      _source: ['record.id', 'parent_id', 'taxonomy_id'],
      track_total_hits: false,
    });
    expect(buildTermTreePageBody(10_000, ['x']).search_after).toEqual(['x']);
    expect(taxonomyTermFilter(id, [child])).toMatchInlineSnapshot(`
      {
        "terms": {
          "taxonomy_term_ids": [
            "aaaaaaaa-0000-4000-8000-000000000001",
            "AAAAAAAA-0000-4000-8000-000000000001",
            "aaaaaaaa-0000-4000-8000-000000000002",
          ],
        },
      }
    `);
    // Without descendants, the filter is the plain one.
    expect(taxonomyTermFilter(id, [])).toEqual(taxonomyTermFilter(id));
    // A taxonomy with terms below its own that name no taxonomy: either matches.
    expect(taxonomyFilter(id, [child])).toEqual({
      bool: {
        should: [
          { terms: { taxonomy_ids: [id, id.toUpperCase()] } },
          { terms: { taxonomy_term_ids: [child] } },
        ],
        minimum_should_match: 1,
      },
    });
    expect(taxonomyFilter(id, [])).toEqual(taxonomyFilter(id));
  });
});

describe('buildTaxonomyTermSearch', () => {
  it('reads top_only as "no parent" and combines it with the taxonomy and parent filters', () => {
    expect(
      buildTaxonomyTermSearch({ taxonomyId: id, topOnly: true, parentId: id }).query,
    ).toMatchInlineSnapshot(`
      {
        "bool": {
          "filter": [
            {
              "terms": {
                "taxonomy_id": [
                  "aaaaaaaa-0000-4000-8000-000000000001",
                  "AAAAAAAA-0000-4000-8000-000000000001",
                ],
              },
            },
            {
              "bool": {
                "must_not": [
                  {
                    "exists": {
                      "field": "parent_id",
                    },
                  },
                ],
              },
            },
            {
              "terms": {
                "parent_id": [
                  "aaaaaaaa-0000-4000-8000-000000000001",
                  "AAAAAAAA-0000-4000-8000-000000000001",
                ],
              },
            },
          ],
        },
      }
    `);
  });

  it('ignores top_only=false', () => {
    expect(buildTaxonomyTermSearch({ topOnly: false }).query).toEqual({ match_all: {} });
  });

  it('lets a word equal a term code', () => {
    expect(JSON.stringify(buildTaxonomyTermSearch({ search: 'BD-1800' }).query)).toContain(
      '{"term":{"code":{"value":"BD-1800"}}}',
    );
  });
});

describe('buildTaxonomySearch', () => {
  it('serves full records', () => {
    expect(buildTaxonomySearch({}).source).toEqual(['record']);
  });
});

describe('buildOrganizationSearch', () => {
  it('filters organizations by taxonomy and fetches direct fields for list items', () => {
    const request = buildOrganizationSearch({ taxonomyTermId: id }, 'list');
    expect(request.query).toEqual({
      bool: { filter: [{ terms: { taxonomy_term_ids: [id, id.toUpperCase()] } }] },
    });
    expect(request.source).toContain('record.name');
    expect(request.source).not.toContain('record');
  });
});

describe('geoFilter', () => {
  it('asks the same coverage clauses with or without a distance', () => {
    const coverage = (proximityMetres?: number) =>
      geoFilter({ point: { lat: 57.14, lon: -2.1 }, proximityMetres }).filters[0];
    expect(coverage(10_000)).toEqual(coverage());
    expect(coverage(500)).toEqual(coverage());
  });

  it("asks the point's cell at every level, from the whole world down to about two metres", () => {
    const filter = JSON.stringify(geoFilter({ point: { lat: 57.14, lon: -2.1 } }).filters[0]);
    const cells = JSON.parse(filter).bool.should[0].terms.coverage_cells as string[];
    expect(cells).toHaveLength(25);
    expect(cells[0]).toBe('0/0/0');
    // Level 1 splits longitude at 0 and latitude at the equator: -2.1 is west, 57.14 north.
    expect(cells[1]).toBe('1/0/1');
  });

  it('keeps results covering the point or without coverage, within the distance, nearest first', () => {
    expect(geoFilter({ point: { lat: 57.14, lon: -2.1 }, proximityMetres: 2000 })).toMatchInlineSnapshot(`
      {
        "filters": [
          {
            "bool": {
              "minimum_should_match": 1,
              "should": [
                {
                  "terms": {
                    "coverage_cells": [
                      "0/0/0",
                      "1/0/1",
                      "2/1/3",
                      "3/3/6",
                      "4/7/13",
                      "5/15/26",
                      "6/31/52",
                      "7/63/104",
                      "8/126/209",
                      "9/253/418",
                      "10/506/837",
                      "11/1012/1674",
                      "12/2024/3348",
                      "13/4048/6696",
                      "14/8096/13393",
                      "15/16192/26786",
                      "16/32385/53572",
                      "17/64771/107144",
                      "18/129542/214288",
                      "19/259085/428576",
                      "20/518171/857152",
                      "21/1036342/1714305",
                      "22/2072685/3428610",
                      "23/4145370/6857221",
                      "24/8290740/13714442",
                    ],
                  },
                },
                {
                  "geo_shape": {
                    "coverage_edge": {
                      "relation": "intersects",
                      "shape": {
                        "coordinates": [
                          -2.1,
                          57.14,
                        ],
                        "type": "point",
                      },
                    },
                    "ignore_unmapped": true,
                  },
                },
                {
                  "geo_shape": {
                    "coverage": {
                      "relation": "intersects",
                      "shape": {
                        "coordinates": [
                          -2.1,
                          57.14,
                        ],
                        "type": "point",
                      },
                    },
                    "ignore_unmapped": true,
                  },
                },
                {
                  "term": {
                    "has_coverage": false,
                  },
                },
              ],
            },
          },
          {
            "geo_distance": {
              "distance": "2000m",
              "location_point": {
                "lat": 57.14,
                "lon": -2.1,
              },
            },
          },
        ],
        "sort": [
          {
            "_geo_distance": {
              "ignore_unmapped": true,
              "location_point": {
                "lat": 57.14,
                "lon": -2.1,
              },
              "order": "asc",
              "unit": "m",
            },
          },
        ],
      }
    `);
  });

  it('adds nothing without a point', () => {
    expect(geoFilter(undefined)).toEqual({ filters: [], sort: [] });
  });

  it('puts the distance first in the service_at_locations order', () => {
    const request = buildServiceAtLocationSearch({ geo: { point: { lat: 57.14, lon: -2.1 } } }, 'list');
    expect(Object.keys(request.sort[0] ?? {})).toEqual(['_geo_distance']);
    expect(request.sort.at(-1)).toEqual({ id: { order: 'asc' } });
  });
});

describe('pageWindow', () => {
  it('turns a page number into an offset', () => {
    expect(pageWindow(1, 50)).toEqual({ from: 0, size: 50 });
    expect(pageWindow(3, 20)).toEqual({ from: 40, size: 20 });
  });
});

describe('streamOrder', () => {
  it('walks listings in index order, and keeps relevance and distance orders', () => {
    expect(streamOrder(buildTaxonomySearch({})).sort).toEqual([
      { _doc: { order: 'asc' } },
      { id: { order: 'asc' } },
    ]);
    const searched = buildTaxonomySearch({ search: 'food' });
    expect(streamOrder(searched)).toBe(searched);
    const near = buildServiceAtLocationSearch({ geo: { point: { lat: 57.14, lon: -2.1 } } }, 'list');
    expect(streamOrder(near)).toBe(near);
  });
});
