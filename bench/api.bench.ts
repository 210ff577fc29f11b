/**
 * `npm run bench:api`: the read API under load, beside the same requests sent straight to the
 * engine, on a synthetic directory (100,000 services by default).
 *
 * - The engine: OPENSEARCH_URL, else the local engine on ENGINE_PORT (default 9200), started if
 *   needed (and stopped after only if started here).
 * - The data: read indices under BENCH_PREFIX (default `bench-api`), loaded with the reindex
 *   writer from the synthetic generator, and reused by later runs when the count matches.
 * - The API runs as a child process (`hsds serve`), so its RSS is sampled from /proc throughout.
 * - Load comes from this process with autocannon, 16 connections, BENCH_SECONDS per scenario
 *   (default 15) after a short warm-up, in three alternating turns of the API and the engine.
 *   Percentiles come from every response's own time (autocannon's are whole milliseconds).
 *
 * Scenarios: /services?search=..., /services/{id}, /services?taxonomy_id=...&page=k, and a full
 * format=ndjson dump; each beside its direct engine equivalent; and a postcode + proximity search
 * with and without open_now (BENCH_ONLY=open: that alone). Results are printed and written to
 * bench/results/ (git-ignored).
 *
 * `npm run bench:api -- --writes`: the write API instead (bench/lib/writes.bench.ts): sustained
 * writes of single services while readers run, and the readers with and without them.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { closeSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { loadavg } from 'node:os';
import autocannon, { type Result } from 'autocannon';
import pino from 'pino';
import { startEngine, stopEngine } from '../local-engine/local-engine.ts';
import { createEngine, type Engine } from '../src/engine/index.ts';
import { pageWindow, partitionStream, streamOrder } from '../src/index-mapping/search.query.ts';
import { buildServiceSearch } from '../src/index-mapping/service-search.query.ts';
import { writeReadIndices } from '../src/ingest/publish/read-indices.writer.ts';
import { generateDataset } from '../src/synthetic/generate.ts';
import { benchOpenNow } from './lib/open-now.bench.ts';
import { quantile } from './lib/quantile.ts';
import { openServerLog } from './lib/results.ts';
import { benchSearchExtensions, type EngineTook } from './lib/search-extensions.bench.ts';
import { benchWrites } from './lib/writes.bench.ts';

const SERVICES = Number(process.env.BENCH_SERVICES ?? 100_000);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 15);
const WARMUP_SECONDS = 3;
// Each scenario's SECONDS are split into this many turns of the API and the engine.
const ROUNDS = 3;
const CONNECTIONS = 16;
const PREFIX = process.env.BENCH_PREFIX ?? 'bench-api';
// BENCH_ONLY=search: the search extensions alone (search with and without the vocabulary in
// turns, /suggest), skipping the other scenarios and the dumps: a short run on a shared machine.
const ONLY_SEARCH = process.env.BENCH_ONLY === 'search';
// BENCH_ONLY=meaning: /services?search= with search by meaning (every search embedded: no cache)
// against a baseline API in turns: the same code with SEARCH_MEANING=off, or, with
// BENCH_BASELINE_DIR, the API of another checkout (an earlier commit) on the same indices.
const ONLY_MEANING = process.env.BENCH_ONLY === 'meaning';
// BENCH_ONLY=open: a postcode + proximity search with and without open_now (bench/lib/open-now.bench.ts).
const ONLY_OPEN = process.env.BENCH_ONLY === 'open';
const BASELINE_DIR = process.env.BENCH_BASELINE_DIR;
const ENGINE_PORT = Number(process.env.ENGINE_PORT ?? 9200);
// The API runs as operators run it, `npx hsds serve` (bin/hsds.js: Node 24 with
// --max-semi-space-size=8). BENCH_API_NODE_FLAGS="..." runs
// `node <flags> src/cli/main.ts serve` instead ("" for Node's defaults).
const API_NODE_FLAGS = process.env.BENCH_API_NODE_FLAGS?.split(' ').filter(Boolean);
const API_COMMAND = API_NODE_FLAGS
  ? [process.execPath, ...API_NODE_FLAGS, 'src/cli/main.ts', 'serve']
  : ['bin/hsds.js', 'serve'];

const log = (message: string) => process.stderr.write(`${message}\n`);

async function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const probe = createServer().listen(0, '127.0.0.1', () => {
      const address = probe.address();
      probe.close(() => resolve(typeof address === 'object' && address ? address.port : 0));
    });
  });
}

async function openEngine(): Promise<{ url: string; stop: () => Promise<void> }> {
  if (process.env.OPENSEARCH_URL) return { url: process.env.OPENSEARCH_URL, stop: async () => {} };
  const status = await startEngine({ port: ENGINE_PORT, heap: process.env.ENGINE_HEAP ?? '2g' });
  log(`engine at ${status.url} (${status.started ? 'started' : 'already running'})`);
  return {
    url: status.url,
    stop: async () => {
      if (status.started) await stopEngine({ port: ENGINE_PORT });
    },
  };
}

async function loadData(engine: Engine): Promise<void> {
  const count = await engine.client
    .count({ index: engine.name('services') })
    .then((r) => r.body.count)
    .catch(() => 0);
  if (count === SERVICES) {
    log(`reusing ${count} services under ${PREFIX}`);
    return;
  }
  log(`loading ${SERVICES} synthetic services under ${PREFIX} (found ${count})...`);
  const started = Date.now();
  const dataset = generateDataset({ services: SERVICES, seed: 'bench' });
  let last = 0;
  const report = await writeReadIndices(
    engine,
    { services: dataset.services(), taxonomies: dataset.taxonomies, taxonomyTerms: dataset.taxonomyTerms },
    {
      onProgress: ({ phase, services }) => {
        if (services - last >= 10_000) {
          last = services;
          log(`  ${phase}: ${services} services`);
        }
      },
    },
  );
  log(`loaded ${JSON.stringify(report.counts)} in ${((Date.now() - started) / 1000).toFixed(0)} s`);
}

type Samples = { ids: string[]; searches: string[]; taxonomyIds: string[] };

/** Real ids, taxonomy ids and search words, read from the loaded data. */
async function sampleData(engine: Engine): Promise<Samples> {
  const { body } = await engine.client.search({
    index: engine.name('services'),
    body: {
      size: 2000,
      _source: false,
      docvalue_fields: ['id'],
      query: { function_score: { random_score: { seed: 42, field: '_seq_no' } } },
      aggs: {
        terms: { terms: { field: 'taxonomy_term_names.sort', size: 60 } },
        taxonomies: { terms: { field: 'taxonomy_ids', size: 10 } },
      },
    } as Record<string, unknown>,
  });
  type Bucket = { key: string };
  const result = body as unknown as {
    hits: { hits: { fields: { id: string[] } }[] };
    aggregations: { terms: { buckets: Bucket[] }; taxonomies: { buckets: Bucket[] } };
  };
  return {
    ids: result.hits.hits.map((h) => h.fields.id[0]!),
    searches: result.aggregations.terms.buckets.map((b) => b.key),
    taxonomyIds: result.aggregations.taxonomies.buckets.map((b) => b.key),
  };
}

