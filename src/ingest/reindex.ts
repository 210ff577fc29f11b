/**
 * Reindex: rebuilds every read index from the records store and swaps the aliases at once.
 *
 * Services are read in pages from a point-in-time (one consistent snapshot of the store); for
 * each page the records nested under them are fetched level by level with terms queries on
 * `parent_ids` plus the records they refer to by key, the page is reassembled into fully nested
 * services (assemble.ts) and fed to writeReadIndices, which builds the documents with the pure
 * builders. Only one page of records is in memory at a time, whatever the size of the store.
 * Organizations and taxonomies go the same way. A failure anywhere leaves the aliases untouched.
 */
import type { Engine } from '../engine/engine.ts';
import { EngineNotFoundError } from '../engine/errors.ts';
import {
  countTypesInSnapshot,
  findByKeys,
  findChildren,
  openSnapshot,
  refreshRecords,
  type Snapshot,
  scanRecordsOfType,
} from '../engine/records.ts';
import type {
  OrganizationNested,
  ServiceAreaFull,
  ServiceFull,
  TaxonomyFull,
  TaxonomyTermFull,
} from '../hsds/index.ts';
import type { RecordStoreDocument } from '../index-mapping/record-store.document.ts';
import type { AreaGeometry } from '../index-mapping/service-at-location.document.ts';
import { nestRecord, RecordGraph, referenceKeysOf } from './assemble.ts';
import {
  type BuildProgress,
  type ReadIndicesReport,
  type WriteReadIndicesOptions,
  writeReadIndices,
} from './read-indices.writer.ts';

export type ReindexProgress = BuildProgress & { totalServices: number };

export type ReindexOptions = {
  onProgress?: (progress: ReindexProgress) => void;
  signal?: AbortSignal;
  /** Services reassembled per batch. */
  batchSize?: number;
  bulk?: WriteReadIndicesOptions['bulk'];
};

export type ReindexReport = ReadIndicesReport & {
  records: number;
  /** References to records the store does not hold (e.g. a location that was never imported). */
  unresolved_references: number;
  /** Records read to reassemble the batches (shared ones count again in every batch that reads them). */
  records_read: number;
  /** Join queries sent (children and references). */
  join_queries: number;
};

/**
 * Records that many batches refer to and that never nest anything big (taxonomies, terms and the
 * metadata under them), kept across batches with what is nested under them. Bounded: a directory
 * has a few hundred terms, a large taxonomy some thousands.
 */
