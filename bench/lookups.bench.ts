/**
 * `npm run bench:lookups -- --prefix P [--baseline http://127.0.0.1:3132] [--api http://...] [--no-cache] [--prewarm]
 *    [--seconds 8] [--connections 16] [--rounds 2] [--kind services] [--cpu-prof DIR]`
 *
 * Lookups by id, uniform over ALL the records a read index serves (every id read from the engine,
 * drawn with replacement, seeded), against their ceiling on this box: the same ids asked of the
 * engine alone (`GET {alias}/_doc/{id}`, one request per lookup, the same concurrency) and, when
 * given, of the baseline (`/services/{id}`, ../shared/baseline-postgis, loaded from the same file).
 * Sides are interleaved round by round (the order flips each round), so a busy box slows all of
 * them alike. The API is started here (`hsds serve` on INDEX_PREFIX=P) unless `--api` names one
 * running; its CPU per lookup is read from /proc (user + system of its process).
 *
 * Engine: OPENSEARCH_URL (default http://127.0.0.1:9200). Results printed, JSON in bench/results/.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { createReadStream, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { parseArgs } from 'node:util';
import autocannon from 'autocannon';
import { stopChild, waitHealthy } from './lib/baseline.ts';
import { createBenchEngine } from './lib/bench-engine.ts';
import { formatTable, median, writeResults } from './lib/results.ts';

const { values } = parseArgs({
  options: {
    prefix: { type: 'string' },
    api: { type: 'string' },
    'api-port': { type: 'string', default: '3151' },
    baseline: { type: 'string' },
    /**
     * The baseline's ids, from the NDJSON file it loaded, when it holds another dataset than the
     * API (uniform over all of them too): compares per-lookup costs, not the same records.
     */
    'baseline-ids': { type: 'string' },
    kind: { type: 'string', default: 'services' },
    seconds: { type: 'string', default: '8' },
    connections: { type: 'string', default: '16' },
    rounds: { type: 'string', default: '2' },
    seed: { type: 'string', default: '17' },
    /** The API without its record cache (RECORD_CACHE_MB=0): every lookup goes to the engine. */
    'no-cache': { type: 'boolean', default: false },
    /** Ask the API for every id once before measuring (its record cache warm, as after a while). */
    prewarm: { type: 'boolean', default: false },
    /** Profile the API process (--cpu-prof into this folder). */
    'cpu-prof': { type: 'string' },
  },
});
if (!values.prefix) throw new Error('--prefix P: the index prefix the data was loaded under');
const root = new URL('..', import.meta.url).pathname;
const engineUrl = process.env.OPENSEARCH_URL ?? 'http://127.0.0.1:9200';
const engine = createBenchEngine(engineUrl, values.prefix);
const alias = engine.name(values.kind as 'services');
const log = (line: string) => console.error(line);

/** Every id the read index serves (a scroll of ids only). */
async function allIds(): Promise<string[]> {
  const ids: string[] = [];
  let { body } = await engine.client.search({
    index: alias,
    scroll: '1m',
    body: { size: 10_000, _source: false, query: { match_all: {} }, sort: ['_doc'] },
  } as never);
  for (;;) {
    const hits = (body as { hits: { hits: { _id: string }[] } }).hits.hits;
    if (hits.length === 0) break;
    for (const hit of hits) ids.push(hit._id);
    ({ body } = await engine.client.scroll({
      scroll_id: (body as { _scroll_id: string })._scroll_id,
      scroll: '1m',
    } as never));
  }
  return ids;
}

/** A seeded generator of numbers in [0, 1) (xorshift32), as bench:compare's. */
function randomOf(seed: number): () => number {
  let state = seed >>> 0 || 1;
  return () => {
    state ^= state << 13;
    state ^= state >>> 17;
    state ^= state << 5;
    return (state >>> 0) / 2 ** 32;
  };
}

/** CPU seconds (user + system) a process has used, from /proc. */
function cpuSeconds(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
  return (Number(fields[11]) + Number(fields[12])) / 100;
}

type Run = {
  rps: number;
  p50_ms: number;
  p99_ms: number;
  non2xx: number;
  errors: number;
  cpu_ms_per_request?: number;
};

async function measure(base: string, paths: string[], seconds: number, pid?: number): Promise<Run> {
  let next = 0;
  const cpu0 = pid === undefined ? 0 : cpuSeconds(pid);
  const result = await autocannon({
    url: base,
    connections: Number(values.connections),
    duration: seconds,
    timeout: 30,
    requests: [{ method: 'GET', setupRequest: (r) => ({ ...r, path: paths[next++ % paths.length]! }) }],
  });
  const cpu = pid === undefined ? undefined : cpuSeconds(pid) - cpu0;
  return {
    rps: Math.round(result.requests.total / result.duration),
    p50_ms: result.latency.p50,
    p99_ms: result.latency.p99,
    non2xx: result.non2xx,
    errors: result.errors,
    ...(cpu === undefined ? {} : { cpu_ms_per_request: (cpu * 1000) / Math.max(1, result.requests.total) }),
  };
}

