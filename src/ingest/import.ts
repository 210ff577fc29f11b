/**
 * Import: a source (HSDS JSON, a tabular data package, a remote HSDS API) into the records store.
 *
 *   source items ─▶ flatten + validate (pure) ─▶ repeat / duplicate check ─▶ bulk upsert
 *                                                              └─▶ links to check ─▶ dangling report
 *
 * A bad record is reported and skipped, never aborting the run. The records a nested item brings
 * for the first time are written as one bundle (record-store.document.ts); a record met again with
 * other content is written on its own, and wins. Document ids follow the source (`item:type:id`,
 * `type:id`), so importing the same source twice writes the same documents again: nothing changes.
 * A record that an earlier import stored in another document is written on its own too, so the
 * last import wins. Memory stays flat: items stream, the repeat check keeps a window of records,
 * the hashes of many more keys and a Bloom filter of all (seen-records.ts), links to check are
 * spooled to a file.
 */
import { once } from 'node:events';
import { createReadStream, createWriteStream, existsSync } from 'node:fs';
import { mkdtemp, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { createInterface } from 'node:readline';
import { type BulkFailure, type BulkWriterOptions, createBulkWriter } from '../engine/bulk.ts';
import { type ImportRunHandle, startImportRun } from '../engine/control.ts';
import type { Engine } from '../engine/engine.ts';
import {
  countRecords,
  ensureRecordsIndex,
  existingIds,
  existingKeys,
  flushRecords,
  getRecords,
  heldElsewhere,
  heldOutsideStale,
  recordsIndex,
  refreshRecords,
  removeRecords,
  scanStaleDocuments,
} from '../engine/records.ts';
import type { RecordType } from '../hsds/index.ts';
import {
  type RecordStoreDocument,
  type StoreDocument,
  toBundleDocument,
  toRecordStoreDocument,
  toSingleDocument,
} from '../index-mapping/record-store.document.ts';
import { ChangeSet } from './changes.ts';
import { deletionClosure, type RecordRef } from './deletion.ts';
import { type FlatRecord, type FlattenOptions, flattenNested, flattenRow, type Issue } from './flatten.ts';
import { type ImportSummary, IssueLog, type SourceKind } from './import-report.ts';
import { linkFieldsOf, parentIdsOf, recordKey } from './nesting.ts';
import { PLACEHOLDER_ORGANIZATION_NAME, placeholderOrganization } from './placeholder-organizations.ts';
import { BloomFilter, combinedHash, hashRecord, RecentHashes, RecentWindow } from './seen-records.ts';
import { readJsonSource } from './sources/json.source.ts';
import { type HarvestOptions, offersChangeFeed, readRemoteSource } from './sources/remote.source.ts';
import type { SourceItem } from './sources/source.ts';
import { findDataPackage, readTabularSource } from './sources/tabular.source.ts';

export type ImportProgress = {
  phase: 'reading' | 'checking-links' | 'done';
  items: number;
  records: number;
  rejected: number;
  /** Links checked so far, in the checking-links phase, of `linksTotal`. */
  links?: number;
  linksTotal?: number;
};

export type ImportOptions = {
  /** Where the whole report goes as JSON; default a file in the system temp folder. */
  reportFile?: string;
  kind?: SourceKind;
  onProgress?: (progress: ImportProgress) => void;
  signal?: AbortSignal;
  harvest?: HarvestOptions;
  bulk?: Pick<BulkWriterOptions, 'flushBytes' | 'concurrency'>;
  /** Records kept whole for merging repeats in memory (the rest are read back from the store). */
  windowSize?: number;
  /** Keys whose hashes are kept per generation (two generations), to tell repeats beyond the window. */
  recentHashes?: number;
  /**
   * Validate as published, for publishers checking their own feed: no leniency (leniency.ts), and
   * an invalid optional field rejects its record.
   */
  strict?: boolean;
  /**
   * The name of the feed (default: the file's absolute path or the URL): what the store records as
   * each record's source, what `sync` compares with, and what the control index remembers runs by.
   */
  sourceName?: string;
  /**
   * Delete what this source provided before and no longer does (unless another source still
   * provides it). Skipped, and reported, when the source brought no record at all.
   */
  sync?: boolean;
};

export type ImportResult = {
  summary: ImportSummary;
  /** What changed in the store, for publishing. */
  changes: ChangeSet;
  /** The first errors and warnings, for the terminal. */
  firstIssues: Issue[];
  reportFile: string;
};

export const isUrl = (location: string) => /^https?:\/\//i.test(location);

/** Which kind of source a location is: a URL, a tabular data package, or HSDS JSON. */
export async function detectSourceKind(location: string): Promise<SourceKind> {
  if (isUrl(location)) return 'remote';
  if (!existsSync(location)) throw new Error(`${location}: no such file or folder`);
  return (await findDataPackage(location)) ? 'tabular' : 'json';
}

export function openSource(
  location: string,
  kind: SourceKind,
  options: ImportOptions = {},
): AsyncIterable<SourceItem> {
  if (kind === 'remote') {
    return readRemoteSource(location, {
      ...options.harvest,
      ...(options.signal ? { signal: options.signal } : {}),
    });
  }
  return kind === 'tabular' ? readTabularSource(location) : readJsonSource(location);
}

/** Total size of a file source, for progress; undefined for remote sources. */
export async function sourceSize(location: string): Promise<number | undefined> {
  if (isUrl(location)) return undefined;
  const info = await stat(location);
  return info.isFile() ? info.size : undefined;
}

/** Items read, flattened and checked for repeats together (their "maybe"s settled at once). */
const ITEM_BATCH = 200;

/** A flat record with its store key and the hashes of its content and of its parent links. */
type Hashed = { flat: FlatRecord; key: string; content: number; links: number };
const hashed = (flat: FlatRecord): Hashed => ({
  flat,
  key: recordKey(flat.type, flat.id),
  ...hashRecord(flat.record, linkFieldsOf(flat.type)),
});

type WindowEntry = { record: Record<string, unknown>; origin: string; content: number; links: number };

// Whether two records say the same, their parent links and `last_modified` aside (key order aside).
function sameContent(type: RecordType, a: Record<string, unknown>, b: Record<string, unknown>): boolean {
  const skip = linkFieldsOf(type);
  const keysOf = (r: Record<string, unknown>) =>
    Object.keys(r).filter((k) => k !== 'last_modified' && !skip.has(k) && r[k] !== undefined);
  const keys = keysOf(a);
  if (keys.length !== keysOf(b).length) return false;
  return keys.every((k) => JSON.stringify(a[k]) === JSON.stringify(b[k]));
}

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

export async function importSource(
  engine: Engine,
  location: string,
  options: ImportOptions = {},
): Promise<ImportResult> {
  const source = isUrl(location) ? location : resolve(location);
  const name = options.sourceName ?? source;
  const kind = options.kind ?? (await detectSourceKind(source));
  const changes = new ChangeSet(engine);
  // Deletions the source itself announces (a harvested change feed).
  const announcedDeletions: RecordRef[] = [];
  const log = new IssueLog(source, kind);
  const workDir = await mkdtemp(join(tmpdir(), 'hsds-links-'));
  const reportFile = options.reportFile ?? join(tmpdir(), `hsds-import-${Date.now()}.json`);
  // Recorded in the control index so that a reindex never publishes what a killed import left.
  let importRun: ImportRunHandle | undefined;
  try {
    await ensureRecordsIndex(engine);
    // A change feed asked of a server without one: everything, and what is gone goes (sync).
    if (kind === 'remote' && options.harvest?.since && !(await offersChangeFeed(source, options.harvest))) {
      const { since: _, ...harvest } = options.harvest;
      options = { ...options, harvest, sync: true };
      await log.add({
        severity: 'info',
        kind: 'sync-skipped',
        source,
        path: '',
        reason:
          'the server offers no change feed (include_deleted): harvested everything instead, and deleted what it no longer has (--sync)',
      });
    }
    importRun = await startImportRun(engine, name);
    const index = recordsIndex(engine);
    const refused: BulkFailure[] = [];
    const writer = createBulkWriter(engine, {
      ...options.bulk,
      ...(options.signal ? { signal: options.signal } : {}),
      onFailure: (failure) => refused.push(failure),
    });
    // Records stored by earlier runs: a record first met in this run may be held by another
    // document already, and must then be written on its own to win over it.
    const earlierRuns = (await countRecords(engine)) > 0;
    if (earlierRuns) await refreshRecords(engine);
    else changes.everything();
    const bloom = new BloomFilter();
    const window = new RecentWindow<WindowEntry>(options.windowSize ?? 20_000);
    const seenHashes = new RecentHashes(options.recentHashes);
    const linksFile = join(workDir, 'links.ndjson');
    const links = createWriteStream(linksFile);
    let linkCount = 0;
    const progress: ImportProgress = { phase: 'reading', items: 0, records: 0, rejected: 0 };

    // Writes of one key may travel in concurrent bulk requests (a record, then the same record
    // merged with a parent met later): external versions make the later write win whatever order
    // they arrive in, and a later run's versions are higher still (the clock in ms, times a million).
    const run = Date.now();
    const versionBase = BigInt(run) * 1_000_000n;
    let versionSeq = 0n;
    const nextVersion = () => {
      versionSeq += 1n;
      return (versionBase + versionSeq).toString();
    };

    // Documents waiting for the check against earlier runs (none when the store was empty).
    let queued: { doc: StoreDocument; version: string; bundled?: RecordStoreDocument[] }[] = [];
    const settleQueued = async () => {
      const batch = queued;
      queued = [];
      const keys = batch.flatMap((q) => q.doc.keys);
      const elsewhere =
        keys.length > 0
          ? await heldElsewhere(
              engine,
              keys,
              batch.map((q) => q.doc.key),
              run,
            )
          : new Set<string>();
      const toWrite: { doc: StoreDocument; version: string }[] = [];
      for (const { doc, version, bundled } of batch) {
        if (doc.kind === 'single' && elsewhere.has(doc.key)) doc.overrides = true;
        toWrite.push({ doc, version });
        // A bundled record some other document holds too: its own copy wins. Its version is the
        // bundle's, lower than any copy written later in this run for the same key.
        for (const record of bundled ?? []) {
          if (elsewhere.has(record.key)) toWrite.push({ doc: toSingleDocument(record, run, true), version });
        }
      }
      await changes.compare(toWrite.map((w) => w.doc));
      for (const { doc, version } of toWrite) await writer.index(index, doc.key, doc, version);
    };
    const store = async (doc: StoreDocument, bundled?: RecordStoreDocument[], version = nextVersion()) => {
      if (!earlierRuns) {
        await writer.index(index, doc.key, doc, version);
        return;
      }
      queued.push({ doc, version, ...(bundled ? { bundled } : {}) });
      if (queued.length >= 500) await settleQueued();
    };
    const flushAll = async () => {
      await settleQueued();
      await writer.flush();
    };

    // The records the item being read brings for the first time (a nested item: one bundle).
    let bundle: Map<string, RecordStoreDocument> | undefined;
    let bundleVersion = '';
    const write = async (
      flat: FlatRecord,
      record: Record<string, unknown>,
      report: boolean,
      overrides: boolean,
    ) => {
      const doc = toRecordStoreDocument(
        flat.type,
        flat.id,
        record,
        parentIdsOf(flat.type, record),
        name,
        flat.geometry,
      );
      if (bundle && !overrides) {
        // A bundle's version is taken with its first record: lower than that of any record of
        // the same item written on its own after it (the last one wins).
        if (bundle.size === 0) bundleVersion = nextVersion();
        bundle.set(doc.key, doc);
      } else await store(toSingleDocument(doc, run, overrides));
      if (report) {
        for (const note of flat.notes) await log.add(note);
        if (flat.notes.some((n) => n.kind === 'repaired' || n.kind === 'dropped-field'))
          log.repaired(flat.type);
      }
    };

    const spoolLinks = async (flat: FlatRecord, origin: string) => {
      for (const link of flat.external) {
        const line = JSON.stringify([
          flat.type,
          flat.id,
          link.field,
          link.type ?? null,
          link.id,
          flat.path,
          origin,
        ]);
        linkCount += 1;
        if (!links.write(`${line}\n`)) await once(links, 'drain');
      }
    };

    // Whether this run wrote a key before. The recent window knows exactly (and keeps the
    // record); beyond it the Bloom filter says "no" for certain or "maybe". Items are taken in
    // batches, and the batch's "maybe"s are settled before it is written, all at once, by reading
    // the stored records (a search, after one refresh: they may be in bundles): written by this
    // run when their run is this one. One refresh per batch, not per record: a source whose items
    // repeat a record far apart (an organization's services spread through the file) meets a
    // "maybe" in most items.
    let batchSeen = new Map<string, WindowEntry>();
    let stored = new Map<string, WindowEntry>();
    const earlierInThisRun = (key: string): WindowEntry | undefined =>
      window.get(key) ?? batchSeen.get(key) ?? stored.get(key);
    const remember = (key: string, entry: WindowEntry) => {
      window.set(key, entry);
      batchSeen.set(key, entry);
      seenHashes.set(key, combinedHash(entry.content, entry.links));
    };
    // A record met again beyond the window, with the hashes of what this run wrote for its key.
    const isRepeat = (key: string, content: number, links: number) =>
      seenHashes.get(key) === combinedHash(content, links);
    const settleMaybes = async (records: Iterable<{ key: string; content: number; links: number }>) => {
      batchSeen = new Map();
      stored = new Map();
      const maybe: string[] = [];
      for (const { key, content, links } of records) {
        // Held by the window now, but the batch may push it out: kept for the batch.
        const recent = window.get(key);
        if (recent) batchSeen.set(key, recent);
        else if (!isRepeat(key, content, links) && bloom.mightContain(key)) maybe.push(key);
      }
      if (maybe.length === 0) return;
      await flushAll();
      await refreshRecords(engine);
      for (const [key, doc] of await getRecords(engine, maybe)) {
        if (doc.run !== run) continue;
        stored.set(key, {
          record: doc.record,
          origin: 'an earlier item',
          ...hashRecord(doc.record, linkFieldsOf(doc.type as RecordType)),
        });
      }
    };

    const accept = async ({ flat, key, ...hashes }: Hashed, origin: string) => {
      const earlier = earlierInThisRun(key);
      if (!earlier && isRepeat(key, hashes.content, hashes.links)) {
        // The same record again, written by an item beyond the window: kept recent, not read back.
        remember(key, { record: flat.record, origin: 'an earlier item', ...hashes });
        return;
      }
      if (!earlier) {
        bloom.add(key);
        remember(key, { record: flat.record, origin, ...hashes });
        await write(flat, flat.record, true, false);
        log.imported(flat.type);
        progress.records += 1;
        await spoolLinks(flat, origin);
        return;
      }
      if (earlier.content === hashes.content && earlier.links === hashes.links) {
        remember(key, earlier); // a repeat: keep it recent, records repeated often stay in memory
        return;
      }

      // Met before with other content or other parents: merge the parents, keep the last content.
      const linkValues = splitLinks(flat.type, flat.record).links;
      const before = splitLinks(flat.type, earlier.record).links;
      const conflicts = Object.keys(linkValues).filter(
        (field) => before[field] !== undefined && before[field] !== linkValues[field],
      );
      const changed = earlier.content !== hashes.content;
      if (changed || conflicts.length > 0) {
        const what = changed
          ? 'appears again with different content'
          : `appears again under another ${conflicts.join(', ')}`;
        await log.add({
          severity: 'warning',
          kind: 'duplicate',
          source: origin,
          record_type: flat.type,
          record_id: flat.id,
          path: flat.path,
          reason: `${flat.type} ${flat.id} ${what} (first at ${earlier.origin}); the last one is kept`,
        });
      }
      const merged = { ...flat.record };
      for (const field in before) if (merged[field] === undefined) merged[field] = before[field];
      remember(key, { record: merged, origin, ...hashRecord(merged, linkFieldsOf(flat.type)) });
      await write(flat, merged, changed, true);
      await spoolLinks(flat, origin);
    };

    // A service without `last_modified` gets the time this directory first saw its content: this
    // run's start, or, when an earlier run stored the same content, the time that run gave it. So
    // `modified_after` finds what changed, and importing the same feed again moves nothing.
    const firstSeen = new Date(run).toISOString();
    const stampLastModified = async (records: { flat: FlatRecord; origin: string }[]) => {
      const unstamped = records.filter(
        ({ flat }) => flat.type === 'service' && flat.record.last_modified === undefined,
      );
      if (unstamped.length === 0) return;
      const stored = earlierRuns
        ? await getRecords(
            engine,
            unstamped.map(({ flat }) => recordKey(flat.type, flat.id)),
          )
        : new Map<string, RecordStoreDocument & { run: number }>();
      for (const { flat, origin } of unstamped) {
        const before = stored.get(recordKey(flat.type, flat.id));
        const kept =
          before &&
          typeof before.record.last_modified === 'string' &&
          before.run !== run &&
          sameContent(flat.type, before.record, flat.record)
            ? before.record.last_modified
            : firstSeen;
        flat.record.last_modified = kept;
        flat.notes.push({
          severity: 'info',
          kind: 'repaired',
          source: origin,
          record_type: flat.type,
          record_id: flat.id,
          path: flat.path ? `${flat.path}.last_modified` : 'last_modified',
          reason: 'no last_modified: set to the time this directory first saw this content',
        });
      }
    };

    const flattenOptions: FlattenOptions = { strict: options.strict ?? false };
    const importBatch = async (items: SourceItem[]) => {
      const flat = items.map((item) => {
        if (item.kind === 'issue' || item.kind === 'deleted') return undefined;
        return item.kind === 'nested'
          ? flattenNested(item.type, item.value, item.origin, flattenOptions)
          : flattenRow(item.type, item.row, item.origin, flattenOptions);
      });
      await stampLastModified(
        flat.flatMap((f, i) =>
          f ? f.records.map((r) => ({ flat: r, origin: (items[i] as { origin: string }).origin })) : [],
        ),
      );
      const flattened = flat.map((f) => {
        if (!f) return undefined;
        const { records, ...rest } = f;
        return { ...rest, records: records.map(hashed) };
      });
      await settleMaybes(flattened.flatMap((f) => f?.records ?? []));
      for (const [i, item] of items.entries()) {
        options.signal?.throwIfAborted();
        const itemFlattened = flattened[i];
        if (item.kind === 'deleted') {
          announcedDeletions.push({ type: item.type, id: item.id });
          continue;
        }
        if (item.kind === 'issue' || !itemFlattened) {
          if (item.kind === 'issue') await log.add(item.issue);
          continue;
        }
        log.summary.items += 1;
        progress.items += 1;
        // A record rejected again (an organization nested in every service) is counted and
        // reported once, at its first occurrence.
        const again =
          itemFlattened.rejected.length === 0
            ? undefined
            : new Set(
                itemFlattened.rejected
                  .filter((r) => log.wasRejected(r.type, r.id))
                  .map((r) => recordKey(r.type, r.id!)),
              );
        for (const issue of itemFlattened.issues) {
          if (
            issue.record_id &&
            issue.record_type &&
            again?.has(recordKey(issue.record_type, issue.record_id))
          )
            continue;
          await log.add(issue);
        }
        for (const { type, id } of itemFlattened.rejected) log.rejected(type, id);
        progress.rejected = log.summary.rejected;
        bundle = item.kind === 'nested' ? new Map() : undefined;
        for (const flat of itemFlattened.records) await accept(flat, item.origin);
        if (bundle && bundle.size > 0) {
          const records = [...bundle.values()];
          bundle = undefined;
          await store(toBundleDocument(records, run), records, bundleVersion);
        }
        if (progress.items % 200 === 0) options.onProgress?.({ ...progress });
      }
    };

    let items: SourceItem[] = [];
    for await (const item of openSource(source, kind, options)) {
      options.signal?.throwIfAborted();
      items.push(item);
      if (items.length >= ITEM_BATCH) {
        await importBatch(items);
        items = [];
      }
    }
    await importBatch(items);
    await settleQueued();
    await writer.close();
    for (const failure of refused) {
      // A bundle (`item:type:id`) is reported as its item's record.
      const key = failure.id.startsWith('item:') ? failure.id.slice('item:'.length) : failure.id;
      const [type, id] = [key.slice(0, key.indexOf(':')), key.slice(key.indexOf(':') + 1)];
      log.summary.records -= 1;
      log.typeCounts(type).imported -= 1;
      log.rejected(type, id);
      await log.add({
        severity: 'error',
        kind: 'invalid',
        source,
        record_type: type,
        record_id: id,
        path: '',
        reason: `the engine refused the record: ${failure.reason}`,
      });
    }
    links.end();
    await once(links, 'finish');
    if (announcedDeletions.length > 0) {
      await applyDeletions(engine, announcedDeletions, changes, log, source, options);
    }
    if (options.sync) await syncSource(engine, name, run, changes, log, source, options);

    progress.phase = 'checking-links';
    options.onProgress?.({ ...progress, links: 0, linksTotal: linkCount });
    await refreshRecords(engine);
    const missingOrganizations = new Set<string>();
    await checkLinks(
      engine,
      linksFile,
      log,
      (checked) => options.onProgress?.({ ...progress, links: checked }),
      // Only services: a location's or contact's organization is a detail the API does not link.
      (from, type, id) => {
        if (from === 'service' && type === 'organization') missingOrganizations.add(id);
      },
    );
    await storePlaceholderOrganizations(engine, [...missingOrganizations], name, run, log, options);
    for (const id of missingOrganizations) changes.add(recordKey('organization', id));
    await changes.log();
    await flushRecords(engine);
    await importRun.finish('complete');
    log.summary.finished_at = new Date().toISOString();
    await log.writeReportFile(reportFile);
    options.onProgress?.({ ...progress, phase: 'done' });
    return { summary: log.summary, changes, firstIssues: log.first, reportFile };
  } catch (error) {
    await importRun?.finish('failed', error instanceof Error ? error.message : String(error)).catch(() => {});
    throw error;
  } finally {
    await log.dispose();
    await rm(workDir, { recursive: true, force: true });
  }
}

/**
 * Deletes what a source announced deleted (a harvested change feed), with what each deletion
 * takes (deletion.ts).
 */
async function applyDeletions(
  engine: Engine,
  refs: readonly RecordRef[],
  changes: ChangeSet,
  log: IssueLog,
  source: string,
  options: ImportOptions,
): Promise<void> {
  await refreshRecords(engine);
  const keys = await deletionClosure(engine, refs);
  // Logged before the store changes: a run killed after is published by the next.
  for (const key of keys) changes.add(key);
  await changes.log();
  const writer = createBulkWriter(engine, options.signal ? { signal: options.signal } : {});
  await removeRecords(engine, keys, writer);
  await writer.close();
  log.summary.removed = (log.summary.removed ?? 0) + keys.size;
  await log.add({
    severity: 'info',
    kind: 'removed',
    source,
    record_type: refs[0]?.type ?? '',
    record_id: refs[0]?.id ?? '',
    path: '',
    reason: `the source announced ${refs.length} deletion(s): ${keys.size} record(s) removed with what they took`,
  });
}

/**
 * `--sync`: deletes the store documents this source wrote before this run and not in it, and so
 * the records it no longer provides, unless another source's document still holds them.
 */
async function syncSource(
  engine: Engine,
  name: string,
  run: number,
  changes: ChangeSet,
  log: IssueLog,
  source: string,
  options: ImportOptions,
): Promise<void> {
  if (log.summary.records === 0) {
    await log.add({
      severity: 'error',
      kind: 'sync-skipped',
      source,
      record_type: '',
      record_id: '',
      path: '',
      reason:
        'sync skipped: the source brought no valid record, which is more likely a broken feed than an empty directory; nothing was deleted',
    });
    return;
  }
  await refreshRecords(engine);
  const staleKeys = new Set<string>();
  const staleDocuments: string[] = [];
  for await (const page of scanStaleDocuments(engine, name, run)) {
    for (const doc of page) {
      for (const key of doc.keys) staleKeys.add(key);
      staleDocuments.push(doc.key);
    }
  }
  if (staleKeys.size === 0) return;
  // Held by a document of another source, or written by this run: still provided.
  const kept = await heldOutsideStale(engine, [...staleKeys], name, run);
  let removed = 0;
  for (const key of staleKeys) {
    changes.add(key);
    if (!kept.has(key)) removed += 1;
  }
  // Logged before the store changes: a run killed after is published by the next.
  await changes.log();
  const writer = createBulkWriter(engine, options.signal ? { signal: options.signal } : {});
  for (const id of staleDocuments) await writer.delete(recordsIndex(engine), id);
  await writer.close();
  log.summary.removed = (log.summary.removed ?? 0) + removed;
}

type SpooledLink = [
  type: RecordType,
  id: string,
  field: string,
  targetType: RecordType | null,
  targetId: string,
  path: string,
  origin: string,
];

/**
 * Stores a placeholder for each organization that services link to and nobody provides
 * (placeholder-organizations.ts), so no service points at an organization that is not served.
 */
async function storePlaceholderOrganizations(
  engine: Engine,
  ids: string[],
  source: string,
  run: number,
  log: IssueLog,
  options: ImportOptions,
): Promise<void> {
  if (ids.length === 0) return;
  const writer = createBulkWriter(engine, {
    ...options.bulk,
    ...(options.signal ? { signal: options.signal } : {}),
  });
  for (const id of ids) {
    const record = placeholderOrganization(id);
    const doc = toRecordStoreDocument('organization', id, record, [], source);
    // A new key (nothing holds it, or the link would resolve): any external version is the first.
    await writer.index(recordsIndex(engine), doc.key, toSingleDocument(doc, run, false), String(run));
    log.imported('organization');
    await log.add({
      severity: 'warning',
      kind: 'placeholder',
      source,
      record_type: 'organization',
      record_id: id,
      path: '',
      reason: `organization ${id} is the organization of services but in no source or the records store: stored as "${PLACEHOLDER_ORGANIZATION_NAME}" so the links resolve; import the organization to replace it`,
    });
  }
  await writer.close();
}

/** Reports every spooled link whose target exists neither in the source nor in the store. */
async function checkLinks(
  engine: Engine,
  file: string,
  log: IssueLog,
  onChecked: (checked: number) => void,
  onMissing: (from: RecordType, type: RecordType | null, id: string) => void = () => {},
): Promise<void> {
  // Many links point at the same few records (every service at its organization).
  const known = new RecentWindow<boolean>(50_000);
  let batch: SpooledLink[] = [];
  let checked = 0;
  const flush = async () => {
    const typed = new Set<string>();
    const untyped = new Set<string>();
    for (const [, , , type, id] of batch) {
      const key = type ? recordKey(type, id) : `*:${id}`;
      if (known.get(key) !== undefined) continue;
      if (type) typed.add(key);
      else untyped.add(id);
    }
    const foundKeys = typed.size > 0 ? await existingKeys(engine, [...typed]) : new Set<string>();
    const foundIds = untyped.size > 0 ? await existingIds(engine, [...untyped]) : new Set<string>();
    for (const key of typed) known.set(key, foundKeys.has(key));
    for (const id of untyped) known.set(`*:${id}`, foundIds.has(id));
    for (const [type, id, field, targetType, targetId, path, origin] of batch) {
      const key = targetType ? recordKey(targetType, targetId) : `*:${targetId}`;
      if (known.get(key)) continue;
      onMissing(type, targetType, targetId);
      await log.add({
        severity: 'warning',
        kind: 'dangling-reference',
        source: origin,
        record_type: type,
        record_id: id,
        path: path ? `${path}.${field}` : field,
        reason: `${field} ${targetId}: no ${targetType ?? 'record'} with this id in the source or the records store`,
      });
    }
    checked += batch.length;
    onChecked(checked);
    batch = [];
  };
  const lines = createInterface({ input: createReadStream(file, { encoding: 'utf8' }), crlfDelay: Infinity });
  for await (const line of lines) {
    if (!line) continue;
    batch.push(JSON.parse(line) as SpooledLink);
    if (batch.length >= 5000) await flush();
  }
  if (batch.length > 0) await flush();
}