function startApi(
  engineUrl: string,
  port: number,
  env: Record<string, string> = {},
  prefix = PREFIX,
  cwd?: string,
): Promise<ChildProcess> {
  const [command, ...args] = API_COMMAND as [string, ...string[]];
  const serverLog = openServerLog(`api-server-${port}`);
  const child = spawn(command, args, {
    ...(cwd ? { cwd } : {}),
    env: {
      ...process.env,
      ...env,
      OPENSEARCH_URL: engineUrl,
      INDEX_PREFIX: prefix,
      PORT: String(port),
      HOST: '127.0.0.1',
      LOG_LEVEL: 'warn',
    },
    stdio: ['ignore', serverLog.fd, 'inherit'],
  });
  closeSync(serverLog.fd);
  log(`API on port ${port} logs to ${serverLog.path}`);
  return new Promise((resolve, reject) => {
    const deadline = Date.now() + 60_000;
    const poll = async () => {
      try {
        const res = await fetch(`http://127.0.0.1:${port}/health`);
        if (res.ok) return resolve(child);
      } catch {}
      if (Date.now() > deadline || child.exitCode !== null) return reject(new Error('the API did not start'));
      setTimeout(poll, 250);
    };
    void poll();
  });
}

/** Samples the child's resident set size (VmRSS) until stopped. */
function sampleRss(pid: number) {
  const readRss = () => {
    const match = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return match ? Number(match[1]) / 1024 : 0;
  };
  let peak = readRss();
  let windowPeak = peak;
  const timer = setInterval(() => {
    const rss = readRss();
    peak = Math.max(peak, rss);
    windowPeak = Math.max(windowPeak, rss);
  }, 50);
  return {
    /** Peak since the last call. */
    takeWindowPeak: () => {
      const value = Math.max(windowPeak, readRss());
      windowPeak = readRss();
      return value;
    },
    peak: () => peak,
    stop: () => clearInterval(timer),
  };
}

