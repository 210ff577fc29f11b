/**
 * HSDS tabular data packages (the 3.1 tabular form): a `datapackage.json` naming one CSV per
 * table, as the official examples/csv. A folder of CSV files named as the official package names
 * them (`services.csv`, `service_at_location.csv`...) is read the same way without the descriptor.
 * Rows stream through csv-parse; each is coerced (numbers, empty cells) and yielded as a row.
 *
 * Packaging as real publishers do it:
 * - a descriptor whose resource paths do not match where the files are: a file not found at its
 *   path is looked for in a `data/` folder beside the descriptor; one found nowhere is an error
 *   naming it (the rest of the package is still read);
 * - HSDS 1.x/2.0 packages (detected from the descriptor's version and the table names) are
 *   migrated row by row to 3.1 (migrate/hsds-legacy-tabular.ts), each mapping noted in the report;
 * - a CSV that is not UTF-8 is read as Windows-1252 with a warning, or refused (text-encoding.ts).
 */
import { existsSync } from 'node:fs';
import { readdir, readFile, stat } from 'node:fs/promises';
import { basename, dirname, join, resolve } from 'node:path';
import { parse } from 'csv-parse';
import {
  coerceTabularRow,
  findTableOfPath,
  isRecordType,
  type RecordType,
  recordTypes,
  type TabularRow,
} from '../../hsds/index.ts';
import {
  collectFolded,
  createLegacyContext,
  findLegacyTable,
  isLegacyPackage,
  type LegacyContext,
  type LegacyTable,
  legacyTables,
  migrateLegacyRow,
} from '../migrate/hsds-legacy-tabular.ts';
import type { Issue } from '../records/flatten.ts';
import type { Repair } from '../repairs/leniency.ts';
import {
  copyId,
  firstOfIdLists,
  identityRepair,
  mintedId,
  RowIdentities,
  type RowIdentity,
  splitIdLists,
} from '../repairs/row-identity.ts';
import type { SourceItem } from './source.ts';
import { detectCsvEncoding, openCsvText } from './text-encoding.ts';

type Resource = { name?: string; path?: string | string[] };

/** The folder and descriptor of a package, or undefined when `path` is not one. */
export async function findDataPackage(
  path: string,
): Promise<{ dir: string; descriptor?: string } | undefined> {
  const info = await stat(path);
  if (info.isFile()) {
    return basename(path) === 'datapackage.json' ? { dir: dirname(path), descriptor: path } : undefined;
  }
  if (existsSync(join(path, 'datapackage.json')))
    return { dir: path, descriptor: join(path, 'datapackage.json') };
  const names = await readdir(path);
  return names.some((name) => name.endsWith('.csv') && (findTableOfPath(name) || findLegacyTable(name)))
    ? { dir: path }
    : undefined;
}

function tableOf(resource: Resource): RecordType | undefined {
  const path = Array.isArray(resource.path) ? resource.path[0] : resource.path;
  if (path) {
    const table = findTableOfPath(path);
    if (table) return table;
  }
  return resource.name && isRecordType(resource.name) ? resource.name : undefined;
}

const issue = (
  source: string,
  reason: string,
  severity: Issue['severity'] = 'warning',
  kind: Issue['kind'] = 'unknown-table',
): Extract<SourceItem, { kind: 'issue' }> => ({
  kind: 'issue',
  issue: { severity, kind, source, path: '', reason },
});

/**
 * Where a descriptor's resource file is: at its path, else in a `data/` folder beside the
 * descriptor (by its path, then by its file name); undefined when it is nowhere.
 */
function locateResource(dir: string, file: string): { path?: string; tried: string[] } {
  const tried = [
    ...new Set([resolve(dir, file), resolve(dir, 'data', file), resolve(dir, 'data', basename(file))]),
  ];
  const path = tried.find((candidate) => existsSync(candidate));
  return path ? { path, tried } : { tried };
}

type PackageFile = { path: string; table?: RecordType; legacy?: LegacyTable; resource: string };

