import { describe, expect, it } from 'vitest';
import {
  documentsWithQuery,
  heldValuesBody,
  notEarlierRunsExclusions,
  staleDocumentsExclusions,
  storePageBody,
} from '../../../src/index-mapping/record-store.query.ts';

describe('records store queries', () => {
  it('asks which keys a document of an earlier run holds, leaving out this run and the documents rewritten', () => {
    expect(
      heldValuesBody(
        'keys',
        ['service:1', 'organization:2'],
        notEarlierRunsExclusions(42, ['item:service:1']),
      ),
    ).toMatchInlineSnapshot(`
      {
        "aggs": {
          "held": {
            "terms": {
              "field": "keys",
              "include": [
                "service:1",
                "organization:2",
              ],
              "size": 2,
            },
          },
        },
        "query": {
          "bool": {
            "filter": [
              {
                "terms": {
                  "keys": [
                    "service:1",
                    "organization:2",
                  ],
                },
              },
            ],
            "must_not": [
              {
                "term": {
                  "run": 42,
                },
              },
              {
                "ids": {
                  "values": [
                    "item:service:1",
                  ],
                },
              },
            ],
          },
        },
        "size": 0,
      }
    `);
  });

  it('leaves a source’s documents written before the run out of what a sync keeps', () => {
    expect(staleDocumentsExclusions('feed', 7)).toMatchInlineSnapshot(`
      [
        {
          "bool": {
            "filter": [
              {
                "term": {
                  "source": "feed",
                },
              },
              {
                "range": {
                  "run": {
                    "lt": 7,
                  },
                },
              },
            ],
          },
        },
      ]
    `);
  });

  it('reads a page of whole documents in group order after the last one, in a snapshot', () => {
    const query = documentsWithQuery('parent_ids', ['a'], []);
    expect(query).toEqual({ bool: { filter: [{ terms: { parent_ids: ['a'] } }] } });
    expect(storePageBody(query, 100, ['g', 'k'], 'group', 'pit-1')).toEqual({
      size: 100,
      query,
      sort: [{ group: { order: 'asc', missing: '_last' } }, { key: 'asc' }],
      search_after: ['g', 'k'],
      pit: { id: 'pit-1', keep_alive: '10m' },
      track_total_hits: false,
    });
    expect(storePageBody(query, 100, undefined, 'none', undefined)).toEqual({
      size: 100,
      query,
      track_total_hits: false,
    });
  });
});
