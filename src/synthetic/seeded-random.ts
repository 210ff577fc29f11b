// Seeded randomness and identifiers for the synthetic data generator.
//
// Every organization draws from its own stream, keyed by (seed, organization index), so the data of
// one organization does not depend on how many came before it: a dataset of 1,000 services is a
// prefix of the dataset of 2,000 with the same seed, and organizations can be produced without
// producing services.

/** A 32-bit hash of a seed; numbers and their decimal strings hash alike (42 and '42'). */
export function hashSeed(seed: number | string): number {
  const text = String(seed);
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return mix32(h);
}

/** A bijective 32-bit mixer (the murmur3 finaliser). */
function mix32(x: number): number {
  let z = x | 0;
  z = Math.imul(z ^ (z >>> 16), 0x85ebca6b);
  z = Math.imul(z ^ (z >>> 13), 0xc2b2ae35);
  return (z ^ (z >>> 16)) >>> 0;
}

/**
 * sfc32: 128 bits of state, so streams seeded from different keys do not overlap in practice
 * (a 32-bit generator such as mulberry32 walks one shared cycle, and tens of thousands of
 * streams would often overlap). Fast: four 32-bit operations per draw.
 */
export class SeededRandom {
  #a: number;
  #b: number;
  #c: number;
  #d: number;

  constructor(seedHash: number, stream: number) {
    this.#a = mix32(seedHash ^ 0x9e3779b9);
    this.#b = mix32(stream + 0x7f4a7c15);
    this.#c = mix32((seedHash + Math.imul(stream, 0x85ebca6b)) | 0);
    this.#d = 1;
    for (let i = 0; i < 12; i++) this.uint32();
  }

  uint32(): number {
    const t = (((this.#a + this.#b) | 0) + this.#d) | 0;
    this.#d = (this.#d + 1) | 0;
    this.#a = this.#b ^ (this.#b >>> 9);
    this.#b = (this.#c + (this.#c << 3)) | 0;
    this.#c = (this.#c << 21) | (this.#c >>> 11);
    this.#c = (this.#c + t) | 0;
    return t >>> 0;
  }

  /** Uniform in [0, 1). */
  next(): number {
    return this.uint32() / 4294967296;
  }

  /** Uniform integer in [min, max], both inclusive. */
  int(min: number, max: number): number {
    return min + Math.floor(this.next() * (max - min + 1));
  }

  /** Uniform real in [min, max). */
  real(min: number, max: number): number {
    return min + this.next() * (max - min);
  }

  chance(probability: number): boolean {
    return this.next() < probability;
  }

  pick<T>(items: readonly T[]): T {
    const item = items[Math.floor(this.next() * items.length)];
    if (item === undefined) throw new Error('pick from an empty list');
    return item;
  }

  /** Index drawn with the given relative weights. */
  weighted(weights: readonly number[]): number {
    let total = 0;
    for (const w of weights) total += w;
    let r = this.next() * total;
    for (let i = 0; i < weights.length; i++) {
      r -= weights[i] ?? 0;
      if (r < 0) return i;
    }
    return weights.length - 1;
  }

  /** `count` distinct items, in draw order (partial Fisher-Yates on a copy). */
  sample<T>(items: readonly T[], count: number): T[] {
    const pool = items.slice();
    const n = Math.min(count, pool.length);
    for (let i = 0; i < n; i++) {
      const j = i + Math.floor(this.next() * (pool.length - i));
      const tmp = pool[i] as T;
      pool[i] = pool[j] as T;
      pool[j] = tmp;
    }
    return pool.slice(0, n);
  }
}

const HEX = Array.from({ length: 256 }, (_, i) => i.toString(16).padStart(2, '0'));

function hex16(n: number): string {
  return HEX[(n >>> 8) & 255]! + HEX[n & 255]!;
}

function hex32(n: number): string {
  return HEX[(n >>> 24) & 255]! + HEX[(n >>> 16) & 255]! + HEX[(n >>> 8) & 255]! + HEX[n & 255]!;
}

/**
 * Identifiers are a keyed permutation of (organization index, sequence number within it), so
 * they are unique by construction, not just by luck, and they look random. A four-round Feistel
 * network over the two 32-bit halves is a bijection whatever its round function; all 64 output
 * bits are kept in the uuid, around the version nibble (4) and the RFC 4122 variant bits.
 */
export function formatSyntheticUuid(seedHash: number, group: number, sequence: number): string {
  let left = group >>> 0;
  let right = sequence >>> 0;
  for (let round = 0; round < 4; round++) {
    const next = (left ^ mix32((right ^ Math.imul(seedHash + round, 0x9e3779b1)) | 0)) >>> 0;
    left = right;
    right = next;
  }
  const filler = mix32(left ^ mix32(right ^ seedHash));
  const timeMid = hex16(right >>> 16);
  const version = hex16(0x4000 | ((right >>> 4) & 0xfff));
  const variant = hex16(0x8000 | ((right & 0xf) << 10) | (filler & 0x3ff));
  const node = hex16(filler >>> 10) + hex32(mix32(filler));
  return `${hex32(left)}-${timeMid}-${version}-${variant}-${node}`;
}

/** Hands out the uuids of one organization's records in order. */
export class IdSequence {
  readonly #seedHash: number;
  readonly #group: number;
  #sequence = 0;

  constructor(seedHash: number, group: number) {
    this.#seedHash = seedHash;
    this.#group = group;
  }

  next(): string {
    return formatSyntheticUuid(this.#seedHash, this.#group, this.#sequence++);
  }
}
