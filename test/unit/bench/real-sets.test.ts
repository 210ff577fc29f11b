import { describe, expect, it } from 'vitest';
import { servedServiceId } from '../../../bench/relevance/real/real-feed.ts';
import {
  BRISTOL_SET,
  MIAMI_SET,
  NORTH_LINCOLNSHIRE_SET,
  REAL_QUERY_CLASSES,
  REAL_SETS,
  type RealSet,
  realSetProblems,
  servedJudgments,
} from '../../../bench/relevance/real/real-sets.ts';
import { chooseSets } from '../../../bench/relevance/sets.ts';
import { migrateId } from '../../../src/ingest/migrate/legacy-ids.ts';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

describe('the judged sets on real feeds', () => {
  it.each(REAL_SETS.map((s) => [s.name, s] as const))(
    '%s: every class, enough queries, grades well formed, no query twice',
    (_, set) => {
      expect(realSetProblems(set)).toEqual([]);
      expect(set.classes).toEqual(REAL_QUERY_CLASSES);
    },
  );

  it('hold at least 150 queries per development set and 100 held out, with crisis and out-of-scope queries', () => {
    const count = (set: RealSet, c: string) => set.judgments.filter((j) => j.class === c).length;
    for (const set of [BRISTOL_SET, MIAMI_SET]) expect(set.judgments.length).toBeGreaterThanOrEqual(150);
    expect(NORTH_LINCOLNSHIRE_SET.judgments.length).toBeGreaterThanOrEqual(100);
    for (const set of REAL_SETS) {
      expect(count(set, 'crisis'), set.name).toBeGreaterThanOrEqual(15);
      expect(count(set, 'none'), set.name).toBeGreaterThanOrEqual(12);
    }
  });

  it('name services by the publisher ids of their feed: UUIDs in ORUK, numbers in the Miami 211', () => {
    for (const set of [BRISTOL_SET, NORTH_LINCOLNSHIRE_SET])
      for (const j of set.judgments) for (const id of Object.keys(j.grades)) expect(id).toMatch(UUID);
    for (const j of MIAMI_SET.judgments) for (const id of Object.keys(j.grades)) expect(id).toMatch(/^\d+$/);
  });

  it('record the feed each set was written on: repository@commit:path and a SHA-256', () => {
    for (const { feed } of REAL_SETS) {
      expect(feed.source).toMatch(/^[\w.-]+\/[\w.-]+@[0-9a-f]{7,40}:.+/);
      expect(feed.sha256).toMatch(/^[0-9a-f]{64}$/);
    }
  });

  it('report a class without a query, too few queries, a query twice, a bad grade, a graded out-of-scope query', () => {
    const set: RealSet = {
      ...BRISTOL_SET,
      classes: ['need', 'crisis', 'none'],
      minimumQueries: 4,
      judgments: [
        { query: 'food bank', class: 'need', grades: { a: 2 } },
        { query: ' Food  Bank', class: 'need', grades: { a: 1 } },
        { query: 'shoes', class: 'none', grades: { b: 3 } as unknown as Record<string, 1 | 2> },
      ],
    };
    expect(realSetProblems(set)).toEqual([
      'bristol: 3 queries, fewer than 4',
      'bristol: no query of class crisis',
      'bristol: " Food  Bank" is judged twice',
      'bristol: " Food  Bank" has no grade-2 service',
      'bristol: "shoes" grades b 3, not 1 or 2',
      'bristol: "shoes" is out of scope but grades 1 services',
    ]);
  });

  it('map publisher ids to the ids an import serves: UUIDs lower-cased, other ids to their UUID v5', () => {
    expect(servedServiceId('3121DD2F-3900-4C90-B529-4C265F026D6F')).toBe(
      '3121dd2f-3900-4c90-b529-4c265f026d6f',
    );
    expect(servedServiceId('136')).toBe(migrateId('service', '136'));
    const { judgments, sourceIdOf } = servedJudgments(MIAMI_SET);
    const first = MIAMI_SET.judgments[0]!;
    const [sourceId, grade] = Object.entries(first.grades)[0]!;
    expect(judgments[0]!.grades[servedServiceId(sourceId)]).toBe(grade);
    expect(sourceIdOf.get(servedServiceId(sourceId))).toBe(sourceId);
  });

  it('are chosen by --set: all by default, synthetic first, groups and names, lists', () => {
    const names = (option?: string) => {
      const { synthetic, real } = chooseSets(option);
      return [...synthetic.map((s) => s.name), ...real.map((s) => s.name)];
    };
    expect(names()).toEqual(['dev', 'heldout', 'bristol', 'miami', 'north-lincolnshire']);
    expect(names('both')).toEqual(['dev', 'heldout']);
    expect(names('real')).toEqual(['bristol', 'miami']);
    expect(names('real-heldout')).toEqual(['north-lincolnshire']);
    expect(names('real-heldout,heldout,miami')).toEqual(['heldout', 'miami', 'north-lincolnshire']);
    expect(() => chooseSets('test')).toThrow(/--set test/);
  });
});
