/**
 * What an import has already written, in memory that does not grow with the dataset: a Bloom
 * filter of the keys (a "no" is certain, a "maybe" is settled by reading the store), a window of
 * the most recent records kept whole, the hashes of many more recent keys, and hashes that tell a
 * repeat (the same record again, as the official examples repeat a phone under its service, its
 * contact and its location) from a duplicate (the same id with other content) without serialising
 * anything.
 */

/** Two independent 32-bit FNV-1a style hashes of a string (together 64 bits). */
export function hash64(text: string): [number, number] {
  let h1 = 0x811c9dc5;
  let h2 = 0x9e3779b9;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    h1 = Math.imul(h1 ^ c, 0x01000193);
    h2 = Math.imul(h2 ^ c, 0x5bd1e995);
    h2 ^= h2 >>> 15;
  }
  h1 ^= h1 >>> 13;
  h1 = Math.imul(h1, 0x85ebca6b);
  h1 ^= h1 >>> 16;
  h2 = Math.imul(h2 ^ (h2 >>> 13), 0xc2b2ae35);
  h2 ^= h2 >>> 16;
  return [h1 >>> 0, h2 >>> 0];
}

/**
 * Whether a key may have been seen, in fixed memory whatever the number of keys: a Bloom filter
 * (2^27 bits, 16 MB, 7 hashes: about 1 false positive in 100,000 at 4 million keys). A "maybe" is
 * checked against the store; a "no" is certain.
 */
export class BloomFilter {
  private readonly bits: Uint32Array;
  private readonly mask: number;
  private readonly hashes: number;
  private readonly positions: Uint32Array;

  constructor(log2Bits = 27, hashes = 7) {
    this.bits = new Uint32Array(2 ** (log2Bits - 5));
    this.mask = 2 ** log2Bits - 1;
    this.hashes = hashes;
    this.positions = new Uint32Array(hashes);
  }

  get bytes(): number {
    return this.bits.byteLength;
  }

  /**
   * The key's k bit positions, into a buffer reused by every call (a generator or a fresh array
   * here cost more than the hashing). Double hashing: h1 + i·h2 gives k independent-enough hashes.
   */
  private positionsOf(key: string): Uint32Array {
    const [h1, h2] = hash64(key);
    const step = h2 | 1;
    for (let i = 0; i < this.hashes; i++) this.positions[i] = (h1 + Math.imul(i, step)) & this.mask;
    return this.positions;
  }

  add(key: string): void {
    for (const p of this.positionsOf(key)) this.bits[p >>> 5]! |= 1 << (p & 31);
  }

  mightContain(key: string): boolean {
    for (const p of this.positionsOf(key)) if ((this.bits[p >>> 5]! & (1 << (p & 31))) === 0) return false;
    return true;
  }
}

/**
 * The most recent entries, oldest evicted first (a Map keeps insertion order): at least the last
 * `limit` set, at most a quarter more. Evicting one entry per insertion would walk, each time, over
 * the holes deleted entries leave at the front of a Map until V8 rehashes it: 14 us an insertion
 * at 20,000 entries, a fifth of an import's CPU. Trimming a quarter at once costs under 1 us.
 */
export class RecentWindow<T> {
  private entries = new Map<string, T>();
  private readonly limit: number;
  private readonly slack: number;

  constructor(limit: number) {
    this.limit = limit;
    this.slack = Math.max(1, limit >> 2);
  }

  get(key: string): T | undefined {
    return this.entries.get(key);
  }

  set(key: string, value: T): void {
    this.entries.delete(key);
    this.entries.set(key, value);
    if (this.entries.size < this.limit + this.slack) return;
    const drop = this.entries.size - this.limit;
    const kept = new Map<string, T>();
    let seen = 0;
    for (const [k, v] of this.entries) if (seen++ >= drop) kept.set(k, v);
    this.entries = kept;
  }
}

const FNV_PRIME = 0x01000193;

function mixString(h: number, text: string): number {
  let x = h;
  for (let i = 0; i < text.length; i++) x = Math.imul(x ^ text.charCodeAt(i), FNV_PRIME);
  return x;
}

