/**
 * The audit trail of the write API, `${prefix}-audit`: one HSDS `metadata` record per field a
 * write changed (resource_type, resource_id, last_action_date, last_action_type, field_name,
 * previous_value, replacement_value, updated_by), with the write it belongs to and the record the
 * write was addressed to (`target`: a service whose phone changed). Nested records a write churns
 * in bulk are summed up, one entry per record type (summariseChanges). Append only; never rebuilt
 * by a reindex; entries older than AUDIT_RETENTION_DAYS are pruned (pruneAudit). Served on
 * `GET /{resource}/{id}?audit=last|all` (src/api/records/record-route.ts), in pages (readAudit).
 */
import { createHash, randomUUID } from 'node:crypto';
import {
  auditOfRecordQuery,
  auditOfWriteQuery,
  auditOlderThanQuery,
  auditPageBody,
  newestAuditBody,
} from '../index-mapping/audit.query.ts';
import { parseRecordKey, recordKey } from '../index-mapping/ids.ts';
import { createBulkWriter } from './bulk.ts';
import { type Engine, engineCall, maintenanceRequest } from './engine.ts';
import { EngineNotFoundError } from './errors.ts';
import { createSmallIndex, pruneSmallIndex } from './layout.ts';

/** An HSDS metadata record, as served. */
export type AuditMetadata = {
  id: string;
  resource_id: string;
  resource_type: string;
  last_action_date: string;
  last_action_type: 'create' | 'update' | 'delete';
  field_name: string;
  previous_value: string;
  replacement_value: string;
  updated_by: string;
};

type AuditDocument = AuditMetadata & { write_id: string; target: string; seq: number };

const auditMapping = {
  dynamic: 'strict',
  properties: {
    id: { type: 'keyword' },
    resource_id: { type: 'keyword' },
    resource_type: { type: 'keyword' },
    last_action_date: { type: 'date' },
    last_action_type: { type: 'keyword' },
    field_name: { type: 'keyword', index: false },
    previous_value: { type: 'keyword', index: false, doc_values: false },
    replacement_value: { type: 'keyword', index: false, doc_values: false },
    updated_by: { type: 'keyword' },
    write_id: { type: 'keyword' },
    target: { type: 'keyword' },
    seq: { type: 'integer' },
  },
} as const;

export const auditIndex = (engine: Engine) => engine.name('audit');

const ensured = new WeakSet<Engine>();

async function ensureAuditIndex(engine: Engine): Promise<void> {
  if (ensured.has(engine)) return;
  await createSmallIndex(engine, auditIndex(engine), auditMapping, 'audit');
  ensured.add(engine);
}

/** A change to one field of one record, as a write found it. */
export type FieldChange = {
  resource_type: string;
  resource_id: string;
  action: AuditMetadata['last_action_type'];
  field_name: string;
  previous_value: string;
  replacement_value: string;
};

/**
 * Nested records of one type that a write changes beyond this many are summed up in one entry.
 * Field by field, a PUT of a service with 16,000 phones wrote 64,000 entries (about 10 s of the
 * write, and a trail no reader could page through); an ordinary edit (a phone renumbered, one
 * added) keeps its detail.
 */
export const AUDIT_DETAIL_MAX = 20;

const keyOf = (change: { resource_type: string; resource_id: string }) =>
  recordKey(change.resource_type, change.resource_id);

/**
 * The changes of one write addressed to `target` (`type:id`) as the trail records them: the
 * target's own fields, and those of nested records of a type the write changed at most
 * AUDIT_DETAIL_MAX of, field by field; each other type of nested record as one entry on the target,
 * `field_name` the record type and `replacement_value` the counts (`16000 created, 2 deleted`),
 * `last_action_type` create or delete when every one was, else update.
 */
export function summariseChanges(target: string, changes: readonly FieldChange[]): FieldChange[] {
  const actionsByType = new Map<string, Map<string, FieldChange['action']>>();
  for (const change of changes) {
    const key = keyOf(change);
    if (key === target) continue;
    let records = actionsByType.get(change.resource_type);
    if (!records) {
      records = new Map();
      actionsByType.set(change.resource_type, records);
    }
    records.set(key, change.action);
  }
  const summed = new Set(
    [...actionsByType].filter(([, records]) => records.size > AUDIT_DETAIL_MAX).map(([t]) => t),
  );
  if (summed.size === 0) return [...changes];
  const addressed = parseRecordKey(target);
  const out = changes.filter((change) => keyOf(change) === target || !summed.has(change.resource_type));
  for (const type of summed) {
    const counts = { create: 0, update: 0, delete: 0 };
    for (const action of actionsByType.get(type)?.values() ?? []) counts[action] += 1;
    const parts = (['create', 'update', 'delete'] as const)
      .filter((action) => counts[action] > 0)
      .map((action) => `${counts[action]} ${action}d`);
    out.push({
      resource_type: addressed.type,
      resource_id: addressed.id,
      action:
        parts.length === 1
          ? counts.create > 0
            ? 'create'
            : counts.delete > 0
              ? 'delete'
              : 'update'
          : 'update',
      field_name: type,
      previous_value: '',
      replacement_value: parts.join(', '),
    });
  }
  return out;
}

/** Days an audit entry is kept (AUDIT_RETENTION_DAYS); 0 keeps every entry. */
export const DEFAULT_AUDIT_RETENTION_DAYS = 365;

// At most once an hour per engine handle, as old tombstones are pruned at publishing.
const lastPruned = new WeakMap<Engine, number>();

