/**
 * The search extensions' part of `npm run bench:api`, on the same API process and data:
 * - `/services?search=` with and without the search vocabulary: the served indices are reloaded
 *   with no rules and with the shipped ones in turns (`reloadVocabulary`: clones, no reindex), the
 *   same queries each time (the benchmark's sampled term names and the judged set's queries), so
 *   the ratio is measured in one run, interleaved;
 * - `/suggest?q=`: prefixes of service and term names and of outcodes, against a target of
 *   20 ms median.
 */
import type { Engine } from '../../src/engine/index.ts';
import { countPostcodes } from '../../src/engine/index.ts';
import { reloadVocabulary, shippedVocabulary } from '../../src/engine/vocabulary.ts';
import { importPostcodeCsv } from '../../src/ingest/postcode-import.ts';
import { JUDGMENTS } from '../relevance/judgments.ts';

// Real UK postcode centroids (ONSPD sample, Open Government Licence), so /suggest also looks places up.
const POSTCODES = new URL('../../test/fixtures/postcodes/onspd-sample.csv', import.meta.url).pathname;

type Load = {
  url: string;
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
}): Promise<{ withoutVocabulary: M; withVocabulary: M; suggest: M }> {
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
  for (let round = 0; round < options.rounds; round++) suggestRuns.push(await run(suggest, turn));
  return {
    withoutVocabulary: options.combine(without),
    withVocabulary: options.combine(withVocabulary),
    suggest: options.combine(suggestRuns),
  };
}