function mixValue(h: number, value: unknown): number {
  switch (typeof value) {
    case 'string':
      return mixString(Math.imul(h ^ 0x73, FNV_PRIME), value);
    case 'number':
    case 'boolean':
      return mixString(Math.imul(h ^ 0x6e, FNV_PRIME), String(value));
    default:
      // Extension fields may hold objects; rare enough to serialise.
      return mixString(Math.imul(h ^ 0x6f, FNV_PRIME), JSON.stringify(value) ?? 'undefined');
  }
}

/**
 * Hashes of a flat record's content and of its parent links, in one pass and without building
 * strings (this runs for every record met, repeats included). Links are hashed in any order.
 */
export function hashRecord(
  record: Record<string, unknown>,
  linkFields: ReadonlySet<string>,
): { content: number; links: number } {
  let content = 0x811c9dc5;
  let links = 0;
  for (const key in record) {
    const value = record[key];
    if (linkFields.has(key)) {
      links = (links + (mixValue(mixString(0x811c9dc5, key), value) >>> 0)) >>> 0;
    } else {
      content = mixValue(mixString(content, key), value);
    }
  }
  return { content: content >>> 0, links };
}

/** One value for a record's two hashes: equal when both are (and, but for 1 in 2^32, only then). */
export const combinedHash = (content: number, links: number): number =>
  (Math.imul(content ^ (content >>> 16), 0x85ebca6b) ^ links) >>> 0;

/** An open-addressing table from a key's 64-bit hash to a 32-bit value, in typed arrays. */
class HashTable {
  readonly high: Uint32Array;
  readonly low: Uint32Array;
  readonly values: Uint32Array;
  private readonly mask: number;
  size = 0;

  constructor(slots: number) {
    this.high = new Uint32Array(slots);
    this.low = new Uint32Array(slots);
    this.values = new Uint32Array(slots);
    this.mask = slots - 1;
  }

  /** The slot holding the key, or the empty one where it would go. A low half of 0 marks empty. */
  slotOf(high: number, low: number): number {
    let slot = high & this.mask;
    while (this.low[slot] !== 0 && (this.low[slot] !== low || this.high[slot] !== high)) {
      slot = (slot + 1) & this.mask;
    }
    return slot;
  }

  clear(): void {
    this.low.fill(0);
    this.size = 0;
  }
}

/**
 * The hashes, not the records, of many more recent keys than the window keeps, in fixed memory:
 * two generations of a table keyed by a 64-bit hash of the key, each taking up to `perGeneration`
 * keys (about 12 bytes a slot, 25 MB in all by default); when the current one is full it becomes
 * the previous one, and the oldest keys are forgotten. A record met again beyond the window with
 * the same hashes is a repeat, known without reading the store. In a source whose organizations'
 * services are spread through the file (sorted by name, say), that is most repeats.
 */
export class RecentHashes {
  private current: HashTable;
  private previous: HashTable;
  private readonly limit: number;

  constructor(perGeneration = 700_000) {
    // Slots a power of two, at most 70% full.
    const slots = 2 ** Math.ceil(Math.log2(Math.max(16, perGeneration / 0.7)));
    this.current = new HashTable(slots);
    this.previous = new HashTable(slots);
    this.limit = perGeneration;
  }

  get bytes(): number {
    return 2 * 3 * this.current.low.byteLength;
  }

  private static hashOf(key: string): [number, number] {
    const [h1, h2] = hash64(key);
    return [h1, (h2 | 1) >>> 0];
  }

  get(key: string): number | undefined {
    const [high, low] = RecentHashes.hashOf(key);
    const slot = this.current.slotOf(high, low);
    if (this.current.low[slot] !== 0) return this.current.values[slot];
    const older = this.previous.slotOf(high, low);
    return this.previous.low[older] !== 0 ? this.previous.values[older] : undefined;
  }

  set(key: string, value: number): void {
    const [high, low] = RecentHashes.hashOf(key);
    let table = this.current;
    if (table.size >= this.limit) {
      this.previous.clear();
      [this.current, this.previous] = [this.previous, this.current];
      table = this.current;
    }
    const slot = table.slotOf(high, low);
    if (table.low[slot] === 0) {
      table.high[slot] = high;
      table.low[slot] = low;
      table.size += 1;
    }
    table.values[slot] = value;
  }
}