/**
 * Every row of every table of the package, parents' tables first (the official order). Unless
 * `strict`, a row whose id column does not name its record alone is told apart (row-identity.ts).
 */
export async function* readTabularSource(
  path: string,
  options: { strict?: boolean } = {},
): AsyncGenerator<SourceItem> {
  const found = await findDataPackage(path);
  if (!found)
    throw new Error(`${path} is not a tabular data package (no datapackage.json, no HSDS CSV files)`);
  const listed: PackageFile[] = [];
  let version: unknown;
  if (found.descriptor) {
    const descriptor = JSON.parse(await readFile(found.descriptor, 'utf8')) as {
      resources?: Resource[];
      version?: unknown;
    };
    version = descriptor.version;
    for (const resource of descriptor.resources ?? []) {
      const file = Array.isArray(resource.path) ? resource.path[0] : resource.path;
      if (!file) continue;
      const { path: full, tried } = locateResource(found.dir, file);
      const name = resource.name ?? file;
      if (!full) {
        yield issue(
          resolve(found.dir, file),
          `resource ${name}: file ${file} not found (looked for ${tried.join(', ')}); its records are not imported`,
          'error',
          'unreadable',
        );
        continue;
      }
      const table = tableOf(resource);
      const legacy = findLegacyTable(file, resource.name);
      listed.push({ path: full, resource: name, ...(table ? { table } : {}), ...(legacy ? { legacy } : {}) });
    }
  } else {
    for (const name of (await readdir(found.dir)).sort()) {
      if (!name.endsWith('.csv')) continue;
      const table = findTableOfPath(name);
      const legacy = findLegacyTable(name);
      listed.push({
        path: join(found.dir, name),
        resource: name,
        ...(table ? { table } : {}),
        ...(legacy ? { legacy } : {}),
      });
    }
  }

  if (
    isLegacyPackage(
      listed.map((f) => f.path),
      version,
    )
  ) {
    yield* readLegacyPackage(found.descriptor ?? found.dir, listed, version, new RowIdentities(options));
    return;
  }
  const files = new Map<RecordType, string>();
  for (const file of listed) {
    if (file.table) files.set(file.table, file.path);
    else yield issue(file.path, `resource ${file.resource} is not an HSDS table; skipped`);
  }
  const identities = new RowIdentities(options);
  for (const type of recordTypes) {
    const file = files.get(type);
    if (!file) continue;
    identities.startTable();
    const split = identities.repairs && splitTables.has(type);
    for await (const item of readCsv(file)) {
      if (item.kind === 'issue') {
        yield item;
        continue;
      }
      const parts = split ? splitIdLists(item.record, type === 'phone' ? LINKS_ONCE : undefined) : undefined;
      if (parts === undefined) {
        const first = split || !identities.repairs ? undefined : firstOfIdLists(item.record);
        yield first
          ? identifiedRow(type, first.row as TabularRow, item.origin, identities, split, first.repairs)
          : identifiedRow(type, item.record, item.origin, identities, split, undefined);
        continue;
      }
      for (const { row, repair } of parts)
        yield identifiedRow(type, row as TabularRow, item.origin, identities, split, [repair]);
    }
  }
}

/** A 3.1 row as an item, its id minted or made its own when its id column does not name it. */
function identifiedRow(
  type: RecordType,
  row: TabularRow,
  origin: string,
  identities: RowIdentities,
  split: boolean,
  listed: Repair[] | undefined,
): SourceItem {
  const identity = identities.identify(row, split);
  const coerced = coerceTabularRow(type, row);
  let repairs = listed;
  if (identity) {
    coerced.id = idOf(type, identity);
    repairs = [...(repairs ?? []), identityRepair(identity, coerced.id)];
  }
  return repairs
    ? { kind: 'row', type, row: coerced, origin, repairs }
    : { kind: 'row', type, row: coerced, origin };
}

