/**
 * Single-record writes (the write API, src/api/writes/write.routes.ts): a record created, replaced
 * or deleted with the rules a feed's import and `hsds delete` follow, then published
 * incrementally, so it is served by every read endpoint when the write returns.
 *
 *   PUT:    validate (flatten.ts, the import's schemas and leniency) ─▶ audit intent ─▶ store the
 *           body's records and drop the children it no longer lists (write-store.ts, source
 *           `api:<token name>`, the import's rules for one body) ─▶ publish ─▶ audit, intent cleared
 *   DELETE: deletion closure (deletion.ts) ─▶ audit intent ─▶ publish ─▶ audit, intent cleared
 *
 * The audit cannot be lost while the change survives: the intent (what the touched records held
 * before) is stored in the control index before the store changes, and cleared only once the
 * audit entries are written. A process killed in between leaves the intent; the next write, `hsds
 * serve` at start and `hsds publish` complete it from the store as it then is (completeAuditIntents),
 * under the `write` lease, so no other write comes between. An import that changed the same records
 * in between has its changes counted in that write's entries: the trail says more, never less.
 *
 * Replacement: the body is the record's new state. A child collection the body lists (`phones`,
 * `schedules`, `service_at_locations`...) replaces the stored one: children it no longer lists go,
 * with what nests under them only. A collection the body leaves out is left as it is, as are the
 * records it points at (an organization, a location) beyond what the body itself says of them.
 *
 * Writes are one at a time per process and, across processes, under the `write` lease: the
 * precondition a client sends (If-Match) is checked and the write made with no other write between.
 * A write also takes the `publish` lease before it changes anything (an import holds it while it
 * publishes): its wait for both is bounded (WRITE_QUEUE_WAIT_MS), and a write that gives up has
 * written nothing.
 */
import { randomUUID } from 'node:crypto';
import { type AuditMetadata, appendAudit, type FieldChange } from '../../engine/audit.ts';
import {
  type AuditIntent,
  clearAuditIntent,
  type Lease,
  LeaseHeldError,
  listAuditIntents,
  recordAuditIntent,
  waitForLease,
} from '../../engine/control.ts';
import type { Engine } from '../../engine/engine.ts';
import { ensureRecordsIndex, findDocuments, getRecords, refreshRecords } from '../../engine/records.ts';
import type { RecordType } from '../../hsds/index.ts';
import { caseVariants, parseRecordKey, storedId } from '../../index-mapping/ids.ts';
import { type RecordStoreDocument, unpackDocument } from '../../index-mapping/record-store.document.ts';
import { sameContent } from '../import/last-modified.ts';
import { publishOrReindex, removeAndPublish } from '../publish/pipeline.ts';
import { deletionClosure, nestingOnlyUnder } from '../records/deletion.ts';
import { type FlatRecord, flattenNested, type Issue } from '../records/flatten.ts';
import { childLinks, recordKey } from '../records/nesting.ts';
import { isOtherSchemeDrop } from '../repairs/leniency.ts';
import { StoreRefusedError, storeWrittenBody } from './write-store.ts';

export type { AuditMetadata };

/** The body breaks the schema: nothing was written. */
export class WriteRejectedError extends Error {
  override readonly name = 'WriteRejectedError';
  readonly issues: Issue[];
  constructor(issues: Issue[]) {
    const named = issues.slice(0, 10).map((i) => `${i.path || '(body)'}: ${i.reason}`);
    if (issues.length > named.length) named.push(`and ${issues.length - named.length} more`);
    super(named.join('; '));
    this.issues = issues;
  }
}

/** The body holds more than a write takes (see checkBodyShape): nothing was written. */
export class WriteTooLargeError extends Error {
  override readonly name = 'WriteTooLargeError';
}

/** The writes and the publishing before this write outlasted its wait: nothing was written. */
export class WriteBusyError extends Error {
  override readonly name = 'WriteBusyError';
  readonly waitedMs: number;
  constructor(message: string, waitedMs: number) {
    super(message);
    this.waitedMs = waitedMs;
  }
}

/** The client's precondition (If-Match, If-None-Match: *) no longer holds: nothing was written. */
export class PreconditionFailedError extends Error {
  override readonly name = 'PreconditionFailedError';
}

