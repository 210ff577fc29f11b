/**
 * `npm run bench:ingest -- --services 100000 [--runs 3] [--seed 1] [--also 300000] [--skip-direct] [--shuffled]
 *    [--node-flags="--max-old-space-size=256 --max-semi-space-size=8"]`
 *
 * End-to-end ingest on a synthetic directory: import (records store) plus reindex (read indices),
 * against the floor, the time to bulk-index just the final service documents directly, and the
 * direct build of every read index from the nested services (no records store). Each run is a
 * child process, so its memory is its own: peak RSS sampled every 25 ms, and the kernel's maxRSS.
 * With --also, the same pipeline runs on a second size and the growth of peak RSS is reported.
 *
 * Engine: OPENSEARCH_URL, else the local engine on ENGINE_PORT (default 9200), started if needed.
 * Results: printed, and written as JSON to bench/results/ (git-ignored).
 *
 * Targets (2-core machine, engine beside it): >= 1,000 services/s end to end; within 3x of the
 * floor; peak RSS < 400 MB at 100,000 services, growing < 25% from 100,000 to 300,000.
 *
 * With --changes, one more run loads the directory and publishes changes incrementally: one
 * service renamed (time until served and until searchable; goal < 1.5 s), 1,000 services over 300
 * organizations and 200 locations (goal < 10 s and < 10% of a full reindex in the same run), and
 * 1,000 services deleted with --sync (goal < 10 s, none served after).
 */
import { spawn } from 'node:child_process';
import { cpus, totalmem } from 'node:os';
import { createInterface } from 'node:readline';
import { parseArgs } from 'node:util';
import engineVersion from '../local-engine/version.json' with { type: 'json' };
import { type IndexWork, openBenchEngine } from './lib/bench-engine.ts';
import { type Dataset, ensureShuffledDataset, ensureSyntheticDataset } from './lib/datasets.ts';
import { formatTable, median, writeResults } from './lib/results.ts';

const { values } = parseArgs({
  options: {
    services: { type: 'string', default: '100000' },
    also: { type: 'string' },
    runs: { type: 'string', default: '1' },
    seed: { type: 'string', default: '1' },
    batch: { type: 'string' },
    concurrency: { type: 'string' },
    'flush-bytes': { type: 'string' },
    'skip-direct': { type: 'boolean', default: false },
    /** Then keep the directory current: incremental publishing of small changes (see ingest-run.ts). */
    changes: { type: 'boolean', default: false },
    /** Services in a shuffled order: each organization's repeats far apart in the file. */
    shuffled: { type: 'boolean', default: false },
    /** V8 flags for the measured processes: `--node-flags="--max-old-space-size=256"` (default: none). */
    'node-flags': { type: 'string' },
  },
});

const log = (line: string) => console.error(line);
type Run = {
  mode: string;
  total_ms: number;
  import_ms?: number;
  reindex_ms?: number;
  peak_rss: number;
  max_rss: number;
  node_cpu_ms: number;
  engine_cpu_ms?: number;
  records?: number;
  records_read?: number;
  counts: Record<string, number>;
  import_node_cpu_ms?: number;
  reindex_node_cpu_ms?: number;
  import_engine_work?: IndexWork;
  reindex_engine_work?: IndexWork;
};

function runChild(mode: string, url: string, dataset: Dataset): Promise<Run> {
  const args = [
    'bench/lib/ingest-run.ts',
    mode,
    '--url',
    url,
    '--prefix',
    'bench-ingest',
    '--source',
    dataset.dir,
  ];
  for (const option of ['batch', 'concurrency', 'flush-bytes'] as const) {
    if (values[option]) args.push(`--${option}`, values[option]);
  }
  return new Promise((resolve, reject) => {
    const flags = values['node-flags']?.split(/\s+/).filter(Boolean) ?? [];
    const child = spawn(process.execPath, [...flags, ...args], { stdio: ['ignore', 'pipe', 'inherit'] });
    let result: Run | undefined;
    createInterface({ input: child.stdout }).on('line', (line) => {
      if (line.startsWith('{')) result = JSON.parse(line) as Run;
    });
    child.on('exit', (code) =>
      code === 0 && result ? resolve(result) : reject(new Error(`${mode} run exited with ${code}`)),
    );
  });
}

const mb = (bytes: number) => (bytes / 1e6).toFixed(0);
const s = (ms: number) => (ms / 1000).toFixed(1);