/**
 * Tables whose rows are told apart by content when they share an id, and split when a link column
 * lists several ids (row-identity.ts): nothing refers to their records by id but for a phone's
 * languages.
 */
const splitTables: ReadonlySet<RecordType> = new Set([
  'schedule',
  'phone',
  'language',
  'address',
  'accessibility',
  'service_area',
  'required_document',
  'funding',
  'attribute',
  'cost_option',
]);
const splitLegacyTables: ReadonlySet<LegacyTable> = new Set([
  'regular_schedule',
  'holiday_schedule',
  'schedule',
  'phone',
  'language',
  'physical_address',
  'postal_address',
  'accessibility_for_disabilities',
  'service_area',
  'required_document',
  'funding',
  'service_taxonomy',
  'service_attribute',
  'other_attribute',
]);

/** A phone split by its id lists is shown once at each link (row-identity.ts splitIdLists). */
const LINKS_ONCE = { linksOnce: true } as const;

const idOf = (type: RecordType, identity: RowIdentity) =>
  identity.kind === 'minted' ? mintedId(type, identity.name) : copyId(type, identity.original, identity.name);

/** An HSDS 1.x/2.0 package: its tables in the old order, each row migrated to 3.1 rows. */
async function* readLegacyPackage(
  where: string,
  listed: PackageFile[],
  version: unknown,
  identities: RowIdentities,
): AsyncGenerator<SourceItem> {
  const date = (await stat(where)).mtime.toISOString().slice(0, 10);
  const context = createLegacyContext(date, { asPublished: !identities.repairs });
  const byTable = new Map<LegacyTable, string[]>();
  for (const file of listed) {
    if (!file.legacy) {
      yield issue(file.path, `resource ${file.resource} is not an HSDS 1.x/2.0 table; skipped`);
      continue;
    }
    byTable.set(file.legacy, [...(byTable.get(file.legacy) ?? []), file.path]);
  }
  context.siteOrganizations = await findSiteOrganizations(
    byTable.get('organization') ?? [],
    byTable.get('service') ?? [],
  );
  const what = typeof version === 'string' ? `HSDS ${version}` : 'HSDS 1.x/2.0 (from its table names)';
  yield issue(where, `an ${what} data package: migrated to HSDS 3.1 on import`, 'info', 'migrated');
  for (const table of ['eligibility', 'payment_accepted'] as const) {
    for (const file of byTable.get(table) ?? []) {
      for await (const item of readCsv(file)) {
        if (item.kind === 'issue') yield item;
        else collectFolded(table, item.record, context);
      }
    }
  }
  for (const table of legacyTables) {
    if (table === 'eligibility' || table === 'payment_accepted') continue;
    for (const file of byTable.get(table) ?? []) {
      if (table === 'metadata') {
        yield issue(
          file,
          'HSDS 1.x/2.0 metadata rows name no resource type, which HSDS 3.1 requires; not imported',
          'warning',
          'migrated',
        );
        continue;
      }
      yield* migrateRows(table, file, context, identities);
    }
  }
  for (const [note, count] of context.notes.entries())
    yield issue(where, `${note} (${count} ${count === 1 ? 'row' : 'rows'})`, 'info', 'migrated');
}

/** The published id of a CSV cell, trimmed; undefined when blank. */
const cellId = (value: string | undefined) => {
  const id = value?.trim();
  return id ? id : undefined;
};

/**
 * Services that other services name as their organization (an AIRS site, as Miami 211 exports
 * it), to the organization each of those names; read before the services are migrated. Memory: the
 * organizations' ids, and only the ids no organization has.
 */
