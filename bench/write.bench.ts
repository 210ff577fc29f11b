/**
 * The write path (`PUT /services/{id}`, src/ingest/write/write.ts), measured in process: an app built
 * as the server builds it, a directory of synthetic services imported and published, then PUTs of
 * one service after another, each renaming it and renumbering a phone, one at a time.
 *
 *   npm run bench:write            (OPENSEARCH_URL, else the local engine on ENGINE_PORT)
 *   WRITE_BENCH_PUTS=200 npm run bench:write
 *
 * Reports PUT latency (p50, p90), PUTs per second (one writer, PUTs back to back), and memory per PUT: the peak of
 * the process's external memory (ArrayBuffers: buffers of the engine requests and answers) and of its
 * heap above what they were before the PUT, sampled every millisecond with a GC before each PUT
 * (run with --expose-gc, as the script does).
 */
import { performance } from 'node:perf_hooks';
import pino from 'pino';
import { createApp } from '../src/api/app.ts';
import { newToken } from '../src/api/http/auth.ts';
import { createGeocoder } from '../src/api/lists/geocoding.ts';
import { loadConfig } from '../src/config.ts';
import { importAndReindex } from '../src/ingest/publish/pipeline.ts';
import { createRecordWrites } from '../src/ingest/write/write.ts';
import { createBenchEngine, dropIndices, openBenchEngine } from './lib/bench-engine.ts';
import { ensureSyntheticDataset } from './lib/datasets.ts';

const PUTS = Number(process.env.WRITE_BENCH_PUTS ?? 100);
const SERVICES = Number(process.env.WRITE_BENCH_SERVICES ?? 500);
const log = (line: string) => console.error(line);
const gc = (globalThis as { gc?: () => void }).gc;

const quantile = (sorted: number[], q: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? Number.NaN;
const mib = (bytes: number) => `${(bytes / 2 ** 20).toFixed(1)} MiB`;

async function main() {
  if (!gc) throw new Error('run with --expose-gc (npm run bench:write does)');
  const opened = await openBenchEngine(log);
  const engine = createBenchEngine(opened.url, `bench-write-${process.pid}`);
  try {
    const dataset = await ensureSyntheticDataset(SERVICES, 11, log);
    log(`importing ${SERVICES} services...`);
    await importAndReindex(engine, dataset.dir, { reportFile: false });
    const writer = newToken('bench', ['write']);
    const config = loadConfig({ LOG_LEVEL: 'silent', API_TOKENS: writer.entry });
    const app = createApp({
      config,
      engine,
      geocoder: createGeocoder(config, engine),
      logger: pino({ level: 'silent' }),
      writes: createRecordWrites(engine),
    });
    const ids: string[] = [];
    const listed = await app.request(`/services?per_page=${Math.min(PUTS, 1000)}`);
    for (const item of ((await listed.json()) as { contents: { id: string }[] }).contents) ids.push(item.id);

    const latencies: number[] = [];
    const external: number[] = [];
    const heap: number[] = [];
    for (let i = 0; i < PUTS; i++) {
      const id = ids[i % ids.length] as string;
      const record = (await (await app.request(`/services/${id}`)).json()) as {
        name: string;
        phones?: { number?: string }[];
      };
      record.name = `${record.name.replace(/ \(edit \d+\)$/, '')} (edit ${i})`;
      if (record.phones?.[0]) record.phones[0].number = `01224 ${String(100000 + i)}`;
      gc();
      const before = process.memoryUsage();
      let peakExternal = before.arrayBuffers;
      let peakHeap = before.heapUsed;
      const sampler = setInterval(() => {
        const now = process.memoryUsage();
        peakExternal = Math.max(peakExternal, now.arrayBuffers);
        peakHeap = Math.max(peakHeap, now.heapUsed);
      }, 1);
      const t0 = performance.now();
      const res = await app.request(`/services/${id}`, {
        method: 'PUT',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${writer.token}` },
        body: JSON.stringify(record),
      });
      await res.arrayBuffer();
      latencies.push(performance.now() - t0);
      clearInterval(sampler);
      const after = process.memoryUsage();
      external.push(Math.max(peakExternal, after.arrayBuffers) - before.arrayBuffers);
      heap.push(Math.max(peakHeap, after.heapUsed) - before.heapUsed);
      if (res.status !== 200) throw new Error(`PUT answered ${res.status}: ${await res.text()}`);
    }
    const seconds = latencies.reduce((sum, ms) => sum + ms, 0) / 1000;
    const sorted = [...latencies].sort((a, b) => a - b);
    const ext = [...external].sort((a, b) => a - b);
    const hp = [...heap].sort((a, b) => a - b);
    const result = {
      puts: PUTS,
      p50_ms: Math.round(quantile(sorted, 0.5)),
      p90_ms: Math.round(quantile(sorted, 0.9)),
      puts_per_second: Number((PUTS / seconds).toFixed(1)),
      external_peak_per_put_p50: mib(quantile(ext, 0.5)),
      heap_peak_per_put_p50: mib(quantile(hp, 0.5)),
    };
    console.log(JSON.stringify(result));
  } finally {
    await dropIndices(engine);
    await engine.close();
    await opened.stop();
  }
}

await main();
