/**
 * Incremental publishing: the records that changed in the store, out to the live read indices.
 *
 *   changed keys ─▶ which served documents show them (nested_ids) ─▶ rebuild those from the store
 *                   (store-graph.ts, the same pure builders as a reindex) ─▶ write, delete, refresh
 *
 * A changed record is found in every document that shows it by one terms query on `nested_ids`
 * per read index (every id a document nests or points at): a changed location finds every service
 * nesting it, a changed taxonomy term every service carrying it and the term itself, a changed
 * organization its services. Where a record now sits (a phone moved to another contact) comes from
 * its stored parents. Each service's document and its service_at_locations go in one bulk request
 * and appear at one refresh; organizations are rebuilt after their services (their summary is read
 * from the services index). Records no longer in the store are deleted from every index and leave
 * a tombstone (the change feed).
 *
 * Every publish to the live indices is logged in the control index before it starts and marked
 * done after: one killed midway is completed by the next publish, and a reindex replays what was
 * published while it built (reindex.ts), so no change is lost to its swap. One publish runs at a
 * time (the `publish` lease); publishing never waits for a reindex.
 */

import type { BulkWriter } from '../../engine/bulk.ts';
import { createBulkWriter } from '../../engine/bulk.ts';
import {
  abandonedChanges,
  type ChangeEntry,
  type Lease,
  listChanges,
  logChange,
  markChangesDone,
  pruneChanges,
  readBuilds,
  recordBuild,
  waitForLease,
} from '../../engine/control.ts';
import {
  type DuplicateMarkDocument,
  dropMarks,
  hideMergedRecords,
  marksKeepingDeleted,
  withoutHidden,
} from '../../engine/duplicates.ts';
import type { Engine } from '../../engine/engine.ts';
import { countEachIndex, readAliasTargets, versionPattern } from '../../engine/indices.ts';
import {
  findDocuments,
  getRecords,
  openSnapshot,
  refreshRecords,
  type Snapshot,
} from '../../engine/records.ts';
import { findServedDocuments, readMappedFields, refreshIndices } from '../../engine/served.ts';
import {
  announceServedAgain,
  DEFAULT_TOMBSTONE_RETENTION_DAYS,
  ensureTombstonesIndex,
  pruneTombstones,
  updateTombstones,
} from '../../engine/tombstones.ts';
import { countWebhooks, recordWebhookEvents } from '../../engine/webhooks.ts';
import type { OrganizationNested, ServiceFull, TaxonomyFull, TaxonomyTermFull } from '../../hsds/index.ts';
import { F } from '../../index-mapping/fields.ts';
import { parseRecordKey } from '../../index-mapping/ids.ts';
import { toOrganizationDocument } from '../../index-mapping/organization.document.ts';
import { READ_INDICES, type ReadIndex } from '../../index-mapping/read-indices.mapping.ts';
import type { RecordStoreDocument } from '../../index-mapping/record-store.document.ts';
import { toServiceDocument } from '../../index-mapping/service.document.ts';
import { type AreaGeometry, serviceCoverageOf } from '../../index-mapping/service-at-location.document.ts';
import { toTaxonomyDocument, toTaxonomyTermDocument } from '../../index-mapping/taxonomy.document.ts';
import { isServedType } from '../../index-mapping/tombstone.document.ts';
import {
  ATTRIBUTE_FIELDS,
  changeAttributes,
  type RecordChange,
} from '../../index-mapping/webhook.document.ts';
import { nestRecord } from './assemble.ts';
import { OrganizationSummaries, serviceAtLocationDocuments } from './read-indices.writer.ts';
import { expand, Overrides, SharedRecords } from './store-graph.ts';

export type PublishOptions = {
  /**
   * Write into these physical indices instead of those the aliases serve: a reindex replays the
   * changes made while it built into its new indices before it swaps them in. No log, no lease, no
   * tombstones (the live publish that logged the change wrote them).
   */
  targets?: Record<ReadIndex, string>;
  signal?: AbortSignal;
  /** Services rebuilt per batch. */
  batchSize?: number;
  /** Days deleted records are kept in the change feed (default TOMBSTONE_RETENTION_DAYS or 30). */
  tombstoneRetentionDays?: number;
  /** How long to wait for another publish to finish (ms). */
  waitMs?: number;
  /**
   * The publish lease, taken already by the caller (a write takes it before it changes anything,
   * so its wait is bounded and a refusal leaves nothing written); released when this publish ends.
   */
  lease?: Lease;
  /**
   * The changes are logged already (an import logs them before it writes the store): called once
   * they are published, to mark them done. Without it, the publish logs them itself.
   */
  onPublished?: () => Promise<void>;
  /** The source whose import, sync or write this publishes: what webhook targets may filter on. */
  source?: string;
};

