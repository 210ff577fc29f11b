/**
 * docs/architecture.md is the map of src/: every folder of src/ is named in it (a new room is
 * placed on the map when it is made), and every path of src/ it names exists (a move takes the map
 * along). Globs (`src/ingest/sources/*.source.ts`) name a folder, which must exist.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..', '..');
const map = readFileSync(join(root, 'docs', 'architecture.md'), 'utf8');

const folders = (dir: string): string[] =>
  readdirSync(dir, { withFileTypes: true })
    .filter((entry) => entry.isDirectory())
    .flatMap((entry) => [join(dir, entry.name), ...folders(join(dir, entry.name))]);

/** The paths of src/ the map names, as written (`src/api/http`, `src/engine/errors.ts`, ...). */
const named = [...map.matchAll(/\bsrc\/[\w./*-]*/g)].map((m) => m[0].replace(/[./]+$/, ''));

describe('docs/architecture.md maps src/', () => {
  it('names every folder of src/', () => {
    const unnamed = folders(join(root, 'src'))
      .map((folder) => relative(root, folder).split('\\').join('/'))
      .filter((folder) => !named.includes(folder));
    expect(unnamed).toEqual([]);
  });

  it('names no path of src/ that is not there', () => {
    const missing = [...new Set(named)].filter((path) => {
      const real = path.includes('*') ? path.slice(0, path.lastIndexOf('/')) : path;
      return !existsSync(join(root, real));
    });
    expect(missing).toEqual([]);
  });
});
