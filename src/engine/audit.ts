/**
 * The audit trail of the write API, `${prefix}-audit`: one HSDS `metadata` record per field a
 * write changed (resource_type, resource_id, last_action_date, last_action_type, field_name,
 * previous_value, replacement_value, updated_by), with the write it belongs to and the record the
 * write was addressed to (`target`: a service whose phone changed). Append only; never rebuilt by a
 * reindex, never pruned. Served on `GET /{resource}/{id}?audit=last|all` (src/api/write.ts).
 */
import { randomUUID } from 'node:crypto';
import { createBulkWriter } from './bulk.ts';
import { type Engine, engineCall } from './engine.ts';
import { EngineNotFoundError } from './errors.ts';
import { createSmallIndex } from './layout.ts';

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

/** Appends the changes of one write (addressed to `target`, `type:id`), searchable when it returns. */
export async function appendAudit(
  engine: Engine,
  target: string,
  updatedBy: string,
  changes: readonly FieldChange[],
  at = new Date().toISOString(),
): Promise<void> {
  if (changes.length === 0) return;
  await ensureAuditIndex(engine);
  const writeId = randomUUID();
  const writer = createBulkWriter(engine);
  let seq = 0;
  for (const change of changes) {
    const doc: AuditDocument = {
      id: randomUUID(),
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
}

/**
 * The audit entries of writes addressed to `target` (`type:id`) or changing that record, newest
 * write first: all of them, or those of the last write only.
 */
export async function readAudit(
  engine: Engine,
  type: string,
  id: string,
  which: 'last' | 'all',
  limit = 10_000,
): Promise<AuditMetadata[]> {
  const query = {
    bool: {
      should: [
        { term: { target: `${type}:${id}` } },
        { bool: { filter: [{ term: { resource_type: type } }, { term: { resource_id: id } }] } },
      ],
      minimum_should_match: 1,
    },
  };
  let hits: { _source: AuditDocument }[];
  try {
    const { body } = await engineCall('read audit', () =>
      engine.client.search({
        index: auditIndex(engine),
        body: {
          size: which === 'last' ? 1000 : limit,
          query,
          sort: [{ last_action_date: 'desc' }, { write_id: 'asc' }, { seq: 'asc' }],
        },
      } as never),
    );
    hits = (body as { hits: { hits: { _source: AuditDocument }[] } }).hits.hits;
  } catch (error) {
    // No write was ever made: no audit index.
    if (error instanceof EngineNotFoundError) return [];
    throw error;
  }
  const firstWrite = hits[0]?._source.write_id;
  return hits
    .filter((hit) => which === 'all' || hit._source.write_id === firstWrite)
    .map(({ _source: { write_id: _, target: __, seq: ___, ...metadata } }) => metadata);
}