type Counts = { written: number; deleted: number };

export type PublishReport = {
  /** Record keys published (changed, added or removed), with those a killed publish left. */
  changed_records: number;
  indices: Record<ReadIndex, Counts>;
  tombstones: { written: number; cleared: number };
  ms: number;
};

/** The served indices predate `nested_ids`, `list_item`, `coverage_edge`, `opening` or the eligibility fields (or nothing is served): only a full reindex can publish. */
export class PublishNeedsReindexError extends Error {
  override readonly name = 'PublishNeedsReindexError';
}

const typeOf = (key: string) => parseRecordKey(key).type;
const idOf = (key: string) => parseRecordKey(key).id;
const chunks = <T>(list: readonly T[], size: number): T[][] => {
  const out: T[][] = [];
  for (let i = 0; i < list.length; i += size) out.push(list.slice(i, i + size));
  return out;
};
let lastPruned = 0;

/** The physical indices the aliases serve; throws when something is not served or predates `nested_ids`, `list_item`, `coverage_edge`, `opening`, the eligibility fields or `places`. */
async function liveTargets(engine: Engine): Promise<Record<ReadIndex, string>> {
  const { current } = await readAliasTargets(engine);
  const missing = READ_INDICES.filter((kind) => !current[kind]);
  if (missing.length > 0) throw new PublishNeedsReindexError(`nothing is served for ${missing.join(', ')}`);
  const targets = current as Record<ReadIndex, string>;
  const mapped = await readMappedFields(engine, [targets.services, targets.service_at_locations]);
  const propertiesOf = (index: string): object => mapped[index] ?? {};
  // Documents written now carry these, which a strict mapping without them refuses.
  const sinceOpening = [F.opening, F.languages, F.languageCodes, F.free, F.accessibility, F.places];
  const lacking = [
    ...[F.nestedIds, F.listItem, F.coverageCells, ...sinceOpening].filter(
      (field) => !(field in propertiesOf(targets.services)),
    ),
    ...[F.coverageEdge, ...sinceOpening].filter(
      (field) => !(field in propertiesOf(targets.service_at_locations)),
    ),
  ];
  if (lacking.length > 0) {
    throw new PublishNeedsReindexError(
      `the served indices were built by an earlier version (no ${lacking.join(', ')}): a full reindex publishes`,
    );
  }
  return targets;
}

/** Documents of `index` whose `field` holds any of `values`, with the `fields` asked for. */
const matching = findServedDocuments;

/** What to rebuild: the served documents that show a changed record, and where it sits now. */
async function affected(engine: Engine, targets: Record<ReadIndex, string>, keys: readonly string[]) {
  const current = await getRecords(engine, keys);
  const ids = new Set<string>();
  for (const key of keys) ids.add(idOf(key));
  for (const record of current.values()) for (const parent of record.parent_ids) ids.add(parent);
  const ofType = (type: string) => new Set(keys.filter((k) => typeOf(k) === type).map(idOf));
  const services = ofType('service');
  const organizations = ofType('organization');
  const terms = ofType('taxonomy_term');
  const taxonomies = ofType('taxonomy');
  const idList = [...ids];
  const [servedServices, servedOrganizations, servedTerms, servedTaxonomies] = await Promise.all([
    matching(engine, targets.services, F.nestedIds, idList, [F.id, F.organizationId]),
    matching(engine, targets.organizations, F.nestedIds, idList, [F.id]),
    matching(engine, targets.taxonomy_terms, F.nestedIds, idList, [F.id]),
    matching(engine, targets.taxonomies, F.nestedIds, idList, [F.id]),
  ]);
  for (const doc of servedServices) {
    services.add(doc[F.id] as string);
    // The organization it belonged to: its summary loses the service if it moved or went.
    if (typeof doc[F.organizationId] === 'string') organizations.add(doc[F.organizationId] as string);
  }
  for (const doc of servedOrganizations) organizations.add(doc[F.id] as string);
  for (const doc of servedTerms) terms.add(doc[F.id] as string);
  for (const doc of servedTaxonomies) taxonomies.add(doc[F.id] as string);
  return { services, organizations, terms, taxonomies };
}

type Rebuild = {
  engine: Engine;
  snapshot: Snapshot;
  shared: SharedRecords;
  overrides: Overrides;
  stats: { unresolved: number; read: number; queries: number };
};

