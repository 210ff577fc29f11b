/**
 * The webhooks index (index-mapping/webhook.document.ts): registered targets and their delivery
 * state, the published changes they follow, and their recent delivery attempts. The delivery
 * worker (src/webhooks) and the admin routes go through here; nothing else of theirs calls the
 * engine.
 *
 * Events are numbered under the publish lease (one publish at a time), so their sequence is the
 * order in which changes were published, whichever process published them. A publish writes its
 * events only when some target is registered: without webhooks, publishing costs one count.
 */
import {
  type AttemptDocument,
  attemptDocumentId,
  type DeliveryAttempt,
  eventDocumentId,
  fromEventDocument,
  type RecordChange,
  SEQUENCE_DOCUMENT_ID,
  toEventDocument,
  toWebhookDocument,
  WEBHOOKS_INDEX,
  type WebhookDocument,
  type WebhookEvent,
  type WebhookEventDocument,
  type WebhookFilter,
  type WebhookTarget,
  webhookDocumentId,
  webhooksMapping,
} from '../index-mapping/webhook.document.ts';
import {
  buildAttemptsOfQuery,
  buildCountWebhooksQuery,
  buildNextEventsQuery,
  buildPruneQuery,
  buildRecentAttemptsQuery,
  buildWebhooksAfterQuery,
  buildWebhooksPageQuery,
} from '../index-mapping/webhook.query.ts';
import { createBulkWriter } from './bulk.ts';
import { type Engine, engineCall } from './engine.ts';
import { EngineNotFoundError, EngineRequestError } from './errors.ts';
import { createSmallIndex, pruneSmallIndex } from './layout.ts';

export const webhooksIndex = (engine: Engine) => engine.name(WEBHOOKS_INDEX);

const ensured = new WeakSet<Engine>();

export async function ensureWebhooksIndex(engine: Engine): Promise<void> {
  if (ensured.has(engine)) return;
  await createSmallIndex(engine, webhooksIndex(engine), webhooksMapping, 'webhooks');
  ensured.add(engine);
}

const isConflict = (error: unknown) => error instanceof EngineRequestError && error.statusCode === 409;

type Versioned<T> = { value: T; seqNo: number; primaryTerm: number };

async function getDocument<T>(engine: Engine, id: string): Promise<Versioned<T> | undefined> {
  try {
    const { body } = await engineCall(`read ${id}`, () =>
      engine.client.get({ index: webhooksIndex(engine), id, realtime: true }),
    );
    if (!body.found) return undefined;
    return {
      value: body._source as T,
      seqNo: body._seq_no as number,
      primaryTerm: body._primary_term as number,
    };
  } catch (error) {
    if (error instanceof EngineNotFoundError) return undefined;
    throw error;
  }
}

/** How many targets are registered (0 when the index does not exist yet). */
export async function countWebhooks(engine: Engine): Promise<number> {
  try {
    const { body } = await engineCall('count webhooks', () =>
      engine.client.count({ index: webhooksIndex(engine), body: buildCountWebhooksQuery() }),
    );
    return (body as { count: number }).count;
  } catch (error) {
    if (error instanceof EngineNotFoundError) return 0;
    throw error;
  }
}

/** The last sequence number handed out (0 before any). */
export async function currentSequence(engine: Engine): Promise<number> {
  const doc = await getDocument<{ seq: number }>(engine, SEQUENCE_DOCUMENT_ID);
  return doc?.value.seq ?? 0;
}

/** Hands out `count` sequence numbers; returns the first. Optimistic: a race retries. */
async function reserveSequence(engine: Engine, count: number): Promise<number> {
  for (let attempt = 0; ; attempt++) {
    const doc = await getDocument<{ seq: number }>(engine, SEQUENCE_DOCUMENT_ID);
    const last = doc?.value.seq ?? 0;
    try {
      await engineCall('reserve webhook sequence', () =>
        engine.client.index({
          index: webhooksIndex(engine),
          id: SEQUENCE_DOCUMENT_ID,
          body: { kind: 'sequence', seq: last + count },
          ...(doc ? { if_seq_no: doc.seqNo, if_primary_term: doc.primaryTerm } : { op_type: 'create' }),
        }),
      );
      return last + 1;
    } catch (error) {
      if (!isConflict(error) || attempt >= 20) throw error;
    }
  }
}

