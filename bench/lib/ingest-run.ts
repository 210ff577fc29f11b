/**
 * One measured run, in its own process so its memory is its own: `import` (records store) then
 * `reindex` (read indices), or `floor` (only the final service documents, bulk-indexed directly),
 * or `direct` (every read index written straight from the nested services, no records store).
 * Prints one JSON line of results on stdout.
 *
 *   node bench/lib/ingest-run.ts <pipeline|floor|direct> --url URL --prefix P --source DIR
 */
import { createReadStream } from 'node:fs';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { parseArgs } from 'node:util';
import { createBulkWriter } from '../../src/engine/bulk.ts';
import { beginBuild, discardBuild, finishBuild } from '../../src/engine/indices.ts';
import type { ServiceFull } from '../../src/hsds/index.ts';
import { toServiceDocument } from '../../src/index-mapping/service.document.ts';
import { importSource } from '../../src/ingest/import.ts';
import { writeReadIndices } from '../../src/ingest/read-indices.writer.ts';
import { reindex } from '../../src/ingest/reindex.ts';
import { createBenchEngine, dropIndices, engineCpuMs } from './bench-engine.ts';
import { sampleRss } from './results.ts';

const { positionals, values } = parseArgs({
  allowPositionals: true,
  options: {
    url: { type: 'string' },
    prefix: { type: 'string' },
    source: { type: 'string' },
    batch: { type: 'string' },
    concurrency: { type: 'string' },
    'flush-bytes': { type: 'string' },
  },
});
const mode = positionals[0];
const engine = createBenchEngine(values.url!, values.prefix!);
const bulk = {
  ...(values.concurrency ? { concurrency: Number(values.concurrency) } : {}),
  ...(values['flush-bytes'] ? { flushBytes: Number(values['flush-bytes']) } : {}),
};

async function* nestedServices(dir: string): AsyncGenerator<ServiceFull> {
  const lines = createInterface({
    input: createReadStream(join(dir, 'services.ndjson'), 'utf8'),
    crlfDelay: Infinity,
  });
  for await (const line of lines) if (line) yield JSON.parse(line) as ServiceFull;
}

const cpu = () => {
  const usage = process.cpuUsage();
  return (usage.user + usage.system) / 1000;
};

await dropIndices(engine);
const rss = sampleRss();
const engineCpu0 = await engineCpuMs(engine);
const cpu0 = cpu();
const started = performance.now();
const result: Record<string, unknown> = { mode };

if (mode === 'pipeline') {
  const importRss = sampleRss();
  const imported = await importSource(engine, values.source!, { bulk });
  const importMs = performance.now() - started;
  result.import_peak_rss = importRss.stop();
  // Which half of the pipeline the engine spends its CPU on.
  if (engineCpu0 !== undefined) result.import_engine_cpu_ms = ((await engineCpuMs(engine)) ?? 0) - engineCpu0;
  result.import_node_cpu_ms = cpu() - cpu0;
  const report = await reindex(engine, {
    bulk,
    ...(values.batch ? { batchSize: Number(values.batch) } : {}),
  });
  Object.assign(result, {
    import_ms: importMs,
    reindex_ms: performance.now() - started - importMs,
    items: imported.summary.items,
    records: imported.summary.records,
    issues: imported.summary.issues_total,
    records_read: report.records_read,
    join_queries: report.join_queries,
    counts: report.counts,
  });
} else if (mode === 'floor') {
  // The floor: what indexing the services alone costs, with the same writer and build settings.
  const build = await beginBuild(engine);
  const writer = createBulkWriter(engine, bulk);
  let services = 0;
  for await (const service of nestedServices(values.source!)) {
    const doc = toServiceDocument(service);
    await writer.index(build.indices.services, doc.id, doc);
    services += 1;
  }
  await writer.close();
  await finishBuild(engine, build);
  Object.assign(result, { counts: { services }, total_ms: performance.now() - started });
  await discardBuild(engine, build);
} else if (mode === 'direct') {
  const { readFile } = await import('node:fs/promises');
  const report = await writeReadIndices(
    engine,
    {
      services: nestedServices(values.source!),
      taxonomies: JSON.parse(await readFile(join(values.source!, 'taxonomies.json'), 'utf8')),
      taxonomyTerms: JSON.parse(await readFile(join(values.source!, 'taxonomy_terms.json'), 'utf8')),
    },
    { bulk },
  );
  Object.assign(result, { counts: report.counts });
} else {
  throw new Error(`unknown mode ${mode}`);
}

Object.assign(result, {
  total_ms: result.total_ms ?? performance.now() - started,
  node_cpu_ms: cpu() - cpu0,
  engine_cpu_ms: engineCpu0 === undefined ? undefined : ((await engineCpuMs(engine)) ?? 0) - engineCpu0,
  peak_rss: rss.stop(),
  max_rss: process.resourceUsage().maxRSS * 1024,
});
await dropIndices(engine);
await engine.close();
process.stdout.write(`${JSON.stringify(result)}\n`);
