/**
 * HSDS JSON sources: a file or a folder of nested records. A file may be NDJSON (one record a
 * line), a JSON array, an HSDS Page (`{ contents: [...] }`) or one object. Arrays and NDJSON are
 * read as streams, so a file of any size passes through in constant memory.
 *
 * What each object is comes from the file name (`taxonomies.json`, `taxonomy_terms.json`,
 * `organizations.json`, `services.ndjson`...), else from the object itself.
 */
import { createReadStream } from 'node:fs';
import { open, readdir, stat } from 'node:fs/promises';
import { basename, extname, join } from 'node:path';
import { createInterface } from 'node:readline';
import type { RecordType } from '../../hsds/index.ts';
import { createOruk1Context, looksLikeOruk1, migrateOruk1Service } from '../migrate/oruk-1.ts';
import type { SourceItem } from './source.ts';

const JSON_EXTENSIONS = new Set(['.json', '.ndjson', '.jsonl']);

const typeByFileName: [RegExp, RecordType][] = [
  [/^taxonomy[_-]?terms?(?![a-z])/i, 'taxonomy_term'],
  [/^taxonom(y|ies)(?![a-z])/i, 'taxonomy'],
  [/^organi[sz]ations?(?![a-z])/i, 'organization'],
  [/^service[_-]?at[_-]?locations?(?![a-z])/i, 'service_at_location'],
  [/^services?(?![a-z])/i, 'service'],
];

/** The record type a file holds, from its name; undefined: decide per object. */
export function typeOfFile(file: string): RecordType | undefined {
  const name = basename(file);
  return typeByFileName.find(([pattern]) => pattern.test(name))?.[1];
}

/**
 * What a nested object is when the file name does not say: services have the required `status`;
 * an organization lists `services` or has organization-only fields; a term has its taxonomy.
 */
export function guessType(value: unknown): RecordType {
  if (typeof value !== 'object' || value === null) return 'service';
  const o = value as Record<string, unknown>;
  if ('status' in o && !('services' in o)) return 'service';
  if (
    Array.isArray(o.services) ||
    ['website', 'legal_status', 'tax_status', 'year_incorporated'].some((k) => k in o)
  )
    return 'organization';
  if ('taxonomy_detail' in o || 'term_uri' in o || 'taxonomy_id' in o || 'parent_id' in o)
    return 'taxonomy_term';
  if ('service' in o && 'location' in o) return 'service_at_location';
  if ('version' in o && !('status' in o)) return 'taxonomy';
  return 'service';
}

async function firstChar(file: string): Promise<string> {
  const handle = await open(file, 'r');
  try {
    const buffer = Buffer.alloc(4096);
    const { bytesRead } = await handle.read(buffer, 0, 4096, 0);
    return (
      buffer
        .subarray(0, bytesRead)
        .toString('utf8')
        .replace(/^\uFEFF/, '')
        .trimStart()[0] ?? ''
    );
  } finally {
    await handle.close();
  }
}

/**
 * Splits a top-level JSON array into the text of its elements as the stream arrives, without
 * parsing the whole: a scanner tracks depth and strings; each element is parsed on its own.
 */
export async function* streamJsonArray(chunks: AsyncIterable<string>): AsyncGenerator<string> {
  let buffer = '';
  let started = false;
  let depth = 0;
  let inString = false;
  let escaped = false;
  let start = -1;
  let i = 0;
  for await (const chunk of chunks) {
    buffer += chunk;
    for (; i < buffer.length; i++) {
      const c = buffer.charCodeAt(i);
      if (inString) {
        if (escaped) escaped = false;
        else if (c === 92 /* \ */) escaped = true;
        else if (c === 34 /* " */) inString = false;
        continue;
      }
      if (!started) {
        if (c === 91 /* [ */) started = true;
        else if (c === 0xfeff || c <= 32) continue;
        else throw new SyntaxError('expected a JSON array');
        continue;
      }
      if (c === 34) {
        inString = true;
        if (depth === 0 && start < 0) start = i;
      } else if (c === 123 /* { */ || c === 91) {
        if (depth === 0 && start < 0) start = i;
        depth += 1;
      } else if (c === 125 /* } */ || c === 93 /* ] */) {
        if (depth === 0) {
          if (start >= 0) yield buffer.slice(start, i);
          return;
        }
        depth -= 1;
      } else if (c === 44 /* , */ && depth === 0) {
        if (start >= 0) yield buffer.slice(start, i);
        start = -1;
      } else if (depth === 0 && start < 0 && c > 32) {
        start = i; // a scalar element: reported as not an object when parsed
      }
    }
    // Keep only what the current element needs.
    const keepFrom = start >= 0 ? start : i;
    buffer = buffer.slice(keepFrom);
    i -= keepFrom;
    if (start >= 0) start = 0;
  }
  if (started) throw new SyntaxError('the JSON array is not closed (file truncated?)');
}

