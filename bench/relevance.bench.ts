/**
 * `npm run bench:relevance`: how good `search` is, by measure, on judged sets (bench/relevance/
 * sets.ts): two synthetic ones, the development set (bench/relevance/corpus.ts, judgments.ts),
 * which rules, weights and the vocabulary are tuned on, then the held-out set
 * (bench/relevance/heldout/), never tuned on, so the second says how far the tuning generalises;
 * and the sets on real feeds (bench/relevance/real/real-sets.ts): the development sets on Bristol
 * and Miami and the frozen held-out set on North Lincolnshire. Each synthetic corpus is loaded
 * into its own throw-away index prefix on a real engine; each real feed present in the real-data
 * folder (REALDATA_DIR, default bench/.data/realdata; the feeds are never committed) is imported
 * there through the project's own import, as an operator would, and a feed absent is skipped with
 * a message (CI has none). The real API is asked `/services?search=...` for every query of its
 * judgments; nDCG@10, recall@10, the zero-result rate (answerable queries that found
 * nothing) and the false-positive rate (`none` queries that found anything) are printed per query
 * class, for the answerable queries and overall, then side by side per set. Results are written
 * to bench/results/ (git-ignored).
 *
 * - The engine: OPENSEARCH_URL, else the local engine on ENGINE_PORT (started if needed, stopped
 *   after only if started here).
 * - The API is built in this process from the environment's configuration (so SYNONYMS_FILE and
 *   the other search settings apply), as the server builds it.
 * - `--set` (default all): a comma-separated list of all, both (the synthetic sets), dev,
 *   heldout, real (Bristol and Miami), real-heldout (North Lincolnshire), or one real set by name; `--queries` prints every query with its score and
 *   first results; `--class NAME` only that class (of the sets that have it).
 * - RELEVANCE_KEEP=1 imports each real feed once under a fixed prefix (bench-relevance-keep-<set>)
 *   and keeps it, so a query-time change is measured again in seconds; drop those indices after
 *   a change to what an import writes. RELEVANCE_KEEP_TAG=<tag> keeps them under
 *   bench-relevance-keep-<tag><set> instead, so a branch that changes what an import writes keeps its own.
 * - `--service-meaning` also scores rankings search does not serve, to say what a vector per
 *   service would be worth (./relevance/service-meaning.ts): services by meaning alone, the better
 *   of that and today's per query, and the two fused (synthetic sets only).
 */
import { createHash, randomBytes } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import pino from 'pino';
import { createApp } from '../src/api/app.ts';
import { createGeocoder } from '../src/api/geocoding.ts';
import type { Config } from '../src/config.ts';
import type { Engine } from '../src/engine/index.ts';
import { importAndReindex } from '../src/ingest/pipeline.ts';
import { writeReadIndices } from '../src/ingest/read-indices.writer.ts';
import { createEmbedder, type Embedder, similarity } from '../src/semantic/embedder.ts';
import { openUnderstanding } from '../src/semantic/index.ts';
import { type BenchEngine, dropIndices, openBenchEngine, serverEngine } from './lib/bench-engine.ts';
import { formatTable, writeResults } from './lib/results.ts';
import { K, type QueryScore, type Summary, scoreQuery } from './relevance/metrics.ts';
import { type RealSet, realSetProblems, servedJudgments } from './relevance/real/real-sets.ts';
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
  chooseSets,
  type JudgedSet,
  judgmentProblems,
  type SetSummary,
  summariseSet,
} from './relevance/sets.ts';