/**
 * Records published changes for the registered targets (none registered: nothing is written).
 * Called by a live publish after its documents are visible, under the publish lease.
 */
export async function recordWebhookEvents(
  engine: Engine,
  changes: readonly RecordChange[],
  source?: string,
  at = new Date().toISOString(),
): Promise<number> {
  if (changes.length === 0 || (await countWebhooks(engine)) === 0) return 0;
  const first = await reserveSequence(engine, changes.length);
  const writer = createBulkWriter(engine);
  for (const [i, change] of changes.entries()) {
    const event: WebhookEvent = { ...change, seq: first + i, at, ...(source ? { source } : {}) };
    await writer.index(webhooksIndex(engine), eventDocumentId(event.seq), toEventDocument(event));
  }
  const stats = await writer.close();
  if (stats.failed > 0) throw new Error(`${stats.failed} webhook events were refused by the engine`);
  return changes.length;
}

/** The next `size` events after `afterSeq` that `filter` lets through, oldest first. */
export async function nextEvents(
  engine: Engine,
  filter: WebhookFilter,
  afterSeq: number,
  size = 100,
): Promise<WebhookEvent[]> {
  try {
    const { body } = await engineCall('read webhook events', () =>
      engine.client.search({
        index: webhooksIndex(engine),
        body: buildNextEventsQuery(filter, afterSeq, size) as never,
      }),
    );
    return (body.hits.hits as { _source: WebhookEventDocument }[]).map((hit) =>
      fromEventDocument(hit._source),
    );
  } catch (error) {
    if (error instanceof EngineNotFoundError) return [];
    throw error;
  }
}

/** Makes events written a moment ago visible to nextEvents. */
export async function refreshWebhooks(engine: Engine): Promise<void> {
  await engineCall('refresh webhooks', () =>
    engine.client.indices.refresh({ index: webhooksIndex(engine) }),
  ).catch((error: unknown) => {
    if (!(error instanceof EngineNotFoundError)) throw error;
  });
}

/** Registers a new target (visible to every process when this returns). */
export async function createWebhook(engine: Engine, target: WebhookTarget): Promise<void> {
  await ensureWebhooksIndex(engine);
  await engineCall('register webhook', () =>
    engine.client.index({
      index: webhooksIndex(engine),
      id: webhookDocumentId(target.id),
      op_type: 'create',
      refresh: true,
      body: toWebhookDocument(target),
    }),
  );
}

export async function getWebhook(engine: Engine, id: string): Promise<WebhookTarget | undefined> {
  return (await getDocument<WebhookDocument>(engine, webhookDocumentId(id)))?.value.data;
}

/** One page of the registered targets, oldest first, and how many there are in all. */
export async function listWebhooksPage(
  engine: Engine,
  page: number,
  perPage: number,
): Promise<{ total: number; targets: WebhookTarget[] }> {
  try {
    const { body } = await engineCall('list webhooks', () =>
      engine.client.search({
        index: webhooksIndex(engine),
        body: buildWebhooksPageQuery((page - 1) * perPage, perPage) as never,
      }),
    );
    const hits = body.hits as unknown as { total: { value: number }; hits: { _source: WebhookDocument }[] };
    return { total: hits.total.value, targets: hits.hits.map((hit) => hit._source.data) };
  } catch (error) {
    if (error instanceof EngineNotFoundError) return { total: 0, targets: [] };
    throw error;
  }
}

