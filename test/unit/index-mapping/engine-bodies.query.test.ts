/**
 * The request bodies src/engine sends around a query: a page, a count, a search in a point in
 * time, facets, suggestions, and the small indices' reads (tombstones, the taxonomy vocabulary).
 */
import { describe, expect, it } from 'vitest';
import { buildDidYouMeanBody } from '../../../src/index-mapping/did-you-mean.query.ts';
import { conflictingMarksBody } from '../../../src/index-mapping/duplicates.query.ts';
import { buildFacetsBody } from '../../../src/index-mapping/facets.query.ts';
import { countBody, pointInTimeBody, searchPageBody } from '../../../src/index-mapping/search.query.ts';
import { buildTermNamesPageBody } from '../../../src/index-mapping/taxonomy-vocabulary.query.ts';
import {
  buildExpiredTombstonesQuery,
  buildServedAgainBody,
  buildTombstonesByIdBody,
} from '../../../src/index-mapping/tombstones.query.ts';
import {
  buildCountWebhooksQuery,
  buildWebhooksAfterQuery,
  buildWebhooksPageQuery,
} from '../../../src/index-mapping/webhook.query.ts';

const search = { query: { term: { id: 'a' } }, sort: [{ id: { order: 'asc' } }] };
const pit = { id: 'pit-1', keepAlive: '30s' };

describe('search bodies', () => {
  it('counts every document unless given a query', () => {
    expect(countBody()).toEqual({ size: 0, track_total_hits: true, query: { match_all: {} } });
    expect(countBody(search.query)).toEqual({ size: 0, track_total_hits: true, query: search.query });
  });

  it('asks a page within the window for its exact total and what each hit brings', () => {
    expect(searchPageBody(search, { from: 40, size: 20 }, { _source: ['record'] })).toMatchInlineSnapshot(`
      {
        "_source": [
          "record",
        ],
        "from": 40,
        "query": {
          "term": {
            "id": "a",
          },
        },
        "size": 20,
        "sort": [
          {
            "id": {
              "order": "asc",
            },
          },
        ],
        "track_total_hits": true,
      }
    `);
  });

  it('resumes a search in a point in time after the sort values given, and only then', () => {
    const first = pointInTimeBody(pit, search, { size: 0, total: true });
    expect(first).toEqual({
      pit: { id: 'pit-1', keep_alive: '30s' },
      ...search,
      size: 0,
      track_total_hits: true,
    });
    const next = pointInTimeBody(pit, search, {
      size: 500,
      total: false,
      after: ['x', 'b'],
      fetch: { _source: false },
    });
    expect(next).toEqual({
      pit: { id: 'pit-1', keep_alive: '30s' },
      ...search,
      size: 500,
      _source: false,
      track_total_hits: false,
      search_after: ['x', 'b'],
    });
  });

  it('asks facets and suggestions for no hits and no total', () => {
    expect(buildFacetsBody(search.query, { a: { terms: { field: 'x' } } })).toEqual({
      query: search.query,
      size: 0,
      track_total_hits: false,
      aggs: { a: { terms: { field: 'x' } } },
    });
    expect(buildDidYouMeanBody('Fod')).toMatchObject({
      size: 0,
      track_total_hits: false,
      suggest: { text: 'fod' },
    });
  });
});

describe('small index bodies', () => {
  it('finds tombstones by id, ids only', () => {
    expect(buildTombstonesByIdBody(['service:1', 'organization:2'])).toEqual({
      size: 2,
      _source: false,
      query: { ids: { values: ['service:1', 'organization:2'] } },
    });
  });

  it('prunes tombstones deleted before the retention period', () => {
    expect(buildExpiredTombstonesQuery(Date.parse('2026-03-31T12:00:00Z'), 30)).toEqual({
      range: { deleted_at: { lt: '2026-03-01T12:00:00.000Z' } },
    });
  });

  it('reads taxonomy terms in id order, a page at a time', () => {
    expect(buildTermNamesPageBody(1000, undefined)).toEqual({
      size: 1000,
      sort: [{ id: 'asc' }],
      _source: ['record.name', 'record.x-alternate_names'],
    });
    expect(buildTermNamesPageBody(1000, ['t9'])).toMatchObject({ search_after: ['t9'] });
  });

  it('counts the registered webhook targets only', () => {
    expect(buildCountWebhooksQuery()).toEqual({ query: { term: { kind: 'webhook' } } });
  });

  it('pages webhook targets oldest first with their total, and walks all of them by id', () => {
    expect(buildWebhooksPageQuery(100, 50)).toEqual({
      from: 100,
      size: 50,
      track_total_hits: true,
      sort: [{ at: { order: 'asc', missing: '_first' } }, { webhook_id: 'asc' }],
      query: { term: { kind: 'webhook' } },
    });
    expect(buildWebhooksAfterQuery(500, undefined)).toEqual({
      size: 500,
      track_total_hits: false,
      sort: [{ webhook_id: 'asc' }],
      query: { term: { kind: 'webhook' } },
    });
    expect(buildWebhooksAfterQuery(500, ['w9'])).toMatchObject({ search_after: ['w9'] });
  });

  it('dates what came back by its own last_modified, not the record it serves', () => {
    expect(buildServedAgainBody(['s1'], '2026-12-07T19:00:00.000Z')).toEqual({
      query: { bool: { filter: [{ terms: { id: ['s1'] } }] } },
      script: {
        lang: 'painless',
        source: "ctx._source['last_modified'] = params.at",
        params: { at: '2026-12-07T19:00:00.000Z' },
      },
    });
  });

  it('finds the marks a new same mark would chain or cycle with, but the pair its own', () => {
    expect(conflictingMarksBody('service', 'service:a|b', 'b', 'a')).toEqual({
      size: 10,
      query: {
        bool: {
          filter: [{ term: { type: 'service' } }, { term: { decision: 'same' } }],
          must_not: [{ term: { key: 'service:a|b' } }],
          should: [{ terms: { merged: ['b', 'a'] } }, { term: { keep: 'a' } }],
          minimum_should_match: 1,
        },
      },
      sort: [{ key: 'asc' }],
    });
  });
});
