/**
 * `npm run bench:relevance`: how good `search` is, by measure, on two judged sets (bench/relevance/
 * sets.ts): the development set (bench/relevance/corpus.ts, judgments.ts), which rules, weights and
 * the vocabulary are tuned on, then the held-out set (bench/relevance/heldout/), never tuned on, so
 * the second says how far the tuning generalises. Each set's corpus is loaded into its own
 * throw-away index prefix on a real engine; the real API is asked `/services?search=...` for every
 * query of its judgments; nDCG@10, recall@10, the zero-result rate (answerable queries that found
 * nothing) and the false-positive rate (`none` queries that found anything) are printed per query
 * class, for the answerable queries and overall, then side by side per set. Results are written
 * to bench/results/ (git-ignored).
 *
 * - The engine: OPENSEARCH_URL, else the local engine on ENGINE_PORT (started if needed, stopped
 *   after only if started here).
 * - The API is built in this process from the environment's configuration (so SYNONYMS_FILE and
 *   the other search settings apply), as the server builds it.
 * - `--set dev|heldout|both` (default both); `--queries` prints every query with its score and
 *   first results; `--class NAME` only that class (of the sets that have it).
 * - `--service-meaning` also scores rankings search does not serve, to say what a vector per
 *   service would be worth (./relevance/service-meaning.ts): services by meaning alone, the better
 *   of that and today's per query, and the two fused.
 */
import { randomBytes } from 'node:crypto';
import { loadavg } from 'node:os';
import { parseArgs } from 'node:util';
import pino from 'pino';
import { createApp } from '../src/api/app.ts';
import { createGeocoder } from '../src/api/geocoding.ts';
import { writeReadIndices } from '../src/ingest/read-indices.writer.ts';
import { createEmbedder, type Embedder, similarity } from '../src/semantic/embedder.ts';
import { openUnderstanding } from '../src/semantic/index.ts';
import { type BenchEngine, dropIndices, openBenchEngine, serverEngine } from './lib/bench-engine.ts';
import { formatTable, writeResults } from './lib/results.ts';
import { K, type QueryScore, type Summary, scoreQuery } from './relevance/metrics.ts';
import type { Corpus } from './relevance/records.ts';
import { corpusRecords } from './relevance/records.ts';
import {
  betterOfTwo,
  fuseRankings,
  isSentence,
  rankByMeaning,
  SERVICE_MEANING_RANKINGS,
  type ServiceMeaningRanking,
} from './relevance/service-meaning.ts';
import {
  type JudgedSet,
  judgmentProblems,
  type SetSummary,
  selectSets,
  summariseSet,
} from './relevance/sets.ts';

const log = (line: string) => process.stderr.write(`${line}\n`);
const { values: options } = parseArgs({
  options: {
    queries: { type: 'boolean', default: false },
    class: { type: 'string' },
    set: { type: 'string', default: 'both' },
    'service-meaning': { type: 'boolean', default: false },
  },
});

type ServiceMeaningScores = Record<ServiceMeaningRanking, QueryScore[]>;

/** Each corpus service's vector: its name, description and taxonomy term names. */
async function serviceVectors(corpus: Corpus, embedder: Embedder): Promise<Map<string, Float32Array>> {
  const termNames = new Map(corpus.terms.map(([key, name]) => [key, name]));
  const vectors = new Map<string, Float32Array>();
  for (const [key, name, , description, terms] of corpus.services)
    vectors.set(
      key,
      await embedder.embed(`${name}. ${description} ${terms.map((t) => termNames.get(t)).join(', ')}`),
    );
  return vectors;
}

/** Loads a set's corpus into its own index prefix and asks the API each of its (selected) queries. */
async function scoreSet(
  set: JudgedSet,
  served: BenchEngine,
  embedder: Embedder | undefined,
): Promise<{ prefix: string; scores: QueryScore[]; byRanking?: ServiceMeaningScores }> {
  const prefix = `bench-relevance-${set.name}-${randomBytes(3).toString('hex')}`;
  const { config, engine } = serverEngine(served.url, prefix);
  try {
    const records = corpusRecords(set.corpus);
    await writeReadIndices(engine, {
      services: records.services,
      taxonomies: [records.taxonomy],
      taxonomyTerms: records.terms,
    });
    const logger = pino({ level: 'silent' });
    // Search by meaning as the server runs it (SEARCH_MEANING, CRISIS_TAXONOMY_TERMS).
    const understanding = await openUnderstanding(config, engine, pino({ level: 'warn' }));
    const app = createApp({
      config,
      engine,
      geocoder: createGeocoder(config, engine),
      logger,
      ...(understanding ? { understanding } : {}),
    });
    const judgments = set.judgments.filter((j) => !options.class || j.class === options.class);
    const scores: QueryScore[] = [];
    const vectors = embedder && (await serviceVectors(set.corpus, embedder));
    const byRanking =
      vectors &&
      (Object.fromEntries(SERVICE_MEANING_RANKINGS.map((r) => [r, []])) as unknown as ServiceMeaningScores);
    for (const judgment of judgments) {
      const response = await app.request(
        `/services?search=${encodeURIComponent(judgment.query)}&per_page=${K}`,
      );
      if (response.status !== 200)
        throw new Error(`${set.name} "${judgment.query}": HTTP ${response.status} ${await response.text()}`);
      const page = (await response.json()) as { total_items: number; contents: { id: string }[] };
      const today = page.contents.map((s) => records.keyOfServiceId.get(s.id) ?? '?');
      const score = scoreQuery(judgment, today, page.total_items);
      scores.push(score);
      if (embedder && vectors && byRanking) {
        const query = await embedder.embed(judgment.query.toLowerCase());
        const byMeaning = rankByMeaning(new Map([...vectors].map(([key, v]) => [key, similarity(query, v)])));
        const meaning = scoreQuery(judgment, byMeaning, byMeaning.length);
        const fused = fuseRankings(today, byMeaning);
        byRanking.today.push(score);
        byRanking['services by meaning'].push(meaning);
        byRanking['better of the two'].push(betterOfTwo(score, meaning));
        const fusedScore = scoreQuery(judgment, fused, Math.max(page.total_items, fused.length));
        byRanking.fused.push(fusedScore);
        byRanking['fused, sentences'].push(isSentence(judgment.query) ? fusedScore : score);
      }
    }
    return { prefix, scores, ...(byRanking ? { byRanking } : {}) };
  } finally {
    await dropIndices(engine);
    await engine.close();
  }
}