/** The records of the given type and ids, nested as the API serves them, from the store snapshot. */
async function nestedRecords<T>(
  context: Rebuild,
  type: string,
  ids: readonly string[],
  onServiceArea?: (doc: RecordStoreDocument) => void,
): Promise<Map<string, T>> {
  const { engine, snapshot, stats, shared, overrides } = context;
  const wanted = new Set(ids);
  const docs = await findDocuments(
    engine,
    'keys',
    ids.map((id) => `${type}:${id}`),
    snapshot,
  );
  const { graph, seeds } = await expand(engine, docs, type, snapshot, stats, shared, overrides);
  const out = new Map<string, T>();
  for (const seed of seeds) {
    if (!wanted.has(seed.id) || out.has(seed.id)) continue;
    out.set(seed.id, nestRecord(graph, seed, onServiceArea ? { onServiceArea } : {}) as T);
  }
  return out;
}

/**
 * Publishes the given changed record keys (`type:id`) to the live read indices, or to `targets`.
 * Safe to repeat: it reads the store as it is now, so publishing a key twice writes the same.
 */
export async function publishChanges(
  engine: Engine,
  changedKeys: Iterable<string>,
  options: PublishOptions = {},
): Promise<PublishReport> {
  const started = Date.now();
  const live = options.targets === undefined;
  const targets = options.targets ?? (await liveTargets(engine));
  const lease = live
    ? (options.lease ??
      (await waitForLease(engine, 'publish', {
        purpose: 'publish changes',
        waitMs: options.waitMs ?? 120_000,
      })))
    : undefined;
  try {
    const keys = new Set(changedKeys);
    // Changes a killed publish left unpublished are completed by this one.
    let leftOver: ChangeEntry[] = [];
    if (live) {
      leftOver = abandonedChanges(await listChanges(engine, { pendingOnly: true }));
      for (const entry of leftOver) for (const key of entry.keys) keys.add(key);
    }
    const report: PublishReport = {
      changed_records: keys.size,
      indices: Object.fromEntries(READ_INDICES.map((kind) => [kind, { written: 0, deleted: 0 }])) as Record<
        ReadIndex,
        Counts
      >,
      tombstones: { written: 0, cleared: 0 },
      ms: 0,
    };
    if (keys.size === 0) {
      report.ms = Date.now() - started;
      return report;
    }
    await refreshRecords(engine);
    // A kept record deleted takes its duplicate marks with it: the records they merged away are
    // published with this change, served again (src/duplicates).
    const freed = live ? await marksKeepingDeleted(engine, keys) : [];
    const freedKeys = mergedKeysOf(freed);
    for (const key of freedKeys) keys.add(key);
    const logged = live && !options.onPublished ? await logChange(engine, [...keys]) : undefined;
    // Logged before the marks go (an import logged its own keys, not these): a publish killed
    // after they went is completed by the next one, which serves the freed records.
    const freedLogged = freed.length > 0 && !logged ? await logChange(engine, freedKeys) : undefined;
    if (freed.length > 0) {
      await dropMarks(engine, freed);
      engine.logger.info(
        { marks: freed.map((m) => m.key) },
        'dropped the duplicate marks that kept a deleted record: what they merged away is served again',
      );
    }
    if (live) await ensureTombstonesIndex(engine);
    const work = await affected(engine, targets, [...keys]);
    // What webhook targets hear of (src/webhooks): only worked out when some target is registered.
    const changes: RecordChange[] | undefined = live && (await countWebhooks(engine)) > 0 ? [] : undefined;
    const { deleted, written } = await rewriteAffected(engine, targets, work, report, options, changes);
    await refreshIndices(engine, Object.values(targets), 'refresh published indices');
    // Records an operator marked as duplicates of others are served once: a rebuilt merged-away
    // record leaves again before anything is counted, and the change feed says it went
    // (src/duplicates).
    const hidden = await hideMergedRecords(engine, targets, { collect: live });
    if (live) {
      const { back, ...tombstones } = await updateTombstones(
        engine,
        [...deleted, ...hidden],
        withoutHidden(written, hidden),
      );
      report.tombstones = tombstones;
      await announceServedAgain(engine, targets, back);
      // Before the change log is marked done: a publish killed here is redone, events and all.
      if (changes) await recordWebhookEvents(engine, changes, options.source);
      await recordServedCounts(engine, targets);
      await logged?.done();
      await freedLogged?.done();
      await options.onPublished?.();
      await markChangesDone(engine, leftOver);
      // Housekeeping, at most once an hour per process: old tombstones and old log entries.
      if (Date.now() - lastPruned > 3_600_000) {
        lastPruned = Date.now();
        await pruneTombstones(
          engine,
          options.tombstoneRetentionDays ??
            engine.settings.tombstoneRetentionDays ??
            DEFAULT_TOMBSTONE_RETENTION_DAYS,
        );
        await pruneChanges(engine);
      }
    }
    report.ms = Date.now() - started;
    return report;
  } finally {
    await lease?.release();
  }
}