async function findSiteOrganizations(
  organizationFiles: readonly string[],
  serviceFiles: readonly string[],
): Promise<Map<string, string>> {
  const sites = new Map<string, string>();
  if (organizationFiles.length === 0 || serviceFiles.length === 0) return sites;
  const organizations = new Set<string>();
  for (const file of organizationFiles) {
    for await (const item of readCsv(file)) {
      const id = item.kind === 'csv' ? cellId(item.record.id) : undefined;
      if (id !== undefined) organizations.add(id);
    }
  }
  const unknown = new Set<string>();
  for (const file of serviceFiles) {
    for await (const item of readCsv(file)) {
      const organization = item.kind === 'csv' ? cellId(item.record.organization_id) : undefined;
      if (organization !== undefined && !organizations.has(organization)) unknown.add(organization);
    }
  }
  if (unknown.size === 0) return sites;
  for (const file of serviceFiles) {
    for await (const item of readCsv(file)) {
      if (item.kind !== 'csv') continue;
      const id = cellId(item.record.id);
      const organization = cellId(item.record.organization_id);
      if (
        id !== undefined &&
        organization !== undefined &&
        unknown.has(id) &&
        organizations.has(organization)
      )
        sites.set(id, organization);
    }
  }
  return sites;
}

async function* migrateRows(
  table: LegacyTable,
  file: string,
  context: LegacyContext,
  identities: RowIdentities,
): AsyncGenerator<SourceItem> {
  identities.startTable();
  const split = identities.repairs && splitLegacyTables.has(table);
  for await (const item of readCsv(file)) {
    if (item.kind === 'issue') {
      yield item;
      continue;
    }
    const parts = split ? splitIdLists(item.record, table === 'phone' ? LINKS_ONCE : undefined) : undefined;
    if (parts === undefined) {
      const first = split || !identities.repairs ? undefined : firstOfIdLists(item.record);
      const record = first ? (first.row as TabularRow) : item.record;
      yield* migratedRows(
        table,
        record,
        item.origin,
        context,
        identities.identify(record, split),
        first?.repairs,
      );
      continue;
    }
    for (const { row, repair } of parts) {
      const identity = identities.identify(row, split);
      yield* migratedRows(table, row as TabularRow, item.origin, context, identity, [repair]);
    }
  }
}

/** The 3.1 rows of an old row as items; the row's own record (the first) carries `listed`. */
function* migratedRows(
  table: LegacyTable,
  record: TabularRow,
  origin: string,
  context: LegacyContext,
  identity: RowIdentity | undefined,
  listed?: Repair[],
): Generator<SourceItem> {
  const migrated = migrateLegacyRow(table, record, context, identity);
  for (let i = 0; i < migrated.length; i++) {
    const { type, row, repairs } = migrated[i]!;
    const all = i === 0 && listed ? [...listed, ...(repairs ?? [])] : repairs;
    const coerced = coerceTabularRow(type, row);
    yield all
      ? { kind: 'row', type, row: coerced, origin, repairs: all }
      : { kind: 'row', type, row: coerced, origin };
  }
}

type CsvRow = { kind: 'csv'; record: TabularRow; origin: string };

/** The rows of one CSV file (decoded as its encoding), or issues about reading it. */
async function* readCsv(file: string): AsyncGenerator<CsvRow | Extract<SourceItem, { kind: 'issue' }>> {
  const detected = await detectCsvEncoding(file);
  if ('refused' in detected) {
    yield issue(file, `not imported: ${detected.refused}`, 'error', 'encoding');
    return;
  }
  if (detected.encoding === 'windows-1252') {
    yield issue(
      file,
      'not UTF-8: read as Windows-1252, the encoding Excel saves CSV in on Windows; check that accented letters and symbols (é, £, –) read right',
      'warning',
      'encoding',
    );
  }
  const parser = openCsvText(file, detected.encoding).pipe(
    parse({ columns: true, skip_empty_lines: true, bom: true, relax_column_count: true, info: true }),
  );
  try {
    for await (const { record, info } of parser as AsyncIterable<{
      record: TabularRow;
      info: { lines: number };
    }>) {
      yield { kind: 'csv', record, origin: `${file}:${info.lines}` };
    }
  } catch (error) {
    yield issue(file, (error as Error).message, 'error', 'unreadable');
  }
}
