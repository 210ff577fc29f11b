/**
 * The delivery worker: follows the published changes (the events a publish records, see
 * src/engine/webhooks.ts) and delivers them to each registered target, from the target's cursor.
 *
 * - **Never in the publish's way.** A publish only records its events (one bulk write, and only
 *   when some target is registered); delivery happens here, in the API server, later. However slow
 *   or dead a target is, a publish does not wait for it.
 * - **At least once, in order.** A target's events go one at a time in sequence order (the order
 *   they were published in); its cursor moves past an event only once the target took it (2xx),
 *   and the cursor is kept in the engine: an API server started again goes on from it. A server
 *   killed between a delivery and the cursor's write delivers that event again (same
 *   `webhook-id`, so a receiver can drop it).
 * - **Retried with backoff** (1 s, doubling, at most 5 minutes apart) while the event has failed
 *   for less than the retry period (WEBHOOK_RETRY_HOURS); then the target is **paused** with its
 *   last error, its cursor still on the event, until an operator resumes it. One target failing
 *   holds back no other: each drains on its own.
 * - **Once between several servers.** Every API server runs a worker, but only the holder of the
 *   `webhooks` lease (control.ts) delivers; the others try to take it over every few seconds, so
 *   a killed holder is replaced once its lease expires (at once when it died on this machine).
 */
import type { Logger } from 'pino';
import { acquireLease, type Lease, LeaseHeldError } from '../engine/control.ts';
import type { Engine } from '../engine/engine.ts';
import {
  getWebhook,
  nextEvents,
  pruneWebhookLog,
  recordAttempts,
  refreshWebhooks,
  scanWebhooks,
  updateWebhook,
} from '../engine/webhooks.ts';
import type { WebhookEvent, WebhookTarget } from '../index-mapping/webhook.document.ts';
import { type DeliveryResult, deliverEvent, eventMessageId } from './delivery.ts';

export type WebhookDeliverySettings = {
  /** Where records are read: the event's URL is this and `/{type}/{id}` (PUBLIC_BASE_URL). */
  baseUrl: string;
  /** How long one event is retried before its target is paused (WEBHOOK_RETRY_HOURS). */
  retryMs: number;
  /** One delivery's time limit (WEBHOOK_TIMEOUT_MS). */
  timeoutMs: number;
  allowPrivate: boolean;
  logger: Logger;
  /** How often the holder looks for new events (default 1 s). */
  pollMs?: number;
  /** The first retry's wait, doubled at each failure up to `maxBackoffMs` (1 s, 5 min). */
  firstBackoffMs?: number;
  maxBackoffMs?: number;
  /** The lease's life without renewal (default 30 s): how long a frozen holder blocks delivery. */
  leaseTtlMs?: number;
  /** Events and attempts are forgotten after this (default 7 days, and never before twice the retry period). */
  logRetentionMs?: number;
  fetch?: typeof fetch;
};

export type WebhookDelivery = {
  /** Whether this process holds the lease (delivers) now. */
  readonly delivering: boolean;
  /** Stops delivering: in-flight deliveries are aborted, the lease released. */
  stop(): Promise<void>;
};

const BATCH = 50;

export function backoffMs(failures: number, firstMs: number, maxMs: number): number {
  return Math.min(maxMs, firstMs * 2 ** Math.max(0, failures - 1));
}