const log = (line: string) => process.stderr.write(`${line}\n`);
const { values: options } = parseArgs({
  options: {
    queries: { type: 'boolean', default: false },
    class: { type: 'string' },
    set: { type: 'string', default: 'all' },
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

/** The API as the server builds it over `engine`, with search by meaning as the server runs it. */
async function searchApp(config: Config, engine: Engine) {
  // Search by meaning as the server runs it (SEARCH_MEANING, CRISIS_TAXONOMY_TERMS).
  const understanding = await openUnderstanding(config, engine, pino({ level: 'warn' }));
  return createApp({
    config,
    engine,
    geocoder: createGeocoder(config, engine),
    logger: pino({ level: 'silent' }),
    ...(understanding ? { understanding } : {}),
  });
}

type Page = { total_items: number; contents: { id: string; name?: string }[] };

/** The first page of `/services?search=query`. */
async function search(app: Awaited<ReturnType<typeof searchApp>>, set: string, query: string): Promise<Page> {
  const response = await app.request(`/services?search=${encodeURIComponent(query)}&per_page=${K}`);
  if (response.status !== 200)
    throw new Error(`${set} "${query}": HTTP ${response.status} ${await response.text()}`);
  return (await response.json()) as Page;
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
    const app = await searchApp(config, engine);
    const judgments = set.judgments.filter((j) => !options.class || j.class === options.class);
    const scores: QueryScore[] = [];
    const vectors = embedder && (await serviceVectors(set.corpus, embedder));
    const byRanking =
      vectors &&
      (Object.fromEntries(SERVICE_MEANING_RANKINGS.map((r) => [r, []])) as unknown as ServiceMeaningScores);
    for (const judgment of judgments) {
      const page = await search(app, set.name, judgment.query);
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

const REALDATA_DIR = process.env.REALDATA_DIR ?? new URL('./.data/realdata/', import.meta.url).pathname;

/** SHA-256 of a file, hex. */
const sha256Of = (file: string) => createHash('sha256').update(readFileSync(file)).digest('hex');

type RealScores = { prefix: string; scores: QueryScore[]; importSeconds: number; missing: string[] };

/**
 * Imports a real feed into its own index prefix with the project's import (and reindex), then asks
 * the API each of its set's (selected) queries. Results are read by the publisher's ids (a served
 * service nobody judged is `?` and its name); `missing` lists the judged services the import does
 * not serve (they count as not found).
 */
async function scoreRealSet(set: RealSet, location: string, served: BenchEngine): Promise<RealScores> {
  const keep = process.env.RELEVANCE_KEEP === '1';
  const prefix = keep
    ? `bench-relevance-keep-${process.env.RELEVANCE_KEEP_TAG ?? ''}${set.name}`
    : `bench-relevance-${set.name}-${randomBytes(3).toString('hex')}`;
  const { config, engine } = serverEngine(served.url, prefix);
  try {
    const started = performance.now();
    const kept =
      keep &&
      (await fetch(`${served.url}/${prefix}-services/_count`).then(
        (r) => r.ok,
        () => false,
      ));
    if (!kept)
      await importAndReindex(engine, location, { reportFile: false, sourceName: `relevance-${set.name}` });
    const importSeconds = (performance.now() - started) / 1000;
    const app = await searchApp(config, engine);
    const { judgments, sourceIdOf } = servedJudgments(set);
    const missing: string[] = [];
    for (const [id, sourceId] of sourceIdOf) {
      const response = await app.request(`/services/${id}`);
      if (response.status === 404) missing.push(sourceId);
      else if (response.status !== 200) throw new Error(`${set.name} service ${id}: HTTP ${response.status}`);
    }
    const scores: QueryScore[] = [];
    for (const judgment of judgments.filter((j) => !options.class || j.class === options.class)) {
      const page = await search(app, set.name, judgment.query);
      const ids = page.contents.map((s) => s.id);
      const score = scoreQuery(judgment, ids, page.total_items);
      score.top = page.contents.map((s) => sourceIdOf.get(s.id) ?? `?${(s.name ?? s.id).slice(0, 24)}`);
      scores.push(score);
    }
    return { prefix, scores, importSeconds, missing };
  } finally {
    if (!keep) await dropIndices(engine);
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

function printSet(heading: string, scores: QueryScore[], summary: SetSummary): void {
  log(heading);
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
  const { synthetic: sets, real } = chooseSets(options.set);
  const problems = [...sets.flatMap(judgmentProblems), ...real.flatMap(realSetProblems)];
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
      printSet(
        `${set.name}: ${set.title}, ${set.corpus.services.length} services, ${scores.length} queries`,
        scores,
        summary,
      );
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
    for (const set of real) {
      const location = join(REALDATA_DIR, set.feed.file);
      if (!existsSync(location)) {
        log(`${set.name}: skipped, no feed at ${location} (${set.feed.source}; never committed)\n`);
        continue;
      }
      if (options.class && !set.classes.includes(options.class)) {
        log(`${set.name}: no class ${options.class} (${set.classes.join(', ')})`);
        continue;
      }
      const checksum = sha256Of(join(REALDATA_DIR, set.feed.checksumFile ?? set.feed.file));
      if (checksum !== set.feed.sha256)
        log(
          `${set.name}: WARNING the feed is not the file the judgments were written on (sha256 ${checksum})`,
        );
      const { prefix, scores, importSeconds, missing } = await scoreRealSet(set, location, served);
      const summary = summariseSet(set.classes, scores);
      printSet(
        `${set.name}: ${set.title}, ${set.feed.source}, imported in ${importSeconds.toFixed(0)} s, ${scores.length} queries` +
          (missing.length
            ? `\n  ${missing.length} judged services not served by the import (counted as not found): ${missing.slice(0, 8).join(' ')}${missing.length > 8 ? ' ...' : ''}`
            : ''),
        scores,
        summary,
      );
      overall.push(row(set.name, summary.overall, 'both'));
      results[set.name] = {
        title: set.title,
        source: set.feed.source,
        sha256: checksum,
        prefix,
        importSeconds,
        missing,
        ...summary,
        queries: scores,
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
