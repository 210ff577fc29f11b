import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  BloomFilter,
  combinedHash,
  hash64,
  hashRecord,
  RecentHashes,
  RecentWindow,
} from '../../../../src/ingest/records/seen-records.ts';
import {
  guessType,
  readJsonSource,
  streamJsonArray,
  typeOfFile,
} from '../../../../src/ingest/sources/json.source.ts';
import { readTabularSource } from '../../../../src/ingest/sources/tabular.source.ts';

async function* chunksOf(text: string, size: number) {
  for (let i = 0; i < text.length; i += size) yield text.slice(i, i + size);
}

describe('streamJsonArray', () => {
  const items = [{ a: 'x, ] } "quoted" \\ done', b: [1, { c: '[' }] }, { d: null }, 'text', 42, [[]]];
  const text = ` \n${JSON.stringify(items, null, 2)}\n`;

  it.each([1, 2, 3, 7, 64, 100_000])('splits elements whatever the chunk size (%i)', async (size) => {
    const out: unknown[] = [];
    for await (const element of streamJsonArray(chunksOf(text, size))) out.push(JSON.parse(element));
    expect(out).toEqual(items);
  });

  it('reports a truncated array and refuses what is not an array', async () => {
    const read = async (t: string) => {
      for await (const _ of streamJsonArray(chunksOf(t, 5))) {
        // drain
      }
    };
    await expect(read('[{"a": 1}, {"b"')).rejects.toThrow('not closed');
    await expect(read('{"a": 1}')).rejects.toThrow('expected a JSON array');
  });
});

describe('JSON sources', () => {
  it('tell record types from file names, else from the object', () => {
    expect(typeOfFile('/x/taxonomy_terms.json')).toBe('taxonomy_term');
    expect(typeOfFile('taxonomies.json')).toBe('taxonomy');
    expect(typeOfFile('organizations.ndjson')).toBe('organization');
    expect(typeOfFile('services.ndjson')).toBe('service');
    expect(typeOfFile('dump.json')).toBeUndefined();
    expect(guessType({ id: 'x', name: 'n', status: 'active' })).toBe('service');
    expect(guessType({ id: 'x', name: 'n', services: [] })).toBe('organization');
    expect(guessType({ id: 'x', name: 'n', taxonomy_detail: {} })).toBe('taxonomy_term');
  });

  it('read arrays, NDJSON with line numbers, Pages and single objects from a folder', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'hsds-json-'));
    await writeFile(join(dir, 'taxonomies.json'), JSON.stringify([{ id: 't1', name: 'T' }]));
    await writeFile(
      join(dir, 'services.ndjson'),
      '{"id":"s1","name":"A","status":"active"}\n\n{broken\n{"id":"s2"}\n',
    );
    await writeFile(
      join(dir, 'page.json'),
      JSON.stringify({ total_items: 1, contents: [{ id: 'o1', name: 'O', website: 'x' }] }),
    );
    const items = [];
    for await (const item of readJsonSource(dir)) items.push(item);
    expect(
      items.map((i) =>
        i.kind === 'issue' ? `issue ${i.issue.source}` : `${i.type} ${i.origin.slice(dir.length + 1)}`,
      ),
    ).toEqual([
      'taxonomy taxonomies.json[0]',
      'organization page.json#contents[0]',
      'service services.ndjson:1',
      `issue ${join(dir, 'services.ndjson')}:3`,
      'service services.ndjson:4',
    ]);
  });
});

describe('tabular sources', () => {
  it('read the official package, parents first, rows coerced, with line numbers', async () => {
    const items = [];
    for await (const item of readTabularSource('test/fixtures/hsds/examples/csv')) items.push(item);
    expect(items.every((i) => i.kind === 'row')).toBe(true);
    expect(items).toHaveLength(24);
    const [first] = items;
    expect(first).toMatchObject({ kind: 'row', type: 'organization', row: { year_incorporated: 2011 } });
    expect(first?.kind === 'row' && first.origin.endsWith('organizations.csv:2')).toBe(true);
  });
});

