/**
 * `npm run bench:geo`: what a postcode search costs on top of the engine.
 *
 * 1. Loads a synthetic directory (src/synthetic) until at least BENCH_SALS (200,000)
 *    service-at-locations have a service area, through the reindex writer; a later run reuses it.
 * 2. Serves the API as a child process (`node src/cli/main.ts serve`), geocoding through a fake
 *    postcodes.io (test/support/fake-postcodes-io.ts) over a real socket.
 * 3. Asks the API once for each of 200 real postcodes (postcodes.io gets one call each), warms up,
 *    then with autocannon (16 connections, 20 s a run, two alternating rounds) measures
 *    a) GET /service_at_locations?postcode=P&proximity=5000, P rotating over those postcodes;
 *    b) the same search sent straight to the engine, centroid already known, the body built by the
 *       same pure query builder the API uses;
 *    and counts the calls postcodes.io received meanwhile: a repeated postcode must cost none.
 * 4. Prints a table and writes JSON to bench/results/ (git-ignored).
 *
 * Environment: OPENSEARCH_URL (else the local engine is started on BENCH_ENGINE_PORT, default
 * 9260, and stopped after), BENCH_PREFIX (bench-geo), BENCH_SALS (200000), BENCH_SECONDS (20),
 * BENCH_WARMUP_SECONDS (5), BENCH_ROUNDS (2: direct, API, direct, API), BENCH_CONNECTIONS (16), BENCH_PROXIMITY (5000), BENCH_POSTCODES (200),
 * BENCH_RELOAD=1 to rebuild the data, BENCH_DROP=1 to delete it afterwards.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { createServer } from 'node:net';
import { cpus, loadavg, totalmem } from 'node:os';
import { join } from 'node:path';
import { parse } from 'csv-parse/sync';
import pino from 'pino';
import { startEngine, stopEngine } from '../local-engine/local-engine.ts';
import { createEngine, type Engine } from '../src/engine/index.ts';
import type { ServiceFull } from '../src/hsds/index.ts';
import { pageWindow } from '../src/index-mapping/search.query.ts';
import { buildServiceAtLocationSearch } from '../src/index-mapping/service-at-location-search.query.ts';
import { writeReadIndices } from '../src/ingest/publish/read-indices.writer.ts';
import { generateDataset } from '../src/synthetic/generate.ts';
import { type FakePostcodesIo, startFakePostcodesIo } from '../test/support/fake-postcodes-io.ts';

// ---------------------------------------------------------------------------------------------
// autocannon ships no types: the part used here.

type Histogram = { average: number; p50: number; p90: number; p99: number; max: number; total?: number };
type AutocannonResult = {
  latency: Histogram;
  requests: Histogram;
  throughput: Histogram;
  duration: number;
  errors: number;
  timeouts: number;
  non2xx: number;
  statusCodeStats?: Record<string, { count: number }>;
};
type RawRequest = { method?: string; path?: string; body?: string; headers?: Record<string, string> };
type AutocannonOptions = {
  url: string;
  connections: number;
  duration: number;
  requests: {
    method?: string;
    headers?: Record<string, string>;
    setupRequest: (r: RawRequest) => RawRequest;
  }[];
};
const autocannon = createRequire(import.meta.url)('autocannon') as (
  options: AutocannonOptions,
) => Promise<AutocannonResult>;

// ---------------------------------------------------------------------------------------------
// Settings

const env = process.env;
const settings = {
  prefix: env.BENCH_PREFIX ?? 'bench-geo',
  sals: Number(env.BENCH_SALS ?? 200_000),
  seconds: Number(env.BENCH_SECONDS ?? 20),
  warmupSeconds: Number(env.BENCH_WARMUP_SECONDS ?? 5),
  rounds: Number(env.BENCH_ROUNDS ?? 2),
  connections: Number(env.BENCH_CONNECTIONS ?? 16),
  proximity: Number(env.BENCH_PROXIMITY ?? 5_000),
  postcodes: Number(env.BENCH_POSTCODES ?? 200),
  enginePort: Number(env.BENCH_ENGINE_PORT ?? 9260),
  reload: env.BENCH_RELOAD === '1',
  drop: env.BENCH_DROP === '1',
  // The API's default page (DEFAULT_PER_PAGE), which the direct query asks for too.
  perPage: 50,
};

const root = join(import.meta.dirname, '..');
const logger = pino({ level: 'warn' });
const log = (message: string) => console.error(`[bench:geo] ${message}`);

// ---------------------------------------------------------------------------------------------
// Data

type SalCounts = { total: number; covered: number };

async function countServiceAtLocations(engine: Engine): Promise<SalCounts> {
  const index = engine.name('service_at_locations');
  try {
    const total = await engine.client.count({ index });
    const covered = await engine.client.count({ index, body: { query: { term: { has_coverage: true } } } });
    return { total: total.body.count, covered: covered.body.count };
  } catch {
    return { total: 0, covered: 0 };
  }
}

const hasGeoJsonArea = (areas: ServiceFull['service_areas']) =>
  (areas ?? []).some((a) => a.extent_type === 'geojson' && typeof a.extent === 'string');

/**
 * Services in generator order until `target` service-at-locations have a service area (their
 * own, else their service's), counted as the document builder decides coverage.
 */
