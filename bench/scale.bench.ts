/**
 * `npm run bench:scale -- --services 1000000`: the whole directory at national scale, as an
 * operator runs it, on one engine, in one pass (each figure from the same data):
 *
 * 1. `npx hsds generate` writes the synthetic dataset (reused by later runs, bench/.data);
 * 2. `npx hsds import` loads and publishes it (records store, then every read index): wall time
 *    and the CLI's peak RSS, sampled from /proc every 100 ms;
 * 3. `npx hsds postcodes import` loads the ONSPD sample (Aberdeen postcodes, test/fixtures);
 * 4. `npx hsds serve` answers, with autocannon, for BENCH_SECONDS each (default 20):
 *    full-text search of 8 common words, repeated (the engine's request cache answers a repeat),
 *    the same searches each new to that cache (other page sizes and pages), and each within a
 *    taxonomy term; postcode + proximity, repeated and each new; each with 1 client and with 16;
 *    and `/services/{id}` of up to 50,000 services spread over the directory;
 * 5. on a local cluster (ENGINE_NODES=3): a node lost under load. 16 clients search, look up and
 *    ask postcode + proximity for BENCH_SECONDS x 3 while the last node is SIGKILLed a third of the
 *    way in; every answer's status is counted (a 503 with Retry-After is the documented answer while
 *    the cluster moves shards; a 500 or a request left unanswered is a failure). The node is
 *    started again, the cluster waited for green, and every service is checked still served: the
 *    total, and each of the looked-up ids;
 * 6. a `format=ndjson` dump of every service: services per second and MB/s;
 * 7. the engine's disk (store size of the indices under the prefix, replicas included) and heap
 *    (used, max, over every node).
 *
 * Engine: OPENSEARCH_URL (comma-separated for several nodes), else the local engine on ENGINE_PORT
 * (default 9200; ENGINE_HEAP default 2g a node; ENGINE_NODES nodes, default 1), started if needed. Prefix BENCH_PREFIX (default `bench-scale`), dropped unless
 * BENCH_KEEP=1; `--skip-import` serves what an earlier run kept there (steps 4 to 6 only).
 * Results: printed, and written as JSON to bench/results/ (git-ignored).
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { closeSync, readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { cpus, loadavg, totalmem } from 'node:os';
import { parseArgs } from 'node:util';
import autocannon from 'autocannon';
import { resolveEngineVersion } from '../local-engine/local-engine.ts';
import { openBenchEngine } from './lib/bench-engine.ts';
import { ensureSyntheticDataset } from './lib/datasets.ts';
import { formatTable, openServerLog, writeResults } from './lib/results.ts';

const { values } = parseArgs({
  options: {
    services: { type: 'string', default: '1000000' },
    seed: { type: 'string', default: '1' },
    /** Serve what an earlier run kept (BENCH_KEEP=1) under the prefix: no import, no import figures. */
    'skip-import': { type: 'boolean', default: false },
  },
});
const SERVICES = Number(values.services);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 20);
const PREFIX = process.env.BENCH_PREFIX ?? 'bench-scale';
const log = (line: string) => process.stderr.write(`${line}\n`);
const load = () =>
  loadavg()
    .map((n) => n.toFixed(1))
    .join(' ');

function rssOf(pid: number): number {
  try {
    const kb = Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? 0);
    return kb * 1024;
  } catch {
    return 0;
  }
}

/** Runs `hsds <args>` to its end: wall time, peak RSS, and what it printed on stderr. */
function cli(
  args: string[],
  env: NodeJS.ProcessEnv,
): Promise<{ ms: number; peakRss: number; stderr: string }> {
  const started = Date.now();
  const child = spawn('bin/hsds.js', args, { env, stdio: ['ignore', 'ignore', 'pipe'] });
  let stderr = '';
  child.stderr?.on('data', (chunk: Buffer) => {
    stderr = (stderr + chunk.toString()).slice(-20_000);
  });
  let peakRss = 0;
  const timer = setInterval(() => {
    if (child.pid) peakRss = Math.max(peakRss, rssOf(child.pid));
  }, 100);
  return new Promise((resolve, reject) =>
    child.on('exit', (code) => {
      clearInterval(timer);
      if (code === 0) resolve({ ms: Date.now() - started, peakRss, stderr });
      else reject(new Error(`hsds ${args.join(' ')} exited with ${code}:\n${stderr}`));
    }),
  );
}

