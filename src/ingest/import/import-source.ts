/**
 * Import: a source (HSDS JSON, a tabular data package, a remote HSDS API) into the records store.
 *
 *   read (batches) ─▶ validate (pure) ─▶ stamp last_modified ─▶ settle repeats ─▶ write
 *                     validate.ts          last-modified.ts         repeats.ts         store-writer.ts
 *   (the step modules are in import/)
 *   then: refused records, announced deletions, sync (import/end-steps.ts) ─▶ link check
 *   (import/links.ts) ─▶ placeholder organizations ─▶ flush
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
import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import type { BulkWriterOptions } from '../../engine/bulk.ts';
import { type ImportRunHandle, startImportRun } from '../../engine/control.ts';
import type { Engine } from '../../engine/engine.ts';
import {
  countRecords,
  ensureRecordsIndex,
  flushRecords,
  getRecords,
  refreshRecords,
} from '../../engine/records.ts';
import { ChangeSet } from '../records/changes.ts';
import type { RecordRef } from '../records/deletion.ts';
import type { FlatRecord, Flattened, FlattenOptions, Issue } from '../records/flatten.ts';
import { recordKey } from '../records/nesting.ts';
import { idFieldsOf } from '../repairs/leniency.ts';
import { copyNestedId, copyRepair, splitsFrom } from '../repairs/nested-identity.ts';
import { readJsonSource } from '../sources/json.source.ts';
import { type HarvestOptions, offersChangeFeed, readRemoteSource } from '../sources/remote.source.ts';
import type { SourceItem } from '../sources/source.ts';
import { findDataPackage, readTabularSource } from '../sources/tabular.source.ts';
import { applyDeletions, reportRefused, storePlaceholderOrganizations, syncSource } from './end-steps.ts';
import { type ImportSummary, IssueLog, type SourceKind } from './import-report.ts';
import { stampLastModified } from './last-modified.ts';
import { checkLinks, LinkSpool } from './links.ts';
import { type Hashed, hashed, Repeats, repeatIssue } from './repeats.ts';
import { StoreWriter } from './store-writer.ts';
import { flattenItems, reportItemIssues } from './validate.ts';

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
  /** Where the whole report goes as JSON; default a file in the system temp folder; false: none. */
  reportFile?: string | false;
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
  /** The country of addresses whose country is blank and not told by the postal code (DEFAULT_COUNTRY). */
  defaultCountry?: string;
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
  reportFile?: string;
};

/** What the control index keeps of a finished run's summary (`hsds sources` shows it). */
const runCounts = (s: ImportSummary) => ({
  items: s.items,
  records: s.records,
  repaired: s.repaired,
  rejected: s.rejected,
  duplicates: s.duplicates,
  dangling_references: s.dangling_references,
  ...(s.removed !== undefined ? { removed: s.removed } : {}),
});

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
  return kind === 'tabular'
    ? readTabularSource(location, { strict: options.strict ?? false })
    : readJsonSource(location);
}

/** Items read, flattened and checked for repeats together (their "maybe"s settled at once). */
const ITEM_BATCH = 200;

/** Read: the source's items, in batches of ITEM_BATCH. */
async function* readInBatches(
  items: AsyncIterable<SourceItem>,
  signal: AbortSignal | undefined,
): AsyncGenerator<SourceItem[]> {
  let batch: SourceItem[] = [];
  for await (const item of items) {
    signal?.throwIfAborted();
    batch.push(item);
    if (batch.length >= ITEM_BATCH) {
      yield batch;
      batch = [];
    }
  }
  if (batch.length > 0) yield batch;
}

/**
 * A change feed asked of a server without one: everything is harvested instead, and what is gone
 * goes (sync). Returns the options the run goes on with.
 */
async function fallBackWithoutChangeFeed(
  source: string,
  kind: SourceKind,
  options: ImportOptions,
  log: IssueLog,
): Promise<ImportOptions> {
  if (kind !== 'remote' || !options.harvest?.since || (await offersChangeFeed(source, options.harvest))) {
    return options;
  }
  const { since: _, ...harvest } = options.harvest;
  await log.add({
    severity: 'info',
    kind: 'sync-skipped',
    source,
    path: '',
    reason:
      'the server offers no change feed (include_deleted): harvested everything instead, and deleted what it no longer has (--sync)',
  });
  return { ...options, harvest, sync: true };
}

/**
 * Whether the store holds records of earlier runs. A record first met in this run may then be
 * held by another document already (StoreWriter decides); without any, everything is a change.
 */
async function findEarlierRuns(engine: Engine, changes: ChangeSet): Promise<boolean> {
  const earlierRuns = (await countRecords(engine)) > 0;
  if (earlierRuns) await refreshRecords(engine);
  else changes.everything();
  return earlierRuns;
}

