/**
 * What an import has already written, in little memory: a hash table from a 64-bit hash of each
 * record's key to 32-bit hashes of its content and of its parent links, in typed arrays (16 bytes
 * a record, about 20 MB per million records). It tells a repeat (the same record again, as the
 * official examples repeat a phone under its service, contact and location) from a duplicate (the
 * same id with other content), without keeping the records themselves.
 *
 * A small window of the most recent records keeps them whole, so the common case (a record met
 * again within the same item or the next few) merges in memory; older ones are read back from the
 * store.
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

export const hash32 = (text: string): number => hash64(text)[0];

export type Seen = { content: number; links: number };

export class SeenRecords {
  private hi: Uint32Array;
  private lo: Uint32Array;
  private content: Uint32Array;
  private links: Uint32Array;
  private used = 0;

  constructor(initialCapacity = 1 << 16) {
    const capacity = 1 << Math.ceil(Math.log2(Math.max(16, initialCapacity)));
    this.hi = new Uint32Array(capacity);
    this.lo = new Uint32Array(capacity);
    this.content = new Uint32Array(capacity);
    this.links = new Uint32Array(capacity);
  }

  get size(): number {
    return this.used;
  }

  get bytes(): number {
    return this.hi.byteLength * 4;
  }

  private slot(hi: number, lo: number): number {
    const mask = this.hi.length - 1;
    let i = (lo ^ Math.imul(hi, 0x9e3779b1)) & mask;
    // (0, 0) marks an empty slot; a key hashing to it is stored as (0, 1).
    while (this.hi[i] !== 0 || this.lo[i] !== 0) {
      if (this.hi[i] === hi && this.lo[i] === lo) return i;
      i = (i + 1) & mask;
    }
    return i;
  }

  private static normalise(key: string): [number, number] {
    const [hi, lo] = hash64(key);
    return hi === 0 && lo === 0 ? [0, 1] : [hi, lo];
  }

  get(key: string): Seen | undefined {
    const [hi, lo] = SeenRecords.normalise(key);
    const i = this.slot(hi, lo);
    if (this.hi[i] === 0 && this.lo[i] === 0) return undefined;
    return { content: this.content[i]!, links: this.links[i]! };
  }

  set(key: string, seen: Seen): void {
    const [hi, lo] = SeenRecords.normalise(key);
    let i = this.slot(hi, lo);
    if (this.hi[i] === 0 && this.lo[i] === 0) {
      if ((this.used + 1) * 10 > this.hi.length * 7) {
        this.grow();
        i = this.slot(hi, lo);
      }
      this.used += 1;
      this.hi[i] = hi;
      this.lo[i] = lo;
    }
    this.content[i] = seen.content;
    this.links[i] = seen.links;
  }

  private grow(): void {
    const { hi, lo, content, links } = this;
    const capacity = hi.length * 2;
    this.hi = new Uint32Array(capacity);
    this.lo = new Uint32Array(capacity);
    this.content = new Uint32Array(capacity);
    this.links = new Uint32Array(capacity);
    for (let j = 0; j < hi.length; j++) {
      if (hi[j] === 0 && lo[j] === 0) continue;
      const i = this.slot(hi[j]!, lo[j]!);
      this.hi[i] = hi[j]!;
      this.lo[i] = lo[j]!;
      this.content[i] = content[j]!;
      this.links[i] = links[j]!;
    }
  }
}

/** The most recent entries, oldest evicted first (a Map keeps insertion order). */
export class RecentWindow<T> {
  private readonly entries = new Map<string, T>();
  private readonly limit: number;

  constructor(limit: number) {
    this.limit = limit;
  }

  get(key: string): T | undefined {
    return this.entries.get(key);
  }

  set(key: string, value: T): void {
    this.entries.delete(key);
    this.entries.set(key, value);
    if (this.entries.size > this.limit) {
      const oldest = this.entries.keys().next().value;
      if (oldest !== undefined) this.entries.delete(oldest);
    }
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