async function startApi(port: number): Promise<{ url: string; child: ChildProcess }> {
  const flags = values['cpu-prof'] ? ['--cpu-prof', `--cpu-prof-dir=${values['cpu-prof']}`] : [];
  const child = spawn(process.execPath, [...flags, join(root, 'src/cli/main.ts'), 'serve'], {
    cwd: root,
    env: {
      ...process.env,
      OPENSEARCH_URL: engineUrl,
      INDEX_PREFIX: values.prefix,
      PORT: String(port),
      HOST: '127.0.0.1',
      LOG_LEVEL: 'warn',
      OPENSEARCH_READ_TIMEOUT_MS: '120000',
      ...(values['no-cache'] ? { RECORD_CACHE_MB: '0' } : {}),
    },
    stdio: ['ignore', 'inherit', 'inherit'],
  });
  const url = `http://127.0.0.1:${port}`;
  await waitHealthy(url, child, 'the API');
  return { url, child };
}

const ids = await allIds();
const random = randomOf(Number(values.seed));
// More draws than a run asks for: repeats come from the distribution alone, not from wrapping round.
const draws = Array.from({ length: 200_000 }, () => ids[Math.floor(random() * ids.length)]!);
const route = values.kind;
const physical = Object.keys(
  (await engine.client.indices.getAlias({ name: alias })).body as Record<string, unknown>,
)[0]!;
const sides: { name: string; base: string; paths: string[]; pid?: number }[] = [];
const api = values.api ? { url: values.api, child: undefined } : await startApi(Number(values['api-port']));
sides.push({
  name: `API /${route}/{id}`,
  base: api.url,
  paths: draws.map((id) => `/${route}/${id}`),
  ...(api.child?.pid ? { pid: api.child.pid } : {}),
});
sides.push({
  name: 'engine alone GET _doc',
  base: engineUrl,
  paths: draws.map((id) => `/${physical}/_doc/${id}`),
});
if (values.baseline) {
  let theirs = draws;
  if (values['baseline-ids']) {
    const all: string[] = [];
    const lines = createInterface({
      input: createReadStream(values['baseline-ids'], 'utf8'),
      crlfDelay: Infinity,
    });
    for await (const line of lines) {
      const id = /^\{"id":"([^"]+)"/.exec(line)?.[1];
      if (id) all.push(Buffer.from(id).toString());
    }
    const pick = randomOf(Number(values.seed) + 1);
    theirs = Array.from({ length: draws.length }, () => all[Math.floor(pick() * all.length)]!);
    log(`baseline: ${all.length.toLocaleString('en')} ids of ${values['baseline-ids']}`);
  }
  sides.push({
    name: `baseline /${route}/{id}`,
    base: values.baseline,
    paths: theirs.map((id) => `/${route}/${id}`),
  });
}
log(
  `${ids.length.toLocaleString('en')} ids in ${physical}; ${draws.length.toLocaleString('en')} uniform draws`,
);
const seconds = Number(values.seconds);
const runs: Record<string, Run[]> = Object.fromEntries(sides.map((s) => [s.name, []]));
try {
  if (values.prewarm) {
    // Every id asked of the API once (a server that has run a while): its record cache then
    // holds what fits of the directory (RECORD_CACHE_MB).
    let next = 0;
    await autocannon({
      url: sides[0]!.base,
      connections: Number(values.connections),
      amount: ids.length,
      timeout: 30,
      requests: [
        { method: 'GET', setupRequest: (r) => ({ ...r, path: `/${route}/${ids[next++ % ids.length]}` }) },
      ],
    });
    log(`prewarmed: ${ids.length.toLocaleString('en')} lookups`);
  }
  // Warm-up: the engine's caches and the API's JIT, not measured.
  for (const side of sides) await measure(side.base, side.paths.slice(100_000), 2);
  for (let round = 0; round < Number(values.rounds); round++) {
    const order = round % 2 === 0 ? sides : [...sides].reverse();
    for (const side of order) {
      const run = await measure(side.base, side.paths, seconds, side.pid);
      runs[side.name]!.push(run);
      log(
        `round ${round + 1} ${side.name}: ${run.rps} req/s, p50 ${run.p50_ms} ms${run.non2xx ? `, ${run.non2xx} non-2xx` : ''}`,
      );
    }
  }
} finally {
  if (api.child) await stopChild(api.child);
}
const rpsOf = (name: string) => median(runs[name]!.map((r) => r.rps));
const apiName = sides[0]!.name;
const rows: (string | number)[][] = [
  ['side', 'req/s (median)', 'p50 ms', 'p99 ms', 'API / side', 'API CPU ms/req'],
];
for (const side of sides) {
  const list = runs[side.name]!;
  rows.push([
    side.name,
    rpsOf(side.name),
    median(list.map((r) => r.p50_ms)),
    median(list.map((r) => r.p99_ms)),
    (rpsOf(apiName) / rpsOf(side.name)).toFixed(2),
    list[0]?.cpu_ms_per_request === undefined
      ? '-'
      : median(list.map((r) => r.cpu_ms_per_request!)).toFixed(3),
  ]);
}
console.log(
  `\nLookups by id, uniform over all ${ids.length.toLocaleString('en')} ${route}; ${values.connections} connections, ${seconds} s, ${values.rounds} rounds interleaved\n`,
);
console.log(formatTable(rows));
console.log(
  `\nresults: ${writeResults('lookups', { date: new Date().toISOString(), options: values, ids: ids.length, runs })}`,
);
await engine.close();
