/**
 * HSDS tabular data packages (the 3.1 tabular form): a `datapackage.json` naming one CSV per
 * table, as the official examples/csv. A folder of CSV files named as the official package names
 * them (`services.csv`, `service_at_location.csv`...) is read the same way without the descriptor.
 * Rows stream through csv-parse; each is coerced (numbers, empty cells) and yielded as a row.
 */
import { createReadStream, existsSync } from 'node:fs';
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
import type { SourceItem } from './source.ts';

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
  return names.some((name) => name.endsWith('.csv') && findTableOfPath(name)) ? { dir: path } : undefined;
}

function tableOf(resource: Resource): RecordType | undefined {
  const path = Array.isArray(resource.path) ? resource.path[0] : resource.path;
  if (path) {
    const table = findTableOfPath(path);
    if (table) return table;
  }
  return resource.name && isRecordType(resource.name) ? resource.name : undefined;
}

const issue = (source: string, reason: string, severity: 'error' | 'warning' = 'warning'): SourceItem => ({
  kind: 'issue',
  issue: { severity, kind: 'unknown-table', source, path: '', reason },
});

/** Every row of every table of the package, parents' tables first (the official order). */
export async function* readTabularSource(path: string): AsyncGenerator<SourceItem> {
  const found = await findDataPackage(path);
  if (!found)
    throw new Error(`${path} is not a tabular data package (no datapackage.json, no HSDS CSV files)`);
  const files = new Map<RecordType, string>();
  if (found.descriptor) {
    const descriptor = JSON.parse(await readFile(found.descriptor, 'utf8')) as { resources?: Resource[] };
    for (const resource of descriptor.resources ?? []) {
      const table = tableOf(resource);
      const file = Array.isArray(resource.path) ? resource.path[0] : resource.path;
      if (!file) continue;
      const full = resolve(found.dir, file);
      if (!table) {
        yield issue(full, `resource ${resource.name ?? file} is not an HSDS table; skipped`);
      } else if (!existsSync(full)) {
      } else {
        files.set(table, full);
      }
    }
  } else {
    for (const name of await readdir(found.dir)) {
      const table = name.endsWith('.csv') ? findTableOfPath(name) : undefined;
      if (table) files.set(table, join(found.dir, name));
      else if (name.endsWith('.csv'))
        yield issue(join(found.dir, name), `${name} is not an HSDS table; skipped`);
    }
  }
  for (const type of recordTypes) {
    const file = files.get(type);
    if (file) yield* readCsv(type, file);
  }
}

async function* readCsv(type: RecordType, file: string): AsyncGenerator<SourceItem> {
  const parser = createReadStream(file).pipe(
    parse({ columns: true, skip_empty_lines: true, bom: true, relax_column_count: true, info: true }),
  );
  try {
    for await (const { record, info } of parser as AsyncIterable<{
      record: TabularRow;
      info: { lines: number };
    }>) {
      yield { kind: 'row', type, row: coerceTabularRow(type, record), origin: `${file}:${info.lines}` };
    }
  } catch (error) {
    yield {
      kind: 'issue',
      issue: {
        severity: 'error',
        kind: 'unreadable',
        source: file,
        path: '',
        reason: (error as Error).message,
      },
    };
  }
}