async function measure(url: string, services: number, runs: number) {
  const generated = await ensureSyntheticDataset(services, Number(values.seed), log);
  const dataset = values.shuffled
    ? await ensureShuffledDataset(generated, Number(values.seed), log)
    : generated;
  const pipeline: Run[] = [];
  const floor: Run[] = [];
  const direct: Run[] = [];
  for (let i = 0; i < runs; i++) {
    log(`[${services}] run ${i + 1}/${runs}: import + reindex...`);
    pipeline.push(await runChild('pipeline', url, dataset));
    log(`[${services}] run ${i + 1}/${runs}: floor (service documents only)...`);
    floor.push(await runChild('floor', url, dataset));
    if (!values['skip-direct']) {
      log(`[${services}] run ${i + 1}/${runs}: every read index straight from the nested services...`);
      direct.push(await runChild('direct', url, dataset));
    }
  }
  const m = (list: Run[], pick: (r: Run) => number | undefined) => median(list.map((r) => pick(r) ?? 0));
  return {
    services,
    organizations: dataset.organizations,
    dataset_mb: dataset.bytes / 1e6,
    runs,
    median: {
      import_ms: m(pipeline, (r) => r.import_ms),
      reindex_ms: m(pipeline, (r) => r.reindex_ms),
      total_ms: m(pipeline, (r) => r.total_ms),
      services_per_s: services / (m(pipeline, (r) => r.total_ms) / 1000),
      floor_ms: m(floor, (r) => r.total_ms),
      floor_ratio: m(pipeline, (r) => r.total_ms) / m(floor, (r) => r.total_ms),
      direct_ms: direct.length ? m(direct, (r) => r.total_ms) : undefined,
      direct_ratio: direct.length ? m(direct, (r) => r.total_ms) / m(floor, (r) => r.total_ms) : undefined,
      peak_rss: m(pipeline, (r) => r.peak_rss),
      max_rss: m(pipeline, (r) => r.max_rss),
      node_cpu_ms: m(pipeline, (r) => r.node_cpu_ms),
      engine_cpu_ms: m(pipeline, (r) => r.engine_cpu_ms),
      floor_engine_cpu_ms: m(floor, (r) => r.engine_cpu_ms),
    },
    records: pipeline[0]?.records,
    records_read: pipeline[0]?.records_read,
    counts: pipeline[0]?.counts,
    pipeline,
    floor,
    direct,
  };
}

