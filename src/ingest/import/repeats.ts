/**
 * The import's repeat check: whether this run met a record's key before, and with what. It owns
 * the recent window (records kept whole), the hashes of many more keys (two generations), the
 * Bloom filter of every key, the batch's settled "maybe"s, and the rule for a record met again:
 * the same record is a repeat (nothing to write); other content or other parents merge, the
 * parents from both, the content of the last (which is written on its own and wins).
 */

import type { RecordType } from '../../hsds/index.ts';
import type { RecordStoreDocument } from '../../index-mapping/record-store.document.ts';
import type { FlatRecord, Issue } from '../records/flatten.ts';
import { linkFieldsOf, recordKey } from '../records/nesting.ts';
import {
  BloomFilter,
  combinedHash,
  hashRecord,
  RecentHashes,
  RecentWindow,
} from '../records/seen-records.ts';

/** A flat record with its store key and the hashes of its content and of its parent links. */
export type Hashed = { flat: FlatRecord; key: string; content: number; links: number };
export const hashed = (flat: FlatRecord): Hashed => ({
  flat,
  key: recordKey(flat.type, flat.id),
  ...hashRecord(flat.record, linkFieldsOf(flat.type)),
});

type WindowEntry = { record: Record<string, unknown>; origin: string; content: number; links: number };

/** What meeting a record means for the import. */
export type Meeting =
  /** First met in this run: written, counted, its links checked. */
  | { kind: 'first' }
  /** The same record again: nothing to write. */
  | { kind: 'repeat' }
  /**
   * Met before with other content (`changed`) or other parents: `merged` is written on its own.
   * `conflicts` names the parent fields whose value changed; `first` is where it was met first.
   */
  | { kind: 'again'; merged: Record<string, unknown>; changed: boolean; conflicts: string[]; first: string };

function splitLinks(type: RecordType, record: Record<string, unknown>) {
  const linkFields = linkFieldsOf(type);
  const content: Record<string, unknown> = {};
  const links: Record<string, unknown> = {};
  for (const key in record) {
    if (linkFields.has(key)) links[key] = record[key];
    else content[key] = record[key];
  }
  return { content, links };
}

/**
 * A record met again with other content or other parents: the parents of both, the content of
 * the later. `conflicts` names the parent fields whose value changed.
 */
export function mergeRepeated(
  type: RecordType,
  earlier: Record<string, unknown>,
  later: Record<string, unknown>,
): { merged: Record<string, unknown>; conflicts: string[] } {
  const linkValues = splitLinks(type, later).links;
  const before = splitLinks(type, earlier).links;
  const conflicts = Object.keys(linkValues).filter(
    (field) => before[field] !== undefined && before[field] !== linkValues[field],
  );
  const merged = { ...later };
  for (const field in before) if (merged[field] === undefined) merged[field] = before[field];
  return { merged, conflicts };
}

/** The warning for a record met again with other content (`changed`) or other parents (`conflicts`). */
export function repeatIssue(
  flat: FlatRecord,
  origin: string,
  meeting: { changed: boolean; conflicts: readonly string[]; first: string },
): Issue {
  const what = meeting.changed
    ? 'appears again with different content'
    : `appears again under another ${meeting.conflicts.join(', ')}`;
  return {
    severity: 'warning',
    kind: 'duplicate',
    source: origin,
    record_type: flat.type,
    record_id: flat.id,
    path: flat.path,
    reason: `${flat.type} ${flat.id} ${what} (first at ${meeting.first}); the last one is kept`,
  };
}

/** Reads back the stored records of the keys (the store flushed and refreshed first). */
export type ReadBack = (keys: string[]) => Promise<Map<string, RecordStoreDocument & { run: number }>>;

export class Repeats {
  private readonly bloom = new BloomFilter();
  private readonly window: RecentWindow<WindowEntry>;
  private readonly seenHashes: RecentHashes;
  private batchSeen = new Map<string, WindowEntry>();
  private stored = new Map<string, WindowEntry>();

  private readonly run: number;

  constructor(run: number, options: { windowSize?: number; recentHashes?: number }) {
    this.run = run;
    this.window = new RecentWindow<WindowEntry>(options.windowSize ?? 20_000);
    this.seenHashes = new RecentHashes(options.recentHashes);
  }

  /**
   * Whether this run wrote a key before. The recent window knows exactly (and keeps the
   * record); beyond it the Bloom filter says "no" for certain or "maybe". Items are taken in
   * batches, and the batch's "maybe"s are settled before it is written, all at once, by reading
   * the stored records (a search, after one refresh: they may be in bundles): written by this
   * run when their run is this one. One refresh per batch, not per record: a source whose items
   * repeat a record far apart (an organization's services spread through the file) meets a
   * "maybe" in most items.
   */
  async settleMaybes(
    records: Iterable<{ key: string; content: number; links: number }>,
    readBack: ReadBack,
  ): Promise<void> {
    this.batchSeen = new Map();
    this.stored = new Map();
    const maybe: string[] = [];
    for (const { key, content, links } of records) {
      // Held by the window now, but the batch may push it out: kept for the batch.
      const recent = this.window.get(key);
      if (recent) this.batchSeen.set(key, recent);
      else if (!this.isRepeat(key, content, links) && this.bloom.mightContain(key)) maybe.push(key);
    }
    if (maybe.length === 0) return;
    for (const [key, doc] of await readBack(maybe)) {
      if (doc.run !== this.run) continue;
      this.stored.set(key, {
        record: doc.record,
        origin: 'an earlier item',
        ...hashRecord(doc.record, linkFieldsOf(doc.type as RecordType)),
      });
    }
  }

  /** Meets a record of the batch (after settleMaybes), and remembers it. */
  meet({ flat, key, ...hashes }: Hashed, origin: string): Meeting {
    const earlier = this.earlierInThisRun(key);
    if (!earlier && this.isRepeat(key, hashes.content, hashes.links)) {
      // The same record again, written by an item beyond the window: kept recent, not read back.
      this.remember(key, { record: flat.record, origin: 'an earlier item', ...hashes });
      return { kind: 'repeat' };
    }
    if (!earlier) {
      this.bloom.add(key);
      this.remember(key, { record: flat.record, origin, ...hashes });
      return { kind: 'first' };
    }
    if (earlier.content === hashes.content && earlier.links === hashes.links) {
      this.remember(key, earlier); // a repeat: keep it recent, records repeated often stay in memory
      return { kind: 'repeat' };
    }

    const { merged, conflicts } = mergeRepeated(flat.type, earlier.record, flat.record);
    const changed = earlier.content !== hashes.content;
    this.remember(key, { record: merged, origin, ...hashRecord(merged, linkFieldsOf(flat.type)) });
    return { kind: 'again', merged, changed, conflicts, first: earlier.origin };
  }

  /** What this run met under the key before (after settleMaybes), if anything: its record and origin. */
  earlier(key: string): { record: Record<string, unknown>; origin: string; content: number } | undefined {
    return this.earlierInThisRun(key);
  }

  private earlierInThisRun(key: string): WindowEntry | undefined {
    return this.window.get(key) ?? this.batchSeen.get(key) ?? this.stored.get(key);
  }

  private remember(key: string, entry: WindowEntry): void {
    this.window.set(key, entry);
    this.batchSeen.set(key, entry);
    this.seenHashes.set(key, combinedHash(entry.content, entry.links));
  }

  // A record met again beyond the window, with the hashes of what this run wrote for its key.
  private isRepeat(key: string, content: number, links: number): boolean {
    return this.seenHashes.get(key) === combinedHash(content, links);
  }
}