type Ref = { type: string; id: string };

/** The keys (`type:id`) of the records `same` marks merged away. */
export const mergedKeysOf = (marks: readonly DuplicateMarkDocument[]): string[] =>
  marks.flatMap((m) => (m.decision === 'same' && m.merged ? [`${m.type}:${m.merged}`] : []));

/** Rewrites the affected documents of the live (or replay target) indices from the store. */
async function rewriteAffected(
  engine: Engine,
  targets: Record<ReadIndex, string>,
  work: Awaited<ReturnType<typeof affected>>,
  report: PublishReport,
  options: PublishOptions,
  changes?: RecordChange[],
): Promise<{ deleted: Ref[]; written: Ref[] }> {
  const batchSize = options.batchSize ?? 100;
  const snapshot = await openSnapshot(engine, '5m');
  const context: Rebuild = {
    engine,
    snapshot,
    shared: new SharedRecords(),
    overrides: Overrides.askAlways(),
    stats: { unresolved: 0, read: 0, queries: 0 },
  };
  const failures: string[] = [];
  // Requests are cut by batch, never by size: a batch of services goes in one bulk request, so a
  // service's documents and its service_at_locations' are applied together even when this process
  // dies midway (the engine finishes a request it received).
  const writer = createBulkWriter(engine, {
    flushBytes: 256 * 1024 * 1024,
    ...(options.signal ? { signal: options.signal } : {}),
    onFailure: (f) => {
      if (failures.length < 5) failures.push(`${f.index}/${f.id}: ${f.reason}`);
    },
  });
  const deleted: Ref[] = [];
  const written: Ref[] = [];
  // Served documents as they were before this publish (with what webhook filters ask of them),
  // read batch by batch when webhook changes are wanted: created or updated, and what went.
  const before = new Map<string, Record<string, unknown>>();
  const readBefore = async (kind: ReadIndex, type: string, ids: readonly string[]) => {
    if (!changes || ids.length === 0) return;
    for (const doc of await matching(engine, targets[kind], F.id, ids, [F.id, ...ATTRIBUTE_FIELDS])) {
      before.set(`${type}:${doc[F.id] as string}`, doc);
    }
  };
  const put = async (kind: ReadIndex, type: string, id: string, document: unknown) => {
    options.signal?.throwIfAborted();
    await writer.index(targets[kind], id, document);
    report.indices[kind].written += 1;
    written.push({ type, id });
    if (changes && isServedType(type)) {
      const action = before.has(`${type}:${id}`) ? 'updated' : 'created';
      changes.push({
        record_type: type,
        id,
        action,
        ...changeAttributes(type, id, document as Record<string, unknown>),
      });
    }
  };
  const remove = async (kind: ReadIndex, type: string, id: string) => {
    await writer.delete(targets[kind], id);
    report.indices[kind].deleted += 1;
    deleted.push({ type, id });
    const was = before.get(`${type}:${id}`);
    // A record never served (stored and deleted between two publishes) was never announced.
    if (changes && was && isServedType(type)) {
      changes.push({ record_type: type, id, action: 'deleted', ...changeAttributes(type, id, was) });
    }
  };
  try {
    await publishServices(
      context,
      targets,
      [...work.services],
      batchSize,
      writer,
      put,
      remove,
      work.organizations,
      readBefore,
    );
    await writer.flush();
    await refreshIndices(engine, [targets.services], 'refresh services');
    for (const batch of chunks([...work.organizations], batchSize)) {
      await readBefore('organizations', 'organization', batch);
      const nested = await nestedRecords<OrganizationNested>(context, 'organization', batch);
      const summaries = new OrganizationSummaries();
      const services = await matching(engine, targets.services, F.organizationId, batch, [
        F.id,
        F.organizationId,
        F.taxonomyTermIds,
        F.taxonomyIds,
        F.lastModified,
      ]);
      for (const service of services) summaries.add(service as never);
      for (const id of batch) {
        const organization = nested.get(id);
        if (organization) {
          await put(
            'organizations',
            'organization',
            id,
            toOrganizationDocument(organization, summaries.summaryOf(id)),
          );
        } else await remove('organizations', 'organization', id);
      }
    }
    for (const batch of chunks([...work.terms], batchSize)) {
      await readBefore('taxonomy_terms', 'taxonomy_term', batch);
      const nested = await nestedRecords<TaxonomyTermFull>(context, 'taxonomy_term', batch);
      for (const id of batch) {
        const term = nested.get(id);
        if (term) await put('taxonomy_terms', 'taxonomy_term', id, toTaxonomyTermDocument(term));
        else await remove('taxonomy_terms', 'taxonomy_term', id);
      }
    }
    for (const batch of chunks([...work.taxonomies], batchSize)) {
      await readBefore('taxonomies', 'taxonomy', batch);
      const nested = await nestedRecords<TaxonomyFull>(context, 'taxonomy', batch);
      for (const id of batch) {
        const taxonomy = nested.get(id);
        if (taxonomy) await put('taxonomies', 'taxonomy', id, toTaxonomyDocument(taxonomy));
        else await remove('taxonomies', 'taxonomy', id);
      }
    }
    await writer.close();
    if (writer.stats.failed > 0) {
      throw new Error(`${writer.stats.failed} document(s) were refused by the engine; first: ${failures[0]}`);
    }
    return { deleted, written };
  } finally {
    await snapshot.close();
  }
}

