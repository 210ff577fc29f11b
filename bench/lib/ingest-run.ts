/**
 * One measured run, in its own process so its memory is its own: `import` (records store) then
 * `reindex` (read indices), or `floor` (only the final service documents, bulk-indexed directly),
 * or `direct` (every read index written straight from the nested services, no records store).
 * Prints one JSON line of results on stdout.
 *
 * `changes`: the directory loaded, then small changes published incrementally (measureChanges).
 *
 *   node bench/lib/ingest-run.ts <pipeline|floor|direct|changes> --url URL --prefix P --source DIR
 */
import { createReadStream } from 'node:fs';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { parseArgs } from 'node:util';
import { createBulkWriter } from '../../src/engine/bulk.ts';
import { beginBuild, discardBuild, finishBuild } from '../../src/engine/indices.ts';
import { recordsIndex } from '../../src/engine/records.ts';
import type { ServiceFull } from '../../src/hsds/index.ts';
import { toServiceDocument } from '../../src/index-mapping/service.document.ts';
import { importSource } from '../../src/ingest/import/import-source.ts';
import { writeReadIndices } from '../../src/ingest/publish/read-indices.writer.ts';
import { reindex } from '../../src/ingest/publish/reindex.ts';
import { createBenchEngine, dropIndices, engineCpuMs, indexWork } from './bench-engine.ts';
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

/**
 * Keeping the directory current (issue "Keep the directory current"): load the directory (import
 * and first build), time a full reindex, then publish small changes incrementally: one service
 * renamed (until the index serves the new name, and until a search finds it; five times), 1,000
 * services over 300 organizations with 200 of their locations renamed, and 1,000 services deleted
 * with --sync.
 */
