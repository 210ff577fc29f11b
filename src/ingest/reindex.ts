/**
 * Reindex: rebuilds every read index from the records store and swaps the aliases at once.
 *
 * The store documents holding services are read in pages from a point-in-time (one consistent
 * snapshot of the store). A page's bundles bring most of what its services nest; what other
 * documents hold is fetched level by level with terms queries on `parent_ids` and on the keys
 * the records refer to. Each page is reassembled into fully nested services (assemble.ts) and fed
 * to writeReadIndices, which builds the documents with the pure builders. Only one page of
 * records is in memory at a time, whatever the size of the store. Organizations and taxonomies go
 * the same way. A failure anywhere leaves the aliases untouched.
 */
import {
  abandonImportRuns,
  acquireLease,
  type Lease,
  listImportRuns,
  type UnfinishedImport,
  unfinishedImports,
} from '../engine/control.ts';
import type { Engine } from '../engine/engine.ts';
import { EngineNotFoundError } from '../engine/errors.ts';
import {
  countTypesInSnapshot,
  findDocuments,
  openSnapshot,
  overriddenKeys,
  refreshRecords,
  type Snapshot,
  scanDocumentsHolding,
  scanKeysHolding,
  scanOverrideKeys,
} from '../engine/records.ts';
import type {
  OrganizationNested,
  ServiceAreaFull,
  ServiceFull,
  TaxonomyFull,
  TaxonomyTermFull,
} from '../hsds/index.ts';
import {
  type RecordStoreDocument,
  type StoreDocument,
  unpackDocument,
} from '../index-mapping/record-store.document.ts';
import type { AreaGeometry } from '../index-mapping/service-at-location.document.ts';
import { nestRecord, RecordGraph, referenceKeysOf } from './assemble.ts';
import {
  type BuildProgress,
  type ReadIndicesReport,
  type WriteReadIndicesOptions,
  writeReadIndices,
} from './read-indices.writer.ts';
import { BloomFilter } from './seen-records.ts';

export type ReindexProgress = BuildProgress & { totalServices: number };

export type ReindexOptions = {
  onProgress?: (progress: ReindexProgress) => void;
  signal?: AbortSignal;
  /**
   * The reindex lease, when the caller took it already (the admin jobs do, to answer 409 at once);
   * otherwise reindex takes it and releases it at the end.
   */
  lease?: Lease;
  /** Who runs it, as other processes are told while it holds the lease. */
  purpose?: string;
  /** Publish even though an import did not finish (the store may hold part of a source). */
  allowIncomplete?: boolean;
  /** Services reassembled per batch. */
  batchSize?: number;
  bulk?: WriteReadIndicesOptions['bulk'];
};

export type ReindexReport = ReadIndicesReport & {
  /** Store documents holding each type of record (a bundle counts once per type it holds). */
  documents: Record<string, number>;
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

/**
 * Bundled copies that a single document overrides (record-store.document.ts): the keys of the
 * overriding documents in a Bloom filter (fixed memory), a "maybe" settled by asking the snapshot.
 * A store written by one nested import has almost none, and then nothing is asked.
 */
class Overrides {
  private readonly bloom = new BloomFilter(24, 7);
  private count = 0;

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
        if (doc.kind !== 'bundle' || this.count === 0) continue;
        bundled.add(record);
        if (this.bloom.mightContain(record.key)) maybe.push(record.key);
      }
    }
    if (maybe.length === 0) return records;
    const overridden = await overriddenKeys(engine, maybe, snapshot);
    return records.filter((r) => !(bundled.has(r) && overridden.has(r.key)));
  }
}

type Stats = { unresolved: number; read: number; queries: number };

/**
 * The records of a batch of store documents, with everything nested under, or referred to by, the
 * seeds. Most of it comes in the batch's own bundles; what other documents hold (a location first
 * met under another service, a term, rows of a tabular source) is fetched level by level.
 */
