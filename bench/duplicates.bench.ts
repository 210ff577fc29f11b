/**
 * `npm run bench:duplicates`: precision and recall of duplicate detection (src/duplicates) on a
 * labelled synthetic set (bench/lib/duplicate-set.ts): known duplicate pairs across two sources,
 * worded, cased and formatted differently, and look-alikes that are not duplicates (branches of one
 * charity in other towns). Detection runs as `hsds duplicates` runs it, on the records' features
 * (toCandidate, then detectDuplicates: blocking and scoring), without an engine: what is measured
 * is the matching, not the reading of the served records.
 *
 * Prints the counts and writes them as JSON to bench/results/. Options: --services N (synthetic services in source a; 3000), --duplicates N (600),
 * --look-alikes N (600), --seed S, --threshold T (the default threshold), --json.
 */
import { parseArgs } from 'node:util';
import { DEFAULT_THRESHOLD, detectDuplicates, pairKey, toCandidate } from '../src/duplicates/index.ts';
import { buildDuplicateSet } from './lib/duplicate-set.ts';
import { writeResults } from './lib/results.ts';

const { values } = parseArgs({
  options: {
    services: { type: 'string', default: '3000' },
    duplicates: { type: 'string', default: '600' },
    'look-alikes': { type: 'string', default: '600' },
    seed: { type: 'string', default: 'duplicates-bench' },
    threshold: { type: 'string', default: String(DEFAULT_THRESHOLD) },
    json: { type: 'boolean', default: false },
  },
});

const options = {
  services: Number(values.services),
  duplicates: Number(values.duplicates),
  lookAlikes: Number(values['look-alikes']),
  seed: values.seed,
};
const threshold = Number(values.threshold);

const built = Date.now();
const set = buildDuplicateSet(options);
const candidates = set.records.map(({ source, record }) => toCandidate('service', record, [source]));
const buildMs = Date.now() - built;

const started = performance.now();
const report = detectDuplicates(candidates, { threshold });
const detectMs = Math.round(performance.now() - started);

const truth = new Set(set.duplicates.map(([a, b]) => pairKey('service', a, b)));
const lookAlike = new Set(set.lookAlikes.map(([a, b]) => pairKey('service', a, b)));
let truePositives = 0;
let lookAlikesListed = 0;
const falsePositives: typeof report.pairs = [];
for (const pair of report.pairs) {
  const key = pairKey('service', pair.ids[0], pair.ids[1]);
  if (truth.has(key)) truePositives += 1;
  else {
    falsePositives.push(pair);
    if (lookAlike.has(key)) lookAlikesListed += 1;
  }
}
const found = new Set(report.pairs.map((p) => pairKey('service', p.ids[0], p.ids[1])));
const missed = set.duplicates.filter(([a, b]) => !found.has(pairKey('service', a, b)));
const precision = report.pairs.length === 0 ? 1 : truePositives / report.pairs.length;
const recall = truePositives / truth.size;

const result = {
  set: {
    records: candidates.length,
    duplicate_pairs: truth.size,
    look_alike_pairs: lookAlike.size,
    seed: options.seed,
  },
  threshold,
  listed: report.pairs.length,
  true_positives: truePositives,
  false_positives: falsePositives.length,
  look_alikes_listed: lookAlikesListed,
  missed: missed.length,
  precision: Math.round(precision * 10000) / 10000,
  recall: Math.round(recall * 10000) / 10000,
  compared_pairs: report.compared,
  skipped_blocks: report.skippedBlocks,
  build_ms: buildMs,
  detect_ms: detectMs,
};

const file = writeResults('duplicates', result);
if (values.json) {
  console.log(JSON.stringify(result, null, 2));
} else {
  console.log(
    `duplicates: ${result.set.records} records, ${result.set.duplicate_pairs} known duplicate pairs, ${result.set.look_alike_pairs} look-alike pairs (branches in other towns)`,
  );
  console.log(
    `threshold ${threshold}: listed ${result.listed}, true ${truePositives}, false ${falsePositives.length} (${lookAlikesListed} look-alikes), missed ${missed.length}`,
  );
  console.log(`precision ${(precision * 100).toFixed(2)}%  recall ${(recall * 100).toFixed(2)}%`);
  console.log(
    `compared ${report.compared} pairs (${report.skippedBlocks} blocks too common to use) in ${detectMs} ms`,
  );
  console.log(`results: ${file}`);
  const byId = new Map(candidates.map((c) => [c.id, c]));
  for (const pair of falsePositives.slice(0, 5)) {
    console.log(`  false: ${pair.score} ${pair.records.map((r) => r.name).join(' | ')}`);
  }
  for (const [a, b] of missed.slice(0, 5)) {
    const x = byId.get(a)!;
    const y = byId.get(b)!;
    const { scorePair } = await import('../src/duplicates/detect.ts');
    console.log(`  missed: ${scorePair(x, y).score} ${x.name} | ${y.name}`);
  }
}