/** The steps each batch of items takes, and the state of the run they share. */
class BatchSteps {
  readonly progress: ImportProgress = { phase: 'reading', items: 0, records: 0, rejected: 0 };
  /** Deletions the source itself announces (a harvested change feed). */
  readonly announcedDeletions: RecordRef[] = [];
  private readonly engine: Engine;
  private readonly run: number;
  private readonly earlierRuns: boolean;
  private readonly options: ImportOptions;
  private readonly log: IssueLog;
  private readonly writer: StoreWriter;
  private readonly repeats: Repeats;
  private readonly links: LinkSpool;
  private readonly flattenOptions: FlattenOptions;

  constructor(parts: {
    engine: Engine;
    run: number;
    earlierRuns: boolean;
    options: ImportOptions;
    log: IssueLog;
    writer: StoreWriter;
    repeats: Repeats;
    links: LinkSpool;
  }) {
    this.engine = parts.engine;
    this.run = parts.run;
    this.earlierRuns = parts.earlierRuns;
    this.options = parts.options;
    this.log = parts.log;
    this.writer = parts.writer;
    this.repeats = parts.repeats;
    this.links = parts.links;
    const { defaultCountry } = parts.options;
    this.flattenOptions = {
      strict: parts.options.strict ?? false,
      ...(defaultCountry ? { leniency: { defaultCountry } } : {}),
    };
  }

  /** Validate, stamp `last_modified`, settle repeats, write: one batch of items. */
  async importBatch(items: SourceItem[]): Promise<void> {
    const flattened = flattenItems(items, this.flattenOptions);
    await stampLastModified(
      this.engine,
      flattened.flatMap((f, i) =>
        f ? f.records.map((r) => ({ flat: r, origin: (items[i] as { origin: string }).origin })) : [],
      ),
      this.run,
      this.earlierRuns,
    );
    const withHashes = flattened.map((f) => {
      if (!f) return undefined;
      const { records, ...rest } = f;
      return { ...rest, records: records.map(hashed) };
    });
    await this.repeats.settleMaybes(
      withHashes.flatMap((f) => f?.records ?? []),
      async (keys) => {
        await this.writer.flush();
        await refreshRecords(this.engine);
        return getRecords(this.engine, keys);
      },
    );
    for (const [i, item] of items.entries()) {
      this.options.signal?.throwIfAborted();
      await this.writeItem(item, withHashes[i]);
    }
  }

  /** Write: an item's issues reported, its records met (repeats.ts) and stored (store-writer.ts). */
  private async writeItem(
    item: SourceItem,
    flattened: (Omit<Flattened, 'records'> & { records: Hashed[] }) | undefined,
  ): Promise<void> {
    if (item.kind === 'deleted') {
      this.announcedDeletions.push({ type: item.type, id: item.id });
      return;
    }
    if (item.kind === 'issue' || !flattened) {
      if (item.kind === 'issue') await this.log.add(item.issue);
      return;
    }
    this.log.summary.items += 1;
    this.progress.items += 1;
    await reportItemIssues(this.log, flattened);
    this.progress.rejected = this.log.summary.rejected;
    this.writer.beginItem(item.kind === 'nested');
    if (item.kind === 'nested' && !this.flattenOptions.strict) {
      const met = new Set<string>();
      const renamed = new Map<string, string>();
      for (const published of flattened.records) {
        const record = this.ownCopy(followRenamed(published, renamed), met, item.origin, renamed);
        met.add(record.key);
        await this.accept(record, item.origin);
      }
    } else {
      for (const record of flattened.records) await this.accept(record, item.origin);
    }
    await this.writer.endItem();
    if (this.progress.items % 200 === 0) this.options.onProgress?.({ ...this.progress });
  }

  /**
   * A nested record whose id this run met with content a merge would lose (nested-identity.ts,
   * `splitsFrom`) becomes a record of its own under a minted id, noted as a repair; `renamed` makes
   * the records nested in it (later in the item) follow it.
   */
  private ownCopy(
    record: Hashed,
    met: ReadonlySet<string>,
    origin: string,
    renamed: Map<string, string>,
  ): Hashed {
    const earlier = this.repeats.earlier(record.key);
    if (!earlier) return record;
    const { flat } = record;
    const why = splitsFrom(
      flat.type,
      earlier.record,
      flat.record,
      met.has(record.key),
      earlier.content !== record.content,
    );
    if (!why) return record;
    const id = copyNestedId(flat.type, flat.id, flat.record);
    renamed.set(flat.id, id);
    const first = met.has(record.key) ? origin : earlier.origin;
    const repair = copyRepair(flat.id, id, why, first);
    const note: Issue = {
      severity: repair.severity,
      kind: 'repaired',
      source: origin,
      record_type: flat.type,
      record_id: id,
      path: flat.path ? `${flat.path}.id` : 'id',
      reason: repair.action,
      value: flat.id,
    };
    return hashed({ ...flat, id, record: { ...flat.record, id }, notes: [...flat.notes, note] });
  }