/** Removes audit entries older than the retention period (0: none); returns how many went. */
export async function pruneAudit(engine: Engine, retentionDays: number, now = Date.now()): Promise<number> {
  if (!(retentionDays > 0)) return 0;
  const before = new Date(now - retentionDays * 86_400_000).toISOString();
  return pruneSmallIndex(engine, 'prune audit', auditIndex(engine), auditOlderThanQuery(before), {
    refresh: true,
    transport: maintenanceRequest(engine),
  });
}

/** A UUID-shaped id that one write's entry always gets: an entry written twice is one entry. */
function entryId(writeId: string, seq: number): string {
  const hex = createHash('sha1').update(`${writeId}:${seq}`).digest('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-5${hex.slice(13, 16)}-a${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
}

/**
 * Appends the changes of one write (addressed to `target`, `type:id`), searchable when it returns;
 * nested records churned in bulk summed up (summariseChanges). Given the write's id (its audit
 * intent's), appending the same changes again overwrites the same entries: an intent completed
 * twice (the write's own process, then a recovery) leaves one set.
 */
export async function appendAudit(
  engine: Engine,
  target: string,
  updatedBy: string,
  fieldChanges: readonly FieldChange[],
  at = new Date().toISOString(),
  writeId: string = randomUUID(),
): Promise<void> {
  if (fieldChanges.length === 0) return;
  const changes = summariseChanges(target, fieldChanges);
  await ensureAuditIndex(engine);
  const writer = createBulkWriter(engine);
  let seq = 0;
  for (const change of changes) {
    const doc: AuditDocument = {
      id: entryId(writeId, seq),
      resource_id: change.resource_id,
      resource_type: change.resource_type,
      last_action_date: at,
      last_action_type: change.action,
      field_name: change.field_name,
      previous_value: change.previous_value,
      replacement_value: change.replacement_value,
      updated_by: updatedBy,
      write_id: writeId,
      target,
      seq: seq++,
    };
    await writer.index(auditIndex(engine), doc.id, doc);
  }
  await writer.close();
  if (writer.stats.failed > 0)
    throw new Error(`${writer.stats.failed} audit entries were refused by the engine`);
  await engineCall('refresh audit', () => engine.client.indices.refresh({ index: auditIndex(engine) }));
  if (Date.now() - (lastPruned.get(engine) ?? 0) > 3_600_000) {
    lastPruned.set(engine, Date.now());
    await pruneAudit(engine, engine.settings.auditRetentionDays ?? DEFAULT_AUDIT_RETENTION_DAYS);
  }
}

/** A page of a record's audit trail, newest first. */
export type AuditPage = {
  entries: AuditMetadata[];
  /** Every entry of the trail asked for (all of it, or the last write's). */
  total: number;
  /** Where the next page starts (`after`), when there is one. */
  next?: string;
};

/** The most entries one page of the trail takes: well inside the engine's result window (10,000). */
export const AUDIT_MAX_PER_PAGE = 5000;

type AuditHit = { _source: AuditDocument; sort: unknown[] };

/** A position in the trail: the sort values of the entry before it, as an opaque text. */
const encodeCursor = (sort: unknown[]) => Buffer.from(JSON.stringify(sort)).toString('base64url');

/** The sort values of a cursor, or undefined when it is not one of ours. */
export function decodeAuditCursor(cursor: string): unknown[] | undefined {
  try {
    const sort = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8')) as unknown;
    const valid =
      Array.isArray(sort) &&
      sort.length === 3 &&
      typeof sort[0] === 'number' &&
      typeof sort[1] === 'string' &&
      typeof sort[2] === 'number';
    return valid ? sort : undefined;
  } catch {
    return undefined;
  }
}

/**
 * The audit entries of writes addressed to `target` (`type:id`) or changing that record, newest
 * write first: all of them, or those of the last write only, a page of `perPage` from `after` (the
 * sort values of a cursor a previous page gave as `next`, decodeAuditCursor). The trail is append only and newest first, so a cursor holds its
 * place while writes go on (a page number would shift by every new entry).
 */
export async function readAudit(
  engine: Engine,
  type: string,
  id: string,
  which: 'last' | 'all',
  page: { perPage: number; after?: unknown[] | undefined } = { perPage: 1000 },
): Promise<AuditPage> {
  const ofRecord = auditOfRecordQuery(type, id);
  const search = async (body: Record<string, unknown>) => {
    const { body: answer } = await engineCall('read audit', () =>
      engine.client.search({ index: auditIndex(engine), body } as never),
    );
    return (answer as { hits: { total: { value: number }; hits: AuditHit[] } }).hits;
  };
  try {
    let query: object = ofRecord;
    if (which === 'last') {
      const newest = (await search(newestAuditBody(ofRecord))).hits[0];
      if (!newest) return { entries: [], total: 0 };
      query = auditOfWriteQuery(ofRecord, newest._source.write_id);
    }
    const size = Math.min(Math.max(1, page.perPage), AUDIT_MAX_PER_PAGE);
    const found = await search(auditPageBody(query, size + 1, page.after));
    const hits = found.hits.slice(0, size);
    const last = hits[hits.length - 1];
    return {
      entries: hits.map(({ _source: { write_id: _, target: __, seq: ___, ...metadata } }) => metadata),
      total: found.total.value,
      ...(found.hits.length > size && last ? { next: encodeCursor(last.sort) } : {}),
    };
  } catch (error) {
    // No write was ever made: no audit index.
    if (error instanceof EngineNotFoundError) return { entries: [], total: 0 };
    throw error;
  }
}
