/**
 * `npm run bench:api -- --writes`: sustained writes of single services through the write API
 * while readers run, and the readers' latency with and without the writer, in one run.
 *
 * - Data: a synthetic directory imported through the records store (the write API works on it),
 *   BENCH_WRITE_SERVICES services (default 10,000) under `${BENCH_PREFIX}-writes`, reused when
 *   the count matches.
 * - Readers: autocannon, 16 connections, a mix of /services?search= and /services/{id}.
 * - Writer: one client PUTs a service after another (each a real edit: a new name), as a
 *   council's CRM syncing its changes would; a write's time is from sending it to its answer,
 *   which comes when every read endpoint serves the change, checked by a GET of the service
 *   right after (a stale answer is counted).
 * - Turns: readers alone, then readers with the writer, ROUNDS times, so load from elsewhere on
 *   a shared machine falls on both.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { newToken } from '../../src/api/http/auth.ts';
import type { Engine } from '../../src/engine/index.ts';
import { importAndReindex } from '../../src/ingest/publish/pipeline.ts';
import { generateDataset } from '../../src/synthetic/generate.ts';
import { writeDataset } from '../../src/synthetic/write-dataset.ts';
import { quantile } from './quantile.ts';

type Measured = { latencies: number[]; seconds: number };

export type WritesBench = {
  engine: Engine;
  services: number;
  seconds: number;
  rounds: number;
  /** Starts the API with extra environment, answers its URL and a stop function. */
  startApi: (env: Record<string, string>) => Promise<{ url: string; stop: () => void }>;
  /** Reader load against the API for `seconds` (autocannon), the latencies of every response. */
  read: (apiUrl: string, paths: () => string, seconds: number) => Promise<Measured>;
  log: (message: string) => void;
};

const summary = (values: number[], seconds: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  const r = (n: number) => Math.round(n * 10) / 10;
  return {
    medianMs: r(quantile(sorted, 0.5)),
    p99Ms: r(quantile(sorted, 0.99)),
    perSecond: r(sorted.length / seconds),
    count: sorted.length,
  };
};

async function loadThroughStore(b: WritesBench): Promise<void> {
  const count = await b.engine.client
    .count({ index: b.engine.name('services') })
    .then((r) => r.body.count)
    .catch(() => 0);
  if (count === b.services) {
    b.log(`reusing ${count} services (records store and read indices)`);
    return;
  }
  b.log(`importing ${b.services} synthetic services through the records store (found ${count})...`);
  const dir = await mkdtemp(join(tmpdir(), 'bench-writes-'));
  try {
    await writeDataset(dir, generateDataset({ services: b.services, seed: 'bench-writes' }));
    const started = Date.now();
    await importAndReindex(b.engine, dir, { reportFile: false });
    b.log(`imported in ${((Date.now() - started) / 1000).toFixed(0)} s`);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

/** Service ids and names to read and to edit. */
async function sample(engine: Engine) {
  const { body } = await engine.client.search({
    index: engine.name('services'),
    body: {
      size: 1000,
      _source: ['id', 'name'],
      query: { function_score: { random_score: { seed: 7, field: '_seq_no' } } },
    } as Record<string, unknown>,
  });
  return (body.hits.hits as { _source: { id: string; name: string } }[]).map((h) => h._source);
}

/** One writer, a service after another, until `until`: each write's time to visible. */
async function writeUntil(apiUrl: string, token: string, ids: () => string, until: number, tag: string) {
  const latencies: number[] = [];
  let stale = 0;
  let failed = 0;
  let n = 0;
  while (Date.now() < until) {
    const id = ids();
    const current = (await (await fetch(`${apiUrl}/services/${id}`)).json()) as Record<string, unknown>;
    const name = `Edited ${tag} ${n++}`;
    const started = performance.now();
    const res = await fetch(`${apiUrl}/services/${id}`, {
      method: 'PUT',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
      body: JSON.stringify({ ...current, name }),
    });
    await res.arrayBuffer();
    const ms = performance.now() - started;
    if (res.status !== 200) {
      failed += 1;
      continue;
    }
    latencies.push(ms);
    const after = (await (await fetch(`${apiUrl}/services/${id}`)).json()) as { name?: string };
    if (after.name !== name) stale += 1;
  }
  return { latencies, stale, failed };
}

export async function benchWrites(b: WritesBench) {
  await loadThroughStore(b);
  const records = await sample(b.engine);
  const { token, entry } = newToken('bench-writer', ['write']);
  const api = await b.startApi({ API_TOKENS: entry, WRITE_RATE_LIMIT: '1000000' });
  try {
    let i = 0;
    const readerPaths = () => {
      const r = records[i++ % records.length]!;
      return i % 2 === 0
        ? `/services/${r.id}`
        : `/services?search=${encodeURIComponent(r.name.split(' ').slice(-2).join(' '))}`;
    };
    // The writer edits the second half of the sample; readers look at all of it.
    let w = 0;
    const half = records.slice(records.length / 2);
    const writeIds = () => half[w++ % half.length]!.id;
    b.log(`warming up (readers, then one write)...`);
    await b.read(api.url, readerPaths, 3);
    await writeUntil(api.url, token, writeIds, Date.now() + 2000, 'warm');

    const alone: Measured[] = [];
    const withWriter: Measured[] = [];
    const writes = { latencies: [] as number[], stale: 0, failed: 0, seconds: 0 };
    const turn = b.seconds / b.rounds;
    for (let round = 0; round < b.rounds; round++) {
      alone.push(await b.read(api.url, readerPaths, turn));
      const until = Date.now() + turn * 1000;
      const [readers, writer] = await Promise.all([
        b.read(api.url, readerPaths, turn),
        writeUntil(api.url, token, writeIds, until, `r${round}`),
      ]);
      withWriter.push(readers);
      writes.latencies.push(...writer.latencies);
      writes.stale += writer.stale;
      writes.failed += writer.failed;
      writes.seconds += turn;
    }
    const readersAlone = summary(
      alone.flatMap((m) => m.latencies),
      alone.reduce((n, m) => n + m.seconds, 0),
    );
    const readersWithWriter = summary(
      withWriter.flatMap((m) => m.latencies),
      withWriter.reduce((n, m) => n + m.seconds, 0),
    );
    const result = {
      services: b.services,
      seconds: b.seconds,
      loadAverage: loadavg(),
      writes: { ...summary(writes.latencies, writes.seconds), stale: writes.stale, failed: writes.failed },
      readersAlone,
      readersWithWriter,
      readerMedianRatio:
        Math.round((readersWithWriter.medianMs / Math.max(readersAlone.medianMs, 0.01)) * 100) / 100,
      readerP99Ratio: Math.round((readersWithWriter.p99Ms / Math.max(readersAlone.p99Ms, 0.01)) * 100) / 100,
    };
    return result;
  } finally {
    api.stop();
  }
}
