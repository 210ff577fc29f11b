import { describe, expect, it } from 'vitest';
import {
  buildSearchReportSearch,
  type SearchReportAggregations,
  searchLogId,
  searchReportPeriod,
  searchTextHash,
  searchTextIds,
  toSearchReport,
} from '../../../src/index-mapping/search-log.document.ts';

const now = Date.parse('2025-03-07T12:00:00Z');

describe('the search report query', () => {
  it('reads one period: day totals per day, and the texts ranked by searches, by nothing found, by relaxed', () => {
    expect(buildSearchReportSearch(searchReportPeriod(7, now), 20)).toMatchInlineSnapshot(`
      {
        "aggs": {
          "days": {
            "aggs": {
              "per_day": {
                "aggs": {
                  "dropped": {
                    "sum": {
                      "field": "dropped",
                    },
                  },
                  "relaxed": {
                    "sum": {
                      "field": "relaxed",
                    },
                  },
                  "searches": {
                    "sum": {
                      "field": "searches",
                    },
                  },
                  "zero_results": {
                    "sum": {
                      "field": "zero_results",
                    },
                  },
                },
                "terms": {
                  "field": "day",
                  "size": 7,
                },
              },
            },
            "filter": {
              "term": {
                "kind": "day",
              },
            },
          },
          "queries": {
            "aggs": {
              "distinct": {
                "cardinality": {
                  "field": "hash",
                  "precision_threshold": 40000,
                },
              },
              "per_day": {
                "terms": {
                  "field": "day",
                  "size": 7,
                },
              },
              "relaxed": {
                "aggs": {
                  "q": {
                    "aggs": {
                      "relaxed": {
                        "sum": {
                          "field": "relaxed",
                        },
                      },
                      "searches": {
                        "sum": {
                          "field": "searches",
                        },
                      },
                      "zero_results": {
                        "sum": {
                          "field": "zero_results",
                        },
                      },
                    },
                    "terms": {
                      "field": "hash",
                      "order": [
                        {
                          "relaxed": "desc",
                        },
                        {
                          "_key": "asc",
                        },
                      ],
                      "size": 20,
                    },
                  },
                },
                "filter": {
                  "range": {
                    "relaxed": {
                      "gt": 0,
                    },
                  },
                },
              },
              "top": {
                "aggs": {
                  "relaxed": {
                    "sum": {
                      "field": "relaxed",
                    },
                  },
                  "searches": {
                    "sum": {
                      "field": "searches",
                    },
                  },
                  "zero_results": {
                    "sum": {
                      "field": "zero_results",
                    },
                  },
                },
                "terms": {
                  "field": "hash",
                  "order": [
                    {
                      "searches": "desc",
                    },
                    {
                      "_key": "asc",
                    },
                  ],
                  "size": 20,
                },
              },
              "zero": {
                "aggs": {
                  "q": {
                    "aggs": {
                      "relaxed": {
                        "sum": {
                          "field": "relaxed",
                        },
                      },
                      "searches": {
                        "sum": {
                          "field": "searches",
                        },
                      },
                      "zero_results": {
                        "sum": {
                          "field": "zero_results",
                        },
                      },
                    },
                    "terms": {
                      "field": "hash",
                      "order": [
                        {
                          "zero_results": "desc",
                        },
                        {
                          "_key": "asc",
                        },
                      ],
                      "size": 20,
                    },
                  },
                },
                "filter": {
                  "range": {
                    "zero_results": {
                      "gt": 0,
                    },
                  },
                },
              },
            },
            "filter": {
              "term": {
                "kind": "query",
              },
            },
          },
        },
        "query": {
          "range": {
            "day": {
              "gte": "2025-03-01",
              "lte": "2025-03-07",
            },
          },
        },
        "size": 0,
      }
    `);
  });

  it('lists every day of the period, oldest first, with zeros where nothing was searched', () => {
    const bucket = (day: string, searches: number, zero: number) => ({
      key_as_string: day,
      doc_count: 1,
      searches: { value: searches },
      zero_results: { value: zero },
      relaxed: { value: 0 },
      dropped: { value: 0 },
    });
    const query = (text: string, searches: number, zero: number) => ({
      key: searchTextHash(text),
      searches: { value: searches },
      zero_results: { value: zero },
      relaxed: { value: 0 },
    });
    const aggs: SearchReportAggregations = {
      days: { per_day: { buckets: [bucket('2025-03-05', 4, 1), bucket('2025-03-07', 2, 0)] } },
      queries: {
        distinct: { value: 3 },
        per_day: {
          buckets: [
            { key_as_string: '2025-03-05', doc_count: 2 },
            { key_as_string: '2025-03-07', doc_count: 1 },
          ],
        },
        top: { buckets: [query('food bank', 5, 0), query('zorbly', 1, 1)] },
        zero: { q: { buckets: [query('zorbly', 1, 1)] } },
        relaxed: { q: { buckets: [] } },
      },
    };
    // Food bank was searched on 3 days and stored; zorbly on one, held back.
    expect(searchTextIds(aggs)).toEqual([
      `text:${searchTextHash('food bank')}`,
      `text:${searchTextHash('zorbly')}`,
    ]);
    const texts = new Map([
      [searchTextHash('food bank'), { query: 'food bank', days: ['2025-03-01', '2025-03-05', '2025-03-07'] }],
      [searchTextHash('zorbly'), { days: ['2025-03-05'] }],
    ]);
    const report = toSearchReport(searchReportPeriod(3, now), aggs, texts);
    expect(report.per_day.map((d) => [d.day, d.searches, d.zero_results, d.distinct_queries])).toEqual([
      ['2025-03-05', 4, 1, 2],
      ['2025-03-06', 0, 0, 0],
      ['2025-03-07', 2, 0, 1],
    ]);
    expect(report.totals).toEqual({
      searches: 6,
      zero_results: 1,
      relaxed: 0,
      dropped: 0,
      distinct_queries: 3,
    });
    expect(report.zero_result_queries).toEqual([
      { query: null, days: 1, searches: 1, zero_results: 1, relaxed: 0 },
    ]);
    expect(report.top_queries[0]).toEqual({
      query: 'food bank',
      days: 3,
      searches: 5,
      zero_results: 0,
      relaxed: 0,
    });
    expect(toSearchReport(searchReportPeriod(1, now), undefined).per_day).toEqual([
      { day: '2025-03-07', searches: 0, zero_results: 0, relaxed: 0, dropped: 0, distinct_queries: 0 },
    ]);
  });

  it('keys a text by a hash, so a 500-character text makes a short id', () => {
    const id = searchLogId({ kind: 'query', day: '2025-03-07', hash: searchTextHash('x'.repeat(500)) });
    expect(id).toMatch(/^query:2025-03-07:[\w-]{32}$/);
    expect(searchLogId({ kind: 'day', day: '2025-03-07' })).toBe('day:2025-03-07');
  });
});
