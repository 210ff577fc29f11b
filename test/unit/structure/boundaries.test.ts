/**
 * The layers' import rule is enforced by `npm run lint` (biome.json, noRestrictedImports per
 * folder): a wrong-way import fails the lint, a right-way one passes. Run with the repository's
 * own biome.json on probe files laid out as src/ is.
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..', '..');
const biome = join(root, 'node_modules', '.bin', 'biome');
const dir = mkdtempSync(join(tmpdir(), 'hsds-boundaries-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const config = JSON.parse(readFileSync(join(root, 'biome.json'), 'utf8')) as Record<string, unknown>;
delete config.$schema;
// The probe folder is no git work tree.
config.vcs = { enabled: false };
writeFileSync(join(dir, 'biome.json'), JSON.stringify(config));

/** Lints one probe file at `path` (under src/) importing `from`; the rule's findings. */
function lint(path: string, from: string): string[] {
  const file = join(dir, path);
  mkdirSync(dirname(file), { recursive: true });
  writeFileSync(file, `import { thing } from '${from}';\n\nexport const probe = thing;\n`);
  const result = spawnSync(biome, ['lint', '--max-diagnostics=50', path], { cwd: dir, encoding: 'utf8' });
  rmSync(file);
  return `${result.stdout}${result.stderr}`.match(/lint\/style\/noRestrictedImports/g) ?? [];
}

describe('imports run one way: hsds <- geo <- index-mapping <- engine <- {ingest, api} <- cli', () => {
  it.each([
    ['src/api/probe.ts', '../ingest/write.ts'],
    ['src/api/routes/probe.ts', '../../ingest/write.ts'],
    ['src/api/writes/probe.ts', '../../ingest/write/write.ts'],
    ['src/ingest/probe.ts', '../api/auth.ts'],
    ['src/ingest/publish/probe.ts', '../../api/http/auth.ts'],
    ['src/ingest/import/probe.ts', '../../cli/runtime.ts'],
    ['src/engine/probe.ts', '../ingest/import-source.ts'],
    ['src/index-mapping/probe.ts', '../engine/records.ts'],
    ['src/geo/probe.ts', '../index-mapping/fields.ts'],
    ['src/hsds/probe.ts', '../geo/postcode.ts'],
    ['src/synthetic/probe.ts', '../ingest/flatten.ts'],
    ['src/cli/probe.ts', '../api/app.ts'],
    ['src/cli/probe.ts', '../api/writes/record-writes.ts'],
    ['src/cli/probe.ts', '../ingest/write.ts'],
    ['src/api/probe.ts', '../search-report/search-recorder.ts'],
    ['src/search-report/probe.ts', '../api/types.ts'],
    ['src/mcp/probe.ts', '../api/app.ts'],
    ['src/mcp/probe.ts', '../engine/search.ts'],
    ['src/api/probe.ts', '../mcp/mcp-server.ts'],
    ['src/cli/probe.ts', '../mcp/http.ts'],
    ['src/api/probe.ts', '../webhooks/index.ts'],
    ['src/webhooks/probe.ts', '../api/types.ts'],
    ['src/webhooks/probe.ts', '../ingest/write.ts'],
    ['src/webhooks/probe.ts', '../ingest/index.ts'],
    ['src/webhooks/probe.ts', '../outbound/remote-guard.ts'],
    ['src/ingest/validate/probe.ts', '../../outbound/remote-guard.ts'],
    ['src/outbound/probe.ts', '../ingest/index.ts'],
    ['src/outbound/probe.ts', '../webhooks/index.ts'],
    ['src/api/http/probe.ts', '../lists/list-params.ts'],
    ['src/api/http/probe.ts', '../writes/record-writes.ts'],
    ['src/api/http/probe.ts', '../../ingest/index.ts'],
    ['src/ingest/records/probe.ts', '../publish/publish.ts'],
    ['src/ingest/repairs/probe.ts', '../import/import-report.ts'],
    ['src/ingest/sources/probe.ts', '../../api/http/problem.ts'],
    ['src/ingest/import/probe.ts', '../write/write.ts'],
    ['src/ingest/import/probe.ts', '../../outbound/remote-guard.ts'],
    ['src/cli/probe.ts', '../webhooks/worker.ts'],
    ['src/duplicates/probe.ts', '../api/types.ts'],
    ['src/duplicates/probe.ts', '../ingest/publish.ts'],
  ])('refuses %s importing %s', (path, from) => {
    expect(lint(path, from)).toHaveLength(1);
  });

  it.each([
    ['src/api/probe.ts', '../engine/records.ts'],
    ['src/ingest/probe.ts', '../engine/records.ts'],
    ['src/engine/probe.ts', '../index-mapping/fields.ts'],
    ['src/cli/probe.ts', '../ingest/index.ts'],
    ['src/cli/probe.ts', '../api/index.ts'],
    ['src/synthetic/probe.ts', '../hsds/index.ts'],
    ['src/search-report/probe.ts', '../engine/search-log.ts'],
    ['src/cli/probe.ts', '../search-report/search-recorder.ts'],
    ['src/api/routes/probe.ts', '../../mcp/index.ts'],
    ['src/cli/probe.ts', '../mcp/index.ts'],
    ['src/cli/probe.ts', '../webhooks/index.ts'],
    ['src/webhooks/probe.ts', '../engine/webhooks.ts'],
    ['src/webhooks/probe.ts', '../outbound/index.ts'],
    ['src/ingest/validate/probe.ts', '../../outbound/index.ts'],
    ['src/api/http/probe.ts', '../types.ts'],
    ['src/api/lists/probe.ts', '../http/problem.ts'],
    ['src/api/http/probe.ts', '../../engine/records.ts'],
    ['src/ingest/records/probe.ts', '../repairs/leniency.ts'],
    ['src/ingest/publish/probe.ts', '../import/progress.ts'],
    ['src/ingest/write/probe.ts', '../publish/pipeline.ts'],
    ['src/duplicates/probe.ts', '../ingest/index.ts'],
    ['src/duplicates/probe.ts', '../engine/duplicates.ts'],
  ])('lets %s import %s', (path, from) => {
    expect(lint(path, from)).toEqual([]);
  });
});
