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
import {
  countRecords,
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
};

/** Fetches everything nested under, or referred to by, the seed records into one graph. */
async function expand(
  engine: Engine,
  seeds: RecordStoreDocument[],
  snapshot: Snapshot,
  stats: { unresolved: number },
): Promise<RecordGraph> {
  const graph = new RecordGraph();
  const expanded = new Set<string>();
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
    for (const doc of frontier) {
      for (const key of referenceKeysOf(doc)) if (!graph.byKey.has(key)) wanted.add(key);
    }
    const [children, referenced] = await Promise.all([
      parentIds.size > 0 ? findChildren(engine, [...parentIds], snapshot) : [],
      wanted.size > 0 ? findByKeys(engine, [...wanted], snapshot) : [],
    ]);
    stats.unresolved += wanted.size - referenced.length;
    const next: RecordStoreDocument[] = [];
    for (const child of children) {
      graph.addChild(child, parentIds);
      if (graph.add(child)) next.push(child);
      else graph.addChild(graph.byKey.get(child.key)!, parentIds);
    }
    for (const doc of referenced) if (graph.add(doc)) next.push(doc);
    frontier = next;
  }
  return graph;
}

export async function reindex(engine: Engine, options: ReindexOptions = {}): Promise<ReindexReport> {
  await refreshRecords(engine);
  const totalServices = await countRecords(engine, ['service']);
  const records = await countRecords(engine);
  const snapshot = await openSnapshot(engine);
  const batchSize = options.batchSize ?? 500;
  const stats = { unresolved: 0 };
  // The geometries of the service areas of the batch being written (stored at import).
  let geometries = new Map<string, AreaGeometry>();
  const pageOptions = { snapshot, pageSize: batchSize };

  async function* nestedOfType<T>(type: string): AsyncGenerator<T> {
    for await (const page of scanRecordsOfType(engine, [type], pageOptions)) {
      options.signal?.throwIfAborted();
      const graph = await expand(engine, page, snapshot, stats);
      const batchGeometries = new Map<string, AreaGeometry>();
      const nestOptions = {
        onServiceArea: (doc: RecordStoreDocument) => {
          if (doc.geometry) batchGeometries.set(doc.id, doc.geometry);
        },
      };
      const nested = page.map((doc) => nestRecord(graph, doc, nestOptions) as T);
      geometries = batchGeometries;
      yield* nested;
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
      },
    );
    return { ...report, records, unresolved_references: stats.unresolved };
  } finally {
    await snapshot.close();
  }
}
