/**
 * The pure pieces incremental publishing stands on: the ids a read document is found by, the
 * record hashes an import compares, a bundle without deleted records, and the change-feed query.
 */
import { describe, expect, it } from 'vitest';
import { nestedIdsOf } from '../../../src/index-mapping/nested-ids.ts';
import {
  parseHashes,
  recordHash,
  toBundleDocument,
  toRecordStoreDocument,
  withoutRecords,
} from '../../../src/index-mapping/record-store.document.ts';
import { includeDeleted } from '../../../src/index-mapping/tombstone.document.ts';

const record = (type: string, id: string, fields: Record<string, unknown>, parents: string[] = []) =>
  toRecordStoreDocument(type, id, { id, ...fields }, parents, 'feed');

describe('nestedIdsOf', () => {
  it('lists every id and *_id value at any depth, once, and nothing else', () => {
    const ids = nestedIdsOf({
      id: 's1',
      organization_id: 'o1',
      name: 'not an id',
      organization: { id: 'o1', locations: [{ id: 'l1', organization_id: 'o1' }] },
      service_at_locations: [
        { id: 'sal1', location_id: 'l2', location: { id: 'l2', addresses: [{ id: 'a1' }] } },
      ],
      attributes: [{ id: 'at1', taxonomy_term_id: 't1', taxonomy_term: { id: 't1', taxonomy_id: 'x1' } }],
      url: 'https://example.org/id',
      empty_id: '',
    });
    expect(ids.sort()).toEqual(['a1', 'at1', 'l1', 'l2', 'o1', 's1', 'sal1', 't1', 'x1']);
  });
});

describe('record hashes', () => {
  it('change with a field, a parent or a geometry, and not with key order of the document', () => {
    const base = record('phone', 'p1', { number: '1' }, ['s1']);
    expect(recordHash(base)).toBe(recordHash(record('phone', 'p1', { number: '1' }, ['s1'])));
    expect(recordHash(base)).not.toBe(recordHash(record('phone', 'p1', { number: '2' }, ['s1'])));
    expect(recordHash(base)).not.toBe(recordHash(record('phone', 'p1', { number: '1' }, ['s2'])));
    expect(recordHash({ ...base, geometry: { type: 'Point', coordinates: [0, 0] } } as never)).not.toBe(
      recordHash(base),
    );
  });

  it('are carried per record by a bundle, and read back as a map', () => {
    const bundle = toBundleDocument(
      [record('service', 's1', { name: 'A' }), record('phone', 'p1', { number: '1' }, ['s1'])],
      1,
    );
    const hashes = parseHashes(bundle.hashes);
    expect([...hashes.keys()]).toEqual(['service:s1', 'phone:p1']);
    expect(hashes.get('phone:p1')).toBe(recordHash(record('phone', 'p1', { number: '1' }, ['s1'])));
  });
});

describe('withoutRecords', () => {
  const bundle = toBundleDocument(
    [
      record('service', 's1', { name: 'A' }),
      record('phone', 'p1', { number: '1' }, ['s1']),
      record('location', 'l1', { name: 'Hall' }, ['o1']),
    ],
    1,
  );

  it('keeps the bundle id and drops the records, their keys, ids, types, parents and hashes', () => {
    const kept = withoutRecords(bundle, new Set(['phone:p1', 'service:s1']))!;
    expect(kept.key).toBe(bundle.key);
    expect(kept.key).toMatch(/^item:[0-9a-f]{10}:service:s1$/);
    expect(kept.keys).toEqual(['location:l1']);
    expect(kept.ids).toEqual(['l1']);
    expect(kept.types).toEqual(['location']);
    expect(kept.parent_ids).toEqual(['o1']);
    expect([...parseHashes(kept.hashes).keys()]).toEqual(['location:l1']);
    expect(kept.records).toHaveLength(1);
  });

  it('says nothing is left, and leaves an untouched document as it is', () => {
    expect(withoutRecords(bundle, new Set(bundle.keys))).toBeUndefined();
    expect(withoutRecords(bundle, new Set(['phone:other']))).toBe(bundle);
  });
});

describe('includeDeleted', () => {
  const list = {
    index: 'services' as const,
    query: { match_all: {} },
    sort: [{ id: { order: 'asc' } }],
    source: ['record.id', 'record.last_modified'],
    batchSize: 500,
  };

  it('adds the tombstones of the type since the time, and their fields to a partial source', () => {
    const request = includeDeleted(list, '2026-01-01T00:00:00Z');
    expect(request.alsoIndices).toEqual(['tombstones']);
    expect(request.source).toEqual(
      expect.arrayContaining(['record.id', 'record.last_modified', 'record.deleted', 'record.deleted_at']),
    );
    const should = (request.query as { bool: { should: unknown[] } }).bool.should;
    expect(should[0]).toEqual({
      bool: { must: [{ match_all: {} }], must_not: [{ exists: { field: 'deleted_at' } }] },
    });
    expect(should[1]).toEqual({
      bool: {
        filter: [
          { term: { record_type: 'service' } },
          { range: { deleted_at: { gte: '2026-01-01T00:00:00Z' } } },
        ],
      },
    });
  });

  it('keeps a whole-record source whole', () => {
    expect(includeDeleted({ ...list, index: 'taxonomies', source: ['record'] }, undefined).source).toEqual([
      'record',
    ]);
  });
});
