/**
 * The search extensions' part of `npm run bench:api`, on the same API process and data:
 * - `/services?search=` with and without the search vocabulary: the served indices are reloaded
 *   with no rules and with the shipped ones in turns (`reloadVocabulary`: clones, no reindex), the
 *   same queries each time (the benchmark's sampled term names and the judged set's queries), so
 *   the ratio is measured in one run, interleaved;
 * - the same, straight to the engine, one query at a time: the engine's own time (`took`) for each
 *   query against the served services index (the shipped rules, after the last turn) and its
 *   rollback version (no rules), alternating query by query, so both see the same moment's load:
 *   the steadiest measure of what the vocabulary costs on a shared machine;
 * - `/suggest?q=`: prefixes of service and term names and of outcodes, against a target of
 *   20 ms median, with the benchmark's connections (a saturated machine: the time includes
 *   queueing) and with one (what one person typing waits), in turns.
 */
import type { Engine } from '../../src/engine/index.ts';
import { countPostcodes } from '../../src/engine/index.ts';
import { previousAliasOf } from '../../src/engine/indices.ts';
import { reloadVocabulary } from '../../src/engine/vocabulary.ts';
import { pageWindow } from '../../src/index-mapping/search.query.ts';
import { buildServiceSearch } from '../../src/index-mapping/service-search.query.ts';
import { shippedVocabulary } from '../../src/index-mapping/vocabulary-files.ts';
import { importPostcodeCsv } from '../../src/ingest/import/postcode-import.ts';
import { JUDGMENTS } from '../relevance/judgments.ts';

// Real UK postcode centroids (ONSPD sample, Open Government Licence), so /suggest also looks places up.
const POSTCODES = new URL('../../test/fixtures/postcodes/onspd-sample.csv', import.meta.url).pathname;

type Load = {
  url: string;
  connections?: number;
  requests: { setupRequest: (r: Record<string, unknown>) => Record<string, unknown> }[];
};
type Run<M> = (load: Load, seconds: number) => Promise<M>;

const rotate = <T>(items: readonly T[]) => {
  let i = 0;
  return () => items[i++ % items.length]!;
};

export async function benchSearchExtensions<M>(options: {
  engine: Engine;
  apiUrl: string;
  searches: readonly string[];
  seconds: number;
  rounds: number;
  run: Run<M>;
  combine: (parts: M[]) => M;
  log: (line: string) => void;
}): Promise<{
  withoutVocabulary: M;
  withVocabulary: M;
  engineTook: EngineTook;
  suggest: M;
  suggestOneClient: M;
}> {
  const { engine, apiUrl, run, log } = options;
  if (((await countPostcodes(engine).catch(() => 0)) ?? 0) === 0) await importPostcodeCsv(engine, POSTCODES);
  const queries = [...options.searches, ...JUDGMENTS.map((j) => j.query)];
  const nextSearch = rotate(queries);
  const search: Load = {
    url: apiUrl,
    requests: [
      { setupRequest: (r) => ({ ...r, path: `/services?search=${encodeURIComponent(nextSearch())}` }) },
    ],
  };
  const without: M[] = [];
  const withVocabulary: M[] = [];
  const turn = options.seconds / options.rounds;
  for (let round = 0; round < options.rounds; round++) {
    for (const [rules, into] of [
      [[], without],
      [shippedVocabulary(), withVocabulary],
    ] as const) {
      const started = Date.now();
      await reloadVocabulary(engine, rules, { purpose: 'bench:api' });
      log(
        `  vocabulary of ${rules.length} rules reloaded in ${((Date.now() - started) / 1000).toFixed(1)} s`,
      );
      await run(search, 2); // warm the new indices' caches
      into.push(await run(search, turn));
    }
  }
  // The last turn served the shipped rules: the rollback version is the one without.
  const engineTook = await engineTookWithAndWithout(engine, queries, options.rounds);
  log(
    `  engine took, mean ms: with vocabulary ${engineTook.with.meanMs}, without ${engineTook.without.meanMs}`,
  );
  const prefixes = [
    ...queries.flatMap((q) => [q.slice(0, 3), q.slice(0, 5), q.slice(0, 8)]),
    'ab1',
    'ab10',
    'ab11 5',
    'AB24',
  ].filter((p) => p.trim().length > 0);
  const nextPrefix = rotate(prefixes);
  const suggest: Load = {
    url: apiUrl,
    requests: [{ setupRequest: (r) => ({ ...r, path: `/suggest?q=${encodeURIComponent(nextPrefix())}` }) }],
  };
  await run(suggest, 2);
  const suggestRuns: M[] = [];
  const oneClientRuns: M[] = [];
  for (let round = 0; round < options.rounds; round++) {
    suggestRuns.push(await run(suggest, turn));
    oneClientRuns.push(await run({ ...suggest, connections: 1 }, turn));
  }
  return {
    withoutVocabulary: options.combine(without),
    withVocabulary: options.combine(withVocabulary),
    engineTook,
    suggest: options.combine(suggestRuns),
    suggestOneClient: options.combine(oneClientRuns),
  };
}

type TookStats = { queries: number; medianMs: number; meanMs: number; p90Ms: number };
export type EngineTook = { with: TookStats; without: TookStats };

/** Each query `rounds` times against the served index and its rollback, in alternating order. */
async function engineTookWithAndWithout(
  engine: Engine,
  queries: readonly string[],
  rounds: number,
): Promise<EngineTook> {
  const served = engine.name('services');
  const rollback = previousAliasOf(engine, 'services');
  const took: Record<string, number[]> = { [served]: [], [rollback]: [] };
  let n = 0;
  for (let round = 0; round < rounds; round++)
    for (const query of queries) {
      const request = buildServiceSearch({ search: query }, 'list');
      const body = {
        query: request.query,
        sort: request.sort,
        ...pageWindow(1, 50),
        track_total_hits: true,
        _source: { includes: request.source },
      };
      for (const index of n++ % 2 === 0 ? [served, rollback] : [rollback, served]) {
        const { body: response } = await engine.client.search({
          index,
          request_cache: false,
          filter_path: 'took',
          body,
        } as never);
        took[index]!.push((response as unknown as { took: number }).took);
      }
    }
  const stats = (values: number[]): TookStats => {
    const sorted = [...values].sort((a, b) => a - b);
    const at = (q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? 0;
    const mean = sorted.reduce((a, b) => a + b, 0) / Math.max(sorted.length, 1);
    return {
      queries: sorted.length,
      medianMs: at(0.5),
      meanMs: Math.round(mean * 100) / 100,
      p90Ms: at(0.9),
    };
  };
  return { with: stats(took[served]!), without: stats(took[rollback]!) };
}
