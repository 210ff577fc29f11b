import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { partitionStream, streamOrder } from '../../../src/index-mapping/search.query.ts';
import { buildServiceSearch } from '../../../src/index-mapping/service-search.query.ts';

type Range = { gte?: string; lt?: string };
type PartQuery = { bool: { must: unknown[]; filter: { range: { id: Range } }[] } };

/** Whether an id falls in a part's id range, compared as the engine compares keywords (by bytes). */
const inRange = (id: string, range: Range) =>
  (range.gte === undefined || Buffer.compare(Buffer.from(id), Buffer.from(range.gte)) >= 0) &&
  (range.lt === undefined || Buffer.compare(Buffer.from(id), Buffer.from(range.lt)) < 0);

const rangeOf = (query: unknown) => (query as PartQuery).bool.filter[0]!.range.id;

describe('partitionStream', () => {
  const dump = streamOrder(buildServiceSearch({ organizationId: randomUUID() }, 'list'));

  it('cuts a stream in index order into parts that keep its query, order and fields', () => {
    const parts = partitionStream(dump);
    expect(parts).toHaveLength(2);
    for (const part of parts) {
      expect((part.query as PartQuery).bool.must).toEqual([dump.query]);
      expect(part.sort).toEqual(dump.sort);
      expect(part.source).toEqual(dump.source);
    }
  });

  it('puts every id in exactly one part, whatever its shape', () => {
    const ids = [
      ...Array.from({ length: 2000 }, () => randomUUID()),
      ...Array.from({ length: 50 }, () => randomUUID().toUpperCase()),
      '0',
      '7fffffff',
      '8',
      '8000',
      'zzz',
      '',
      'é-accented',
      '-leading-dash',
    ];
    for (const cuts of [['8'], ['4', '8', 'c'], ['a']]) {
      const ranges = partitionStream(dump, cuts).map((part) => rangeOf(part.query));
      for (const id of ids) {
        expect({ id, parts: ranges.filter((range) => inRange(id, range)).length }).toEqual({ id, parts: 1 });
      }
    }
  });

  it('halves random UUIDs with the default cut', () => {
    const ranges = partitionStream(dump).map((part) => rangeOf(part.query));
    const ids = Array.from({ length: 4000 }, () => randomUUID());
    const first = ids.filter((id) => inRange(id, ranges[0]!)).length;
    expect(first / ids.length).toBeGreaterThan(0.45);
    expect(first / ids.length).toBeLessThan(0.55);
  });

  it('keeps a stream whose order means something (relevance) in one walk', () => {
    const ranked = streamOrder(buildServiceSearch({ search: 'food bank' }, 'list'));
    expect(partitionStream(ranked)).toEqual([ranked]);
  });
});
