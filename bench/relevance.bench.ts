/**
 * `npm run bench:relevance`: how good `search` is, by measure. Loads the relevance corpus
 * (bench/relevance/corpus.ts, 160 services) into a throw-away index prefix on a real engine, asks
 * the real API `/services?search=...` for every query of the judged set (bench/relevance/
 * judgments.ts), and prints nDCG@10, recall@10 and the zero-result rate per query class and
 * overall. Results are written to bench/results/ (git-ignored).
 *
 * - The engine: OPENSEARCH_URL, else the local engine on ENGINE_PORT (started if needed, stopped
 *   after only if started here).
 * - The API is built in this process from the environment's configuration (so SYNONYMS_FILE and
 *   the other search settings apply), as the server builds it.
 * - `--queries` prints every query with its score and first results; `--class NAME` only that class.
 */
import { randomBytes } from 'node:crypto';
import { loadavg } from 'node:os';
import { parseArgs } from 'node:util';
import pino from 'pino';
import { createApp } from '../src/api/app.ts';
import { createGeocoder } from '../src/api/geocoding.ts';
import { loadConfig } from '../src/config.ts';
import { createEngine } from '../src/engine/index.ts';
import { loadVocabulary } from '../src/engine/vocabulary.ts';
import { writeReadIndices } from '../src/ingest/read-indices.writer.ts';
import { benchEngineSettings, dropIndices, openBenchEngine } from './lib/bench-engine.ts';
import { formatTable, writeResults } from './lib/results.ts';
import { CORPUS_SERVICES } from './relevance/corpus.ts';
import { JUDGMENTS, QUERY_CLASSES } from './relevance/judgments.ts';
import { K, type QueryScore, scoreQuery, summarise } from './relevance/metrics.ts';
import { CORPUS_TAXONOMY, corpusServices, corpusTerms, keyOfServiceId } from './relevance/records.ts';

const log = (line: string) => process.stderr.write(`${line}\n`);
const { values: options } = parseArgs({
  options: { queries: { type: 'boolean', default: false }, class: { type: 'string' } },
});

function checkJudgments(): void {
  const keys = new Set(CORPUS_SERVICES.map(([key]) => key));
  for (const judgment of JUDGMENTS)
    for (const key of Object.keys(judgment.grades))
      if (!keys.has(key)) throw new Error(`judgment "${judgment.query}" names unknown service ${key}`);
}

async function main(): Promise<void> {
  checkJudgments();
  const served = await openBenchEngine(log);
  const prefix = `bench-relevance-${randomBytes(3).toString('hex')}`;
  const config = loadConfig({
    ...process.env,
    LOG_LEVEL: 'silent',
    OPENSEARCH_URL: served.url,
    INDEX_PREFIX: prefix,
  });
  // The vocabulary the configuration asks for (SYNONYMS_FILE, SEARCH_VOCABULARY=none), as a server's.
  const synonyms = loadVocabulary({
    shipped: config.SEARCH_VOCABULARY === 'shipped',
    file: config.SYNONYMS_FILE,
  });
  const engine = createEngine(
    { ...benchEngineSettings(served.url, prefix), synonyms },
    pino({ level: 'warn' }),
  );
  try {
    await writeReadIndices(engine, {
      services: corpusServices(),
      taxonomies: [CORPUS_TAXONOMY],
      taxonomyTerms: corpusTerms(),
    });
    const logger = pino({ level: 'silent' });
    const app = createApp({
      config,
      engine,
      geocoder: createGeocoder(config, engine),
      logger,
    });
    const keys = keyOfServiceId();
    const judgments = JUDGMENTS.filter((j) => !options.class || j.class === options.class);
    const scores: QueryScore[] = [];
    for (const judgment of judgments) {
      const response = await app.request(
        `/services?search=${encodeURIComponent(judgment.query)}&per_page=${K}`,
      );
      if (response.status !== 200)
        throw new Error(`${judgment.query}: HTTP ${response.status} ${await response.text()}`);
      const page = (await response.json()) as { total_items: number; contents: { id: string }[] };
      scores.push(
        scoreQuery(
          judgment,
          page.contents.map((s) => keys.get(s.id) ?? '?'),
          page.total_items,
        ),
      );
    }
    const classes = QUERY_CLASSES.filter((c) => scores.some((s) => s.class === c));
    const summaries = Object.fromEntries(
      classes.map((c) => [c, summarise(scores.filter((s) => s.class === c))]),
    );
    const overall = summarise(scores);
    const pct = (x: number) => `${(x * 100).toFixed(1)}%`;
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
    const rows = [
      ...classes.map((c) => {
        const s = summaries[c]!;
        return [
          c,
          s.queries,
          s.ndcg.toFixed(3),
          c === 'none' ? '-' : s.recall.toFixed(3),
          c === 'none' ? pct(s.falseHitRate) : pct(s.zeroResultRate),
        ];
      }),
      [
        'overall',
        overall.queries,
        overall.ndcg.toFixed(3),
        overall.recall.toFixed(3),
        pct(overall.zeroResultRate),
      ],
    ];
    log(
      formatTable([
        ['class', 'queries', `nDCG@${K}`, `recall@${K}`, 'zero results (none: any result)'],
        ...rows,
      ]),
    );
    log(
      `load average ${loadavg()
        .map((x) => x.toFixed(2))
        .join(' ')}`,
    );
    const file = writeResults('relevance', {
      prefix,
      overall,
      classes: summaries,
      queries: scores,
      loadavg: loadavg(),
    });
    log(`written to ${file}`);
  } finally {
    await dropIndices(engine);
    await engine.close();
    await served.stop();
  }
}

await main();
