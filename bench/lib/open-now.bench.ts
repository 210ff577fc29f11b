/**
 * `BENCH_ONLY=open npm run bench:api`: what `open_now` costs a postcode search. The same
 * `/service_at_locations?postcode=...&proximity=5000` requests with and without `open_now=true`,
 * in alternating turns of the same API process on the same data (so both see the same moment's
 * load), and the same pair straight to the engine one query at a time (its own `took`), with the
 * instants of open_at spread over a week. Target: the open_now p50 within 1.5x of the one without.
 */
import { readFileSync } from 'node:fs';
import type { Engine } from '../../src/engine/index.ts';
import { countPostcodes } from '../../src/engine/index.ts';
import { pageWindow } from '../../src/index-mapping/search.query.ts';
import { buildServiceAtLocationSearch } from '../../src/index-mapping/service-at-location-search.query.ts';
import { importPostcodeCsv } from '../../src/ingest/import/postcode-import.ts';
import { quantile } from './quantile.ts';

// Real UK postcode centroids (ONSPD sample, Open Government Licence) where the synthetic directory is.
const POSTCODES = new URL('../../test/fixtures/postcodes/onspd-sample.csv', import.meta.url).pathname;

type Load = {
  url: string;
  requests: { setupRequest: (r: Record<string, unknown>) => Record<string, unknown> }[];
};
type Measured = { latencies: number[] };

const rotate = <T>(items: readonly T[]) => {
  let i = 0;
  return () => items[i++ % items.length]!;
};

const median = (values: number[]) =>
  quantile(
    [...values].sort((a, b) => a - b),
    0.5,
  );

/** Live postcodes of the sample with their centroids, a spread of them. */
function samplePostcodes(count: number): { postcode: string; lat: number; lon: number }[] {
  const rows = readFileSync(POSTCODES, 'utf8').trim().split('\n').slice(1);
  const live = rows
    .map((line) => line.split(','))
    .filter((cells) => cells[4] === '' && cells[1] !== '')
    .map((cells) => ({ postcode: cells[0]!, lat: Number(cells[1]), lon: Number(cells[2]) }));
  const step = Math.max(1, Math.floor(live.length / count));
  return live.filter((_, i) => i % step === 0).slice(0, count);
}

export async function benchOpenNow<M extends Measured>(options: {
  engine: Engine;
  engineUrl: string;
  apiUrl: string;
  run: (load: Load, seconds: number) => Promise<M>;
  seconds: number;
  rounds: number;
  log: (line: string) => void;
}) {
  const { engine, apiUrl, run, log } = options;
  if (((await countPostcodes(engine).catch(() => 0)) ?? 0) === 0) await importPostcodeCsv(engine, POSTCODES);
  const postcodes = samplePostcodes(200);
  const PROXIMITY = 5000;
  const load = (open: boolean): Load => {
    const next = rotate(postcodes);
    return {
      url: apiUrl,
      requests: [
        {
          setupRequest: (r) => ({
            ...r,
            path: `/service_at_locations?postcode=${encodeURIComponent(next().postcode)}&proximity=${PROXIMITY}${open ? '&open_now=true' : ''}`,
          }),
        },
      ],
    };
  };
  // Warm both, then alternate.
  await run(load(false), 3);
  await run(load(true), 3);
  const without: number[] = [];
  const withOpen: number[] = [];
  let hitsWithout = 0;
  let hitsOpen = 0;
  for (let round = 0; round < options.rounds; round++) {
    without.push(...(await run(load(false), options.seconds / options.rounds)).latencies);
    withOpen.push(...(await run(load(true), options.seconds / options.rounds)).latencies);
  }

  // The engine's own time, query by query, alternating, over a week of instants.
  const index = engine.name('service_at_locations');
  const week = Array.from({ length: 7 * 8 }, (_, i) => Date.UTC(2026, 2, 2) + i * 3 * 3_600_000);
  const nextInstant = rotate(week);
  const tookWithout: number[] = [];
  const tookOpen: number[] = [];
  for (const { lat, lon } of postcodes) {
    for (const open of [false, true]) {
      const request = buildServiceAtLocationSearch(
        {
          geo: { point: { lat, lon }, proximityMetres: PROXIMITY },
          ...(open ? { open: { instant: nextInstant(), directoryZone: 'Europe/London' } } : {}),
        },
        'list',
      );
      const { body } = await engine.client.search({
        index,
        body: {
          query: request.query,
          sort: request.sort,
          ...pageWindow(1, 50),
          _source: false,
          track_total_hits: true,
        },
      } as never);
      const result = body as { took: number; hits: { total: { value: number } } };
      (open ? tookOpen : tookWithout).push(result.took);
      if (open) hitsOpen += result.hits.total.value;
      else hitsWithout += result.hits.total.value;
    }
  }
  const api = { withoutMs: median(without), openNowMs: median(withOpen) };
  const direct = { withoutMs: median(tookWithout), openNowMs: median(tookOpen) };
  const verdict = {
    api,
    apiRatio: Math.round((api.openNowMs / api.withoutMs) * 100) / 100,
    engine: direct,
    engineMeanMs: {
      without: tookWithout.reduce((a, b) => a + b, 0) / tookWithout.length,
      openNow: tookOpen.reduce((a, b) => a + b, 0) / tookOpen.length,
    },
    meanMatches: { without: hitsWithout / postcodes.length, openAt: hitsOpen / postcodes.length },
    requests: { without: without.length, openNow: withOpen.length },
    target: 'open_now p50 within 1.5x of the same query without it',
  };
  log(`open_now: ${JSON.stringify(verdict)}`);
  return verdict;
}
