/**
 * Loads the data schemathesis runs against: a synthetic directory plus the official HSDS examples,
 * into the read indices under INDEX_PREFIX of the engine at OPENSEARCH_URL.
 */
import { readFileSync } from 'node:fs';
import pino from 'pino';
import { loadConfig } from '../../src/config.ts';
import { createEngine } from '../../src/engine/index.ts';
import type { ServiceFull, TaxonomyFull, TaxonomyTermFull } from '../../src/hsds/index.ts';
import { writeReadIndices } from '../../src/ingest/read-indices.writer.ts';
import { generateDataset } from '../../src/ingest/synthetic/generate.ts';

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
async function* services() {
  yield* dataset.services();
  yield example<ServiceFull>('service_full.json');
}
const report = await writeReadIndices(engine, {
  services: services(),
  taxonomies: [...dataset.taxonomies, example<TaxonomyFull>('taxonomy.json')],
  taxonomyTerms: [...dataset.taxonomyTerms, example<TaxonomyTermFull>('taxonomy_term.json')],
});
console.log(`loaded ${JSON.stringify(report.counts)} under ${config.INDEX_PREFIX}`);
await engine.close();