export type WriteRequest = {
  type: RecordType;
  id: string;
  /** Who writes: the token's name, recorded as `updated_by` and in the record's source. */
  actor: string;
  /**
   * Checked once the write holds the lock, against the record as stored: return false to refuse
   * the write (412). `exists` says whether the record is stored.
   */
  precondition?: (exists: boolean) => Promise<boolean>;
  /**
   * Read under the lock once the write is published: the record as now served (the answer), so
   * it is this write's version whatever another process writes next.
   */
  readBack?: () => Promise<string | undefined>;
  /** How long the write may wait for the writes and the publishing before it (default 15 s). */
  waitMs?: number;
};

export type WriteResult = {
  created: boolean;
  /** What readBack read. */
  served?: string | undefined;
  /** Records written or removed (the record and what it nests). */
  changed: number;
  /** What the import's leniency repaired or noted (warnings and notes). */
  notes: Issue[];
  audit: FieldChange[];
};

const WRITE_ORIGIN = 'request body';

/** WRITE_QUEUE_WAIT_MS's default. */
export const DEFAULT_WRITE_WAIT_MS = 15_000;

let queue: Promise<unknown> = Promise.resolve();

/** A lease taken by `deadline`, or WriteBusyError naming who holds it. */
async function leaseBy(
  engine: Engine,
  name: 'write' | 'publish',
  purpose: string,
  deadline: number,
  waitMs: number,
) {
  try {
    return await waitForLease(engine, name, { purpose, waitMs: Math.max(0, deadline - Date.now()) });
  } catch (error) {
    if (!(error instanceof LeaseHeldError)) throw error;
    const { holder } = error;
    const what = name === 'publish' ? 'a publish' : 'another write';
    throw new WriteBusyError(
      `${what} (${holder.purpose}, process ${holder.pid} on ${holder.host}, since ${holder.acquired_at}) outlasted the ${waitMs} ms a write waits`,
      waitMs,
    );
  }
}

/**
 * Runs `work` after every write before it in this process, under the cross-process `write` lease
 * and with the `publish` lease taken (handed to work's publish, which releases it). Waits at most
 * `waitMs` for all three; beyond, WriteBusyError and nothing is done.
 */
function serialised<T>(
  engine: Engine,
  purpose: string,
  waitMs: number,
  work: (publishing: Lease) => Promise<T>,
  options: { publish?: boolean } = {},
): Promise<T> {
  const deadline = Date.now() + waitMs;
  let gaveUp = false;
  let timer: NodeJS.Timeout | undefined;
  const run = queue.then(async () => {
    clearTimeout(timer);
    if (gaveUp) throw new WriteBusyError('given up', waitMs);
    await ensureRecordsIndex(engine);
    const writing = await leaseBy(engine, 'write', purpose, deadline, waitMs);
    try {
      // A write a killed process left unaudited is audited before another write changes its records.
      await completeAuditIntents(engine);
      if (options.publish === false) return await work(writing);
      const publishing = await leaseBy(engine, 'publish', purpose, deadline, waitMs);
      try {
        return await work(publishing);
      } finally {
        await publishing.release();
      }
    } finally {
      await writing.release();
    }
  });
  queue = run.catch(() => undefined);
  const waited = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      gaveUp = true;
      reject(
        new WriteBusyError(
          `the writes before it in this process outlasted the ${waitMs} ms a write waits`,
          waitMs,
        ),
      );
    }, waitMs);
  });
  return Promise.race([run, waited]);
}

/** Array elements a write's body holds at most, all arrays together: records, and what they list. */
export const WRITE_MAX_ELEMENTS = 10_000;
/** Keys one object of a body has at most (an HSDS record has a few dozen fields). */
const WRITE_MAX_KEYS = 1_000;
/** How deep a body nests at most (a service nests about ten levels). */
const WRITE_MAX_DEPTH = 64;
/**
 * Keys no record has that would reach an object's prototype: a body's `__proto__` copied into a
 * record (`record[key] = value`) would make its fields inherited ones, read by validation and
 * stored. Refused, not stripped: a client sending them has a bug worth hearing about.
 */
const FORBIDDEN_KEYS = new Set(['__proto__', 'constructor', 'prototype']);

const pathOf = (base: string, part: string | number) =>
  typeof part === 'number' ? `${base}[${part}]` : base ? `${base}.${part}` : part;

/**
 * Checks a body's shape before anything reads it as records, in a walk that stops at the first
 * fault: no key that reaches a prototype (WriteRejectedError naming where), no nesting deeper than
 * WRITE_MAX_DEPTH, and at most WRITE_MAX_ELEMENTS array elements and WRITE_MAX_KEYS keys an object
 * (WriteTooLargeError): the validation after it then does bounded work, and its errors are bounded.
 */
