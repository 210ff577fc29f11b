/**
 * Unit tests live in folders mirroring src/ (docs/style.md): a module's tests are found where the
 * module is, test/unit/<folder>/... for src/<folder>/..., so a folder moved or renamed in src/
 * takes its tests along. The few exceptions name what they mirror instead: bench/ and
 * local-engine/ (folders at the root, beside src/), and structure/ (checks of the repository as a
 * whole, such as this one). A test file at test/unit/ itself is named after a module of src/ or a
 * file at the root (config.test.ts, compose.test.ts).
 */
import { existsSync, readdirSync, statSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..', '..');
const unit = join(root, 'test', 'unit');

/** Folders of test/unit that mirror a folder at the root rather than one of src/. */
const ROOT_MIRRORS = ['bench', 'local-engine'];
/** Folders of test/unit that mirror no folder: checks of the repository as a whole. */
const WHOLE_REPOSITORY = ['structure'];

const folders = (dir: string): string[] =>
  readdirSync(dir, { withFileTypes: true })
    .filter((entry) => entry.isDirectory())
    .flatMap((entry) => [join(dir, entry.name), ...folders(join(dir, entry.name))]);

const isDir = (path: string) => existsSync(path) && statSync(path).isDirectory();

/** What a folder of test/unit mirrors, or undefined when it mirrors nothing. */
function mirrorOf(folder: string): string | undefined {
  const path = relative(unit, folder);
  const [top = ''] = path.split(/[\\/]/);
  if (WHOLE_REPOSITORY.includes(top)) return 'the repository';
  if (ROOT_MIRRORS.includes(top)) return isDir(join(root, path)) ? path : undefined;
  return isDir(join(root, 'src', path)) ? join('src', path) : undefined;
}

describe('test/unit mirrors src/', () => {
  it('every folder of test/unit is a folder of src/ (or one of the named exceptions)', () => {
    const astray = folders(unit)
      .filter((folder) => mirrorOf(folder) === undefined)
      .map((folder) => relative(root, folder));
    expect(astray).toEqual([]);
  });

  it('every test file at test/unit/ itself is named after a module of src/ or a file at the root', () => {
    const rootFiles = readdirSync(root);
    const astray = readdirSync(unit)
      .filter((name) => name.endsWith('.test.ts'))
      .filter((name) => {
        const stem = name.replace(/\.test\.ts$/, '');
        return (
          !existsSync(join(root, 'src', `${stem}.ts`)) && !rootFiles.some((f) => f.startsWith(`${stem}.`))
        );
      });
    expect(astray).toEqual([]);
  });

  it('tells a stray folder apart', () => {
    expect(mirrorOf(join(unit, 'api', 'lists'))).toBe(join('src', 'api', 'lists'));
    expect(mirrorOf(join(unit, 'bench'))).toBe('bench');
    expect(mirrorOf(join(unit, 'no-such-folder'))).toBeUndefined();
    expect(mirrorOf(join(unit, 'ingest', 'no-such-room'))).toBeUndefined();
  });
});