function* servicesUntilCovered(services: Iterable<ServiceFull>, target: number, counts: SalCounts) {
  for (const service of services) {
    if (counts.covered >= target) return;
    yield service;
    const serviceHasArea = hasGeoJsonArea(service.service_areas);
    for (const sal of service.service_at_locations ?? []) {
      counts.total += 1;
      if (serviceHasArea || hasGeoJsonArea(sal.service_areas)) counts.covered += 1;
    }
  }
}

async function ensureData(
  engine: Engine,
): Promise<SalCounts & { loadedSeconds?: number; services?: number }> {
  const existing = await countServiceAtLocations(engine);
  if (!settings.reload && existing.covered >= settings.sals) {
    log(`reusing ${existing.total} service_at_locations (${existing.covered} with a service area)`);
    return existing;
  }
  // About 1.1 covered service-at-locations per service: ask for plenty and stop at the target.
  const dataset = generateDataset({ services: Math.ceil(settings.sals * 1.5), seed: 'bench-geo' });
  const generated: SalCounts = { total: 0, covered: 0 };
  let services = 0;
  const started = Date.now();
  async function* feed() {
    for (const service of servicesUntilCovered(
      dataset.services() as Iterable<ServiceFull>,
      settings.sals,
      generated,
    )) {
      services += 1;
      yield service;
    }
  }
  log(`loading until ${settings.sals} service_at_locations have a service area...`);
  let lastReport = 0;
  let lastPhase = '';
  const report = await writeReadIndices(
    engine,
    { services: feed(), taxonomies: dataset.taxonomies, taxonomyTerms: dataset.taxonomyTerms },
    {
      onProgress: (progress) => {
        if (Date.now() - lastReport < 5_000 && progress.phase === lastPhase) return;
        lastReport = Date.now();
        lastPhase = progress.phase;
        log(
          `  ${progress.phase}: ${progress.services} services, ${progress.documents} documents, ${Math.round((Date.now() - started) / 1000)} s`,
        );
      },
    },
  );
  const loadedSeconds = (Date.now() - started) / 1000;
  log(`loaded ${services} services in ${loadedSeconds.toFixed(0)} s: ${JSON.stringify(report.counts)}`);
  return { ...(await countServiceAtLocations(engine)), loadedSeconds, services };
}

// ---------------------------------------------------------------------------------------------
// Postcodes

type Postcode = { postcode: string; lat: number; lon: number };

/** Live Aberdeen postcodes from the ONSPD fixture, a deterministic spread of `count`. */
function pickPostcodes(count: number): Postcode[] {
  const rows = parse(readFileSync(join(root, 'test/fixtures/postcodes/onspd-sample.csv'), 'utf8'), {
    columns: true,
    skip_empty_lines: true,
  }) as { pcds: string; lat: string; long: string; doterm: string }[];
  const live = rows
    .filter((r) => r.doterm === '' && r.lat !== '99.999999' && r.pcds.startsWith('AB'))
    .map((r) => ({ postcode: r.pcds, lat: Number(r.lat), lon: Number(r.long) }));
  const step = live.length / count;
  return Array.from({ length: Math.min(count, live.length) }, (_, i) => live[Math.floor(i * step)]!);
}

// ---------------------------------------------------------------------------------------------
// The API as a child process

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}

async function startApi(
  engineUrl: string,
  fake: FakePostcodesIo,
): Promise<{ url: string; child: ChildProcess }> {
  const port = await freePort();
  const child = spawn(process.execPath, [join(root, 'src/cli/main.ts'), 'serve'], {
    cwd: root,
    env: {
      ...env,
      OPENSEARCH_URL: engineUrl,
      INDEX_PREFIX: settings.prefix,
      PORT: String(port),
      HOST: '127.0.0.1',
      // A log line per request at info would measure the terminal; warnings and errors still show.
      LOG_LEVEL: 'warn',
      GEOCODERS: 'postcodes-io',
      POSTCODES_IO_URL: fake.url,
    },
    stdio: ['ignore', 'inherit', 'inherit'],
  });
  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 60_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`the API exited with code ${child.exitCode}`);
    try {
      if ((await fetch(`${url}/health`)).ok) return { url, child };
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 250));
  }
  child.kill('SIGTERM');
  throw new Error('the API did not become healthy within 60 s');
}

