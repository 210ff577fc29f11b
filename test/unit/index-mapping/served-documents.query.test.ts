/** The lookups of served documents by a field's values (publishing, deletion), and record keys. */
import { describe, expect, it } from 'vitest';
import { parseRecordKey, recordKey } from '../../../src/index-mapping/ids.ts';
import { servedLookupBody, servedPageBody } from '../../../src/index-mapping/served-documents.query.ts';

describe('served document lookups', () => {
  it('page through the documents holding any of the values, in id order', () => {
    expect(servedPageBody('nested_ids', ['a', 'b'], ['id'], 5000, ['a'])).toMatchInlineSnapshot(`
      {
        "_source": [
          "id",
        ],
        "query": {
          "bool": {
            "filter": [
              {
                "terms": {
                  "nested_ids": [
                    "a",
                    "b",
                  ],
                },
              },
            ],
          },
        },
        "search_after": [
          "a",
        ],
        "size": 5000,
        "sort": [
          {
            "id": "asc",
          },
        ],
        "track_total_hits": false,
      }
    `);
    expect(servedPageBody('id', ['a'], ['id'], 10)).not.toHaveProperty('search_after');
  });

  it('look up at most a size of documents, unsorted', () => {
    expect(servedLookupBody('location_id', ['l1'], ['id'], 10_000)).toEqual({
      size: 10_000,
      _source: ['id'],
      query: { bool: { filter: [{ terms: { location_id: ['l1'] } }] } },
    });
  });
});

describe('record keys', () => {
  it('are built and taken apart in one place; an id may hold a colon', () => {
    expect(recordKey('service', 'abc')).toBe('service:abc');
    expect(parseRecordKey('service:abc')).toEqual({ type: 'service', id: 'abc' });
    expect(parseRecordKey(recordKey('metadata', 'urn:x:1'))).toEqual({ type: 'metadata', id: 'urn:x:1' });
  });
});