const rotate = <T>(items: readonly T[]) => {
  let i = 0;
  return () => items[i++ % items.length]!;
};

/** `connections`: CONNECTIONS unless given (one: the latency a single user sees, no queueing). */
type Load = { url: string; requests: Parameters<typeof autocannon>[0]['requests']; connections?: number };

/** A load's outcome: autocannon's counts, and every response time at full resolution. */
type Measured = { result: Result; latencies: number[]; seconds: number };

async function run(load: Load, seconds: number): Promise<Measured> {
  const latencies: number[] = [];
  const result = await autocannon({
    url: load.url,
    connections: load.connections ?? CONNECTIONS,
    duration: seconds,
    requests: load.requests,
    timeout: 30,
    // autocannon's own percentiles are whole milliseconds; a lookup takes about one.
    setupClient: (client) => client.on('response', (_status, _bytes, ms) => latencies.push(ms)),
  });
  return { result, latencies, seconds };
}

/** Several loads as one: rounds of the same scenario added up. */
const combine = (parts: Measured[]): Measured => ({
  result: {
    ...parts[0]!.result,
    errors: parts.reduce((n, p) => n + p.result.errors, 0),
    timeouts: parts.reduce((n, p) => n + p.result.timeouts, 0),
    non2xx: parts.reduce((n, p) => n + p.result.non2xx, 0),
  },
  latencies: parts.flatMap((p) => p.latencies),
  seconds: parts.reduce((n, p) => n + p.seconds, 0),
});

const round2 = (n: number) => Math.round(n * 100) / 100;

type Row = {
  scenario: string;
  target: 'api' | 'engine';
  medianMs: number;
  meanMs: number;
  p99Ms: number;
  rps: number;
  requests: number;
  errors: number;
  non2xx: number;
  apiPeakRssMb?: number;
};

const row = (scenario: string, target: Row['target'], m: Measured, rss?: number): Row => {
  const sorted = [...m.latencies].sort((a, b) => a - b);
  return {
    scenario,
    target,
    medianMs: round2(quantile(sorted, 0.5)),
    meanMs: round2(sorted.reduce((a, b) => a + b, 0) / Math.max(sorted.length, 1)),
    p99Ms: round2(quantile(sorted, 0.99)),
    rps: Math.round(sorted.length / m.seconds),
    requests: sorted.length,
    errors: m.result.errors + m.result.timeouts,
    non2xx: m.result.non2xx,
    ...(rss === undefined ? {} : { apiPeakRssMb: Math.round(rss) }),
  };
};

/** The search body the API sends for /services (see src/engine/search.ts searchPage). */
function engineSearch(
  index: string,
  request: ReturnType<typeof buildServiceSearch>,
  page: number,
  perPage: number,
) {
  return {
    method: 'POST',
    path: `/${index}/_search?ignore_unavailable=true&filter_path=hits.total.value,hits.hits._source`,
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({
      query: request.query,
      sort: request.sort,
      ...pageWindow(page, perPage),
      track_total_hits: true,
      _source: { includes: request.source },
    }),
  };
}

