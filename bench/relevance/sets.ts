/**
 * The judged sets `bench:relevance` scores, pure:
 * - `dev`, the development set (./corpus.ts, ./judgments.ts): rules, weights and the vocabulary
 *   are tuned on it;
 * - `heldout`, the held-out set (./heldout/): never tuned on; its figures say how far that tuning
 *   generalises to services and words nobody tuned on.
 */
import { CORPUS_SERVICES, CORPUS_TERMS } from './corpus.ts';
import { HELDOUT_SERVICES, HELDOUT_TERMS } from './heldout/corpus.ts';
import { HELDOUT_JUDGMENTS, HELDOUT_QUERY_CLASSES } from './heldout/judgments.ts';
import { JUDGMENTS, QUERY_CLASSES } from './judgments.ts';
import type { JudgedQuery, QueryScore, Summary } from './metrics.ts';
import { summarise } from './metrics.ts';
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