export function checkBodyShape(type: RecordType, body: unknown): void {
  const refuse = (path: string, reason: string) =>
    new WriteRejectedError([
      { severity: 'error', kind: 'invalid', source: WRITE_ORIGIN, record_type: type, path, reason },
    ]);
  let elements = 0;
  const stack: { value: unknown; path: string; depth: number }[] = [{ value: body, path: '', depth: 0 }];
  for (let next = stack.pop(); next; next = stack.pop()) {
    const { value, path, depth } = next;
    if (typeof value !== 'object' || value === null) continue;
    if (depth >= WRITE_MAX_DEPTH) throw refuse(path, `nests deeper than ${WRITE_MAX_DEPTH} levels`);
    if (Array.isArray(value)) {
      elements += value.length;
      if (elements > WRITE_MAX_ELEMENTS) {
        throw new WriteTooLargeError(
          `the body holds more than ${WRITE_MAX_ELEMENTS} array elements (${path}: ${value.length}); a write takes at most ${WRITE_MAX_ELEMENTS} (records and what they list): load larger sets with an import`,
        );
      }
      for (let i = value.length - 1; i >= 0; i--)
        stack.push({ value: value[i], path: pathOf(path, i), depth: depth + 1 });
      continue;
    }
    const keys = Object.keys(value);
    if (keys.length > WRITE_MAX_KEYS) {
      throw new WriteTooLargeError(
        `${path || 'the body'} has ${keys.length} keys; an object in a write has at most ${WRITE_MAX_KEYS}`,
      );
    }
    for (const key of keys) {
      if (FORBIDDEN_KEYS.has(key)) {
        throw refuse(
          pathOf(path, key),
          `"${key}" is not a field of any record, and would reach the prototype of the object it is in`,
        );
      }
    }
    for (let i = keys.length - 1; i >= 0; i--) {
      const key = keys[i] as string;
      stack.push({
        value: (value as Record<string, unknown>)[key],
        path: pathOf(path, key),
        depth: depth + 1,
      });
    }
  }
}

/** Validates a body as import would; throws WriteRejectedError with every error. */
export function validateBody(type: RecordType, pathId: string, body: unknown) {
  // Stored in lower case, as an import stores it (index-mapping/ids.ts): an id in another case
  // names the same record, never a second one. flattenNested lower-cases the body's ids.
  const id = storedId(pathId);
  if (typeof body !== 'object' || body === null || Array.isArray(body)) {
    throw new WriteRejectedError([
      {
        severity: 'error',
        kind: 'invalid',
        source: WRITE_ORIGIN,
        path: '',
        reason: `expected a JSON object (a ${type})`,
      },
    ]);
  }
  checkBodyShape(type, body);
  const record = body as Record<string, unknown>;
  if (record.id === undefined) record.id = id;
  if (typeof record.id !== 'string' || storedId(record.id) !== id) {
    throw new WriteRejectedError([
      {
        severity: 'error',
        kind: 'invalid',
        source: WRITE_ORIGIN,
        record_type: type,
        record_id: id,
        path: 'id',
        reason: `the body's id (${JSON.stringify(record.id)}) is not the id in the path (${pathId})`,
      },
    ]);
  }
  // The server stamps `last_modified` (the time of the write that changed the service, import-source.ts's
  // rule): a copy of the old stamp sent back in the body is not kept.
  if (type === 'service') delete record.last_modified;
  // Read-only in a write: an organization's `services` (GET serves them brief: written back, they
  // would replace the services' other fields) and a service_at_location's `service`. Services are
  // written through /services/{id}.
  if (type === 'organization') delete record.services;
  if (type === 'service_at_location') delete record.service;
  // Ids are not mapped (an import maps one that is no UUID): the writer named this one.
  const flattened = flattenNested(type, record, WRITE_ORIGIN, { mapIds: false });
  const errors = flattened.issues.filter((i) => i.severity === 'error');
  // A link of another scheme (`javascript:`), which an import drops, is refused: the writer is
  // there to be told, and a write that answers 200 without its field would hide it.
  for (const note of flattened.records.flatMap((r) => r.notes).filter(isOtherSchemeDrop))
    errors.push({ ...note, severity: 'error', kind: 'invalid' });
  errors.push(...contradictions(flattened.records));
  if (errors.length > 0 || flattened.rejected.length > 0) throw new WriteRejectedError(errors);
  return { record, flattened };
}