function stopApi(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    const timer = setTimeout(() => child.kill('SIGKILL'), 15_000);
    child.once('exit', () => {
      clearTimeout(timer);
      resolve();
    });
    child.kill('SIGTERM');
  });
}

// ---------------------------------------------------------------------------------------------
// Scenarios

/** The body the gateway's searchPage sends for page 1 (src/engine/search.ts), from the same builder. */
function directSearchBody(place: Postcode): string {
  const request = buildServiceAtLocationSearch(
    { geo: { point: { lat: place.lat, lon: place.lon }, proximityMetres: settings.proximity } },
    'list',
  );
  return JSON.stringify({
    query: request.query,
    sort: request.sort,
    ...pageWindow(1, settings.perPage),
    track_total_hits: true,
    _source: { includes: [...request.source] },
  });
}

function directPath(engine: Engine): string {
  const filterPath = ['hits.total.value', 'hits.hits._source', 'hits.hits.sort'].join(',');
  return `/${engine.name('service_at_locations')}/_search?ignore_unavailable=true&filter_path=${filterPath}`;
}

const apiPath = (place: Postcode) =>
  `/service_at_locations?postcode=${encodeURIComponent(place.postcode)}&proximity=${settings.proximity}`;

/** Requests that walk the postcodes in turn (each connection takes the next one). */
function rotating<T>(items: readonly T[], apply: (request: RawRequest, item: T) => RawRequest) {
  let next = 0;
  return (request: RawRequest) => {
    const item = items[next]!;
    next = (next + 1) % items.length;
    return apply(request, item);
  };
}

type Scenario = {
  name: string;
  url: string;
  seconds: number;
  request: AutocannonOptions['requests'][number];
};

async function run(scenario: Scenario): Promise<AutocannonResult> {
  const result = await autocannon({
    url: scenario.url,
    connections: settings.connections,
    duration: scenario.seconds,
    requests: [scenario.request],
  });
  if (result.errors > 0 || result.non2xx > 0) {
    throw new Error(
      `${scenario.name}: ${result.errors} errors, ${result.non2xx} non-2xx (${JSON.stringify(result.statusCodeStats)})`,
    );
  }
  return result;
}

type Figures = { medianMs: number; p99Ms: number; requestsPerSecond: number; requests: number };

function figuresOf(result: AutocannonResult): Figures {
  const requests = result.requests.total ?? Math.round(result.requests.average * result.duration);
  return {
    medianMs: result.latency.p50,
    p99Ms: result.latency.p99,
    requestsPerSecond: Math.round((requests / result.duration) * 10) / 10,
    requests,
  };
}

