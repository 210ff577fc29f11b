/**
 * `npm run bench:search-cost`: where a new search's engine time goes, on a directory an earlier
 * `BENCH_KEEP=1 npm run bench:scale -- --services N` kept (prefix BENCH_PREFIX, default
 * `bench-scale`; engine OPENSEARCH_URL, or the local one on ENGINE_PORT, started if needed).
 *
 * Each search is built as the API builds it (its words, what it means, the page's sort and exact
 * total), then sent in forms that each leave one part out, interleaved round by round with the
 * engine's request cache off, so a shared machine's load falls on every form alike:
 *
 * - `page`: what GET /services?search=...&per_page=50 asks (stored list items, exact total);
 * - `no fetch`: the same hits, none of them read (what reading 50 list items costs);
 * - `count only`: the exact total and no hits (matching without scoring or sorting);
 * - `score sort`: the page sorted by score alone, no name and id tie-break;
 * - `score sort, total to 1,000`: the same with an inexact total, so the engine may skip
 *   documents that cannot reach the page (block-max WAND);
 * - `words only`: the page without the meaning's clauses (needs' phrases, terms, crisis).
 *
 * Figures are the engine's own `took`, median over rounds, summed over the searches.
 */
import { parseArgs } from 'node:util';
import pino from 'pino';
import { F } from '../src/index-mapping/fields.ts';
import type { QueryDsl } from '../src/index-mapping/search.query.ts';
import { searchPageBody } from '../src/index-mapping/search.query.ts';
import { buildServiceSearch } from '../src/index-mapping/service-search.query.ts';
import { openUnderstanding } from '../src/semantic/index.ts';
import { openBenchEngine, serverEngine } from './lib/bench-engine.ts';
import { formatTable, median, writeResults } from './lib/results.ts';

const { values } = parseArgs({
  options: {
    rounds: { type: 'string', default: '15' },
    'per-page': { type: 'string', default: '50' },
  },
});
const ROUNDS = Number(values.rounds);
const PER_PAGE = Number(values['per-page']);
const PREFIX = process.env.BENCH_PREFIX ?? 'bench-scale';
// bench:scale's eight words, and texts of several words (the vocabulary and the needs at work).
const SEARCHES = [
  'food',
  'advice',
  'housing',
  'health',
  'support',
  'debt',
  'carers',
  'youth',
  'food bank',
  'help with debt',
  'mental health support',
  'somewhere to sleep',
];

type Form = { name: string; body: (page: QueryDsl, wordsOnly: QueryDsl) => QueryDsl };
const FORMS: Form[] = [
  { name: 'page', body: (page) => page },
  { name: 'no fetch', body: (page) => ({ ...page, stored_fields: '_none_' }) },
  { name: 'count only', body: (page) => ({ ...page, size: 0 }) },
  { name: 'score sort', body: (page) => ({ ...page, sort: ['_score'] }) },
  {
    name: 'score sort, total to 1,000',
    body: (page) => ({ ...page, sort: ['_score'], track_total_hits: 1000 }),
  },
  { name: 'words only', body: (_, wordsOnly) => wordsOnly },
];

const log = (line: string) => console.log(line);
const bench = await openBenchEngine(log);
try {
  const { config, engine } = serverEngine(bench.url, PREFIX);
  const understanding = await openUnderstanding(config, engine, pino({ level: 'warn' }));
  const index = engine.name('services');
  const count = (await (await fetch(`${bench.url}/${index}/_count`)).json()) as { count?: number };
  if (!count.count)
    throw new Error(`nothing served under ${index}: run BENCH_KEEP=1 npm run bench:scale first`);
  log(`${index}: ${count.count} services; ${ROUNDS} rounds, ${PER_PAGE} a page`);

  const fetchItems = { _source: false, stored_fields: [F.listItem] };
  const searches = [];
  for (const text of SEARCHES) {
    const meaning = await understanding?.understand(text);
    const full = buildServiceSearch({ search: text, meaning }, 'list');
    // The words as the API matches them (held words taken as typed, the correction searched too),
    // without the needs, terms and crisis the text means.
    const words = buildServiceSearch(
      {
        search: text,
        meaning: meaning && {
          needs: [],
          terms: [],
          ...(meaning.heldWords ? { heldWords: meaning.heldWords } : {}),
          ...(meaning.correction ? { correction: meaning.correction } : {}),
        },
      },
      'list',
    );
    searches.push({
      text,
      page: searchPageBody(full, { from: 0, size: PER_PAGE }, fetchItems),
      wordsOnly: searchPageBody(words, { from: 0, size: PER_PAGE }, fetchItems),
    });
  }
  const took = async (body: QueryDsl): Promise<{ ms: number; total: number }> => {
    const response = await fetch(`${bench.url}/${index}/_search?request_cache=false`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    const answer = (await response.json()) as { took: number; hits: { total?: { value: number } } };
    if (!response.ok)
      throw new Error(`engine answered ${response.status}: ${JSON.stringify(answer).slice(0, 300)}`);
    return { ms: answer.took, total: answer.hits.total?.value ?? 0 };
  };

  // times[search][form]: the engine's took in each round.
  const times = searches.map(() => FORMS.map(() => [] as number[]));
  const totals = searches.map(() => 0);
  for (let round = 0; round < ROUNDS; round++) {
    for (const [s, search] of searches.entries()) {
      for (const [f, form] of FORMS.entries()) {
        const { ms, total } = await took(form.body(search.page, search.wordsOnly));
        times[s]![f]!.push(ms);
        if (form.name === 'page') totals[s] = total;
      }
    }
  }
  const medians = times.map((byForm) => byForm.map(median));
  const sums = FORMS.map((_, f) => medians.reduce((sum, row) => sum + row[f]!, 0));
  const page = sums[0]!;
  console.log(
    `\n${formatTable([
      ['search', 'matches', ...FORMS.map((f) => f.name)],
      ...searches.map((s, i) => [s.text, totals[i]!, ...medians[i]!.map((ms) => ms.toFixed(0))]),
      ['sum of medians (ms)', '', ...sums.map((ms) => ms.toFixed(0))],
      ['against page', '', ...sums.map((ms) => (ms / page).toFixed(2))],
    ])}`,
  );
  const file = writeResults('search-cost', {
    index,
    documents: count.count,
    rounds: ROUNDS,
    perPage: PER_PAGE,
    searches: searches.map((s, i) => ({
      text: s.text,
      matches: totals[i],
      tookMs: Object.fromEntries(FORMS.map((f, j) => [f.name, medians[i]![j]])),
    })),
  });
  console.log(`results: ${file}`);
  await understanding?.close();
  await engine.close();
} finally {
  await bench.stop();
}
