import { describe, expect, it } from 'vitest';
import {
  skipValue,
  sliceGetRecord,
  sliceMgetRecords,
  sliceSearchHits,
} from '../../../src/engine/raw-json.ts';

const tricky = {
  id: 'a"b\\c',
  name: 'Braces { } [ ] and "quotes" and commas, colons: \u00e9\u{1F372}',
  nested: { list: [1, -2.5e3, true, false, null, { x: '}' }], empty: {}, none: [] },
  record: 'a string named like the key',
};

/** Random JSON values, deterministic: strings with the characters that break naive scanners. */
function randomValue(seed: number, depth = 0): unknown {
  let state = seed;
  const r = (n: number) => {
    state = (state * 1103515245 + 12345) % 2147483648;
    return state % n;
  };
  const kind = r(depth > 3 ? 4 : 6);
  const chars = ['a', '"', '\\', '{', '}', '[', ']', ',', ':', ' ', '\n', '\u2028', '\u00e9', '\t'];
  if (kind === 0) return Array.from({ length: r(8) }, () => chars[r(chars.length)]).join('');
  if (kind === 1) return r(1000) - 500 + r(100) / 7;
  if (kind === 2) return [true, false, null][r(3)];
  if (kind === 3) return `s${r(100)}`;
  if (kind === 4) return Array.from({ length: r(4) }, (_, i) => randomValue(seed + i, depth + 1));
  return Object.fromEntries(
    Array.from({ length: r(4) }, (_, i) => [
      `k${i}${chars[r(chars.length)]}`,
      randomValue(seed + i * 7, depth + 1),
    ]),
  );
}

describe('raw JSON slicing', () => {
  it('skips values of every kind', () => {
    const text = JSON.stringify(tricky);
    expect(skipValue(text, 0)).toBe(text.length);
    expect(skipValue('"a\\"b" rest', 0)).toBe(6);
    expect(skipValue('123,', 0)).toBe(3);
    expect(skipValue('{"a": [1, 2', 0)).toBe(-1);
  });

  it('slices the record of a get response, whatever it holds', () => {
    const response = { _index: 'x', _id: '1', found: true, _source: { id: '1', name: 'n', record: tricky } };
    expect(JSON.parse(sliceGetRecord(JSON.stringify(response))!)).toEqual(tricky);
    expect(JSON.parse(sliceGetRecord(JSON.stringify(response, null, 2))!)).toEqual(tricky);
    expect(sliceGetRecord(JSON.stringify({ _index: 'x', found: false }))).toBeUndefined();
  });

  it('slices the record of each document of a multi-get response, in order, missing ones undefined', () => {
    const response = {
      docs: [
        { _index: 'x', _id: '1', found: true, _source: { id: '1', record: tricky } },
        { _index: 'x', _id: '2', found: false },
        { _index: 'y', _id: '3', error: { type: 'index_not_found_exception' } },
        { _index: 'x', _id: '4', found: true, _source: { record: { id: '4' }, name: 'after' } },
        { _index: 'x', _id: '5', error: { type: 'no_shard_available_action_exception', reason: 'x' } },
      ],
    };
    for (const text of [JSON.stringify(response), JSON.stringify(response, null, 2)]) {
      const records = sliceMgetRecords(text)!;
      expect(records).toHaveLength(5);
      expect(JSON.parse(records[0]!)).toEqual(tricky);
      expect(records[1]).toBeUndefined();
      expect(records[2]).toBeUndefined();
      expect(JSON.parse(records[3]!)).toEqual({ id: '4' });
      // A document the engine could not read is not "not found" (the API answers 503, not 404).
      expect(records[4]).toBeNull();
    }
    expect(sliceMgetRecords(JSON.stringify({ error: 'x' }))).toBeUndefined();
    expect(sliceMgetRecords('{"docs": [{"_source": ')).toBeUndefined();
  });

  it('slices every hit of a search response, with the total, point in time and last sort values', () => {
    const records = Array.from({ length: 50 }, (_, i) => ({ id: i, value: randomValue(i + 1) }));
    const response = {
      pit_id: 'p"1',
      hits: {
        total: { value: 1234, relation: 'eq' },
        hits: records.map((record, i) => ({ _source: { name: 'x', record }, sort: ['b"}', i] })),
      },
    };
    const sliced = sliceSearchHits(JSON.stringify(response))!;
    expect(sliced.records.map((t) => JSON.parse(t))).toEqual(records);
    expect(sliced).toMatchObject({ total: 1234, pitId: 'p"1', lastSort: ['b"}', 49] });
  });

  it('reads random responses as a parser does, in any member order and spacing', () => {
    for (let seed = 1; seed <= 200; seed++) {
      const records = Array.from({ length: seed % 7 }, (_, i) => randomValue(seed * 31 + i));
      const hits = records.map((record, i) =>
        i % 2 === 0
          ? { sort: [randomValue(seed + i), i], _source: { [`k\\"${i}`]: randomValue(i), record } }
          : { _source: { record, after: randomValue(seed - i) }, sort: [i] },
      );
      const response = { took: 3, hits: { hits, total: { value: seed } }, pit_id: `p${seed}` };
      const text = JSON.stringify(response, null, seed % 3);
      const sliced = sliceSearchHits(text)!;
      expect(sliced.records.map((t) => JSON.parse(t))).toEqual(records);
      expect(sliced.lastSort).toEqual(hits.at(-1)?.sort);
      expect(sliced.sorts.map((t) => (t === undefined ? undefined : JSON.parse(t)))).toEqual(
        hits.map((hit) => hit.sort),
      );
      expect(sliced).toMatchObject({ total: seed, pitId: `p${seed}` });
      const get = { _id: String(seed), _source: { before: records, record: records[0] ?? {}, after: seed } };
      expect(JSON.parse(sliceGetRecord(JSON.stringify(get, null, seed % 2))!)).toEqual(records[0] ?? {});
    }
  });

  it('answers an empty result and leaves malformed text to the caller', () => {
    expect(sliceSearchHits('{"hits":{"hits":[]}}')).toEqual({
      total: undefined,
      pitId: undefined,
      records: [],
      sorts: [],
      lastSort: undefined,
    });
    expect(sliceSearchHits('{}')?.records).toEqual([]);
    expect(sliceSearchHits('{"hits":{"hits":[{"_source":')).toBeUndefined();
    expect(sliceSearchHits('not json')).toBeUndefined();
  });
});
