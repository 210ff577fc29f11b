/**
 * What an import (or a deletion) changed in the records store, for incremental publishing
 * (publish.ts): record keys (`type:id`) added, changed or removed.
 *
 * Each batch of changes is logged in the control index as pending BEFORE the store is written, so
 * a process killed between writing the store and publishing leaves its changes for the next
 * publish to complete (an import run again would find nothing changed). Once published, the
 * entries are marked done. `all` means everything is new (the store was empty: a full reindex
 * publishes it), or more changed than is worth tracking one by one; nothing is logged then.
 */
import { type ChangeHandle, logChange } from '../../engine/control.ts';
import type { Engine } from '../../engine/engine.ts';
import { heldHashes, storedHashes } from '../../engine/records.ts';
import {
  keyOfHashEntry,
  parseHashes,
  type StoreDocument,
} from '../../index-mapping/record-store.document.ts';

export class ChangeSet {
  readonly keys = new Set<string>();
  all = false;
  /** The log entries written so far; marked done once the changes are published. */
  readonly logged: ChangeHandle[] = [];
  private unlogged: string[] = [];
  /** `key#hash` of records that left a document: changes only if that content is nowhere at the end. */
  private movedOut: string[] = [];
  private readonly engine: Engine;
  private readonly limit: number;

  constructor(engine: Engine, limit = 200_000) {
    this.engine = engine;
    this.limit = limit;
  }

  add(key: string): void {
    if (this.all || this.keys.has(key)) return;
    this.keys.add(key);
    this.unlogged.push(key);
    if (this.keys.size > this.limit) this.everything();
  }

  everything(): void {
    this.all = true;
    this.keys.clear();
    this.unlogged = [];
    this.movedOut = [];
  }

  /** Logs the keys added since the last call as pending (call before the store changes). */
  async log(): Promise<void> {
    if (this.all || this.unlogged.length === 0) return;
    const keys = this.unlogged;
    this.unlogged = [];
    this.logged.push(await logChange(this.engine, keys));
  }

  /**
   * Notes, and logs, the records of the documents about to be written whose content the store does
   * not hold. A record's content changed in its document is a change. A record new to a document
   * is one only if no document holds that content already: an item that now brings a shared
   * record first (a taxonomy term, an organization) bundles it without changing it. A record that
   * left a document is settled at the end (settleMoved): a change only if its content is gone.
   */
  async compare(docs: readonly StoreDocument[]): Promise<void> {
    if (this.all || docs.length === 0) return;
    const stored = await storedHashes(this.engine, [...new Set(docs.map((d) => d.key))]);
    const arrived: string[] = [];
    for (const doc of docs) {
      const before = stored.get(doc.key);
      const now = parseHashes(doc.hashes);
      for (const [key, hash] of now) {
        const was = before?.get(key);
        if (was === hash) continue;
        if (was === undefined && hash !== '') arrived.push(`${key}#${hash}`);
        else this.add(key);
      }
      for (const [key, hash] of before ?? []) {
        if (now.has(key)) continue;
        if (hash === '') this.add(key);
        else this.movedOut.push(`${key}#${hash}`);
      }
    }
    if (this.movedOut.length > this.limit) this.everything();
    if (arrived.length > 0 && !this.all) {
      const held = await heldHashes(this.engine, arrived);
      for (const entry of arrived) if (!held.has(entry)) this.add(keyOfHashEntry(entry));
    }
    await this.log();
  }

  /** After every document is written (and a refresh): records that left a document and are nowhere now. */
  async settleMoved(): Promise<void> {
    const entries = [...new Set(this.movedOut)];
    this.movedOut = [];
    if (this.all || entries.length === 0) return;
    const held = await heldHashes(this.engine, entries);
    for (const entry of entries) if (!held.has(entry)) this.add(keyOfHashEntry(entry));
    await this.log();
  }

  /** Marks the logged entries published. */
  async published(): Promise<void> {
    for (const handle of this.logged.splice(0)) await handle.done();
  }
}