/** Search with the vocabulary against without it (at most 1.15x), and /suggest's median (< 20 ms). */
function vocabularyVerdicts(rows: Row[], took: EngineTook) {
  const find = (scenario: string) => rows.find((r) => r.scenario === scenario)!;
  const without = find('/services?search= without vocabulary');
  const withIt = find('/services?search= with vocabulary');
  return {
    'search median with/without vocabulary (<= 1.15)': round2(
      withIt.medianMs / Math.max(without.medianMs, 0.001),
    ),
    'search rps without/with vocabulary (<= 1.15)': round2(without.rps / Math.max(withIt.rps, 1)),
    'search engine took with/without vocabulary, mean (<= 1.15)': round2(
      took.with.meanMs / Math.max(took.without.meanMs, 0.001),
    ),
    '/suggest median < 20 ms, 1 client (ms)': find('/suggest?q= (1 client)').medianMs,
    [`/suggest median < 20 ms, ${CONNECTIONS} clients (ms)`]: find('/suggest?q=').medianMs,
  };
}

/** Reads a whole NDJSON response, counting lines, with the API's RSS sampled meanwhile. */
async function dump(url: string): Promise<{ lines: number; seconds: number }> {
  const started = performance.now();
  const res = await fetch(url);
  if (!res.ok || !res.body) throw new Error(`${url}: ${res.status}`);
  let lines = 0;
  for await (const chunk of res.body) {
    for (const byte of chunk as Uint8Array) if (byte === 10) lines++;
  }
  return { lines, seconds: (performance.now() - started) / 1000 };
}

/**
 * The engine-side equivalent of the dump: the same point-in-time walk as the API's, in the same
 * parts side by side (partitionStream), raw JSON lines.
 */
