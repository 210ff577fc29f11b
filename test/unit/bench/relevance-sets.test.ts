import { describe, expect, it } from 'vitest';
import type { QueryScore } from '../../../bench/relevance/metrics.ts';
import { corpusRecords } from '../../../bench/relevance/records.ts';
import {
  DEV_SET,
  HELDOUT_SET,
  type JudgedSet,
  judgmentProblems,
  selectSets,
  summariseSet,
} from '../../../bench/relevance/sets.ts';
import { uuidV5 } from '../../../src/ingest/migrate/legacy-ids.ts';

describe('the judged sets of bench:relevance', () => {
  it('name only services of their own corpus and classes of their own list', () => {
    expect(judgmentProblems(DEV_SET)).toEqual([]);
    expect(judgmentProblems(HELDOUT_SET)).toEqual([]);
  });

  it('report a judgment naming an unknown service or class', () => {
    const set: JudgedSet = {
      ...DEV_SET,
      judgments: [{ query: 'x', class: 'nonsense', grades: { 'no-such-service': 2 } }],
    };
    expect(judgmentProblems(set)).toEqual([
      'dev: judgment "x" has unknown class nonsense',
      'dev: judgment "x" names unknown service no-such-service',
    ]);
  });

  it('give every answerable held-out query a grade-2 service, and enough crisis and none queries', () => {
    for (const j of HELDOUT_SET.judgments)
      if (j.class !== 'none') expect(Object.values(j.grades), j.query).toContain(2);
    const count = (c: string) => HELDOUT_SET.judgments.filter((j) => j.class === c).length;
    expect(count('crisis')).toBeGreaterThanOrEqual(15);
    expect(count('none')).toBeGreaterThanOrEqual(15);
    expect(HELDOUT_SET.judgments.length).toBeGreaterThanOrEqual(150);
    expect(HELDOUT_SET.corpus.services.length).toBeGreaterThanOrEqual(150);
  });

  it('load as records whose ids no two sets share, the development ones as they always were', () => {
    const dev = corpusRecords(DEV_SET.corpus);
    const heldout = corpusRecords(HELDOUT_SET.corpus);
    expect(dev.services[0]!.id).toBe(uuidV5(`relevance:service:${DEV_SET.corpus.services[0]![0]}`));
    const ids = (r: typeof dev) => [
      r.taxonomy.id,
      ...r.terms.map((t) => t.id),
      ...r.services.flatMap((s) => [s.id, s.organization_id]),
    ];
    const devIds = new Set(ids(dev));
    expect(ids(heldout).filter((id) => devIds.has(id))).toEqual([]);
    expect(heldout.keyOfServiceId.size).toBe(HELDOUT_SET.corpus.services.length);
  });

  it('are chosen by --set, development first', () => {
    expect(selectSets(undefined).map((s) => s.name)).toEqual(['dev', 'heldout']);
    expect(selectSets('both').map((s) => s.name)).toEqual(['dev', 'heldout']);
    expect(selectSets('heldout').map((s) => s.name)).toEqual(['heldout']);
    expect(() => selectSets('test')).toThrow(/--set test/);
  });

  it('summarise by class in the set order, answerable queries apart from none', () => {
    const score = (c: string, ndcg: number, recall: number | undefined, total: number): QueryScore => ({
      query: c,
      class: c,
      ndcg,
      recall,
      total,
      top: [],
    });
    const summary = summariseSet(
      ['lay', 'crisis', 'name', 'none'],
      [score('none', 0, undefined, 3), score('crisis', 0, 0, 0), score('lay', 1, 1, 5)],
    );
    expect(Object.keys(summary.classes)).toEqual(['lay', 'crisis', 'none']);
    expect(summary.answerable).toMatchObject({ queries: 2, ndcg: 0.5, zeroResultRate: 0.5 });
    expect(summary.overall).toMatchObject({ queries: 3, falseHitRate: 1 });
  });
});
