/**
 * PackedIdSet: a set of ids that mostly arrive in ascending order, held as their UTF-8 bytes in
 * fixed-size chunks with one offset and one length per id, instead of a JS Set of strings.
 *
 * A build remembers every organization it wrote from the services (a million services: 374,692
 * ids). A Set of them held about 80 bytes an id (the string's header and body, the table's entry);
 * packed they take their bytes and 6 more. The services come grouped by organization in the
 * engine's key order, so ids arrive ascending; one that does not (another order, a repeat after a
 * gap) goes to a small Set beside the packed ids, so membership never depends on the order, only
 * the memory does.
 */

const CHUNK_BYTES = 1 << 16;
const MAX_CHUNKS = 1 << 16;

/** What a build needs of the ids it wrote: membership and a count. */
export type IdMembership = {
  has(id: string): boolean;
  readonly size: number;
};

export class PackedIdSet implements IdMembership {
  private readonly chunks: Buffer[] = [];
  /** Used bytes of the last chunk. */
  private used = 0;
  /** Per packed id (ascending by bytes): chunk index * CHUNK_BYTES + offset, and byte length. */
  private starts = new Uint32Array(1024);
  private lengths = new Uint16Array(1024);
  private packed = 0;
  private readonly unordered = new Set<string>();
  /** Where an id is encoded to be compared (reused: one id at a time). */
  private scratch = Buffer.allocUnsafeSlow(256);

  get size(): number {
    return this.packed + this.unordered.size;
  }

  add(id: string): this {
    if (this.unordered.has(id)) return this;
    const length = this.encode(id);
    const bytes = this.scratch.subarray(0, length);
    // Only ids after the last packed one (byte order, as the engine sorts keywords) are packed;
    // a chunk never splits an id, so one as long as a chunk is kept as a string, as is every id
    // past the 4 GiB that a packed id's 32-bit start can address.
    const after = this.packed === 0 || this.compareAt(this.packed - 1, bytes) < 0;
    if (!after) {
      if (!this.findPacked(bytes)) this.unordered.add(id);
      return this;
    }
    const full = this.chunks.length === 0 || this.used + length > CHUNK_BYTES;
    if (length >= CHUNK_BYTES || (full && this.chunks.length >= MAX_CHUNKS)) {
      this.unordered.add(id);
      return this;
    }
    if (full) {
      this.chunks.push(Buffer.allocUnsafeSlow(CHUNK_BYTES));
      this.used = 0;
    }
    const chunk = this.chunks.length - 1;
    bytes.copy(this.chunks[chunk] as Buffer, this.used);
    if (this.packed === this.starts.length) this.grow();
    this.starts[this.packed] = chunk * CHUNK_BYTES + this.used;
    this.lengths[this.packed] = length;
    this.packed += 1;
    this.used += length;
    return this;
  }

  has(id: string): boolean {
    if (this.unordered.has(id)) return true;
    if (this.packed === 0) return false;
    return this.findPacked(this.scratch.subarray(0, this.encode(id)));
  }

  /** Binary search of the packed ids. */
  private findPacked(bytes: Buffer): boolean {
    let low = 0;
    let high = this.packed - 1;
    while (low <= high) {
      const middle = (low + high) >>> 1;
      const order = this.compareAt(middle, bytes);
      if (order === 0) return true;
      if (order < 0) low = middle + 1;
      else high = middle - 1;
    }
    return false;
  }

  /** Writes the id's UTF-8 bytes at the start of the scratch buffer (grown as needed): their length. */
  private encode(id: string): number {
    // UTF-8 takes at most 3 bytes per UTF-16 code unit.
    if (id.length * 3 > this.scratch.length) this.scratch = Buffer.allocUnsafeSlow(id.length * 3);
    return this.scratch.write(id, 0, 'utf8');
  }

  /** The packed id at `index` against `bytes`: negative, zero or positive. */
  private compareAt(index: number, bytes: Buffer): number {
    const start = this.starts[index] as number;
    const chunk = this.chunks[Math.floor(start / CHUNK_BYTES)] as Buffer;
    const offset = start % CHUNK_BYTES;
    const length = this.lengths[index] as number;
    const common = Math.min(length, bytes.length);
    // Byte by byte in JS: ids are short, and Buffer#compare's range checks cost more than this.
    for (let i = 0; i < common; i++) {
      const difference = (chunk[offset + i] as number) - (bytes[i] as number);
      if (difference !== 0) return difference;
    }
    return length - bytes.length;
  }

  private grow(): void {
    const starts = new Uint32Array(this.starts.length * 2);
    starts.set(this.starts);
    this.starts = starts;
    const lengths = new Uint16Array(this.lengths.length * 2);
    lengths.set(this.lengths);
    this.lengths = lengths;
  }
}
