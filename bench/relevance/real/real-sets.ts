/**
 * The judged sets on real feeds `bench:relevance` scores, pure (issue 51):
 * - `real`: the development sets, Bristol (./bristol.judgments.ts) and Miami
 *   (./miami.judgments.ts): search is tuned on them;
 * - `real-heldout`: North Lincolnshire (../real-heldout/), frozen, never tuned on: its figures say
 *   how far the tuning generalises to a whole real directory.
 * The feeds themselves are not committed (licence unknown); a set whose feed is absent is skipped.
 */
import {
  NORTH_LINCOLNSHIRE_CLASSES,
  NORTH_LINCOLNSHIRE_FEED,
  NORTH_LINCOLNSHIRE_JUDGMENTS,
} from '../real-heldout/north-lincolnshire.judgments.ts';
import { BRISTOL_FEED, BRISTOL_JUDGMENTS } from './bristol.judgments.ts';
import { MIAMI_FEED, MIAMI_JUDGMENTS } from './miami.judgments.ts';
import { type RealFeed, type RealJudgment, servedServiceId } from './real-feed.ts';

/**
 * The classes of issue 51, in the order reports print them: a service's or organization's name,
 * a plain need, a first-person situation, a need with a constraint (a place, a language, an age
 * or group), crisis (risk to life, abuse, homeless tonight), local words and abbreviations, and
 * out-of-scope queries (shopping, leisure) that should find nothing.
 */
export const REAL_QUERY_CLASSES = [
  'name',
  'need',
  'first_person',
  'constraint',
  'crisis',
  'local_words',
  'none',
] as const;

export type RealGroup = 'real' | 'real-heldout';

export type RealSet = {
  name: string;
  group: RealGroup;
  title: string;
  feed: RealFeed;
  classes: readonly string[];
  judgments: readonly RealJudgment[];
  /** The fewest queries the set may have (issue 51: 150 per development set, 100 held out). */
  minimumQueries: number;
};

export const BRISTOL_SET: RealSet = {
  name: 'bristol',
  group: 'real',
  title: 'Bristol, ORUK (real development set, tuned on)',
  feed: BRISTOL_FEED,
  classes: REAL_QUERY_CLASSES,
  judgments: BRISTOL_JUDGMENTS,
  minimumQueries: 150,
};

export const MIAMI_SET: RealSet = {
  name: 'miami',
  group: 'real',
  title: 'Miami 211, HSDS 1.1 tabular (real development set, tuned on)',
  feed: MIAMI_FEED,
  classes: REAL_QUERY_CLASSES,
  judgments: MIAMI_JUDGMENTS,
  minimumQueries: 150,
};

export const NORTH_LINCOLNSHIRE_SET: RealSet = {
  name: 'north-lincolnshire',
  group: 'real-heldout',
  title: 'North Lincolnshire, ORUK (real held-out set, frozen, never tuned on)',
  feed: NORTH_LINCOLNSHIRE_FEED,
  classes: NORTH_LINCOLNSHIRE_CLASSES,
  judgments: NORTH_LINCOLNSHIRE_JUDGMENTS,
  minimumQueries: 100,
};

export const REAL_SETS: readonly RealSet[] = [BRISTOL_SET, MIAMI_SET, NORTH_LINCOLNSHIRE_SET];

/** The real sets a `--set` value names: a group (`real`, `real-heldout`) or one set by name. */
export function realSetsNamed(option: string): RealSet[] | undefined {
  const sets = REAL_SETS.filter((s) => s.group === option || s.name === option);
  return sets.length ? sets : undefined;
}

/**
 * What is wrong with a real set's judgments: a class outside its list or one with no query, too
 * few queries, the same query twice (ignoring case and spacing), a grade that is not 1 or 2, an
 * id that is blank or padded, an answerable query without a grade-2 service, an out-of-scope
 * query with a grade.
 */
export function realSetProblems(set: RealSet): string[] {
  const problems: string[] = [];
  const at = (j: RealJudgment) => `${set.name}: "${j.query}"`;
  if (set.judgments.length < set.minimumQueries)
    problems.push(`${set.name}: ${set.judgments.length} queries, fewer than ${set.minimumQueries}`);
  for (const c of set.classes)
    if (!set.judgments.some((j) => j.class === c)) problems.push(`${set.name}: no query of class ${c}`);
  const seen = new Set<string>();
  for (const j of set.judgments) {
    const normal = j.query.trim().toLowerCase().replace(/\s+/g, ' ');
    if (seen.has(normal)) problems.push(`${at(j)} is judged twice`);
    seen.add(normal);
    if (!set.classes.includes(j.class)) problems.push(`${at(j)} has unknown class ${j.class}`);
    const entries = Object.entries(j.grades);
    for (const [id, grade] of entries) {
      if (grade !== 1 && grade !== 2) problems.push(`${at(j)} grades ${id} ${grade}, not 1 or 2`);
      if (id === '' || id !== id.trim()) problems.push(`${at(j)} names a blank or padded id "${id}"`);
    }
    if (j.class === 'none' && entries.length)
      problems.push(`${at(j)} is out of scope but grades ${entries.length} services`);
    if (j.class !== 'none' && !entries.some(([, g]) => g === 2))
      problems.push(`${at(j)} has no grade-2 service`);
  }
  return problems;
}

/** A set's judgments with grades by the ids the API serves, and the publisher's id of each. */
export function servedJudgments(set: RealSet): {
  judgments: { query: string; class: string; grades: Record<string, number> }[];
  sourceIdOf: Map<string, string>;
} {
  const sourceIdOf = new Map<string, string>();
  const judgments = set.judgments.map((j) => {
    const grades: Record<string, number> = {};
    for (const [sourceId, grade] of Object.entries(j.grades)) {
      const served = servedServiceId(sourceId);
      sourceIdOf.set(served, sourceId);
      grades[served] = grade;
    }
    return { query: j.query, class: j.class, grades };
  });
  return { judgments, sourceIdOf };
}
