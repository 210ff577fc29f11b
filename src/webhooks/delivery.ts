/**
 * One delivery: an event as a Standard Webhooks message (https://www.standardwebhooks.com/), signed
 * with the target's secret by the `standardwebhooks` package and POSTed to the target.
 *
 * The body names the change, never the record: the record's id, type, the action, when it was
 * published, its sequence, and the URL the record is read at now (`/services/{id}`: a deleted
 * record's URL answers 404 there). A receiver that wants the record reads it; one that missed
 * events can harvest with `modified_after` and `include_deleted=true`.
 *
 * `webhook-id` is the event's own id, the same on every retry, so a receiver can drop a message
 * it has seen (delivery is at least once). `webhook-timestamp` is the attempt's time: the
 * signature covers it, and receivers refuse old timestamps (five minutes in the package).
 */
import { Webhook } from 'standardwebhooks';
import { recordPath, type WebhookEvent } from '../index-mapping/webhook.document.ts';
import { checkRemoteUrl, RemoteRefused } from '../outbound/index.ts';

/** What a target receives: the Standard Webhooks envelope (`type`, `timestamp`, `data`). */
export type WebhookEventBody = {
  type: string;
  timestamp: string;
  data: {
    id: string;
    record_type: WebhookEvent['record_type'];
    action: WebhookEvent['action'];
    url: string;
    published_at: string;
    sequence: number;
  };
};

/** The message id of an event: its sequence, with its time so that a store started again does not reuse one. */
export const eventMessageId = (event: WebhookEvent) =>
  `evt_${event.seq}_${Date.parse(event.at).toString(36)}`;

export function toEventBody(event: WebhookEvent, baseUrl: string): WebhookEventBody {
  return {
    type: `${event.record_type}.${event.action}`,
    timestamp: event.at,
    data: {
      id: event.id,
      record_type: event.record_type,
      action: event.action,
      url: `${baseUrl.replace(/\/+$/, '')}${recordPath(event.record_type, event.id)}`,
      published_at: event.at,
      sequence: event.seq,
    },
  };
}

/** The guard's refusal, naming this feature's setting rather than the validator's. */
export const refusalText = (error: RemoteRefused) =>
  error.message.replace('(VALIDATE_REMOTE=any allows it)', '(WEBHOOK_ALLOW_PRIVATE_TARGETS allows it)');

export type DeliveryResult = { ok: boolean; status?: number; error?: string; durationMs: number };

export type DeliverOptions = {
  timeoutMs: number;
  /** Targets on loopback, private, link-local or reserved addresses (WEBHOOK_ALLOW_PRIVATE_TARGETS). */
  allowPrivate: boolean;
  signal?: AbortSignal;
  fetch?: typeof fetch;
  now?: () => number;
};

/** Signs and POSTs one event; never throws (a failure is a result, with why). */
export async function deliverEvent(
  target: { url: string; secret: string },
  event: WebhookEvent,
  baseUrl: string,
  options: DeliverOptions,
): Promise<DeliveryResult> {
  const now = options.now ?? Date.now;
  const started = now();
  const elapsed = () => now() - started;
  try {
    // Checked at every attempt, not only at registration: a name may resolve elsewhere by now.
    await checkRemoteUrl(target.url, options.allowPrivate ? 'any' : 'public');
    const payload = JSON.stringify(toEventBody(event, baseUrl));
    const id = eventMessageId(event);
    // One instant for the header and the signature (two clocks reads could straddle a second).
    const timestamp = new Date(Math.floor(now() / 1000) * 1000);
    const signature = new Webhook(target.secret).sign(id, timestamp, payload);
    const timeout = AbortSignal.timeout(options.timeoutMs);
    const response = await (options.fetch ?? fetch)(target.url, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        'user-agent': 'hsds-api-webhooks',
        'webhook-id': id,
        'webhook-timestamp': String(timestamp.getTime() / 1000),
        'webhook-signature': signature,
      },
      body: payload,
      // A redirect is not followed: where it points was never checked, nor agreed to.
      redirect: 'manual',
      signal: options.signal ? AbortSignal.any([options.signal, timeout]) : timeout,
    });
    await response.body?.cancel().catch(() => {});
    if (response.status >= 200 && response.status < 300) {
      return { ok: true, status: response.status, durationMs: elapsed() };
    }
    return {
      ok: false,
      status: response.status,
      error: `the target answered ${response.status}${response.status >= 300 && response.status < 400 ? ' (redirects are not followed)' : ''}`,
      durationMs: elapsed(),
    };
  } catch (error) {
    const why =
      error instanceof RemoteRefused
        ? refusalText(error)
        : (error as Error).name === 'TimeoutError'
          ? `no answer within ${options.timeoutMs} ms`
          : describeFetchError(error);
    return { ok: false, error: why, durationMs: elapsed() };
  }
}

/** fetch says "fetch failed"; the reason (refused, reset, unknown host) is in its cause. */
function describeFetchError(error: unknown): string {
  const cause = (error as { cause?: { code?: string; message?: string } }).cause;
  if (cause?.code) return `${cause.code}: ${cause.message ?? (error as Error).message}`;
  return (error as Error).message;
}
