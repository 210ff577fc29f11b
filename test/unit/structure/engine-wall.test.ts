/**
 * The engine's wall (docs/architecture.md): src/engine is the only code that holds the OpenSearch
 * client, and query DSL is written in src/index-mapping only (the bodies in *.query.ts; src/engine
 * sends what they build and writes none of its own). biome.json keeps the import direction; this
 * test keeps what no import rule sees: a module that reaches `engine.client` through the Engine it
 * was handed, or writes a query body of its own.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..', '..');
const src = join(root, 'src');

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(path);
    return /\.(ts|js)$/.test(entry.name) ? [path] : [];
  });
}

/** The code of a file without its comments and the text of its string literals. */
const codeOf = (text: string) =>
  text
    .replace(/\/\*[\s\S]*?\*\//g, '')
    .replace(/(^|[^:])\/\/.*$/gm, '$1')
    .replace(/'(?:[^'\\\n]|\\.)*'|"(?:[^"\\\n]|\\.)*"|`(?:[^`\\]|\\.)*`/g, (literal) =>
      literal.startsWith("'") && /^'@opensearch-project\//.test(literal) ? literal : "''",
    );

const CLIENT_USES: [string, RegExp][] = [
  ['imports the OpenSearch client', /'@opensearch-project\/opensearch[^']*'/],
  ['uses the engine client', /\.client\b/],
  ['runs an engine call', /\bengineCall\s*\(/],
];

const QUERY_DSL: [string, RegExp][] = [
  ['writes a bool query', /\bbool\s*:\s*\{/],
  ['writes a term or terms query', /\{\s*terms?\s*:\s*\{/],
  ['writes a range query', /\{\s*range\s*:\s*\{/],
  ['writes match_all', /\bmatch_all\s*:/],
  ['pages with search_after', /\bsearch_after\s*:/],
  ['writes a query body', /\bquery\s*:\s*\{/],
  ['writes a sort', /\bsort\s*:\s*\[/],
  ['asks for a total', /\btrack_total_hits\s*:/],
  ['writes aggregations', /\b(aggs|aggregations)\s*:\s*\{/],
];

const files = sourceFiles(src).map((path) => ({
  path: relative(root, path),
  code: codeOf(readFileSync(path, 'utf8')),
}));

const offences = (allowed: (path: string) => boolean, rules: [string, RegExp][]) =>
  files
    .filter((file) => !allowed(file.path))
    .flatMap((file) =>
      rules.filter(([, rule]) => rule.test(file.code)).map(([what]) => `${file.path} ${what}`),
    );

describe('the engine wall', () => {
  it('finds the files it guards', () => {
    expect(files.length).toBeGreaterThan(100);
    expect(files.some((f) => f.path === join('src', 'engine', 'engine.ts'))).toBe(true);
  });

  it('lets only src/engine hold the OpenSearch client', () => {
    expect(offences((path) => path.startsWith(`${join('src', 'engine')}/`), CLIENT_USES)).toEqual([]);
  });

  it('keeps query DSL in src/index-mapping', () => {
    expect(offences((path) => path.startsWith(`${join('src', 'index-mapping')}/`), QUERY_DSL)).toEqual([]);
  });

  it('sees a client call in a probe', () => {
    const probe = codeOf(
      "import type { Engine } from '../engine/engine.ts';\n// engine.client in a comment is fine\nexport const f = (e: Engine) => e.client.search({ index: 'x', body: { query: { bool: { filter: [] } } } });\n",
    );
    expect(CLIENT_USES.filter(([, rule]) => rule.test(probe)).map(([what]) => what)).toEqual([
      'uses the engine client',
    ]);
    expect(QUERY_DSL.filter(([, rule]) => rule.test(probe)).map(([what]) => what)).toEqual([
      'writes a bool query',
      'writes a query body',
    ]);
  });

  it('sees the envelope of a search in a probe', () => {
    const probe = codeOf(
      'export const body = (after?: unknown[]) => ({ size: 10, sort: [{ id: "asc" }], track_total_hits: false, aggs: { n: {} }, ...(after ? { search_after: after } : {}) });\n',
    );
    expect(QUERY_DSL.filter(([, rule]) => rule.test(probe)).map(([what]) => what)).toEqual([
      'pages with search_after',
      'writes a sort',
      'asks for a total',
      'writes aggregations',
    ]);
  });
});
