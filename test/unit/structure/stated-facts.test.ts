/**
 * Facts the documentation states about the code, checked against the code: the Node version a
 * newcomer needs (package.json `engines`), and that the `.env` the configuration docs invite is read.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';

const root = new URL('../../../', import.meta.url);
const read = (path: string) => readFileSync(new URL(path, root), 'utf8');
const docs = () => [
  'README.md',
  ...readdirSync(new URL('docs/', root))
    .filter((name) => name.endsWith('.md'))
    .map((name) => `docs/${name}`),
];

describe('what the docs state', () => {
  it('names one minimum Node version, the one package.json engines requires', () => {
    const engines = (JSON.parse(read('package.json')) as { engines: { node: string } }).engines.node;
    const minimum = /^>=(\d+)$/.exec(engines)?.[1];
    expect(minimum, `engines.node is ${engines}`).toBeDefined();
    const stated = docs().flatMap((path) =>
      [...read(path).matchAll(/Node(?:\.js)? (\d+) or (?:newer|later)/g)].map((m) => `${path}: ${m[1]}`),
    );
    expect(stated.length).toBeGreaterThan(0);
    expect(stated.filter((line) => !line.endsWith(`: ${minimum}`))).toEqual([]);
  });

  it('says .env is read only where the CLI reads it', () => {
    expect(read('.env.example')).toMatch(/every command[\s\S]{0,80}reads it/);
    expect(read('src/cli/main.ts')).toMatch(/loadDotEnv\(\)/);
  });
});