/**
 * A record the body holds twice with different content: the shape GET serves nests a service's
 * locations under its `service_at_locations` and again under its organization's `locations`, so a
 * client that edits one copy and sends the shape back sends both. An import keeps the last copy
 * met; a write would then silently undo the edit, so it is refused, naming both places.
 */
function contradictions(records: readonly FlatRecord[]): Issue[] {
  const first = new Map<string, FlatRecord>();
  const issues: Issue[] = [];
  for (const flat of records) {
    const key = recordKey(flat.type, flat.id);
    const earlier = first.get(key);
    if (!earlier) first.set(key, flat);
    else if (!sameContent(flat.type, earlier.record, flat.record)) {
      issues.push({
        severity: 'error',
        kind: 'invalid',
        source: WRITE_ORIGIN,
        record_type: flat.type,
        record_id: flat.id,
        path: flat.path,
        reason: `${flat.type} ${flat.id} is also at ${earlier.path || '(body)'} with other content: send the same content in both places, or one of them`,
      });
    }
  }
  return issues;
}

/**
 * The stored records under the collections the body lists (`phones`, `service_at_locations`...),
 * and under those by their own child collections, that nest under nothing outside the record: what
 * a replacement drops when the body no longer has them. Only child collections count: a location
 * in an organization's `locations` takes its addresses along, never the service_at_locations at it
 * (those belong to services), and an organization never loses services by a write of itself.
 */
async function replacedChildren(
  engine: Engine,
  type: RecordType,
  id: string,
  body: Record<string, unknown>,
): Promise<Set<string>> {
  const linksOf = (t: string, all: boolean) => {
    const links = (childLinks[t as RecordType] ?? [])
      .filter((l) => all || Array.isArray(body[l.key]))
      .map((l) => ({ type: l.type as string, field: l.field }));
    if (all || Array.isArray(body.attributes)) links.push({ type: 'attribute', field: 'link_id' });
    return links;
  };
  const subtree = new Map<string, RecordStoreDocument>();
  let frontier: { type: string; id: string; root: boolean }[] = [{ type, id, root: true }];
  while (frontier.length > 0) {
    const byId = new Map(frontier.map((f) => [f.id, f]));
    const next: typeof frontier = [];
    for (const doc of await findDocuments(engine, 'parent_ids', [...byId.keys()], undefined)) {
      for (const record of unpackDocument(doc)) {
        if (subtree.has(record.key)) continue;
        const parent = [...byId.values()].find((p) =>
          linksOf(p.type, !p.root).some((l) => l.type === record.type && record.record[l.field] === p.id),
        );
        if (!parent) continue;
        subtree.set(record.key, record);
        next.push({ type: record.type, id: record.id, root: false });
      }
    }
    frontier = next;
  }
  // A record that also nests under something outside this record (a phone of another service, an
  // attribute of a service sharing an organization's id) stays, and so does what nests under it.
  // Parents are told by table and id (deletion.ts nestingOnlyUnder), never by a bare id.
  let replaced = [...subtree.values()];
  for (;;) {
    const inside = new Set([recordKey(type, id), ...replaced.map((r) => r.key)]);
    const next = await nestingOnlyUnder(engine, replaced, inside);
    if (next.length === replaced.length) return new Set(next.map((r) => r.key));
    replaced = next;
  }
}

/**
 * A service_at_location is served with its service: one whose service is not stored would be
 * stored and never served, so the write is refused (an import keeps it, and reports the link).
 */
async function requireServedParent(engine: Engine, type: RecordType, record: Record<string, unknown>) {
  if (type !== 'service_at_location') return;
  const serviceId = record.service_id;
  if (
    typeof serviceId === 'string' &&
    (await getRecords(engine, [recordKey('service', storedId(serviceId))])).size > 0
  )
    return;
  throw new WriteRejectedError([
    {
      severity: 'error',
      kind: 'dangling-reference',
      source: WRITE_ORIGIN,
      record_type: type,
      ...(typeof record.id === 'string' ? { record_id: record.id } : {}),
      path: 'service_id',
      reason: `no service ${JSON.stringify(serviceId ?? null)}: a service_at_location is served with its service (PUT the service first)`,
    },
  ]);
}

const IGNORED_FIELDS = new Set(['last_modified']);
const text = (value: unknown) =>
  value === undefined || value === null ? '' : typeof value === 'string' ? value : JSON.stringify(value);