async function engineDump(engineUrl: string, index: string, source: readonly string[]) {
  const started = performance.now();
  const post = async (path: string, body?: unknown) => {
    const res = await fetch(`${engineUrl}${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      ...(body ? { body: JSON.stringify(body) } : {}),
    });
    return res.json() as Promise<Record<string, unknown>>;
  };
  const pit = (await post(`/${index}/_search/point_in_time?keep_alive=2m`)).pit_id as string;
  let bytes = 0;
  const walk = async (part: ReturnType<typeof streamOrder>) => {
    let after: unknown[] | undefined;
    let lines = 0;
    for (;;) {
      const body = (await post('/_search?filter_path=hits.hits._source,hits.hits.sort', {
        pit: { id: pit, keep_alive: '2m' },
        query: part.query,
        sort: part.sort,
        size: 1000,
        _source: { includes: source },
        ...(after ? { search_after: after } : {}),
      })) as { hits?: { hits: { _source: { record: unknown }; sort: unknown[] }[] } };
      // The client's share of the work: each record written out as a line.
      const hits = body.hits?.hits ?? [];
      for (const hit of hits) bytes += JSON.stringify(hit._source.record).length + 1;
      lines += hits.length;
      if (hits.length < 1000) return lines;
      after = hits[hits.length - 1]!.sort;
    }
  };
  const parts = partitionStream(streamOrder(buildServiceSearch({}, 'list')));
  const counts = await Promise.all(parts.map(walk));
  await fetch(`${engineUrl}/_search/point_in_time`, {
    method: 'DELETE',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ pit_id: [pit] }),
  });
  return { lines: counts.reduce((a, b) => a + b, 0), bytes, seconds: (performance.now() - started) / 1000 };
}

function writeResults(results: {
  rows: Row[];
  dumps?: unknown[];
  engineTook?: EngineTook;
  verdicts: Record<string, number>;
  openNow?: unknown;
}) {
  mkdirSync(new URL('./results/', import.meta.url), { recursive: true });
  const file = new URL(
    `./results/api-${new Date().toISOString().replaceAll(':', '-')}.json`,
    import.meta.url,
  );
  writeFileSync(
    file,
    `${JSON.stringify({ services: SERVICES, seconds: SECONDS, connections: CONNECTIONS, apiCommand: API_COMMAND.join(' '), loadAverage: loadavg(), only: ONLY_SEARCH ? 'search' : ONLY_OPEN ? 'open' : undefined, ...results }, null, 2)}\n`,
  );
  log(`results written to ${file.pathname}`);
}

async function main() {
  const engineHandle = await openEngine();
  const engine = createEngine(
    { url: engineHandle.url, prefix: PREFIX, requestTimeoutMs: 120_000, shards: 1, replicas: 0 },
    pino({ level: 'warn' }),
  );
  let api: ChildProcess | undefined;
  try {
    await loadData(engine);
    const samples = await sampleData(engine);
    if (ONLY_MEANING) return await benchMeaning(engineHandle.url, samples.searches);
    const port = await freePort();
    api = await startApi(engineHandle.url, port);
    const rss = sampleRss(api.pid!);
    const apiUrl = `http://127.0.0.1:${port}`;
    const index = engine.name('services');
    log(
      `API at ${apiUrl} (pid ${api.pid}, ${API_COMMAND.join(' ')}), ${SECONDS} s per scenario, ${CONNECTIONS} connections`,
    );

    const openNowOptions = {
      engine,
      engineUrl: engineHandle.url,
      apiUrl,
      run,
      seconds: SECONDS,
      rounds: ROUNDS,
      log,
    };
    if (ONLY_OPEN) {
      const openNow = await benchOpenNow(openNowOptions);
      rss.stop();
      writeResults({
        rows: [],
        verdicts: { 'open_now p50 / without, API (target <= 1.5)': openNow.apiRatio },
        openNow,
      });
      return;
    }
    const nextSearch = rotate(samples.searches);
    const nextId = rotate(samples.ids);
    const pages = samples.taxonomyIds.flatMap((t) =>
      Array.from({ length: 20 }, (_, k) => ({ t, page: k + 1 })),
    );
    const nextPage = rotate(pages);
    const scenarios: { name: string; api: Load; engine: Load }[] = [
      {
        name: '/services?search=',
        api: {
          url: apiUrl,
          requests: [
            { setupRequest: (r) => ({ ...r, path: `/services?search=${encodeURIComponent(nextSearch())}` }) },
          ],
        },
        engine: {
          url: engineHandle.url,
          requests: [
            {
              setupRequest: (r) => ({
                ...r,
                ...engineSearch(index, buildServiceSearch({ search: nextSearch() }, 'list'), 1, 50),
              }),
            },
          ],
        },
      },
      {
        name: '/services/{id}',
        api: { url: apiUrl, requests: [{ setupRequest: (r) => ({ ...r, path: `/services/${nextId()}` }) }] },
        engine: {
          url: engineHandle.url,
          requests: [
            // What getRecordText sends: the whole stored _source, passed through by the engine.
            { setupRequest: (r) => ({ ...r, path: `/${index}/_doc/${nextId()}` }) },
          ],
        },
      },
      {
        name: '/services?taxonomy_id=&page=k',
        api: {
          url: apiUrl,
          requests: [
            {
              setupRequest: (r) => {
                const { t, page } = nextPage();
                return { ...r, path: `/services?taxonomy_id=${t}&page=${page}` };
              },
            },
          ],
        },
        engine: {
          url: engineHandle.url,
          requests: [
            {
              setupRequest: (r) => {
                const { t, page } = nextPage();
                return {
                  ...r,
                  ...engineSearch(index, buildServiceSearch({ taxonomyId: t }, 'list'), page, 50),
                };
              },
            },
          ],
        },
      },
    ];

    const rows: Row[] = [];
    for (const scenario of ONLY_SEARCH ? [] : scenarios) {
      await run(scenario.api, WARMUP_SECONDS);
      await run(scenario.engine, WARMUP_SECONDS);
      // The API and the engine take turns, so a burst of load from elsewhere on a shared machine
      // falls on both rather than on one.
      const api: Measured[] = [];
      const direct: Measured[] = [];
      let apiRss = 0;
      for (let round = 0; round < ROUNDS; round++) {
        rss.takeWindowPeak();
        api.push(await run(scenario.api, SECONDS / ROUNDS));
        apiRss = Math.max(apiRss, rss.takeWindowPeak());
        direct.push(await run(scenario.engine, SECONDS / ROUNDS));
      }
      const apiRow = row(scenario.name, 'api', combine(api), apiRss);
      const engineRow = row(scenario.name, 'engine', combine(direct));
      rows.push(apiRow, engineRow);
      log(
        `  ${scenario.name}: api ${apiRow.medianMs} ms median, ${apiRow.rps} rps; engine ${engineRow.medianMs} ms, ${engineRow.rps} rps`,
      );
    }

    const extensions = await benchSearchExtensions({
      engine,
      apiUrl,
      searches: samples.searches,
      seconds: SECONDS,
      rounds: ROUNDS,
      run: run as never,
      combine,
      log,
    });
    rows.push(
      row('/services?search= without vocabulary', 'api', extensions.withoutVocabulary),
      row('/services?search= with vocabulary', 'api', extensions.withVocabulary),
      row('/suggest?q=', 'api', extensions.suggest),
      row('/suggest?q= (1 client)', 'api', extensions.suggestOneClient),
    );

    if (ONLY_SEARCH) {
      rss.stop();
      console.table(rows);
      console.table(vocabularyVerdicts(rows, extensions.engineTook));
      writeResults({
        rows,
        engineTook: extensions.engineTook,
        verdicts: vocabularyVerdicts(rows, extensions.engineTook),
      });
      return;
    }
    const openNow = await benchOpenNow(openNowOptions);
    rss.takeWindowPeak();
    const apiDump = await dump(`${apiUrl}/services?format=ndjson`);
    const apiDumpRss = rss.takeWindowPeak();
    const apiFullDump = await dump(`${apiUrl}/services?format=ndjson&full=true`);
    const apiFullDumpRss = rss.takeWindowPeak();
    const direct = await engineDump(engineHandle.url, index, buildServiceSearch({}, 'list').source);
    const directFull = await engineDump(engineHandle.url, index, ['record']);
    rss.stop();

    const ratio = (scenario: string) => {
      const a = rows.find((r) => r.scenario === scenario && r.target === 'api')!;
      const e = rows.find((r) => r.scenario === scenario && r.target === 'engine')!;
      return Math.round((a.medianMs / Math.max(e.medianMs, 0.001)) * 100) / 100;
    };
    const dumps = [
      {
        what: 'api ndjson (list items)',
        ...apiDump,
        perSecond: Math.round(apiDump.lines / apiDump.seconds),
        peakRssMb: Math.round(apiDumpRss),
      },
      {
        what: 'api ndjson full=true',
        ...apiFullDump,
        perSecond: Math.round(apiFullDump.lines / apiFullDump.seconds),
        peakRssMb: Math.round(apiFullDumpRss),
      },
      {
        what: 'engine PIT walk (list items)',
        lines: direct.lines,
        seconds: direct.seconds,
        perSecond: Math.round(direct.lines / direct.seconds),
      },
      {
        what: 'engine PIT walk (full)',
        lines: directFull.lines,
        seconds: directFull.seconds,
        perSecond: Math.round(directFull.lines / directFull.seconds),
      },
    ];
    const byId = rows.find((r) => r.scenario === '/services/{id}' && r.target === 'api')!;
    const verdicts = {
      'search median within 1.3x of the engine': ratio('/services?search='),
      'lookup median within 1.3x of the engine': ratio('/services/{id}'),
      'page median ratio (no target)': ratio('/services?taxonomy_id=&page=k'),
      ...vocabularyVerdicts(rows, extensions.engineTook),
      '/services/{id} >= 1,500 rps': byId.rps,
      'ndjson dump >= 10,000 services/s': dumps[0]!.perSecond,
      'API peak RSS < 300 MB (MB)': Math.round(rss.peak()),
      'open_now p50 / without, API (target <= 1.5)': openNow.apiRatio,
    };
    console.table(rows);
    console.table(dumps.map((d) => ({ ...d, seconds: Math.round(d.seconds * 100) / 100 })));
    console.table(verdicts);
    writeResults({ rows, dumps, engineTook: extensions.engineTook, verdicts, openNow });
  } finally {
    api?.kill('SIGTERM');
    await engine.close();
    await engineHandle.stop();
  }
}

/** The write API's benchmark (`--writes`). */
async function mainWrites() {
  const engineHandle = await openEngine();
  const prefix = `${PREFIX}-writes`;
  const engine = createEngine(
    { url: engineHandle.url, prefix, requestTimeoutMs: 120_000, shards: 1, replicas: 0 },
    pino({ level: 'warn' }),
  );
  try {
    const result = await benchWrites({
      engine,
      services: Number(process.env.BENCH_WRITE_SERVICES ?? 10_000),
      seconds: SECONDS,
      rounds: ROUNDS,
      log,
      startApi: async (env) => {
        const port = await freePort();
        const child = await startApi(engineHandle.url, port, env, prefix);
        return { url: `http://127.0.0.1:${port}`, stop: () => child.kill('SIGTERM') };
      },
      read: (url, paths, seconds) =>
        run({ url, requests: [{ setupRequest: (r) => ({ ...r, path: paths() }) }] }, seconds),
    });
    console.log(JSON.stringify(result, null, 2));
    mkdirSync(new URL('./results/', import.meta.url), { recursive: true });
    const file = new URL(
      `./results/writes-${new Date().toISOString().replaceAll(':', '-')}.json`,
      import.meta.url,
    );
    writeFileSync(file, `${JSON.stringify(result, null, 2)}\n`);
    log(`results written to ${file.pathname}`);
  } finally {
    await engine.close();
    await engineHandle.stop();
  }
}

if (process.argv.includes('--writes')) await mainWrites();
else await main();

/**
 * BENCH_ONLY=meaning: search with meaning (no cache: each search embedded) against the baseline,
 * in alternating turns, with 16 clients and with one. The searches are the sampled words and the
 * development set's judged queries (sentences cost more clauses than words).
 */
async function benchMeaning(engineUrl: string, words: readonly string[]) {
  const { JUDGMENTS } = await import('./relevance/judgments.ts');
  const searches = [...words, ...JUDGMENTS.map((j) => j.query)];
  const [withPort, basePort] = [await freePort(), await freePort()];
  const withMeaning = await startApi(engineUrl, withPort, {
    SEARCH_MEANING: 'on',
    SEARCH_MEANING_CACHE: '0',
  });
  const baseline = await startApi(
    engineUrl,
    basePort,
    // An earlier checkout that searches by meaning embeds every search too (a checkout from
    // before search by meaning ignores the setting).
    BASELINE_DIR ? { SEARCH_MEANING_CACHE: '0' } : { SEARCH_MEANING: 'off' },
    PREFIX,
    BASELINE_DIR,
  );
  try {
    const load = (port: number, connections: number): Load => {
      const next = rotate(searches);
      return {
        url: `http://127.0.0.1:${port}`,
        connections,
        requests: [
          { setupRequest: (r) => ({ ...r, path: `/services?search=${encodeURIComponent(next())}` }) },
        ],
      };
    };
    const rows: Row[] = [];
    const baselineName = BASELINE_DIR ? `baseline (${BASELINE_DIR})` : 'SEARCH_MEANING=off';
    for (const connections of [CONNECTIONS, 1]) {
      await run(load(withPort, connections), WARMUP_SECONDS);
      await run(load(basePort, connections), WARMUP_SECONDS);
      const on: Measured[] = [];
      const off: Measured[] = [];
      // Both sides send the same texts, so the side that goes second in a turn finds the engine's
      // caches warm for them: the same code on both sides measured 1.04-1.24x in the second side's
      // favour when ours always went first. Who goes first alternates, over an even number of turns.
      const turns = ROUNDS + (ROUNDS % 2);
      for (let round = 0; round < turns; round++) {
        const ours = () => run(load(withPort, connections), SECONDS / turns).then((m) => on.push(m));
        const theirs = () => run(load(basePort, connections), SECONDS / turns).then((m) => off.push(m));
        for (const side of round % 2 === 0 ? [ours, theirs] : [theirs, ours]) await side();
      }
      rows.push(
        row(`search with meaning, ${connections} client(s)`, 'api', combine(on)),
        row(`search ${baselineName}, ${connections} client(s)`, 'api', combine(off)),
      );
    }
    console.table(rows);
    const ratio = (a: Row, b: Row) => round2(a.medianMs / Math.max(b.medianMs, 0.01));
    const verdicts = {
      'median with/without meaning, 16 clients (<= 1.3)': ratio(rows[0]!, rows[1]!),
      'rps without/with meaning, 16 clients (<= 1.3)': round2(rows[1]!.rps / Math.max(rows[0]!.rps, 1)),
      'median with/without meaning, 1 client (<= 1.3)': ratio(rows[2]!, rows[3]!),
    };
    console.table(verdicts);
    writeResults({ rows, verdicts });
  } finally {
    withMeaning.kill('SIGTERM');
    baseline.kill('SIGTERM');
  }
}
