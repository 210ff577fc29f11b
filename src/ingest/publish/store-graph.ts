/**
 * Reading records back from the store as nested graphs: a batch of store documents in, the records
 * they hold plus everything nested under, or referred to by, the seeds out. Shared by the full
 * reindex (reindex.ts) and incremental publishing (publish.ts), so both build documents from the
 * same records, resolved by the same rule: a single document wins over a bundled copy of a record.
 */
import type { Engine } from '../../engine/engine.ts';
import { findDocuments, overriddenKeys, type Snapshot, scanOverrideKeys } from '../../engine/records.ts';
import {
  type RecordStoreDocument,
  type StoreDocument,
  unpackDocument,
} from '../../index-mapping/record-store.document.ts';
import { BloomFilter } from '../records/seen-records.ts';
import { RecordGraph, referenceKeysOf } from './assemble.ts';

/**
 * Records that many batches refer to and that never nest anything big (taxonomies, terms and the
 * metadata under them), kept across batches with what is nested under them. Bounded: a directory
 * has a few hundred terms, a large taxonomy some thousands.
 */
export class SharedRecords {
  private readonly docs = new Map<string, { doc: RecordStoreDocument; children: RecordStoreDocument[] }>();
  private readonly limit: number;

  constructor(limit = 20_000) {
    this.limit = limit;
  }

  static isShared(doc: RecordStoreDocument): boolean {
    return doc.type === 'taxonomy_term' || doc.type === 'taxonomy';
  }

  get(key: string) {
    return this.docs.get(key);
  }

  remember(doc: RecordStoreDocument, graph: RecordGraph): void {
    if (this.docs.size >= this.limit || this.docs.has(doc.key)) return;
    this.docs.set(doc.key, { doc, children: [...graph.childrenOf(doc.id)] });
  }
}

/**
 * Bundled copies that a single document overrides (record-store.document.ts): the keys of the
 * overriding documents in a Bloom filter (fixed memory), a "maybe" settled by asking the snapshot.
 * A store written by one nested import has almost none, and then nothing is asked.
 */
export class Overrides {
  private readonly bloom = new BloomFilter(24, 7);
  private count = 0;

  /** Asks the snapshot about every bundled record (for a few batches, cheaper than loading every key). */
  static askAlways(): Overrides {
    const overrides = new Overrides();
    overrides.always = true;
    return overrides;
  }

  private always = false;

  static async load(engine: Engine, snapshot: Snapshot): Promise<Overrides> {
    const overrides = new Overrides();
    for await (const keys of scanOverrideKeys(engine, snapshot)) {
      for (const key of keys) overrides.bloom.add(key);
      overrides.count += keys.length;
    }
    return overrides;
  }

  /** The records of the documents, without the bundled copies a single document overrides. */
  async unpack(
    engine: Engine,
    docs: readonly StoreDocument[],
    snapshot: Snapshot,
  ): Promise<RecordStoreDocument[]> {
    const records: RecordStoreDocument[] = [];
    const maybe: string[] = [];
    const bundled = new Set<RecordStoreDocument>();
    for (const doc of docs) {
      for (const record of unpackDocument(doc)) {
        records.push(record);
        if (doc.kind !== 'bundle' || (this.count === 0 && !this.always)) continue;
        bundled.add(record);
        if (this.always || this.bloom.mightContain(record.key)) maybe.push(record.key);
      }
    }
    if (maybe.length === 0) return records;
    const overridden = await overriddenKeys(engine, maybe, snapshot);
    return records.filter((r) => !(bundled.has(r) && overridden.has(r.key)));
  }
}

export type Stats = { unresolved: number; read: number; queries: number };

/**
 * The records of a batch of store documents, with everything nested under, or referred to by, the
 * seeds. Most of it comes in the batch's own bundles; what other documents hold (a location first
 * met under another service, a term, rows of a tabular source) is fetched level by level.
 */
export async function expand(
  engine: Engine,
  page: readonly StoreDocument[],
  seedType: string,
  snapshot: Snapshot,
  stats: Stats,
  shared: SharedRecords,
  overrides: Overrides,
): Promise<{ graph: RecordGraph; seeds: RecordStoreDocument[] }> {
  const graph = new RecordGraph();
  const loaded = new Set(page.map((doc) => doc.key));
  const seeds: RecordStoreDocument[] = [];
  for (const record of await overrides.unpack(engine, page, snapshot)) {
    stats.read += 1;
    if (graph.add(record) && record.type === seedType) seeds.push(record);
  }
  // Ids whose children are in the graph (or asked for), and keys whose references were followed:
  // a shared record from the cache comes with its children but its references are still followed.
  const expanded = new Set<string>();
  const followed = new Set<string>();
  const toRemember: RecordStoreDocument[] = [];
  let frontier = seeds;
  while (frontier.length > 0) {
    const parentIds = new Set<string>();
    for (const doc of frontier) {
      followed.add(doc.key);
      if (!expanded.has(doc.id)) {
        expanded.add(doc.id);
        parentIds.add(doc.id);
      }
    }
    const wanted = new Set<string>();
    const next: RecordStoreDocument[] = [];
    // What the graph holds already (the same bundles) is expanded in the next round.
    for (const id of parentIds) next.push(...graph.childrenOf(id));
    for (const doc of frontier) {
      for (const key of referenceKeysOf(doc)) {
        const held = graph.byKey.get(key);
        if (held) {
          next.push(held);
          continue;
        }
        if (wanted.has(key)) continue;
        const cached = shared.get(key);
        if (!cached) {
          wanted.add(key);
          continue;
        }
        // A shared record comes with what is nested under it, so it needs no query of its own;
        // what it refers to (a term's taxonomy) is followed in the next round.
        graph.add(cached.doc);
        expanded.add(cached.doc.id);
        for (const child of cached.children) {
          graph.add(child);
          expanded.add(child.id);
        }
        next.push(cached.doc, ...cached.children);
      }
    }
    const except = [...loaded];
    const [children, referenced] = await Promise.all([
      parentIds.size > 0 ? findDocuments(engine, 'parent_ids', [...parentIds], snapshot, except) : [],
      wanted.size > 0 ? findDocuments(engine, 'keys', [...wanted], snapshot, except) : [],
    ]);
    stats.queries += (parentIds.size > 0 ? 1 : 0) + (wanted.size > 0 ? 1 : 0);
    const fetched = [...children, ...referenced].filter((doc) => {
      if (loaded.has(doc.key)) return false;
      loaded.add(doc.key);
      return true;
    });
    const found = new Set<string>();
    for (const record of await overrides.unpack(engine, fetched, snapshot)) {
      stats.read += 1;
      if (!graph.add(record)) continue;
      if (wanted.has(record.key)) {
        found.add(record.key);
        next.push(record);
        if (SharedRecords.isShared(record)) toRemember.push(record);
      } else if (record.parent_ids.some((id) => parentIds.has(id))) {
        next.push(record);
      }
    }
    stats.unresolved += wanted.size - found.size;
    frontier = next.filter((doc) => !followed.has(doc.key));
  }
  // Fetched shared records are complete now (their metadata came in a later round): remember them.
  for (const doc of toRemember) shared.remember(doc, graph);
  return { graph, seeds };
}