describe('the repeat check', () => {
  it('a Bloom filter never forgets a key and rarely imagines one', () => {
    const bloom = new BloomFilter(20, 7); // 1 Mbit, small for the test
    for (let i = 0; i < 50_000; i++) bloom.add(`service:${i}`);
    for (let i = 0; i < 50_000; i++) expect(bloom.mightContain(`service:${i}`)).toBe(true);
    let falsePositives = 0;
    for (let i = 50_000; i < 150_000; i++) if (bloom.mightContain(`service:${i}`)) falsePositives += 1;
    // Theory at 50,000 keys in 2^20 bits with 7 hashes: about 0.2%.
    expect(falsePositives / 100_000).toBeLessThan(0.005);
    expect(new BloomFilter().bytes).toBe(16 * 1024 * 1024);
  });

  it('hashes content and links apart, links in any order', () => {
    const links = new Set(['service_id', 'location_id']);
    const a = hashRecord({ id: 'p', number: '1', service_id: 's', location_id: 'l' }, links);
    const b = hashRecord({ location_id: 'l', id: 'p', service_id: 's', number: '1' }, links);
    const c = hashRecord({ id: 'p', number: '1', service_id: 's' }, links);
    const d = hashRecord({ id: 'p', number: '2', service_id: 's', location_id: 'l' }, links);
    expect(b.links).toBe(a.links);
    expect(c.content).toBe(a.content);
    expect(c.links).not.toBe(a.links);
    expect(d.content).not.toBe(a.content);
    expect(d.links).toBe(a.links);
  });

  it('hashes differently for near keys', () => {
    expect(hash64('phone:a')).not.toEqual(hash64('phone:b'));
    expect(hash64('unit:8896b788')).not.toEqual(hash64('service_capacity:8896b788'));
  });

  it('keeps only the most recent entries of the window', () => {
    const window = new RecentWindow<number>(2);
    window.set('a', 1);
    window.set('b', 2);
    window.set('a', 3);
    window.set('c', 4);
    expect(window.get('b')).toBeUndefined();
    expect(window.get('a')).toBe(3);
    expect(window.get('c')).toBe(4);
  });

  it('keeps at least the last `limit` entries of a long run, and at most a quarter more', () => {
    const window = new RecentWindow<number>(100);
    for (let i = 0; i < 10_000; i++) {
      window.set(`k${i}`, i);
      // An entry refreshed now and then stays however old it is.
      if (i % 50 === 0) window.set('kept', i);
    }
    for (let i = 9_900; i < 10_000; i++) expect(window.get(`k${i}`)).toBe(i);
    expect(window.get('kept')).toBe(9_950);
    const held = Array.from({ length: 10_000 }, (_, i) => window.get(`k${i}`)).filter((v) => v !== undefined);
    expect(held.length).toBeGreaterThanOrEqual(99);
    expect(held.length).toBeLessThanOrEqual(125);
    expect(window.get('k0')).toBeUndefined();
  });

  it('keeps the hashes of the last one to two generations of keys, the newest value winning', () => {
    const recent = new RecentHashes(1000);
    for (let i = 0; i < 5_000; i++) recent.set(`location:${i}`, i);
    recent.set('location:4000', 7);
    // Generations of 1,000 keys: the current one and the one before are kept, older ones forgotten.
    for (let i = 4_000; i < 5_000; i++) expect(recent.get(`location:${i}`)).toBe(i === 4000 ? 7 : i);
    expect(recent.get('location:2999')).toBeUndefined();
    expect(recent.get('location:0')).toBeUndefined();
    expect(recent.get('phone:4500')).toBeUndefined();
    expect(recent.bytes).toBe(2 * 3 * 4 * 2048);
  });

  it('combines two hashes into one that changes with either', () => {
    expect(combinedHash(1, 2)).toBe(combinedHash(1, 2));
    expect(combinedHash(1, 2)).not.toBe(combinedHash(1, 3));
    expect(combinedHash(1, 2)).not.toBe(combinedHash(3, 2));
    expect(combinedHash(1, 2)).not.toBe(combinedHash(2, 1));
  });
});