async function measureChanges(): Promise<Record<string, unknown>> {
  const { writeFile, mkdtemp, rm } = await import('node:fs/promises');
  const { tmpdir } = await import('node:os');
  const { importAndReindex } = await import('../../src/ingest/publish/pipeline.ts');
  const work = await mkdtemp(join(tmpdir(), 'hsds-bench-changes-'));
  const report = join(work, 'report.json');
  const alias = engine.name('services');
  const salAlias = engine.name('service_at_locations');
  const hits = async (index: string, query: unknown) => {
    const { body } = await engine.client.search({
      index,
      body: { size: 0, query, track_total_hits: true },
    } as never);
    return (body as { hits: { total: { value: number } } }).hits.total.value;
  };
  const until = async (check: () => Promise<boolean>) => {
    for (let i = 0; i < 2000 && !(await check()); i++) await new Promise((r) => setTimeout(r, 5));
  };
  try {
    let t = performance.now();
    const load = await importAndReindex(engine, values.source!, { bulk, reportFile: report });
    const loadMs = performance.now() - t;
    t = performance.now();
    await reindex(engine, { bulk });
    const fullReindexMs = performance.now() - t;

    // The services to change: one per organization until 300 organizations, then any, to 1,001.
    const chosen: ServiceFull[] = [];
    const organizations = new Set<string>();
    let single: ServiceFull | undefined;
    for await (const service of nestedServices(values.source!)) {
      if (!single) {
        single = service;
        continue;
      }
      const org = service.organization_id ?? '';
      if (organizations.size < 300 ? !organizations.has(org) : chosen.length < 1001) {
        organizations.add(org);
        chosen.push(service);
      }
      if (chosen.length >= 1001 && organizations.size >= 300) break;
    }

    /** Writes `records` as a feed file and imports it as `sourceName`: the result and its time. */
    const timedImport = async (name: string, records: unknown, sourceName: string, sync = false) => {
      const file = join(work, name);
      await writeFile(file, JSON.stringify(records));
      const started = performance.now();
      const result = await importAndReindex(engine, file, {
        bulk,
        reportFile: report,
        sourceName,
        ...(sync ? { sync } : {}),
      });
      return { result, ms: performance.now() - started, started };
    };

    // 1. One service renamed, five times.
    const one: { served_ms: number; searchable_ms: number; publish_ms: number }[] = [];
    for (let i = 1; i <= 5; i++) {
      const token = `Zq${i}renamed${Date.now() % 100000}`;
      const service = { ...single!, name: `${token} ${single!.name}` };
      const { result: done, started } = await timedImport(`single-${i}.json`, [service], 'bench-single');
      const publishMs = done.publish?.ms ?? Number.NaN;
      await until(
        async () =>
          (await hits(alias, {
            bool: { filter: [{ ids: { values: [service.id] } }, { match: { name: token } }] },
          })) === 1,
      );
      const served = performance.now() - started;
      await until(async () => (await hits(alias, { match: { name: token } })) === 1);
      one.push({ served_ms: served, searchable_ms: performance.now() - started, publish_ms: publishMs });
    }

    // 2. 1,000 services over 300 organizations, 200 of their locations renamed.
    const locations = new Set<string>();
    const renamed = chosen.slice(0, 1000).map((service) => {
      const copy = JSON.parse(JSON.stringify(service)) as ServiceFull;
      copy.name = `${copy.name} (changed)`;
      for (const sal of copy.service_at_locations ?? []) {
        const location = sal.location;
        if (!location) continue;
        if (locations.size < 200 || locations.has(location.id)) {
          locations.add(location.id);
          location.name = `${location.name ?? 'Location'} (renamed)`;
        }
      }
      return copy;
    });
    renamed.push(chosen[1000]!);
    const { result: thousand, ms: thousandMs } = await timedImport('thousand.json', renamed, 'bench-changes');

    // 3. A feed of its own adds 1,001 services (another generator seed: new ids throughout), then
    // comes back with only one of them, with --sync: 1,000 services deleted.
    const { generateDataset } = await import('../../src/synthetic/generate.ts');
    const feed = [...generateDataset({ services: 1001, seed: 'bench-feed' }).services()] as ServiceFull[];
    const { result: added, ms: addMs } = await timedImport('feed.json', feed, 'bench-feed');
    const before = await hits(alias, { match_all: {} });
    const { result: sync, ms: syncMs } = await timedImport('keep.json', [feed[1000]], 'bench-feed', true);
    const gone = feed.slice(0, 1000).map((s) => s.id);
    const after = await hits(alias, { match_all: {} });
    const stillServed =
      (await hits(alias, { ids: { values: gone } })) +
      (await hits(salAlias, { terms: { service_id: gone } }));
    return {
      counts: load.reindex?.counts ?? {},
      load_ms: loadMs,
      full_reindex_ms: fullReindexMs,
      one_service: one,
      one_served_ms: one.map((o) => o.served_ms),
      thousand: {
        ms: thousandMs,
        import_ms: thousandMs - (thousand.publish?.ms ?? 0),
        publish: thousand.publish ?? null,
        reindexed: thousand.reindex !== undefined,
        organizations: new Set(renamed.map((s) => s.organization_id)).size,
        locations: locations.size,
        ratio_to_full_reindex: thousandMs / fullReindexMs,
      },
      add_feed: { ms: addMs, publish: added.publish ?? null, reindexed: added.reindex !== undefined },
      sync_delete: {
        ms: syncMs,
        removed: sync.import.summary.removed,
        publish: sync.publish ?? null,
        services_before: before,
        services_after: after,
        still_served: stillServed,
      },
      total_ms: loadMs,
    };
  } finally {
    await rm(work, { recursive: true, force: true });
  }
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
  // The records store's cost in the engine (ours alone on a shared engine: index stats).
  result.import_engine_work = await indexWork(engine, recordsIndex(engine));
  const reindexCpu0 = cpu();
  const report = await reindex(engine, {
    bulk,
    ...(values.batch ? { batchSize: Number(values.batch) } : {}),
  });
  result.reindex_node_cpu_ms = cpu() - reindexCpu0;
  // Every read index of the build: the publish's cost in the engine, the final merge included.
  result.reindex_engine_work = await indexWork(engine, `${engine.settings.prefix}-*-v*`);
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
} else if (mode === 'changes') {
  Object.assign(result, await measureChanges());
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