/**
 * A JSON answer, or a clear error naming the request and its status. A 503 is asked again after
 * its Retry-After, as the API documents, a few times: straight after a million-service publish on
 * three nodes (merges running, caches cold) the first page of `minimal=true` passed the engine
 * timeout once and ended the run.
 */
async function getJson<T>(url: string, attempts = 5): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    const res = await fetch(url);
    if (res.ok) return (await res.json()) as T;
    const body = (await res.text()).slice(0, 300);
    if (res.status !== 503 || attempt >= attempts) throw new Error(`GET ${url}: ${res.status} ${body}`);
    const wait = Number(res.headers.get('retry-after')) || 5;
    log(`  GET ${url}: 503, asked again in ${wait} s (${attempt} of ${attempts - 1})`);
    await new Promise((resolve) => setTimeout(resolve, wait * 1000));
  }
}

async function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const probe = createServer().listen(0, '127.0.0.1', () => {
      const address = probe.address();
      probe.close(() => resolve(typeof address === 'object' && address ? address.port : 0));
    });
  });
}

async function serve(env: NodeJS.ProcessEnv): Promise<{ url: string; child: ChildProcess }> {
  const port = await freePort();
  const serverLog = openServerLog(`scale-api-${port}`);
  const child = spawn('bin/hsds.js', ['serve'], {
    env: { ...env, PORT: String(port), HOST: '127.0.0.1', LOG_LEVEL: 'warn' },
    stdio: ['ignore', serverLog.fd, 'inherit'],
  });
  closeSync(serverLog.fd);
  log(`API on port ${port} logs to ${serverLog.path}`);
  const url = `http://127.0.0.1:${port}`;
  for (let i = 0; i < 600; i++) {
    const res = await fetch(`${url}/`).catch(() => undefined);
    if (res?.ok) return { url, child };
    await new Promise((r) => setTimeout(r, 100));
  }
  child.kill('SIGKILL');
  throw new Error('the API did not answer within 60 s');
}

type Latency = {
  p50Ms: number;
  p99Ms: number;
  rps: number;
  requests: number;
  errors: number;
  non2xx: number;
};

async function measure(
  url: string,
  paths: string[],
  connections: number,
  statuses?: Map<number, number>,
  seconds = SECONDS,
): Promise<Latency> {
  let i = 0;
  const latencies: number[] = [];
  const result = await autocannon({
    url,
    connections,
    duration: seconds,
    timeout: 30,
    requests: [{ setupRequest: (r) => ({ ...r, path: paths[i++ % paths.length] as string }) }],
    setupClient: (client) =>
      client.on('response', (status, _bytes, ms) => {
        latencies.push(ms);
        statuses?.set(status, (statuses.get(status) ?? 0) + 1);
      }),
  });
  const sorted = latencies.sort((a, b) => a - b);
  const q = (p: number) =>
    Math.round((sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))] ?? 0) * 100) / 100;
  return {
    p50Ms: q(0.5),
    p99Ms: q(0.99),
    rps: Math.round(sorted.length / seconds),
    requests: sorted.length,
    errors: result.errors + result.timeouts,
    non2xx: result.non2xx,
  };
}