/** Field by field, what changed between two states of a set of records (by key). */
export function fieldChanges(
  before: ReadonlyMap<string, Record<string, unknown>>,
  after: ReadonlyMap<string, Record<string, unknown>>,
): FieldChange[] {
  const out: FieldChange[] = [];
  for (const key of new Set([...before.keys(), ...after.keys()])) {
    const { type, id } = parseRecordKey(key);
    const resource = { resource_type: type, resource_id: id };
    const old = before.get(key);
    const now = after.get(key);
    const action = !old ? 'create' : !now ? 'delete' : 'update';
    const fields = new Set([...Object.keys(old ?? {}), ...Object.keys(now ?? {})]);
    for (const field of [...fields].sort()) {
      if (IGNORED_FIELDS.has(field)) continue;
      const previous = text(old?.[field]);
      const replacement = text(now?.[field]);
      if (previous === replacement) continue;
      out.push({
        ...resource,
        action,
        field_name: field,
        previous_value: previous,
        replacement_value: replacement,
      });
    }
  }
  return out;
}

const recordsOf = async (engine: Engine, keys: Iterable<string>) => {
  const found = await getRecords(engine, [...keys]);
  return new Map([...found].map(([key, doc]) => [key, doc.record]));
};

type Intent = Omit<AuditIntent, 'host' | 'pid'>;

/** Writes an intent's audit entries, from what its records held before and hold now; clears it. */
async function completeIntent(engine: Engine, intent: Intent): Promise<FieldChange[]> {
  await refreshRecords(engine);
  const audit = fieldChanges(new Map(intent.before), await recordsOf(engine, intent.keys));
  await appendAudit(engine, intent.target, intent.actor, audit, intent.at, intent.write_id);
  await clearAuditIntent(engine, intent.write_id);
  return audit;
}

/**
 * Stores the audit intent, runs `change` (which changes the store and publishes), then writes the
 * audit. A change that throws is audited for what it did before it threw; if that fails too, the
 * intent stays for the next write to complete.
 */
async function audited<T>(
  engine: Engine,
  intent: Intent,
  change: () => Promise<T>,
): Promise<{ value: T; audit: FieldChange[] }> {
  await recordAuditIntent(engine, intent);
  let value: T;
  try {
    value = await change();
  } catch (error) {
    await completeIntent(engine, intent).catch((auditError: unknown) =>
      engine.logger.warn({ err: auditError, write_id: intent.write_id }, 'audit intent left to complete'),
    );
    throw error;
  }
  return { value, audit: await completeIntent(engine, intent) };
}

const newIntent = (
  target: string,
  actor: string,
  keys: Iterable<string>,
  before: Map<string, Record<string, unknown>>,
): Intent => ({
  write_id: randomUUID(),
  target,
  actor,
  at: new Date().toISOString(),
  keys: [...new Set(keys)],
  before: [...before],
});

/**
 * Completes the audit intents of writes whose process was killed before writing their audit;
 * returns how many. Called under the `write` lease (no write is under way).
 */
export async function completeAuditIntents(engine: Engine): Promise<number> {
  const intents = await listAuditIntents(engine);
  for (const intent of intents) {
    const audit = await completeIntent(engine, intent);
    engine.logger.warn(
      {
        write_id: intent.write_id,
        target: intent.target,
        pid: intent.pid,
        host: intent.host,
        entries: audit.length,
      },
      'completed the audit of an interrupted write',
    );
  }
  return intents.length;
}

/** Completes interrupted writes' audits under the write lease (at `hsds serve` start, `hsds publish`). */
export function completeInterruptedWrites(engine: Engine, waitMs = DEFAULT_WRITE_WAIT_MS): Promise<void> {
  return serialised(engine, 'complete interrupted writes', waitMs, async () => undefined, { publish: false });
}