export function startWebhookDelivery(engine: Engine, settings: WebhookDeliverySettings): WebhookDelivery {
  const { logger } = settings;
  const pollMs = settings.pollMs ?? 1000;
  const firstBackoffMs = settings.firstBackoffMs ?? 1000;
  const maxBackoffMs = settings.maxBackoffMs ?? 300_000;
  const leaseTtlMs = settings.leaseTtlMs ?? 30_000;
  const retentionMs = Math.max(settings.logRetentionMs ?? 7 * 86_400_000, settings.retryMs * 2);
  const stopping = new AbortController();
  const draining = new Map<string, Promise<void>>();
  let lease: Lease | undefined;
  let timer: NodeJS.Timeout | undefined;
  let ticking: Promise<void> | undefined;
  let lastPruned = 0;
  let failedTicks = 0;

  const schedule = (ms: number) => {
    if (stopping.signal.aborted) return;
    timer = setTimeout(() => {
      ticking = tick().finally(() => {
        ticking = undefined;
      });
    }, ms);
    timer.unref();
  };

  async function holdLease(): Promise<Lease | undefined> {
    if (lease && !lease.lost.aborted) return lease;
    if (lease) logger.warn('webhook delivery lease lost: another server delivers now');
    lease = undefined;
    try {
      lease = await acquireLease(engine, 'webhooks', {
        purpose: 'deliver webhooks',
        ttlMs: leaseTtlMs,
        renewEveryMs: Math.max(1000, Math.floor(leaseTtlMs / 4)),
      });
      logger.info('delivering webhooks (this server holds the webhooks lease)');
      return lease;
    } catch (error) {
      if (error instanceof LeaseHeldError) return undefined;
      throw error;
    }
  }

  async function tick(): Promise<void> {
    let next = pollMs;
    try {
      const held = await holdLease();
      if (!held) {
        next = Math.max(pollMs, Math.floor(leaseTtlMs / 4));
      } else {
        await refreshWebhooks(engine);
        const now = Date.now();
        // Every target, a page at a time: a list capped at one page left the rest undelivered.
        for await (const page of scanWebhooks(engine)) {
          for (const target of page) {
            if (target.state !== 'active' || draining.has(target.id)) continue;
            if (target.next_attempt_at && Date.parse(target.next_attempt_at) > now) continue;
            const signal = AbortSignal.any([stopping.signal, held.lost]);
            const run = drain(target, signal)
              .catch((error: unknown) => {
                if (!signal.aborted)
                  logger.warn({ err: error, webhook: target.id }, 'webhook delivery failed');
              })
              .finally(() => draining.delete(target.id));
            draining.set(target.id, run);
          }
        }
        if (now - lastPruned > 3_600_000) {
          lastPruned = now;
          await pruneWebhookLog(engine, new Date(now - retentionMs).toISOString());
        }
      }
      failedTicks = 0;
    } catch (error) {
      // An engine that is down is asked less and less often (at most every 30 s), and said once a try.
      failedTicks += 1;
      next = Math.min(30_000, pollMs * 2 ** Math.min(failedTicks, 10));
      if (!stopping.signal.aborted)
        logger.warn({ err: error, retryInMs: next }, 'webhook delivery: could not look for events');
    }
    schedule(next);
  }

  /** Delivers a target's pending events in order until none is left, one fails, or it is stopped. */
  async function drain(listed: WebhookTarget, signal: AbortSignal): Promise<void> {
    // The list is a search, a moment behind the last cursor written: read the target by id.
    const current = await getWebhook(engine, listed.id);
    if (current?.state !== 'active') return;
    if (current.next_attempt_at && Date.parse(current.next_attempt_at) > Date.now()) return;
    let target = current;
    for (;;) {
      const events = await nextEvents(engine, target.filter, target.cursor, BATCH);
      if (events.length === 0) return;
      for (const event of events) {
        if (signal.aborted) return;
        const attempt = target.failures + 1;
        const result = await deliverEvent(target, event, settings.baseUrl, {
          timeoutMs: settings.timeoutMs,
          allowPrivate: settings.allowPrivate,
          signal,
          ...(settings.fetch ? { fetch: settings.fetch } : {}),
        });
        if (signal.aborted && !result.ok) return;
        await recordAttempts(engine, [attemptOf(target, event, attempt, result)]).catch((error: unknown) =>
          logger.warn({ err: error }, 'could not record a webhook delivery attempt'),
        );
        const updated = await updateWebhook(engine, target.id, (current) =>
          result.ok ? delivered(current, event) : failed(current, event, result),
        );
        // Deleted meanwhile, paused, or waiting for its next attempt.
        if (updated?.state !== 'active' || !result.ok) {
          if (updated?.state === 'paused' && !result.ok) {
            logger.warn(
              { webhook: target.id, url: target.url, error: result.error },
              'webhook target paused: it kept failing for the whole retry period',
            );
          }
          return;
        }
        target = updated;
      }
    }
  }

  const delivered = (current: WebhookTarget, event: WebhookEvent): WebhookTarget => {
    const { failing_since: _f, next_attempt_at: _n, ...rest } = current;
    return {
      ...rest,
      cursor: Math.max(current.cursor, event.seq),
      failures: 0,
      last_success_at: new Date().toISOString(),
    };
  };

  const failed = (current: WebhookTarget, event: WebhookEvent, result: DeliveryResult): WebhookTarget => {
    // Another server moved past it already (a lease taken over meanwhile): nothing to retry.
    if (current.cursor >= event.seq) return current;
    const now = Date.now();
    const failures = current.failures + 1;
    const since = current.failing_since ?? new Date(now).toISOString();
    const error = result.error ?? `the target answered ${result.status}`;
    const base = {
      ...current,
      failures,
      failing_since: since,
      last_error: error,
      last_error_at: new Date(now).toISOString(),
    };
    if (now - Date.parse(since) >= settings.retryMs) {
      const { next_attempt_at: _n, ...paused } = base;
      return { ...paused, state: 'paused', paused_at: new Date(now).toISOString() };
    }
    return {
      ...base,
      next_attempt_at: new Date(now + backoffMs(failures, firstBackoffMs, maxBackoffMs)).toISOString(),
    };
  };

  schedule(0);

  return {
    get delivering() {
      return lease !== undefined && !lease.lost.aborted;
    },
    async stop() {
      stopping.abort();
      clearTimeout(timer);
      await ticking;
      await Promise.allSettled([...draining.values()]);
      await lease?.release();
      lease = undefined;
    },
  };
}

function attemptOf(target: WebhookTarget, event: WebhookEvent, attempt: number, result: DeliveryResult) {
  return {
    id: `${target.id}:${event.seq}:${attempt}`,
    webhook_id: target.id,
    event_id: eventMessageId(event),
    seq: event.seq,
    record_type: event.record_type,
    record_id: event.id,
    action: event.action,
    attempt,
    at: new Date().toISOString(),
    ok: result.ok,
    ...(result.status !== undefined ? { status: result.status } : {}),
    ...(result.error ? { error: result.error } : {}),
    duration_ms: result.durationMs,
  };
}