const pct = (x: number) => `${(x * 100).toFixed(1)}%`;
const HEADER = ['', 'queries', `nDCG@${K}`, `recall@${K}`, 'zero results', 'false positives'];

/** A row: answerable queries show recall and zero results, `none` queries false positives. */
function row(label: string, s: Summary, kind: 'answerable' | 'none' | 'both'): (string | number)[] {
  return [
    label,
    s.queries,
    s.ndcg.toFixed(3),
    kind === 'none' ? '-' : s.recall.toFixed(3),
    kind === 'none' ? '-' : pct(s.zeroResultRate),
    kind === 'answerable' ? '-' : pct(s.falseHitRate),
  ];
}

/** nDCG@10 per class of each ranking `--service-meaning` scores, and of the fused one's misses. */
function printServiceMeaning(set: JudgedSet, byRanking: ServiceMeaningScores): Record<string, SetSummary> {
  const summaries = Object.fromEntries(
    SERVICE_MEANING_RANKINGS.map((r) => [r, summariseSet(set.classes, byRanking[r])]),
  ) as Record<ServiceMeaningRanking, SetSummary>;
  const classes = [...Object.keys(summaries.today.classes), 'answerable', 'overall'];
  const of = (s: SetSummary, c: string) =>
    c === 'answerable' ? s.answerable : c === 'overall' ? s.overall : s.classes[c];
  log(`${set.name}, service-level meaning (nDCG@${K}; search unchanged):`);
  log(
    formatTable([
      ['class', ...SERVICE_MEANING_RANKINGS],
      ...classes.map((c) => [
        c,
        ...SERVICE_MEANING_RANKINGS.map((r) => of(summaries[r], c)?.ndcg.toFixed(3) ?? '-'),
      ]),
    ]),
  );
  const { fused } = summaries;
  log(
    `fused: zero results ${pct(fused.answerable.zeroResultRate)}, false positives ${pct(fused.overall.falseHitRate)}\n`,
  );
  return summaries;
}

function printSet(set: JudgedSet, scores: QueryScore[], summary: SetSummary): void {
  log(`${set.name}: ${set.title}, ${set.corpus.services.length} services, ${scores.length} queries`);
  if (options.queries) {
    const rows = scores.map((s) => [
      s.class,
      s.query,
      s.ndcg.toFixed(2),
      s.recall?.toFixed(2) ?? '-',
      s.total,
      s.top.slice(0, 4).join(' '),
    ]);
    log(formatTable([['class', 'query', 'ndcg', 'recall', 'total', 'first results'], ...rows]));
    log('');
  }
  const none = (c: string) => scores.every((s) => s.class !== c || s.recall === undefined);
  log(
    formatTable([
      ['class', ...HEADER.slice(1)],
      ...Object.entries(summary.classes).map(([c, s]) => row(c, s, none(c) ? 'none' : 'answerable')),
      row('answerable', summary.answerable, 'answerable'),
      row('overall', summary.overall, 'both'),
    ]),
  );
  log('');
}

async function main(): Promise<void> {
  const sets = selectSets(options.set);
  const problems = sets.flatMap(judgmentProblems);
  if (problems.length) throw new Error(problems.join('\n'));
  const served = await openBenchEngine(log);
  const embedder = options['service-meaning'] ? await createEmbedder() : undefined;
  const results: Record<string, unknown> = {};
  const overall: (string | number)[][] = [];
  try {
    for (const set of sets) {
      if (options.class && !set.classes.includes(options.class)) {
        log(`${set.name}: no class ${options.class} (${set.classes.join(', ')})`);
        continue;
      }
      const { prefix, scores, byRanking } = await scoreSet(set, served, embedder);
      const summary = summariseSet(set.classes, scores);
      printSet(set, scores, summary);
      const serviceMeaning = byRanking && printServiceMeaning(set, byRanking);
      overall.push(row(set.name, summary.overall, 'both'));
      results[set.name] = {
        title: set.title,
        prefix,
        services: set.corpus.services.length,
        ...summary,
        queries: scores,
        ...(serviceMeaning ? { serviceMeaning } : {}),
      };
    }
  } finally {
    await embedder?.close();
    await served.stop();
  }
  if (overall.length > 1) log(`${formatTable([['set', ...HEADER.slice(1)], ...overall])}\n`);
  log(
    `load average ${loadavg()
      .map((x) => x.toFixed(2))
      .join(' ')}`,
  );
  const file = writeResults('relevance', { sets: results, loadavg: loadavg() });
  log(`written to ${file}`);
}

await main();
