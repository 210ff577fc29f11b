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
} from '../../engine/control.ts';
import { hideMergedRecords } from '../../engine/duplicates.ts';
import type { Engine } from '../../engine/engine.ts';
import { EngineNotFoundError } from '../../engine/errors.ts';
import type { ReadIndexBuild } from '../../engine/indices.ts';
import {
  countTypesInSnapshot,
  findDocuments,
  openSnapshot,
  refreshRecords,
  type Snapshot,
  scanDocumentsHolding,
  scanKeysHolding,
} from '../../engine/records.ts';
import { ensureTombstonesIndex } from '../../engine/tombstones.ts';
import type {
  OrganizationNested,
  ServiceAreaFull,
  ServiceFull,
  TaxonomyFull,
  TaxonomyTermFull,
} from '../../hsds/index.ts';
import type { RecordStoreDocument } from '../../index-mapping/record-store.document.ts';
import type { AreaGeometry } from '../../index-mapping/service-at-location.document.ts';
import { nestRecord } from './assemble.ts';
import type { IdMembership } from './packed-id-set.ts';
import { replayChanges } from './publish.ts';
import {
  type BuildProgress,
  type ReadIndicesReport,
  type WriteReadIndicesOptions,
  writeReadIndices,
} from './read-indices.writer.ts';
import { expand, Overrides, SharedRecords } from './store-graph.ts';

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

/** Change entries are stamped by the clock of the process that logged them; hosts differ a little. */
const CLOCK_MARGIN_MS = 5000;

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
    // Lists with include_deleted search it beside the read indices.
    await ensureTombstonesIndex(engine);
    const allowed = await checkImports(engine, options.allowIncomplete === true);
    const signal = options.signal ? AbortSignal.any([options.signal, lease.lost]) : lease.lost;
    // Changes published to the live indices while this builds are replayed into the build before
    // the swap, and those published during that replay once more after it: none is lost.
    const since = Date.now() - CLOCK_MARGIN_MS;
    let replayedFrom = since;
    const report = await buildAndSwap(engine, { ...options, signal }, async (build) => {
      await lease.renew();
      const replayStarted = Date.now() - CLOCK_MARGIN_MS;
      await replayChanges(engine, since, build.indices, signal);
      // Records marked as duplicates of others are served once (src/duplicates): not in the build.
      await hideMergedRecords(engine, build.indices);
      replayedFrom = replayStarted;
      await lease.renew();
    });
    await replayChanges(engine, replayedFrom, undefined, signal);
    // Published on purpose without them: they no longer stand in the way of the next reindex.
    await abandonImportRuns(engine, allowed);
    return report;
  } finally {
    if (!options.lease) await lease.release();
  }
}

/**
 * A point in time over the records store for a build, with what it holds per type and the records
 * that override others; NothingToIndexError when there is no store or it is empty.
 */
async function openBuildSnapshot(engine: Engine) {
  try {
    await refreshRecords(engine);
  } catch (error) {
    if (error instanceof EngineNotFoundError) {
      throw new NothingToIndexError('there is no records store yet: import a source first (hsds import)');
    }
    throw error;
  }
  const snapshot = await openSnapshot(engine);
  try {
    const inSnapshot = await countTypesInSnapshot(engine, snapshot);
    if (Object.keys(inSnapshot).length === 0) {
      throw new NothingToIndexError('the records store is empty: import a source first (hsds import)');
    }
    const overrides = await Overrides.load(engine, snapshot);
    return { snapshot, inSnapshot, overrides };
  } catch (error) {
    await snapshot.close();
    throw error;
  }
}

/**
 * The store's records as a build reads them, nested, from one snapshot: each type batch by batch
 * (nestedOfType), then the organizations no service nests (remainingOrganizations), counting what
 * each yields (the counts each index must end with) and keeping the service areas' geometries of
 * the batch being written.
 */
function storeSources(
  engine: Engine,
  { snapshot, overrides }: { snapshot: Snapshot; overrides: Overrides },
  options: ReindexOptions,
) {
  const batchSize = options.batchSize ?? 500;
  const stats = { unresolved: 0, read: 0, queries: 0 };
  // The geometries of the service areas of the batch being written (stored at import).
  let geometries = new Map<string, AreaGeometry>();
  const shared = new SharedRecords();
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
  let fromServices: IdMembership = new Set();
  async function* remainingOrganizations(written: IdMembership): AsyncGenerator<OrganizationNested> {
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

  return {
    stats,
    nestedOfType,
    remainingOrganizations,
    geometryOf: (area: ServiceAreaFull) => geometries.get(area.id),
    // Read when the build checks its counts, after every record was yielded.
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
  };
}

/** Builds new versioned read indices from the store, verifies them and swaps every alias to them. */
async function buildAndSwap(
  engine: Engine,
  options: ReindexOptions,
  beforeSwap: (build: ReadIndexBuild) => Promise<void>,
): Promise<ReindexReport> {
  const opened = await openBuildSnapshot(engine);
  const { snapshot, inSnapshot } = opened;
  const totalServices = inSnapshot.service ?? 0;
  const sources = storeSources(engine, opened, options);
  const { stats } = sources;
  try {
    const report = await writeReadIndices(
      engine,
      {
        taxonomies: sources.nestedOfType<TaxonomyFull>('taxonomy'),
        taxonomyTerms: sources.nestedOfType<TaxonomyTermFull>('taxonomy_term'),
        services: sources.nestedOfType<ServiceFull>('service'),
        organizations: sources.remainingOrganizations,
      },
      {
        servicesGroupedByOrganization: true,
        geometryOf: sources.geometryOf,
        ...(options.onProgress
          ? { onProgress: (p: BuildProgress) => options.onProgress?.({ ...p, totalServices }) }
          : {}),
        ...(options.signal ? { signal: options.signal } : {}),
        ...(options.bulk ? { bulk: options.bulk } : {}),
        beforeSwap,
        // One document per record read for these; service_at_locations of missing services are
        // not served.
        expected: sources.expected,
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