/** Creates or replaces a record from its nested body (the GET /{resource}/{id} shape). */
export function putRecord(engine: Engine, request: WriteRequest, body: unknown): Promise<WriteResult> {
  const { type, actor } = request;
  const id = storedId(request.id);
  const { record, flattened } = validateBody(type, id, body);
  const waitMs = request.waitMs ?? DEFAULT_WRITE_WAIT_MS;
  return serialised(engine, `write ${type} ${id}`, waitMs, async (publishing) => {
    await refreshRecords(engine);
    const key = recordKey(type, id);
    // The body's records as stored now (the record itself among them): whether it exists, and
    // the "before" of the audit, in one read.
    const newKeys = new Set(flattened.records.map((r) => recordKey(r.type, r.id)));
    const storedBefore = await getRecords(engine, [...newKeys]);
    const before = new Map([...storedBefore].map(([k, doc]) => [k, doc.record]));
    const exists = before.has(key);
    if (request.precondition && !(await request.precondition(exists))) throw new PreconditionFailedError();
    await requireServedParent(engine, type, record);
    const replaced = await replacedChildren(engine, type, id, record);
    const gone = new Set([...replaced].filter((k) => !newKeys.has(k)));
    for (const [goneKey, goneRecord] of await recordsOf(engine, gone)) before.set(goneKey, goneRecord);

    const intent = newIntent(key, actor, [...newKeys, ...gone], before);
    const { value: stored, audit } = await audited(engine, intent, async () => {
      const stored = await storeWrittenBody(engine, {
        records: flattened.records,
        stored: storedBefore,
        gone,
        source: `api:${actor}`,
        origin: WRITE_ORIGIN,
      });
      const { changes } = stored;
      if (changes.all || changes.keys.size > 0)
        await publishOrReindex(engine, changes, { publishLease: publishing, source: `api:${actor}` });
      return stored;
    });
    const { changes } = stored;
    return {
      created: !exists,
      served: await request.readBack?.(),
      changed: changes.all ? newKeys.size + gone.size : changes.keys.size,
      notes: stored.notes,
      audit,
    };
  });
}

/** Deletes a record with what its deletion takes (deletion.ts); false when it is not stored. */
export function deleteRecord(engine: Engine, request: WriteRequest): Promise<WriteResult | undefined> {
  const { type, actor } = request;
  const id = storedId(request.id);
  return serialised(
    engine,
    `delete ${type} ${id}`,
    request.waitMs ?? DEFAULT_WRITE_WAIT_MS,
    async (publishing) => {
      await refreshRecords(engine);
      const key = recordKey(type, id);
      // In whichever case it was stored (a store written before ids were lower-cased).
      const variants = caseVariants(id).map((v) => recordKey(type, v));
      const exists = (await getRecords(engine, variants)).size > 0;
      if (request.precondition && !(await request.precondition(exists))) throw new PreconditionFailedError();
      if (!exists) return undefined;
      // The closure is computed once: what the audit records is what is removed.
      const doomed = await deletionClosure(engine, [{ type, id }]);
      const before = await recordsOf(engine, doomed);
      const { audit } = await audited(engine, newIntent(key, actor, doomed, before), () =>
        removeAndPublish(engine, doomed, { publishLease: publishing, source: `api:${actor}` }),
      );
      return { created: false, changed: doomed.size, notes: [], audit };
    },
  );
}

/**
 * The write API's side of these functions (src/api/writes/record-writes.ts RecordWrites, matched by
 * shape: api and ingest do not import each other), wired in by the server command.
 */
export function createRecordWrites(engine: Engine) {
  const outcome = async <T>(work: () => Promise<T>) => {
    try {
      return await work();
    } catch (error) {
      if (error instanceof WriteRejectedError) return { kind: 'rejected' as const, issues: error.issues };
      // As an import reports a record the engine refused (end-steps.ts reportRefused).
      if (error instanceof StoreRefusedError) {
        const issues: Issue[] = error.failures.map((failure) => {
          const { type, id } = parseRecordKey(failure.id);
          return {
            severity: 'error',
            kind: 'invalid',
            source: WRITE_ORIGIN,
            record_type: type,
            record_id: id,
            path: '',
            reason: `the engine refused the record: ${failure.reason}`,
          };
        });
        return { kind: 'rejected' as const, issues };
      }
      if (error instanceof PreconditionFailedError) return { kind: 'precondition-failed' as const };
      if (error instanceof WriteTooLargeError) return { kind: 'too-large' as const, reason: error.message };
      if (error instanceof WriteBusyError)
        return { kind: 'busy' as const, reason: error.message, waitedMs: error.waitedMs };
      throw error;
    }
  };
  return {
    put: (request: WriteRequest, body: unknown) =>
      outcome(async () => {
        const result = await putRecord(engine, request, body);
        return { kind: 'written' as const, created: result.created, served: result.served };
      }),
    delete: (request: WriteRequest) =>
      outcome(async () =>
        (await deleteRecord(engine, request)) ? { kind: 'deleted' as const } : { kind: 'not-found' as const },
      ),
  };
}
