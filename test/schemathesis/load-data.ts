/**
 * Loads the data schemathesis runs against: a synthetic directory plus the official HSDS examples,
 * imported (records store, then the read indices, as `hsds import` does: the write API works on
 * the store) under INDEX_PREFIX of the engine at OPENSEARCH_URL.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pino from 'pino';
import { loadConfig } from '../../src/config.ts';
import { createEngine } from '../../src/engine/index.ts';
import type { ServiceFull, TaxonomyFull, TaxonomyTermFull } from '../../src/hsds/index.ts';
import { importAndReindex } from '../../src/ingest/publish/pipeline.ts';
import { generateDataset } from '../../src/synthetic/generate.ts';

const config = loadConfig(process.env);
if (!config.OPENSEARCH_URL) throw new Error('OPENSEARCH_URL is required');
const engine = createEngine(
  {
    url: config.OPENSEARCH_URL,
    prefix: config.INDEX_PREFIX,
    requestTimeoutMs: 60_000,
    shards: 1,
    replicas: 0,
  },
  pino({ level: 'warn' }),
);
const example = <T>(name: string): T =>
  JSON.parse(readFileSync(new URL(`../fixtures/hsds/examples/${name}`, import.meta.url), 'utf8')) as T;

const dataset = generateDataset({
  services: Number(process.env.SCHEMATHESIS_SERVICES ?? 300),
  seed: 'schemathesis',
});
const dir = mkdtempSync(join(tmpdir(), 'hsds-schemathesis-'));
// A folder of HSDS JSON files, named by what they hold (json.source.ts).
const write = (name: string, records: unknown[]) => writeFileSync(join(dir, name), JSON.stringify(records));
write('taxonomies.json', [...dataset.taxonomies, example<TaxonomyFull>('taxonomy.json')]);
write('taxonomy_terms.json', [...dataset.taxonomyTerms, example<TaxonomyTermFull>('taxonomy_term.json')]);
write('services.json', [...dataset.services(), example<ServiceFull>('service_full.json')]);
try {
  const result = await importAndReindex(engine, dir, {
    reportFile: join(tmpdir(), `schemathesis-import-${process.pid}.json`),
  });
  console.log(`loaded ${JSON.stringify(result.reindex?.counts)} under ${config.INDEX_PREFIX}`);
} finally {
  rmSync(dir, { recursive: true, force: true });
}
await engine.close();
