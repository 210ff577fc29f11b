/**
 * No import cycle in src/: Biome's own rule (`suspicious/noImportCycles`, on in biome.json, so
 * `npm run lint` fails on one) run over src/ here, and shown to bite on a probe cycle laid out as
 * src/ is, with the repository's own biome.json. A cycle makes the order modules load in decide
 * what a module sees of another at its top level (the last one, engine/indices <->
 * engine/vocabulary, was broken by handing the vocabulary in once, at start).
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..', '..');
const biome = join(root, 'node_modules', '.bin', 'biome');
const RULE = 'suspicious/noImportCycles';

const lintCycles = (cwd: string, path: string) =>
  spawnSync(biome, ['lint', `--only=${RULE}`, '--max-diagnostics=50', path], { cwd, encoding: 'utf8' });

describe('no import cycle in src/', () => {
  it('biome.json turns the rule on', () => {
    const config = JSON.parse(readFileSync(join(root, 'biome.json'), 'utf8'));
    expect(config.linter.rules.suspicious.noImportCycles).toBe('error');
  });

  it('src/ has none', () => {
    const result = lintCycles(root, 'src');
    expect(`${result.stdout}${result.stderr}`.match(/lint\/suspicious\/noImportCycles/g) ?? []).toEqual([]);
    expect(result.status).toBe(0);
  }, 60_000);

  describe('the rule bites', () => {
    const dir = mkdtempSync(join(tmpdir(), 'hsds-cycles-'));
    afterAll(() => rmSync(dir, { recursive: true, force: true }));
    const config = JSON.parse(readFileSync(join(root, 'biome.json'), 'utf8')) as Record<string, unknown>;
    delete config.$schema;
    // The probe folder is no git work tree.
    config.vcs = { enabled: false };
    writeFileSync(join(dir, 'biome.json'), JSON.stringify(config));

    const write = (path: string, text: string) => {
      mkdirSync(dirname(join(dir, path)), { recursive: true });
      writeFileSync(join(dir, path), text);
    };

    it('on a cycle across three modules of two folders', () => {
      write('src/engine/a.ts', "import { c } from '../index-mapping/c.ts';\n\nexport const a = () => c;\n");
      write('src/engine/b.ts', "import { a } from './a.ts';\n\nexport const b = () => a;\n");
      write('src/index-mapping/c.ts', "import { b } from '../engine/b.ts';\n\nexport const c = () => b;\n");
      const result = lintCycles(dir, 'src');
      expect(`${result.stdout}${result.stderr}`).toMatch(/lint\/suspicious\/noImportCycles/);
      expect(result.status).not.toBe(0);
    }, 60_000);

    it('not on imports that run one way', () => {
      rmSync(join(dir, 'src'), { recursive: true, force: true });
      write('src/engine/a.ts', "import { c } from '../index-mapping/c.ts';\n\nexport const a = () => c;\n");
      write('src/index-mapping/c.ts', 'export const c = 1;\n');
      expect(lintCycles(dir, 'src').status).toBe(0);
    }, 60_000);
  });
});
