/**
 * The audit trail's queries (src/engine/audit.ts runs them): pure request bodies over the audit
 * index's entries (one HSDS metadata record each, with the write it belongs to, `write_id`, its
 * place in that write, `seq`, and the record the write was addressed to, `target`).
 */
import { recordKey } from './ids.ts';

/** The entries of writes addressed to the record, or changing it. */
export const auditOfRecordQuery = (type: string, id: string) => ({
  bool: {
    should: [
      { term: { target: recordKey(type, id) } },
      { bool: { filter: [{ term: { resource_type: type } }, { term: { resource_id: id } }] } },
    ],
    minimum_should_match: 1,
  },
});

/** Of those, the entries of one write. */
export const auditOfWriteQuery = (ofRecord: object, writeId: string) => ({
  bool: { filter: [ofRecord, { term: { write_id: writeId } }] },
});

/** Newest write first, each write's entries in the order it wrote them. */
export const AUDIT_SORT = [{ last_action_date: 'desc' }, { write_id: 'asc' }, { seq: 'asc' }];

/** The newest entry of `query` (only its write's id). */
export const newestAuditBody = (query: object) => ({
  sort: AUDIT_SORT,
  size: 1,
  query,
  _source: ['write_id'],
});

/** A page of `size` entries of `query` after the sort values `after`, with the total. */
export const auditPageBody = (query: object, size: number, after?: unknown[]) => ({
  sort: AUDIT_SORT,
  size,
  query,
  track_total_hits: true,
  ...(after ? { search_after: after } : {}),
});

/** Entries older than `before` (an ISO date). */
export const auditOlderThanQuery = (before: string) => ({ range: { last_action_date: { lt: before } } });