/** One request each way for the same postcode: the API and the direct query must agree. */
async function checkSameAnswer(apiUrl: string, engineUrl: string, engine: Engine, place: Postcode) {
  const api = (await (await fetch(`${apiUrl}${apiPath(place)}`)).json()) as {
    total_items: number;
    contents: { id: string }[];
  };
  const direct = (await (
    await fetch(`${engineUrl}${directPath(engine)}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: directSearchBody(place),
    })
  ).json()) as { hits: { total: { value: number }; hits: { _source: { record: { id: string } } }[] } };
  const directIds = direct.hits.hits.map((h) => h._source.record.id);
  const apiIds = api.contents.map((c) => c.id);
  if (api.total_items !== direct.hits.total.value || JSON.stringify(apiIds) !== JSON.stringify(directIds)) {
    throw new Error(`the API and the direct query disagree for ${place.postcode}`);
  }
  return api.total_items;
}

// ---------------------------------------------------------------------------------------------

async function main() {
  let engineUrl = env.OPENSEARCH_URL;
  let startedEngine = false;
  if (!engineUrl) {
    log(`no OPENSEARCH_URL: starting the local engine on port ${settings.enginePort}`);
    const status = await startEngine({ port: settings.enginePort, heap: env.ENGINE_HEAP ?? '2g' });
    engineUrl = status.url;
    startedEngine = status.started;
  }
  const engine = createEngine(
    { url: engineUrl, prefix: settings.prefix, requestTimeoutMs: 300_000, shards: 1, replicas: 0 },
    logger,
  );
  const fake = await startFakePostcodesIo();
  let api: { url: string; child: ChildProcess } | undefined;
  try {
    const data = await ensureData(engine);
    const places = pickPostcodes(settings.postcodes);
    api = await startApi(engineUrl, fake);
    fake.resetRequests();
    const matches = await checkSameAnswer(api.url, engineUrl, engine, places[0]!);
    log(`API and engine agree (${places[0]!.postcode}: ${matches} matches within ${settings.proximity} m)`);

    const bodies = places.map(directSearchBody);
    const direct = (seconds: number): Scenario => ({
      name: 'engine direct',
      url: engineUrl,
      seconds,
      request: {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        setupRequest: rotating(bodies, (r, body) => ({ ...r, path: directPath(engine), body })),
      },
    });
    const viaApi = (seconds: number): Scenario => ({
      name: 'API',
      url: api!.url,
      seconds,
      request: {
        method: 'GET',
        setupRequest: rotating(places, (r, place) => ({ ...r, path: apiPath(place) })),
      },
    });

    // Each postcode once: the geocoder cache fills, and postcodes.io sees one call per postcode.
    for (const place of places) {
      const res = await fetch(`${api.url}${apiPath(place)}`);
      if (!res.ok) throw new Error(`priming ${place.postcode}: HTTP ${res.status}`);
      await res.arrayBuffer();
    }
    const primingGeocodes = fake.requests;
    log(`warming up (${settings.warmupSeconds} s each)...`);
    await run(direct(settings.warmupSeconds));
    await run(viaApi(settings.warmupSeconds));
    fake.resetRequests();

    // Rounds alternate, so drift in the machine's load (and the engine's caches) hits both sides.
    const rounds: { loadAverage: number; direct: Figures; api: Figures; medianRatio: number }[] = [];
    for (let round = 1; round <= settings.rounds; round++) {
      const loadAverage = Math.round(loadavg()[0]! * 100) / 100;
      log(`round ${round}: the engine directly for ${settings.seconds} s...`);
      const directFigures = figuresOf(await run(direct(settings.seconds)));
      log(`round ${round}: the API for ${settings.seconds} s...`);
      const apiFigures = figuresOf(await run(viaApi(settings.seconds)));
      const medianRatio = Math.round((apiFigures.medianMs / directFigures.medianMs) * 100) / 100;
      rounds.push({ loadAverage, direct: directFigures, api: apiFigures, medianRatio });
    }
    const measuredGeocodes = fake.requests;
    const apiRequests = rounds.reduce((sum, r) => sum + r.api.requests, 0);
    const sumOf = (pick: (r: (typeof rounds)[number]) => number) =>
      rounds.reduce((sum, r) => sum + pick(r), 0);
    const overallRatio =
      Math.round((sumOf((r) => r.api.medianMs) / sumOf((r) => r.direct.medianMs)) * 100) / 100;

    const results = {
      when: new Date().toISOString(),
      machine: {
        cpus: cpus().length,
        cpu: cpus()[0]?.model,
        memoryGb: Math.round(totalmem() / 2 ** 30),
        node: process.version,
      },
      engine: engineUrl,
      dataset: data,
      settings,
      query: `/service_at_locations?postcode=<${places.length} rotating>&proximity=${settings.proximity}`,
      rounds,
      medianRatio: overallRatio,
      target: 'API median within 1.3x of the direct query',
      geocoderHttpCalls: {
        distinctPostcodes: places.length,
        whilePriming: primingGeocodes,
        duringMeasuredRuns: measuredGeocodes,
        apiRequestsDuringMeasuredRuns: apiRequests,
      },
    };

    console.log('');
    console.log(
      `postcode search, ${data.covered.toLocaleString('en-GB')} of ${data.total.toLocaleString('en-GB')} service_at_locations with a service area; ${settings.connections} connections, ${settings.seconds} s a run`,
    );
    console.log('round  scenario        median ms   p99 ms    req/s  requests  load avg');
    for (const [index, r] of rounds.entries()) {
      for (const [name, f] of [
        ['engine direct', r.direct],
        ['API', r.api],
      ] as const) {
        console.log(
          `${String(index + 1).padEnd(6)} ${name.padEnd(15)} ${String(f.medianMs).padStart(9)} ${String(f.p99Ms).padStart(8)} ${String(f.requestsPerSecond).padStart(8)} ${String(f.requests).padStart(9)} ${String(r.loadAverage).padStart(9)}`,
        );
      }
      console.log(`       median ratio API / direct: ${r.medianRatio}`);
    }
    console.log(`median ratio over all rounds: ${overallRatio} (target <= 1.3)`);
    console.log(
      `postcodes.io calls: ${primingGeocodes} while priming (${places.length} distinct postcodes), ${measuredGeocodes} during ${apiRequests} measured API requests`,
    );
    const dir = join(root, 'bench/results');
    mkdirSync(dir, { recursive: true });
    const file = join(dir, `geo-${results.when.replace(/[:.]/g, '-')}.json`);
    writeFileSync(file, `${JSON.stringify(results, null, 2)}\n`);
    console.log(`results: ${file}`);
  } finally {
    if (api) await stopApi(api.child);
    await fake.close();
    if (settings.drop) {
      await engine.client.indices
        .delete({ index: `${settings.prefix}-*`, expand_wildcards: 'all' })
        .catch(() => {});
    }
    await engine.close();
    if (startedEngine) await stopEngine({ port: settings.enginePort });
  }
}

await main();