/** Every registered target, a page at a time (by id): what the delivery worker goes through. */
export async function* scanWebhooks(engine: Engine, pageSize = 500): AsyncGenerator<WebhookTarget[]> {
  let after: unknown[] | undefined;
  for (;;) {
    let hits: { _source: WebhookDocument; sort: unknown[] }[];
    try {
      const { body } = await engineCall('list webhooks', () =>
        engine.client.search({
          index: webhooksIndex(engine),
          body: buildWebhooksAfterQuery(pageSize, after) as never,
        }),
      );
      hits = body.hits.hits as unknown as { _source: WebhookDocument; sort: unknown[] }[];
    } catch (error) {
      if (error instanceof EngineNotFoundError) return;
      throw error;
    }
    if (hits.length > 0) yield hits.map((hit) => hit._source.data);
    if (hits.length < pageSize) return;
    after = hits[hits.length - 1]!.sort;
  }
}

/**
 * Changes a target as it is now (re-read on a concurrent change); `change` returns undefined to
 * leave it. Undefined when the target is gone (deleted meanwhile): the caller stops. Not
 * refreshed (the worker writes one a delivery): reads by id see it at once, lists within a second.
 */
export async function updateWebhook(
  engine: Engine,
  id: string,
  change: (target: WebhookTarget) => WebhookTarget | undefined,
): Promise<WebhookTarget | undefined> {
  for (let attempt = 0; ; attempt++) {
    const current = await getDocument<WebhookDocument>(engine, webhookDocumentId(id));
    if (!current) return undefined;
    const next = change(current.value.data);
    if (!next) return current.value.data;
    try {
      await engineCall('update webhook', () =>
        engine.client.index({
          index: webhooksIndex(engine),
          id: webhookDocumentId(id),
          body: toWebhookDocument(next),
          if_seq_no: current.seqNo,
          if_primary_term: current.primaryTerm,
        }),
      );
      return next;
    } catch (error) {
      if (!isConflict(error) || attempt >= 20) throw error;
    }
  }
}

/** Removes a target and its attempts; false when there was none. */
export async function deleteWebhook(engine: Engine, id: string): Promise<boolean> {
  try {
    await engineCall('delete webhook', () =>
      engine.client.delete({ index: webhooksIndex(engine), id: webhookDocumentId(id), refresh: true }),
    );
  } catch (error) {
    if (error instanceof EngineNotFoundError) return false;
    throw error;
  }
  await pruneSmallIndex(engine, 'delete webhook attempts', webhooksIndex(engine), buildAttemptsOfQuery(id));
  return true;
}

/** Records delivery attempts (not refreshed: the deliveries route refreshes when it reads). */
export async function recordAttempts(engine: Engine, attempts: readonly DeliveryAttempt[]): Promise<void> {
  if (attempts.length === 0) return;
  const writer = createBulkWriter(engine);
  for (const attempt of attempts) {
    const doc: AttemptDocument = {
      kind: 'attempt',
      webhook_id: attempt.webhook_id,
      seq: attempt.seq,
      at: attempt.at,
      data: attempt,
    };
    await writer.index(webhooksIndex(engine), attemptDocumentId(attempt), doc);
  }
  const stats = await writer.close();
  if (stats.failed > 0) throw new Error(`${stats.failed} delivery attempts were refused by the engine`);
}

/** A target's most recent attempts, newest first. */
export async function recentAttempts(engine: Engine, id: string, size = 50): Promise<DeliveryAttempt[]> {
  try {
    await refreshWebhooks(engine);
    const { body } = await engineCall('read webhook attempts', () =>
      engine.client.search({
        index: webhooksIndex(engine),
        body: buildRecentAttemptsQuery(id, size) as never,
      }),
    );
    return (body.hits.hits as { _source: AttemptDocument }[]).map((hit) => hit._source.data);
  } catch (error) {
    if (error instanceof EngineNotFoundError) return [];
    throw error;
  }
}

/** Forgets events and attempts logged before `before` (ISO time); how many went. */
export const pruneWebhookLog = (engine: Engine, before: string) =>
  pruneSmallIndex(engine, 'prune webhook log', webhooksIndex(engine), buildPruneQuery(before));
