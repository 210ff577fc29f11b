/** The audit trail's and the control index's request bodies (src/engine/audit.ts, change-log.ts). */
import { describe, expect, it } from 'vitest';
import {
  auditOfRecordQuery,
  auditOfWriteQuery,
  auditOlderThanQuery,
  auditPageBody,
  newestAuditBody,
} from '../../../src/index-mapping/audit.query.ts';
import {
  changesBeforeQuery,
  changesSinceBody,
  controlKindBody,
} from '../../../src/index-mapping/control.query.ts';

describe('audit queries', () => {
  it("find a record's entries by the write's target or the changed record itself", () => {
    expect(auditOfRecordQuery('service', 's1')).toEqual({
      bool: {
        should: [
          { term: { target: 'service:s1' } },
          { bool: { filter: [{ term: { resource_type: 'service' } }, { term: { resource_id: 's1' } }] } },
        ],
        minimum_should_match: 1,
      },
    });
  });

  it('page newest write first, each write in its order, after a cursor', () => {
    const ofRecord = { match_all: {} };
    expect(newestAuditBody(ofRecord)).toMatchObject({ size: 1, _source: ['write_id'] });
    expect(auditPageBody(auditOfWriteQuery(ofRecord, 'w1'), 11, [1, 'w1', 3])).toEqual({
      sort: [{ last_action_date: 'desc' }, { write_id: 'asc' }, { seq: 'asc' }],
      size: 11,
      query: { bool: { filter: [ofRecord, { term: { write_id: 'w1' } }] } },
      track_total_hits: true,
      search_after: [1, 'w1', 3],
    });
    expect(auditPageBody(ofRecord, 5)).not.toHaveProperty('search_after');
    expect(auditOlderThanQuery('2026-01-01T00:00:00.000Z')).toEqual({
      range: { last_action_date: { lt: '2026-01-01T00:00:00.000Z' } },
    });
  });
});

describe('control index queries', () => {
  it('list a kind, changes since a time, changes before one', () => {
    expect(controlKindBody('audit', 1000, true)).toEqual({
      size: 1000,
      sort: [{ at: 'asc' }],
      query: { term: { kind: 'audit' } },
    });
    expect(controlKindBody('import', 1000)).toEqual({ size: 1000, query: { term: { kind: 'import' } } });
    expect(changesSinceBody(10, 5).query.bool.filter).toEqual([
      { term: { kind: 'change' } },
      { range: { at: { gte: 5 } } },
    ]);
    expect(changesSinceBody(10).query.bool.filter).toEqual([{ term: { kind: 'change' } }]);
    expect(changesBeforeQuery(7)).toEqual({
      bool: { filter: [{ term: { kind: 'change' } }, { range: { at: { lt: 7 } } }] },
    });
  });
});