const engine = await openBenchEngine(log);
try {
  const sizes = [Number(values.services), ...(values.also ? [Number(values.also)] : [])];
  const results = [];
  for (const size of sizes) results.push(await measure(engine.url, size, Number(values.runs)));

  const rows: (string | number)[][] = [
    [
      'services',
      'import s',
      'reindex s',
      'total s',
      'services/s',
      'floor s',
      'x floor',
      'direct s',
      'peak RSS MB',
      'maxRSS MB',
      'node CPU s',
      'engine CPU s',
    ],
  ];
  for (const r of results) {
    const x = r.median;
    rows.push([
      r.services,
      s(x.import_ms),
      s(x.reindex_ms),
      s(x.total_ms),
      x.services_per_s.toFixed(0),
      s(x.floor_ms),
      x.floor_ratio.toFixed(2),
      x.direct_ms === undefined ? '-' : s(x.direct_ms),
      mb(x.peak_rss),
      mb(x.max_rss),
      s(x.node_cpu_ms),
      s(x.engine_cpu_ms),
    ]);
  }
  console.log(
    `\nIngest benchmark (medians of ${values.runs} run(s); ${cpus().length} CPUs, ${mb(totalmem())} MB RAM, OpenSearch ${engineVersion.opensearch})\n`,
  );
  console.log(formatTable(rows));

  const first = results[0]!.median;
  const growth = results[1] ? results[1].median.peak_rss / first.peak_rss - 1 : undefined;
  const targets = [
    ['>= 1,000 services/s end to end', first.services_per_s >= 1000, `${first.services_per_s.toFixed(0)}/s`],
    ['within 3x of the floor', first.floor_ratio <= 3, `${first.floor_ratio.toFixed(2)}x`],
    ...(results[0]!.services === 100_000
      ? [['peak RSS < 400 MB at 100,000 services', first.peak_rss < 400e6, `${mb(first.peak_rss)} MB`]]
      : []),
    ...(growth !== undefined
      ? [[`peak RSS grows < 25% to ${results[1]!.services}`, growth < 0.25, `${(growth * 100).toFixed(1)}%`]]
      : []),
  ] as [string, boolean, string][];
  console.log(
    `\n${targets.map(([what, ok, value]) => `${ok ? 'PASS' : 'MISS'}  ${what}: ${value}`).join('\n')}`,
  );
  // What bounds the targets on this machine: the read indices alone, and the CPU the work takes.
  const cores = cpus().length;
  const cpu = (first.node_cpu_ms + first.engine_cpu_ms) / 1000;
  console.log(
    [
      '',
      ...(first.direct_ratio === undefined
        ? []
        : [
            `every read index built straight from the nested services (no store, no validation): ${first.direct_ratio.toFixed(2)}x the floor`,
          ]),
      `CPU of import + reindex: ${s(first.node_cpu_ms)} s Node + ${s(first.engine_cpu_ms)} s engine = ${cpu.toFixed(1)} s; ` +
        `on ${cores} cores that is at least ${(cpu / cores).toFixed(1)} s, at most ${(results[0]!.services / (cpu / cores)).toFixed(0)} services/s however well the two overlap`,
    ].join('\n'),
  );
  // Per stage, the first run: Node CPU per service, and the engine's thread time for our indices
  // alone (index stats: meaningful on an engine other clients share, where engine CPU is not).
  const run = results[0]!.pipeline[0];
  if (run?.import_engine_work && run.reindex_engine_work) {
    const n = results[0]!.services;
    const us = (ms: number | undefined) => (((ms ?? 0) / n) * 1000).toFixed(0);
    const work = (w: IndexWork) =>
      `${w.documents} documents, indexing ${us(w.index_ms)} us/service, merging ${us(w.merge_ms)} us/service (${w.merged_documents} merged), refresh ${us(w.refresh_ms)}, flush ${us(w.flush_ms)}`;
    console.log(
      [
        '',
        'Per stage (first run):',
        `  import, Node CPU: ${us(run.import_node_cpu_ms)} us/service; engine, records store: ${work(run.import_engine_work)}`,
        `  reindex, Node CPU: ${us(run.reindex_node_cpu_ms)} us/service; engine, read indices: ${work(run.reindex_engine_work)}`,
      ].join('\n'),
    );
  }
  let changes: Record<string, unknown> | undefined;
  if (values.changes) {
    log(`[${results[0]!.services}] keeping the directory current: incremental publishing...`);
    const dataset = await ensureSyntheticDataset(Number(values.services), Number(values.seed), log);
    const run = (await runChild('changes', engine.url, dataset)) as unknown as {
      load_ms: number;
      full_reindex_ms: number;
      one_served_ms: number[];
      one_service: { served_ms: number; searchable_ms: number; publish_ms: number }[];
      thousand: {
        ms: number;
        ratio_to_full_reindex: number;
        organizations: number;
        locations: number;
        reindexed: boolean;
      };
      add_feed: { ms: number };
      sync_delete: {
        ms: number;
        still_served: number;
        services_before: number;
        services_after: number;
        removed: number;
      };
    };
    changes = run;
    const served = median(run.one_service.map((o) => o.served_ms));
    const searchable = median(run.one_service.map((o) => o.searchable_ms));
    console.log(
      [
        '',
        `Keeping the directory current (${results[0]!.services} services; load ${s(run.load_ms)} s, full reindex ${s(run.full_reindex_ms)} s):`,
        `  1 service renamed: served after ${served.toFixed(0)} ms, searchable after ${searchable.toFixed(0)} ms (medians of 5; import + publish, in process)`,
        `  1,000 services over ${run.thousand.organizations} organizations and ${run.thousand.locations} locations: ${s(run.thousand.ms)} s = ${(run.thousand.ratio_to_full_reindex * 100).toFixed(1)}% of the full reindex${run.thousand.reindexed ? ' (fell back to a reindex!)' : ''}`,
        `  1,001 new services from a feed of their own: ${s(run.add_feed.ms)} s`,
        `  1,000 of them deleted with --sync: ${s(run.sync_delete.ms)} s; served before ${run.sync_delete.services_before}, after ${run.sync_delete.services_after}; documents of the deleted still served: ${run.sync_delete.still_served}`,
        '',
        `${served < 1500 && searchable < 1500 ? 'PASS' : 'MISS'}  1 service served and searchable < 1.5 s`,
        `${run.thousand.ms < 10_000 && run.thousand.ratio_to_full_reindex < 0.1 ? 'PASS' : 'MISS'}  1,000 services < 10 s and < 10% of a full reindex`,
        `${run.sync_delete.ms < 10_000 && run.sync_delete.still_served === 0 ? 'PASS' : 'MISS'}  1,000 deletions with --sync < 10 s, none served`,
      ].join('\n'),
    );
  }
  const file = writeResults('ingest', {
    changes,
    date: new Date().toISOString(),
    machine: { cpus: cpus().length, memory_mb: Math.round(totalmem() / 1e6), node: process.version },
    engine: { url: engine.url, version: engineVersion.opensearch },
    options: values,
    results,
    growth,
    targets: targets.map(([what, ok, value]) => ({ what, ok, value })),
  });
  console.log(`\nresults: ${file}`);
} finally {
  await engine.stop();
}