  private async accept(record: Hashed, origin: string): Promise<void> {
    const { flat } = record;
    const meeting = this.repeats.meet(record, origin);
    if (meeting.kind === 'repeat') return;
    if (meeting.kind === 'first') {
      await this.store(flat, flat.record, true, false);
      this.log.imported(flat.type);
      this.progress.records += 1;
      await this.links.add(flat, origin);
      return;
    }
    const { merged, changed, conflicts } = meeting;
    if (changed || conflicts.length > 0) await this.log.add(repeatIssue(flat, origin, meeting));
    await this.store(flat, merged, changed, true);
    await this.links.add(flat, origin);
  }

  // Stores a record, and (`report`) reports its notes: what leniency repaired or dropped.
  private async store(
    flat: FlatRecord,
    record: Record<string, unknown>,
    report: boolean,
    overrides: boolean,
  ) {
    await this.writer.put(flat, record, overrides);
    if (report) {
      for (const note of flat.notes) await this.log.add(note);
      if (flat.notes.some((n) => n.kind === 'repaired' || n.kind === 'dropped-field'))
        this.log.repaired(flat.type);
    }
  }
}

/** A nested record whose parent (or a record it names in its item) was given its own id follows it. */
function followRenamed(record: Hashed, renamed: ReadonlyMap<string, string>): Hashed {
  if (renamed.size === 0) return record;
  const { flat } = record;
  let changed: Record<string, unknown> | undefined;
  for (const field of idFieldsOf(flat.type)) {
    if (field === 'id') continue;
    const value = flat.record[field];
    const id = typeof value === 'string' ? renamed.get(value) : undefined;
    if (id === undefined) continue;
    changed ??= { ...flat.record };
    changed[field] = id;
  }
  return changed ? hashed({ ...flat, record: changed }) : record;
}

/**
 * Imports a source into the records store, as a pipeline: read the source in batches; for each
 * batch validate, stamp `last_modified`, settle repeats and write (BatchSteps); then report what
 * the engine refused, apply announced deletions and `--sync`, check links, store placeholder
 * organizations, and flush.
 */
export async function importSource(
  engine: Engine,
  location: string,
  options: ImportOptions = {},
): Promise<ImportResult> {
  const source = isUrl(location) ? location : resolve(location);
  const kind = options.kind ?? (await detectSourceKind(source));
  const log = new IssueLog(source, kind);
  await ensureRecordsIndex(engine);
  const effective = await fallBackWithoutChangeFeed(source, kind, options, log);
  return runImport(engine, source, log, openSource(source, kind, effective), effective);
}

async function runImport(
  engine: Engine,
  source: string,
  log: IssueLog,
  items: AsyncIterable<SourceItem>,
  options: ImportOptions,
): Promise<ImportResult> {
  const name = options.sourceName ?? source;
  const changes = new ChangeSet(engine);
  const workDir = await mkdtemp(join(tmpdir(), 'hsds-links-'));
  const reportFile =
    options.reportFile === false
      ? undefined
      : (options.reportFile ?? join(tmpdir(), `hsds-import-${Date.now()}.json`));
  // Recorded in the control index so that a reindex never publishes what a killed import left.
  let importRun: ImportRunHandle | undefined;
  try {
    importRun = await startImportRun(engine, name);
    const earlierRuns = await findEarlierRuns(engine, changes);
    const run = Date.now();
    const writer = new StoreWriter(engine, run, earlierRuns, changes, name, options);
    const links = new LinkSpool(workDir);
    const repeats = new Repeats(run, options);
    const steps = new BatchSteps({ engine, run, earlierRuns, options, log, writer, repeats, links });

    for await (const batch of readInBatches(items, options.signal)) {
      await steps.importBatch(batch);
    }
    await writer.close();
    await reportRefused(writer.refused, log, source);
    await links.close();
    await refreshRecords(engine);
    await changes.settleMoved();
    if (steps.announcedDeletions.length > 0) {
      await applyDeletions(engine, steps.announcedDeletions, changes, log, source, options);
    }
    if (options.sync) await syncSource(engine, name, run, changes, log, source, options);

    const { progress } = steps;
    progress.phase = 'checking-links';
    options.onProgress?.({ ...progress, links: 0, linksTotal: links.count });
    await refreshRecords(engine);
    const missingOrganizations = new Set<string>();
    await checkLinks(
      engine,
      links.file,
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
    await importRun.finish('complete', undefined, runCounts(log.summary));
    log.summary.finished_at = new Date().toISOString();
    if (reportFile) await log.writeReportFile(reportFile);
    options.onProgress?.({ ...progress, phase: 'done' });
    return { summary: log.summary, changes, firstIssues: log.first, ...(reportFile ? { reportFile } : {}) };
  } catch (error) {
    await importRun?.finish('failed', error instanceof Error ? error.message : String(error)).catch(() => {});
    throw error;
  } finally {
    await log.dispose();
    await rm(workDir, { recursive: true, force: true });
  }
}
