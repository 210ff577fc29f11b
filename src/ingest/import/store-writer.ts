/**
 * The import's write step: what goes into the records store, and in which documents. It owns the
 * bulk writer, the external versions, the bundle of the item being read, the documents queued for
 * the check against earlier runs (the override decision: a record another document holds already
 * is written on its own, and wins), and the change detection (ChangeSet.compare) before each write.
 */
import {
  type BulkFailure,
  type BulkWriter,
  type BulkWriterOptions,
  createBulkWriter,
} from '../../engine/bulk.ts';
import type { Engine } from '../../engine/engine.ts';
import { heldElsewhere, recordsIndex } from '../../engine/records.ts';
import {
  type RecordStoreDocument,
  type StoreDocument,
  toBundleDocument,
  toRecordStoreDocument,
  toSingleDocument,
} from '../../index-mapping/record-store.document.ts';
import type { ChangeSet } from '../records/changes.ts';
import type { FlatRecord } from '../records/flatten.ts';
import { parentIdsOf } from '../records/nesting.ts';

/** How the import's bulk writers write: request size and concurrency, and the run's abort signal. */
export type WriteOptions = {
  bulk?: Pick<BulkWriterOptions, 'flushBytes' | 'concurrency'>;
  signal?: AbortSignal;
};

/** Documents checked against earlier runs together (one search per this many). */
const QUEUE_SIZE = 500;

type Queued = { doc: StoreDocument; version: string; bundled?: RecordStoreDocument[] };

export class StoreWriter {
  /** What the engine refused, reported at the end of the run (end-steps.ts). */
  readonly refused: BulkFailure[] = [];
  private readonly engine: Engine;
  private readonly run: number;
  private readonly earlierRuns: boolean;
  private readonly changes: ChangeSet;
  private readonly source: string;
  private readonly writer: BulkWriter;
  private readonly index: string;
  // Writes of one key may travel in concurrent bulk requests (a record, then the same record
  // merged with a parent met later): external versions make the later write win whatever order
  // they arrive in, and a later run's versions are higher still (the clock in ms, times a million).
  private readonly versionBase: bigint;
  private versionSeq = 0n;
  // Documents waiting for the check against earlier runs (none when the store was empty).
  private queued: Queued[] = [];
  // The records the item being read brings for the first time (a nested item: one bundle).
  private bundle: Map<string, RecordStoreDocument> | undefined;
  private bundleVersion = '';

  /**
   * `earlierRuns`: the store held records before this run, so a record first met in this run may
   * be held by another document already, and must then be written on its own to win over it.
   */
  constructor(
    engine: Engine,
    run: number,
    earlierRuns: boolean,
    changes: ChangeSet,
    /** The feed's name, stored as each record's source. */
    source: string,
    options: WriteOptions,
  ) {
    this.engine = engine;
    this.run = run;
    this.earlierRuns = earlierRuns;
    this.changes = changes;
    this.source = source;
    this.index = recordsIndex(engine);
    this.versionBase = BigInt(run) * 1_000_000n;
    this.writer = createBulkWriter(engine, {
      ...options.bulk,
      ...(options.signal ? { signal: options.signal } : {}),
      onFailure: (failure) => this.refused.push(failure),
    });
  }

  private nextVersion(): string {
    this.versionSeq += 1n;
    return (this.versionBase + this.versionSeq).toString();
  }

  /** An item starts: the records a nested item brings for the first time go into one bundle. */
  beginItem(nested: boolean): void {
    this.bundle = nested ? new Map() : undefined;
  }

  /**
   * A record to store: into the item's bundle when it is new to this run, else (`overrides`: met
   * before in this run with other content or parents) in a document of its own, which wins.
   */
  async put(flat: FlatRecord, record: Record<string, unknown>, overrides: boolean): Promise<void> {
    const doc = toRecordStoreDocument(
      flat.type,
      flat.id,
      record,
      parentIdsOf(flat.type, record),
      this.source,
      flat.geometry,
    );
    if (this.bundle && !overrides) {
      // A bundle's version is taken with its first record: lower than that of any record of
      // the same item written on its own after it (the last one wins).
      if (this.bundle.size === 0) this.bundleVersion = this.nextVersion();
      this.bundle.set(doc.key, doc);
    } else await this.store(toSingleDocument(doc, this.run, overrides));
  }

  /** The item is read: its bundle, if it brought any record, is stored. */
  async endItem(): Promise<void> {
    if (!this.bundle || this.bundle.size === 0) return;
    const records = [...this.bundle.values()];
    this.bundle = undefined;
    await this.store(toBundleDocument(records, this.run), records, this.bundleVersion);
  }

  /** Everything stored so far is sent to the engine (before the store is read back). */
  async flush(): Promise<void> {
    await this.settleQueued();
    await this.writer.flush();
  }

  /** The last documents are written, and the writer closed; `refused` is complete after. */
  async close(): Promise<void> {
    await this.settleQueued();
    await this.writer.close();
  }

  private async store(doc: StoreDocument, bundled?: RecordStoreDocument[], version = this.nextVersion()) {
    if (!this.earlierRuns) {
      await this.writer.index(this.index, doc.key, doc, version);
      return;
    }
    this.queued.push({ doc, version, ...(bundled ? { bundled } : {}) });
    if (this.queued.length >= QUEUE_SIZE) await this.settleQueued();
  }

  // The override decision against earlier runs, then change detection, then the writes.
  private async settleQueued(): Promise<void> {
    const batch = this.queued;
    this.queued = [];
    const keys = batch.flatMap((q) => q.doc.keys);
    const elsewhere =
      keys.length > 0
        ? await heldElsewhere(
            this.engine,
            keys,
            batch.map((q) => q.doc.key),
            this.run,
          )
        : new Set<string>();
    const toWrite: { doc: StoreDocument; version: string }[] = [];
    for (const { doc, version, bundled } of batch) {
      if (doc.kind === 'single' && elsewhere.has(doc.key)) doc.overrides = true;
      toWrite.push({ doc, version });
      // A bundled record some other document holds too: its own copy wins. Its version is the
      // bundle's, lower than any copy written later in this run for the same key.
      for (const record of bundled ?? []) {
        if (elsewhere.has(record.key))
          toWrite.push({ doc: toSingleDocument(record, this.run, true), version });
      }
    }
    await this.changes.compare(toWrite.map((w) => w.doc));
    for (const { doc, version } of toWrite) await this.writer.index(this.index, doc.key, doc, version);
  }
}