function unreadable(origin: string, reason: string): SourceItem {
  return {
    kind: 'issue',
    issue: { severity: 'error', kind: 'unreadable', source: origin, path: '', reason },
  };
}

function nested(value: unknown, origin: string, hint: RecordType | undefined): SourceItem {
  return { kind: 'nested', type: hint ?? guessType(value), value, origin };
}

/**
 * The items of one JSON or NDJSON file. ORUK 1.0 services are migrated to HSDS 3.1 as they pass
 * (migrate/oruk-1.ts); each mapping is reported once, with how many records it touched, at the
 * end of the file. The original-id metadata is dated with the file's modification day, so the
 * same file imports to the same records.
 */
export async function* readJsonFile(file: string, hint = typeOfFile(file)): AsyncGenerator<SourceItem> {
  const context = createOruk1Context((await stat(file)).mtime.toISOString().slice(0, 10));
  let migrated = 0;
  for await (const item of readJsonItems(file, hint)) {
    if (item.kind === 'nested' && item.type === 'service' && looksLikeOruk1(item.value)) {
      migrated += 1;
      yield { ...item, value: migrateOruk1Service(item.value as Record<string, unknown>, context) };
    } else {
      yield item;
    }
  }
  if (migrated === 0) return;
  const note = (reason: string): SourceItem => ({
    kind: 'issue',
    issue: { severity: 'info', kind: 'migrated', source: file, path: '', reason },
  });
  yield note(`an ORUK 1.0 feed: ${migrated} service(s) migrated to HSDS 3.1 on import`);
  for (const [reason, count] of context.notes.entries())
    yield note(`${reason} (${count} ${count === 1 ? 'record' : 'records'})`);
}

async function* readJsonItems(file: string, hint: RecordType | undefined): AsyncGenerator<SourceItem> {
  const first = await firstChar(file);
  const ndjson = ['.ndjson', '.jsonl'].includes(extname(file).toLowerCase());
  if (first === '[' && !ndjson) {
    let i = 0;
    try {
      for await (const text of streamJsonArray(createReadStream(file, { encoding: 'utf8' }))) {
        const origin = `${file}[${i++}]`;
        try {
          yield nested(JSON.parse(text), origin, hint);
        } catch (error) {
          yield unreadable(origin, `not valid JSON: ${(error as Error).message}`);
        }
      }
    } catch (error) {
      yield unreadable(file, (error as Error).message);
    }
    return;
  }
  if (first === '{' && !ndjson) {
    // One object or a Page: small by nature; a second object on a later line means NDJSON.
    const size = (await stat(file)).size;
    if (size < 256 * 1024 * 1024) {
      const text = await (await import('node:fs/promises')).readFile(file, 'utf8');
      let value: unknown;
      try {
        value = JSON.parse(text.replace(/^\uFEFF/, '')); // a UTF-8 byte order mark is not JSON
      } catch {
        value = undefined;
      }
      if (value !== undefined) {
        // An HSDS Page has `contents`; an ORUK 1.0 page (a Spring page) has `content`.
        const page = value as { contents?: unknown; content?: unknown };
        const key = Array.isArray(page.contents)
          ? 'contents'
          : Array.isArray(page.content)
            ? 'content'
            : undefined;
        if (key) {
          let i = 0;
          for (const item of page[key] as unknown[]) yield nested(item, `${file}#${key}[${i++}]`, hint);
        } else {
          yield nested(value, file, hint);
        }
        return;
      }
    }
  }
  // NDJSON: one object a line.
  let line = 0;
  const lines = createInterface({ input: createReadStream(file, { encoding: 'utf8' }), crlfDelay: Infinity });
  for await (const text of lines) {
    line += 1;
    if (text.trim() === '') continue;
    const origin = `${file}:${line}`;
    try {
      yield nested(JSON.parse(text), origin, hint);
    } catch (error) {
      yield unreadable(origin, `not valid JSON: ${(error as Error).message}`);
    }
  }
}

/**
 * The items of a file, or of every JSON file of a folder: taxonomies first, then terms, then
 * everything else (services, organizations), each in file-name order.
 */
export async function* readJsonSource(path: string): AsyncGenerator<SourceItem> {
  const info = await stat(path);
  if (!info.isDirectory()) {
    yield* readJsonFile(path);
    return;
  }
  const files = (await readdir(path))
    .filter((name) => JSON_EXTENSIONS.has(extname(name).toLowerCase()) && name !== 'datapackage.json')
    .sort();
  const order = (name: string) => {
    const type = typeOfFile(name);
    return type === 'taxonomy' ? 0 : type === 'taxonomy_term' ? 1 : 2;
  };
  files.sort((a, b) => order(a) - order(b));
  for (const name of files) yield* readJsonFile(join(path, name));
}
