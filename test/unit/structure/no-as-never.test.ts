/**
 * No `as never` in src/api (docs/style.md): a cast to `never` satisfies any type, so it hides the
 * very disagreement between a route's description and its handler that the route types exist to
 * catch. An answer the types cannot name is given its type by name in src/api/http/json-answer.ts.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..', '..');

const tsFiles = (dir: string): string[] =>
  readdirSync(dir, { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory()
      ? tsFiles(join(dir, entry.name))
      : entry.name.endsWith('.ts')
        ? [join(dir, entry.name)]
        : [],
  );

describe('src/api', () => {
  it('has no `as never`', () => {
    const found = tsFiles(join(root, 'src', 'api')).flatMap((file) =>
      readFileSync(file, 'utf8')
        .split('\n')
        .flatMap((line, i) => (/\bas never\b/.test(line) ? [`${relative(root, file)}:${i + 1}`] : [])),
    );
    expect(found).toEqual([]);
  });
});
