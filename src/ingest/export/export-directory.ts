/**
 * Export: the directory as it is served, written as files another HSDS system (or this one) can
 * read. Every stored record is read once (the records store is what the read indices are built
 * from; a reindex publishes nothing else), then written as
 * - `datapackage`: an HSDS 3.1 tabular data package: the official `datapackage.json`
 *   (src/hsds/datapackage.json, the specification's own, unchanged) and one CSV per table with
 *   its columns in the official order, every table written (a table without records has its header
 *   only), extension fields a table's records carry (`x-alternate_names`) as extra columns;
 * - `json`: nested HSDS JSON as the API serves it (assemble.ts, as reindex nests): `services.json`
 *   (each with everything it nests), `organizations.json` (all of them, those without services too),
 *   `taxonomies.json` and `taxonomy_terms.json` (terms no service uses too);
 * - `ndjson`: the same, one record a line (`services.ndjson`...), for large directories.
 * Importing the export into an empty directory serves the same answers (the round-trip test).
 * Memory: every record is held (readAllRecords), as for the checks of small stores; a very large
 * directory is better harvested with `format=ndjson` from the API.
 */
import { once } from 'node:events';
import { createWriteStream, type WriteStream } from 'node:fs';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Engine } from '../../engine/engine.ts';
import { readAllRecords } from '../../engine/records.ts';
import { isRecordType, type RecordType, tabularPaths } from '../../hsds/index.ts';
import type { RecordStoreDocument } from '../../index-mapping/record-store.document.ts';
import { nestRecord, RecordGraph } from '../publish/assemble.ts';

export type ExportFormat = 'datapackage' | 'json' | 'ndjson';
export const EXPORT_FORMATS: readonly ExportFormat[] = ['datapackage', 'json', 'ndjson'];

export type ExportSummary = {
  format: ExportFormat;
  out: string;
  /** Files written, with the records (rows or top-level items) in each. */
  files: Record<string, number>;
  /** Stored records, by type. */
  records: Record<string, number>;
};

type Descriptor = { resources: { name: string; path: string; schema: { fields: { name: string }[] } }[] };

const descriptorFile = new URL('../../hsds/datapackage.json', import.meta.url);

/** The columns of each table, in the official order. */
async function officialDescriptor(): Promise<{ text: string; descriptor: Descriptor }> {
  const text = await readFile(descriptorFile, 'utf8');
  return { text, descriptor: JSON.parse(text) as Descriptor };
}

/** One CSV cell (RFC 4180): quoted when it holds a comma, quote, line break or edge space. */
export function csvCell(value: unknown): string {
  if (value === undefined || value === null) return '';
  const text = Array.isArray(value)
    ? value.map(String).join('; ')
    : typeof value === 'object'
      ? JSON.stringify(value)
      : String(value);
  return /[",\r\n]|^\s|\s$/.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}

async function writeLines(file: string, lines: Iterable<string>): Promise<number> {
  const out: WriteStream = createWriteStream(file);
  let n = 0;
  for (const line of lines) {
    if (!out.write(`${line}\n`)) await once(out, 'drain');
    n += 1;
  }
  out.end();
  await once(out, 'finish');
  return n;
}

const byId = (a: RecordStoreDocument, b: RecordStoreDocument) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);

/** Writes the tabular data package; the row count of each file. */
async function writeDataPackage(
  out: string,
  byType: Map<RecordType, RecordStoreDocument[]>,
): Promise<Record<string, number>> {
  const { text, descriptor } = await officialDescriptor();
  await writeFile(join(out, 'datapackage.json'), text);
  const files: Record<string, number> = { 'datapackage.json': 1 };
  for (const resource of descriptor.resources) {
    const type = resource.name;
    const records = isRecordType(type) ? (byType.get(type) ?? []) : [];
    const official = resource.schema.fields.map((f) => f.name);
    const known = new Set(official);
    // Extension fields (`x-...`) the records carry, after the official columns.
    const extra = [
      ...new Set(
        records.flatMap((r) => Object.keys(r.record).filter((k) => !known.has(k) && k.startsWith('x-'))),
      ),
    ].sort();
    const columns = [...official, ...extra];
    const rows = function* () {
      yield columns.map(csvCell).join(',');
      for (const r of records) yield columns.map((c) => csvCell(r.record[c])).join(',');
    };
    const path = isRecordType(type) ? tabularPaths[type] : resource.path;
    files[path] = (await writeLines(join(out, path), rows())) - 1;
  }
  return files;
}

/** Writes nested JSON (an array a file) or NDJSON (a record a line); the item count of each file. */
async function writeNested(
  out: string,
  graph: RecordGraph,
  byType: Map<RecordType, RecordStoreDocument[]>,
  ndjson: boolean,
): Promise<Record<string, number>> {
  const files: Record<string, number> = {};
  const tops: [RecordType, string][] = [
    ['taxonomy', 'taxonomies'],
    ['taxonomy_term', 'taxonomy_terms'],
    ['organization', 'organizations'],
    ['service', 'services'],
  ];
  for (const [type, name] of tops) {
    const records = byType.get(type) ?? [];
    const file = `${name}.${ndjson ? 'ndjson' : 'json'}`;
    const items = function* () {
      for (const r of records) yield JSON.stringify(nestRecord(graph, r));
    };
    if (ndjson) {
      files[file] = await writeLines(join(out, file), items());
    } else {
      const lines = function* () {
        let first = true;
        yield '[';
        for (const item of items()) {
          yield `${first ? '' : ','}${item}`;
          first = false;
        }
        yield ']';
      };
      await writeLines(join(out, file), lines());
      files[file] = records.length;
    }
  }
  return files;
}

/** Exports the stored (served) directory to `out` in `format`. */
export async function exportDirectory(
  engine: Engine,
  options: { format: ExportFormat; out: string },
): Promise<ExportSummary> {
  await mkdir(options.out, { recursive: true });
  const all = [...(await readAllRecords(engine)).values()];
  const graph = new RecordGraph();
  const byType = new Map<RecordType, RecordStoreDocument[]>();
  const records: Record<string, number> = {};
  for (const doc of all) {
    if (!isRecordType(doc.type)) continue;
    graph.add(doc);
    const list = byType.get(doc.type);
    if (list) list.push(doc);
    else byType.set(doc.type, [doc]);
    records[doc.type] = (records[doc.type] ?? 0) + 1;
  }
  for (const list of byType.values()) list.sort(byId);
  const files =
    options.format === 'datapackage'
      ? await writeDataPackage(options.out, byType)
      : await writeNested(options.out, graph, byType, options.format === 'ndjson');
  return { format: options.format, out: options.out, files, records };
}