class SharedRecords {
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

/** Fetches everything nested under, or referred to by, the seed records into one graph. */
async function expand(
  engine: Engine,
  seeds: RecordStoreDocument[],
  snapshot: Snapshot,
  stats: { unresolved: number; read: number; queries: number },
  shared: SharedRecords,
): Promise<RecordGraph> {
  const graph = new RecordGraph();
  const expanded = new Set<string>();
  const toRemember: RecordStoreDocument[] = [];
  let frontier = seeds.filter((doc) => graph.add(doc));
  while (frontier.length > 0) {
    const parentIds = new Set<string>();
    for (const doc of frontier) {
      if (!expanded.has(doc.id)) {
        expanded.add(doc.id);
        parentIds.add(doc.id);
      }
    }
    const wanted = new Set<string>();
    const next: RecordStoreDocument[] = [];
    for (const doc of frontier) {
      for (const key of referenceKeysOf(doc)) {
        if (graph.byKey.has(key) || wanted.has(key)) continue;
        const cached = shared.get(key);
        if (!cached) {
          wanted.add(key);
          continue;
        }
        // A shared record comes with what is nested under it, so it needs no query of its own.
        graph.add(cached.doc);
        expanded.add(cached.doc.id);
        const ids = new Set([cached.doc.id]);
        for (const child of cached.children) {
          graph.add(child);
          graph.addChild(child, ids);
          expanded.add(child.id);
        }
        next.push(cached.doc);
      }
    }
    const [children, referenced] = await Promise.all([
      parentIds.size > 0 ? findChildren(engine, [...parentIds], snapshot) : [],
      wanted.size > 0 ? findByKeys(engine, [...wanted], snapshot) : [],
    ]);
    stats.unresolved += wanted.size - referenced.length;
    stats.read += children.length + referenced.length;
    stats.queries += (parentIds.size > 0 ? 1 : 0) + (wanted.size > 0 ? 1 : 0);
    for (const child of children) {
      graph.addChild(child, parentIds);
      if (graph.add(child)) next.push(child);
      else graph.addChild(graph.byKey.get(child.key)!, parentIds);
    }
    for (const doc of referenced) {
      if (graph.add(doc)) next.push(doc);
      if (SharedRecords.isShared(doc)) toRemember.push(doc);
    }
    // Cached records' own references (a term's taxonomy) still need resolving: keep them in the
    // frontier, but not those whose children came from the cache (already expanded).
    frontier = next;
  }
  // Fetched shared records are complete now (their metadata came in a later round): remember them.
  for (const doc of toRemember) shared.remember(doc, graph);
  return graph;
}

/** The records store is missing or empty: there is nothing to build, and serving nothing is never wanted. */
export class NothingToIndexError extends Error {
  override readonly name = 'NothingToIndexError';
}

export async function reindex(engine: Engine, options: ReindexOptions = {}): Promise<ReindexReport> {
  try {
    await refreshRecords(engine);
  } catch (error) {
    if (error instanceof EngineNotFoundError) {
      throw new NothingToIndexError('there is no records store yet: import a source first (hsds import)');
    }
    throw error;
  }
  const snapshot = await openSnapshot(engine);
  const inSnapshot = await countTypesInSnapshot(engine, snapshot).catch(async (error: unknown) => {
    await snapshot.close();
    throw error;
  });
  const totalServices = inSnapshot.service ?? 0;
  const records = Object.values(inSnapshot).reduce((a, b) => a + b, 0);
  if (records === 0) {
    await snapshot.close();
    throw new NothingToIndexError('the records store is empty: import a source first (hsds import)');
  }
  const batchSize = options.batchSize ?? 500;
  const stats = { unresolved: 0, read: 0, queries: 0 };
  // The geometries of the service areas of the batch being written (stored at import).
  let geometries = new Map<string, AreaGeometry>();

  const shared = new SharedRecords();

  /**
   * The records of a type, nested, batch by batch. The next batch is fetched while the current
   * one is written (one batch ahead, so memory stays at two batches); services are read in
   * organization order so each organization's records are fetched once.
   */
  async function* nestedOfType<T>(type: string): AsyncGenerator<T> {
    const pages = scanRecordsOfType(engine, [type], {
      snapshot,
      pageSize: batchSize,
      order: type === 'service' ? 'group' : 'key',
    });
    const load = async () => {
      const page = await pages.next();
      if (page.done) return undefined;
      return { page: page.value, graph: await expand(engine, page.value, snapshot, stats, shared) };
    };
    let next = load();
    for (;;) {
      options.signal?.throwIfAborted();
      const batch = await next;
      if (!batch) return;
      next = load();
      // Keep the prefetch's rejection observed until it is awaited.
      next.catch(() => {});
      const batchGeometries = new Map<string, AreaGeometry>();
      const nestOptions = {
        onServiceArea: (doc: RecordStoreDocument) => {
          if (doc.geometry) batchGeometries.set(doc.id, doc.geometry);
        },
      };
      geometries = batchGeometries;
      for (const doc of batch.page) yield nestRecord(batch.graph, doc, nestOptions) as T;
    }
  }

  try {
    const report = await writeReadIndices(
      engine,
      {
        taxonomies: nestedOfType<TaxonomyFull>('taxonomy'),
        taxonomyTerms: nestedOfType<TaxonomyTermFull>('taxonomy_term'),
        services: nestedOfType<ServiceFull>('service'),
        organizations: nestedOfType<OrganizationNested>('organization'),
      },
      {
        geometryOf: (area: ServiceAreaFull) => geometries.get(area.id),
        ...(options.onProgress
          ? { onProgress: (p: BuildProgress) => options.onProgress?.({ ...p, totalServices }) }
          : {}),
        ...(options.signal ? { signal: options.signal } : {}),
        ...(options.bulk ? { bulk: options.bulk } : {}),
        // One document per record for these; service_at_locations of missing services are not served.
        expected: {
          services: inSnapshot.service ?? 0,
          organizations: inSnapshot.organization ?? 0,
          taxonomies: inSnapshot.taxonomy ?? 0,
          taxonomy_terms: inSnapshot.taxonomy_term ?? 0,
        },
      },
    );
    return {
      ...report,
      records,
      unresolved_references: stats.unresolved,
      records_read: stats.read,
      join_queries: stats.queries,
    };
  } finally {
    await snapshot.close();
  }
}