async function expand(
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

/** The records store is missing or empty: there is nothing to build, and serving nothing is never wanted. */
export class NothingToIndexError extends Error {
  override readonly name = 'NothingToIndexError';
}

/** An import did not finish: publishing the store now would publish part of a source. */
export class IncompleteImportError extends Error {
  override readonly name = 'IncompleteImportError';
  readonly unfinished: UnfinishedImport[];
  constructor(message: string, unfinished: UnfinishedImport[]) {
    super(message);
    this.unfinished = unfinished;
  }
}

/**
 * Refuses to publish while an import runs or after one was killed or failed, unless allowed;
 * returns the unfinished imports that were allowed.
 */
async function checkImports(engine: Engine, allowIncomplete: boolean): Promise<UnfinishedImport[]> {
  const unfinished = unfinishedImports(await listImportRuns(engine));
  if (unfinished.length === 0) return [];
  const described = unfinished.map((run) =>
    run.why === 'running'
      ? `an import of ${run.source} is running (process ${run.pid} on ${run.host}, since ${run.started_at})`
      : `the import of ${run.source} started at ${run.started_at} ${run.why === 'killed' ? 'was killed before it finished' : `failed (${run.error ?? 'unknown error'})`}`,
  );
  if (allowIncomplete) {
    engine.logger.warn(
      { unfinished: described },
      'publishing a records store that unfinished imports wrote to',
    );
    return unfinished;
  }
  throw new IncompleteImportError(
    `${described.join('; ')}: the records store may hold part of that source. Import it again (imports are idempotent), or reindex with --allow-incomplete to publish what the store holds.`,
    unfinished,
  );
}

/**
 * Rebuilds every read index from the records store under the reindex lease: one reindex at a time
 * across every process sharing the engine, and a reindex that loses its lease never publishes.
 */
export async function reindex(engine: Engine, options: ReindexOptions = {}): Promise<ReindexReport> {
  const lease =
    options.lease ?? (await acquireLease(engine, 'reindex', { purpose: options.purpose ?? 'hsds reindex' }));
  try {
    const allowed = await checkImports(engine, options.allowIncomplete === true);
    const signal = options.signal ? AbortSignal.any([options.signal, lease.lost]) : lease.lost;
    const report = await rebuild(engine, { ...options, signal }, () => lease.renew());
    // Published on purpose without them: they no longer stand in the way of the next reindex.
    await abandonImportRuns(engine, allowed);
    return report;
  } finally {
    if (!options.lease) await lease.release();
  }
}

async function rebuild(
  engine: Engine,
  options: ReindexOptions,
  beforeSwap: () => Promise<void>,
): Promise<ReindexReport> {
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
  if (Object.keys(inSnapshot).length === 0) {
    await snapshot.close();
    throw new NothingToIndexError('the records store is empty: import a source first (hsds import)');
  }
  const batchSize = options.batchSize ?? 500;
  const stats = { unresolved: 0, read: 0, queries: 0 };
  // The geometries of the service areas of the batch being written (stored at import).
  let geometries = new Map<string, AreaGeometry>();

  const shared = new SharedRecords();
  const overrides = await Overrides.load(engine, snapshot).catch(async (error: unknown) => {
    await snapshot.close();
    throw error;
  });
  // Records of each type yielded to the build: each index must end with that many documents.
  const yielded: Record<string, number> = {};

  /**
   * The records of a type, nested, batch by batch. The next batch is fetched while the current
   * one is written (one batch ahead, so memory stays at two batches); services are read in
   * organization order so each organization's records are fetched once.
   */
  async function* nestedOfType<T>(type: string): AsyncGenerator<T> {
    const pages = scanDocumentsHolding(engine, [type], {
      snapshot,
      pageSize: batchSize,
      order: type === 'service' ? 'group' : 'key',
    });
    const load = async () => {
      const page = await pages.next();
      if (page.done) return undefined;
      return expand(engine, page.value, type, snapshot, stats, shared, overrides);
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
      for (const doc of batch.seeds) {
        yielded[type] = (yielded[type] ?? 0) + 1;
        yield nestRecord(batch.graph, doc, nestOptions) as T;
      }
    }
  }

  /**
   * The organizations no service nests (those that services nest are written from them): found
   * from the keys of the documents holding organizations, so only their documents are read.
   */
  let fromServices: ReadonlySet<string> = new Set();
  async function* remainingOrganizations(written: ReadonlySet<string>): AsyncGenerator<OrganizationNested> {
    fromServices = written;
    const prefix = 'organization:';
    for await (const page of scanKeysHolding(engine, 'organization', snapshot)) {
      const missing = page
        .flat()
        .filter((key) => key.startsWith(prefix) && !written.has(key.slice(prefix.length)));
      for (let i = 0; i < missing.length; i += batchSize) {
        options.signal?.throwIfAborted();
        const docs = await findDocuments(engine, 'keys', missing.slice(i, i + batchSize), snapshot);
        const batch = await expand(engine, docs, 'organization', snapshot, stats, shared, overrides);
        for (const doc of batch.seeds) {
          if (written.has(doc.id)) continue;
          yielded.organization = (yielded.organization ?? 0) + 1;
          yield nestRecord(batch.graph, doc) as OrganizationNested;
        }
      }
    }
  }

  try {
    const report = await writeReadIndices(
      engine,
      {
        taxonomies: nestedOfType<TaxonomyFull>('taxonomy'),
        taxonomyTerms: nestedOfType<TaxonomyTermFull>('taxonomy_term'),
        services: nestedOfType<ServiceFull>('service'),
        organizations: remainingOrganizations,
      },
      {
        servicesGroupedByOrganization: true,
        geometryOf: (area: ServiceAreaFull) => geometries.get(area.id),
        ...(options.onProgress
          ? { onProgress: (p: BuildProgress) => options.onProgress?.({ ...p, totalServices }) }
          : {}),
        ...(options.signal ? { signal: options.signal } : {}),
        ...(options.bulk ? { bulk: options.bulk } : {}),
        beforeSwap,
        // One document per record read for these (read when the build checks its counts, after
        // every record was yielded); service_at_locations of missing services are not served.
        expected: {
          get services() {
            return yielded.service ?? 0;
          },
          get organizations() {
            return (yielded.organization ?? 0) + fromServices.size;
          },
          get taxonomies() {
            return yielded.taxonomy ?? 0;
          },
          get taxonomy_terms() {
            return yielded.taxonomy_term ?? 0;
          },
        },
      },
    );
    return {
      ...report,
      documents: inSnapshot,
      unresolved_references: stats.unresolved,
      records_read: stats.read,
      join_queries: stats.queries,
    };
  } finally {
    await snapshot.close();
  }
}
