/**
 * The judged sets `bench:relevance` scores, pure:
 * - `dev`, the development set (./corpus.ts, ./judgments.ts): rules, weights and the vocabulary
 *   are tuned on it;
 * - `heldout`, the held-out set (./heldout/): never tuned on; its figures say how far that tuning
 *   generalises to services and words nobody tuned on;
 * and the sets on real feeds (./real/real-sets.ts): `real` (Bristol, Miami) and `real-heldout`
 * (North Lincolnshire).
 */
import { CORPUS_SERVICES, CORPUS_TERMS } from './corpus.ts';
import { HELDOUT_SERVICES, HELDOUT_TERMS } from './heldout/corpus.ts';
import { HELDOUT_JUDGMENTS, HELDOUT_QUERY_CLASSES } from './heldout/judgments.ts';
import { JUDGMENTS, QUERY_CLASSES } from './judgments.ts';
import type { JudgedQuery, QueryScore, Summary } from './metrics.ts';
import { summarise } from './metrics.ts';
import { REAL_SETS, type RealSet, realSetsNamed } from './real/real-sets.ts';
import type { Corpus } from './records.ts';

export type SetName = 'dev' | 'heldout';

export type JudgedSet = {
  name: SetName;
  title: string;
  corpus: Corpus;
  classes: readonly string[];
  judgments: readonly JudgedQuery[];
};

export const DEV_SET: JudgedSet = {
  name: 'dev',
  title: 'development set (tuned on)',
  corpus: { namespace: 'relevance', terms: CORPUS_TERMS, services: CORPUS_SERVICES },
  classes: QUERY_CLASSES,
  judgments: JUDGMENTS,
};

export const HELDOUT_SET: JudgedSet = {
  name: 'heldout',
  title: 'held-out set (never tuned on)',
  corpus: { namespace: 'relevance-heldout', terms: HELDOUT_TERMS, services: HELDOUT_SERVICES },
  classes: HELDOUT_QUERY_CLASSES,
  judgments: HELDOUT_JUDGMENTS,
};

/** `--set dev|heldout|both` (default both): the sets to run, development first. */
export function selectSets(option: string | undefined): JudgedSet[] {
  switch (option ?? 'both') {
    case 'dev':
      return [DEV_SET];
    case 'heldout':
      return [HELDOUT_SET];
    case 'both':
      return [DEV_SET, HELDOUT_SET];
    default:
      throw new Error(`--set ${option}: expected dev, heldout or both`);
  }
}

const SET_NAMES = ['all', 'both', 'dev', 'heldout', 'real', 'real-heldout', ...REAL_SETS.map((s) => s.name)];

/**
 * `--set` (default all): a comma-separated list of `all` (every set), `both` (the two synthetic
 * ones), `dev`, `heldout`, `real` (the real development sets), `real-heldout`, or one real set by
 * name; synthetic sets first, each set once, in its list's order.
 */
export function chooseSets(option: string | undefined): { synthetic: JudgedSet[]; real: RealSet[] } {
  const synthetic = new Set<JudgedSet>();
  const real = new Set<RealSet>();
  for (const name of (option ?? 'all').split(',').map((n) => n.trim())) {
    if (name === 'all') {
      for (const s of selectSets('both')) synthetic.add(s);
      for (const s of REAL_SETS) real.add(s);
    } else if (name === 'both' || name === 'dev' || name === 'heldout')
      for (const s of selectSets(name)) synthetic.add(s);
    else {
      const named = realSetsNamed(name);
      if (!named) throw new Error(`--set ${option}: expected a list of ${SET_NAMES.join(', ')}`);
      for (const s of named) real.add(s);
    }
  }
  return {
    synthetic: [DEV_SET, HELDOUT_SET].filter((s) => synthetic.has(s)),
    real: REAL_SETS.filter((s) => real.has(s)),
  };
}

/** What is wrong with a set's judgments: a service key its corpus lacks, a class it does not list. */
export function judgmentProblems(set: JudgedSet): string[] {
  const keys = new Set(set.corpus.services.map(([key]) => key));
  const problems: string[] = [];
  for (const judgment of set.judgments) {
    if (!set.classes.includes(judgment.class))
      problems.push(`${set.name}: judgment "${judgment.query}" has unknown class ${judgment.class}`);
    for (const key of Object.keys(judgment.grades))
      if (!keys.has(key))
        problems.push(`${set.name}: judgment "${judgment.query}" names unknown service ${key}`);
  }
  return problems;
}

export type SetSummary = { classes: Record<string, Summary>; answerable: Summary; overall: Summary };

/** A set's scores by class (in the set's order, classes with no query left out), its answerable queries and all. */
export function summariseSet(classes: readonly string[], scores: readonly QueryScore[]): SetSummary {
  const present = classes.filter((c) => scores.some((s) => s.class === c));
  return {
    classes: Object.fromEntries(present.map((c) => [c, summarise(scores.filter((s) => s.class === c))])),
    answerable: summarise(scores.filter((s) => s.recall !== undefined)),
    overall: summarise(scores),
  };
}