/**
 * Services batch by batch: each service's document and its service_at_locations together; the
 * service_at_locations it no longer has, and services no longer stored, deleted.
 */
async function publishServices(
  context: Rebuild,
  targets: Record<ReadIndex, string>,
  ids: readonly string[],
  batchSize: number,
  writer: BulkWriter,
  put: (kind: ReadIndex, type: string, id: string, document: unknown) => Promise<void>,
  remove: (kind: ReadIndex, type: string, id: string) => Promise<void>,
  organizations: Set<string>,
  readBefore: (kind: ReadIndex, type: string, ids: readonly string[]) => Promise<void>,
): Promise<void> {
  for (const batch of chunks(ids, batchSize)) {
    await readBefore('services', 'service', batch);
    const geometries = new Map<string, AreaGeometry>();
    const nested = await nestedRecords<ServiceFull>(context, 'service', batch, (doc) => {
      if (doc.geometry) geometries.set(doc.id, doc.geometry);
    });
    const served = await matching(context.engine, targets.service_at_locations, F.serviceId, batch, [F.id]);
    await readBefore(
      'service_at_locations',
      'service_at_location',
      served.map((sal) => sal[F.id] as string),
    );
    const keep = new Set<string>();
    for (const id of batch) {
      const service = nested.get(id);
      if (!service) {
        await remove('services', 'service', id);
        continue;
      }
      const document = toServiceDocument(
        service,
        serviceCoverageOf(service, (area) => geometries.get(area.id)),
      );
      if (document.organization_id) organizations.add(document.organization_id);
      await put('services', 'service', id, document);
      for (const sal of serviceAtLocationDocuments(service, (area) => geometries.get(area.id))) {
        keep.add(sal.id);
        await put('service_at_locations', 'service_at_location', sal.id, sal);
      }
    }
    for (const sal of served) {
      const id = sal[F.id] as string;
      if (!keep.has(id)) await remove('service_at_locations', 'service_at_location', id);
    }
    // One service's documents travel in one request.
    await writer.flush();
  }
}

/**
 * Records what the served version holds now, so /health compares served counts with what was
 * published last, not with the counts of the original build.
 */
async function recordServedCounts(engine: Engine, targets: Record<ReadIndex, string>): Promise<void> {
  const version = versionPattern.exec(targets.services)?.[1];
  if (!version) return;
  // One request counts every index: a publish of one record makes few requests.
  const totals = await countEachIndex(
    engine,
    'count published documents',
    READ_INDICES.map((kind) => targets[kind]),
  );
  const counts: Record<string, number> = {};
  READ_INDICES.forEach((kind, i) => {
    const total = totals[i];
    if (total !== undefined) counts[kind] = total;
  });
  const before = (await readBuilds(engine, [version])).get(version);
  await recordBuild(engine, {
    version,
    counts: { ...before?.counts, ...counts },
    published_at: new Date().toISOString(),
  });
}

/** Publishes the changes logged at or after `since` (ms) into `targets` (a reindex's build). */
export async function replayChanges(
  engine: Engine,
  since: number,
  targets?: Record<ReadIndex, string>,
  signal?: AbortSignal,
): Promise<number> {
  const entries = await listChanges(engine, { since });
  const keys = new Set<string>();
  for (const entry of entries) for (const key of entry.keys) keys.add(key);
  if (keys.size === 0) return 0;
  await publishChanges(engine, keys, { ...(targets ? { targets } : {}), ...(signal ? { signal } : {}) });
  return keys.size;
}