const engine = await openBenchEngine(log);
const env = {
  ...process.env,
  OPENSEARCH_URL: engine.urls.join(','),
  INDEX_PREFIX: PREFIX,
  LOG_LEVEL: 'warn',
};
const mb = (bytes: number) => Math.round(bytes / 1e6);
// Stopped however the run ends: a run that threw once left its API serving on a random port.
let apiChild: ChildProcess | undefined;
try {
  log(`load average before: ${load()}`);
  const dataset = await ensureSyntheticDataset(SERVICES, Number(values.seed), log);
  let imported = { ms: 0, peakRss: 0 };
  if (!values['skip-import']) {
    await fetch(`${engine.url}/${PREFIX}-*?expand_wildcards=all`, { method: 'DELETE' });
    log(`importing and publishing ${SERVICES} services...`);
    imported = await cli(['import', dataset.dir, '--quiet'], env);
    log(`  ${(imported.ms / 1000).toFixed(0)} s, peak RSS ${mb(imported.peakRss)} MB (load ${load()})`);
    await cli(['postcodes', 'import', 'test/fixtures/postcodes/onspd-sample.csv'], env);
  }
  const importLoad = load();

  const api = await serve({ ...env, GEOCODERS: 'postcode-index' });
  apiChild = api.child;
  const words = ['food', 'advice', 'housing', 'health', 'support', 'debt', 'carers', 'youth'];
  // Current postcodes of the ONSPD sample, across Aberdeen.
  const postcodes = ['AB10 1AB', 'AB11 5AA', 'AB12 3AA', 'AB13 0AA', 'AB14 0AB', 'AB15 4AA', 'AB16 5AF'];
  const search = words.map((w) => `/services?search=${w}`);
  // Requests each new to the engine's request cache, which keys a request by what it asks after
  // the engine rewrote it (a filter every record passes is rewritten away): the same searches with
  // 20 to 99 a page, pages 1 and 2, so 160 forms of each. What a request costs when nobody asked
  // it before.
  const eachNew = (paths: string[]) =>
    Array.from({ length: 160 }, (_, form) =>
      paths.map((path) => `${path}&per_page=${20 + (form % 80)}&page=${1 + Math.floor(form / 80)}`),
    ).flat();
  const repeated = (paths: string[]) => paths.map((path) => `${path}&per_page=20`);
  // A search within a taxonomy term: the words beside eight of the directory's terms.
  const terms = await getJson<{ contents: { id: string }[] }>(`${api.url}/taxonomy_terms?per_page=8`);
  const withTerm = terms.contents.flatMap((t) => search.map((path) => `${path}&taxonomy_term_id=${t.id}`));
  const near = postcodes.map((p) => `/service_at_locations?postcode=${encodeURIComponent(p)}&proximity=5000`);
  // Up to 50,000 services spread over the directory (at even steps through every id, streamed by
  // `minimal=true`: deep pages cost a cluster every shard's `from + size` hits, past the engine
  // timeout at a million): more than the API's record cache holds (RECORD_CACHE_MB), so most
  // lookups reach the engine.
  const every = await getJson<{ total_items: number; contents: { id: string }[] }>(
    `${api.url}/services?minimal=true`,
  );
  const step = Math.max(1, every.contents.length / 50_000);
  const ids: string[] = [];
  for (let at = 0; at < every.contents.length; at += step) ids.push(every.contents[Math.floor(at)]!.id);
  const lookups = [...new Set(ids)].map((id) => `/services/${encodeURIComponent(id)}`);
  // Each postcode once, so the geocoder's cache is warm as it is in service.
  for (const path of repeated([...near, ...search])) await (await fetch(`${api.url}${path}`)).arrayBuffer();
  const latency: Record<string, Latency> = {};
  for (const [name, paths] of [
    ['search (8 words, repeated)', repeated(search)],
    ['search (each request new)', eachNew(search)],
    ['search + taxonomy term (each new)', eachNew(withTerm)],
    ['postcode+proximity (repeated)', repeated(near)],
    ['postcode+proximity (each new)', eachNew(near)],
    [`/services/{id} (${lookups.length} spread)`, lookups],
  ] as const) {
    for (const connections of [1, 16]) {
      log(`${name}, ${connections} client(s), ${SECONDS} s...`);
      latency[`${name} x${connections}`] = await measure(api.url, paths, connections);
    }
  }

  const nodeLoss = engine.nodes && engine.nodes.ports.length > 1 ? await loseNode(api.url) : undefined;

  /**
   * 16 clients ask a mix (each-new searches, lookups, postcode + proximity) while the last node is
   * SIGKILLed; then the node comes back, the cluster turns green, and nothing served is missing.
   */
  async function loseNode(url: string) {
    const nodes = engine.nodes as NonNullable<typeof engine.nodes>;
    const victim = nodes.ports[nodes.ports.length - 1] as number;
    const mix = eachNew(search).flatMap((path, k) => [
      path,
      lookups[k % lookups.length] as string,
      near[k % near.length] as string,
    ]);
    const statuses = new Map<number, number>();
    const seconds = SECONDS * 3;
    log(
      `a node lost under load: 16 clients for ${seconds} s, node ${victim} SIGKILLed after ${SECONDS} s...`,
    );
    let killedAt = 0;
    const kill = setTimeout(() => {
      killedAt = Date.now();
      void nodes.kill(victim).then(() => log(`  node ${victim} killed (load ${load()})`));
    }, SECONDS * 1000);
    const started = Date.now();
    const latency = await measure(url, mix, 16, statuses, seconds);
    clearTimeout(kill);
    const health = async () =>
      (await (await fetch(`${engine.url}/_cluster/health`)).json()) as {
        status: string;
        number_of_nodes: number;
      };
    const during = await health();
    log(`  cluster ${during.status} with ${during.number_of_nodes} nodes; starting node ${victim} again...`);
    const restartStarted = Date.now();
    await nodes.restart(victim);
    const green = (await (
      await fetch(`${engine.url}/_cluster/health?wait_for_status=green&timeout=600s`)
    ).json()) as { status: string };
    const greenSeconds = (Date.now() - restartStarted) / 1000;
    log(`  cluster ${green.status} ${greenSeconds.toFixed(0)} s after the restart`);
    const total = (await getJson<{ total_items: number }>(`${url}/services?per_page=1`)).total_items;
    let missing = 0;
    let next = 0;
    const check = async () => {
      while (next < lookups.length) {
        const res = await fetch(`${url}${lookups[next++]}`);
        await res.arrayBuffer();
        if (res.status !== 200) missing++;
      }
    };
    await Promise.all(Array.from({ length: 16 }, check));
    return {
      victim,
      seconds,
      killed_after_s: killedAt ? (killedAt - started) / 1000 : undefined,
      latency,
      statuses: Object.fromEntries([...statuses].sort((a, b) => a[0] - b[0])),
      cluster_after_kill: during.status,
      green_after_restart_s: Math.round(greenSeconds),
      green: green.status,
      total_before: every.total_items,
      total_after: total,
      lookups_checked: lookups.length,
      lookups_missing: missing,
    };
  }

  log('ndjson dump of every service...');
  const dumpStarted = Date.now();
  const res = await fetch(`${api.url}/services?format=ndjson`);
  let bytes = 0;
  let lines = 0;
  for await (const chunk of res.body as unknown as AsyncIterable<Uint8Array>) {
    bytes += chunk.length;
    for (const byte of chunk) if (byte === 10) lines++;
  }
  const dumpMs = Date.now() - dumpStarted;
  api.child.kill('SIGTERM');

  const indices = (await (
    await fetch(`${engine.url}/_cat/indices/${PREFIX}-*?format=json&bytes=b&expand_wildcards=all`)
  ).json()) as { index: string; 'docs.count': string; 'store.size': string; 'pri.store.size': string }[];
  const stats = (await (await fetch(`${engine.url}/_nodes/stats/jvm`)).json()) as {
    nodes: Record<string, { jvm: { mem: { heap_used_in_bytes: number; heap_max_in_bytes: number } } }>;
  };
  const heap = Object.values(stats.nodes).reduce(
    (sum, n) => ({
      used: sum.used + n.jvm.mem.heap_used_in_bytes,
      max: sum.max + n.jvm.mem.heap_max_in_bytes,
    }),
    { used: 0, max: 0 },
  );
  const results = {
    services: SERVICES,
    organizations: dataset.organizations,
    dataset_mb: mb(dataset.bytes),
    engine: {
      urls: engine.urls,
      nodes: Object.keys(stats.nodes).length,
      version: resolveEngineVersion().opensearch,
      heap_max_mb: mb(heap.max),
    },
    machine: { cpus: cpus().length, ram_mb: mb(totalmem()), load_after_import: importLoad, load_end: load() },
    import_publish: { seconds: Math.round(imported.ms / 1000), peak_rss_mb: mb(imported.peakRss) },
    latency,
    ...(nodeLoss ? { node_loss: nodeLoss } : {}),
    dump: {
      services: lines,
      seconds: dumpMs / 1000,
      services_per_s: Math.round(lines / (dumpMs / 1000)),
      mb_per_s: Math.round(bytes / 1e6 / (dumpMs / 1000)),
      status: res.status,
    },
    disk: {
      store_mb: mb(indices.reduce((n, i) => n + Number(i['store.size']), 0)),
      indices: indices.map((i) => ({
        index: i.index,
        docs: Number(i['docs.count']),
        mb: mb(Number(i['store.size'])),
      })),
    },
    heap_used_mb: mb(heap.used),
  };
  console.log(
    `\nScale benchmark: ${SERVICES} services (${dataset.organizations} organizations), OpenSearch ${results.engine.version}, ${results.engine.nodes} node(s), heap ${results.engine.heap_max_mb} MB in all; ${cpus().length} CPUs; load ${load()}\n`,
  );
  console.log(
    values['skip-import']
      ? 'import + publish: skipped (--skip-import)'
      : `import + publish: ${results.import_publish.seconds} s, CLI peak RSS ${results.import_publish.peak_rss_mb} MB`,
  );
  console.log(
    formatTable([
      ['scenario', 'p50 ms', 'p99 ms', 'req/s', 'requests', 'errors', 'non-2xx'],
      ...Object.entries(latency).map(([name, l]) => [
        name,
        l.p50Ms,
        l.p99Ms,
        l.rps,
        l.requests,
        l.errors,
        l.non2xx,
      ]),
    ]),
  );
  if (nodeLoss) {
    const l = nodeLoss.latency;
    console.log(
      `node lost under load (node ${nodeLoss.victim} SIGKILLed after ${nodeLoss.killed_after_s?.toFixed(1)} s of ${nodeLoss.seconds} s, 16 clients): ${l.requests} answers, p50 ${l.p50Ms} ms, p99 ${l.p99Ms} ms, ${l.rps} req/s, ${l.errors} errors or timeouts; statuses ${JSON.stringify(nodeLoss.statuses)}; cluster ${nodeLoss.cluster_after_kill} after the kill, ${nodeLoss.green} ${nodeLoss.green_after_restart_s} s after the restart; services ${nodeLoss.total_before} before, ${nodeLoss.total_after} after; ${nodeLoss.lookups_missing} of ${nodeLoss.lookups_checked} looked-up services missing`,
    );
  }
  console.log(
    `ndjson dump: ${lines} services in ${results.dump.seconds.toFixed(1)} s (${results.dump.services_per_s}/s, ${results.dump.mb_per_s} MB/s)`,
  );
  console.log(
    `disk: ${results.disk.store_mb} MB in ${indices.length} indices; engine heap used ${results.heap_used_mb} MB`,
  );
  console.log(`results: ${writeResults('scale', results)}`);
  if (!process.env.BENCH_KEEP)
    await fetch(`${engine.url}/${PREFIX}-*?expand_wildcards=all`, { method: 'DELETE' });
} finally {
  if (apiChild?.exitCode === null) apiChild.kill('SIGTERM');
  await engine.stop();
}
