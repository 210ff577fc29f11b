/**
 * The webhooks index, `${prefix}-webhooks`: everything change webhooks keep, one small index of
 * four kinds of document.
 *
 * - **event** (`event:<seq>`): one published change of a served record (created, updated,
 *   deleted), numbered by a sequence that only grows (the `sequence` document, advanced under the
 *   publish lease), with what a target's filter asks of it: the record's organization, taxonomy
 *   terms and taxonomies, and the source whose import or sync published it. Targets follow the
 *   events in sequence order, each from its own cursor.
 * - **webhook** (`webhook:<id>`): a registered target (URL, secret, filter) with its delivery
 *   state: the cursor (the last sequence delivered or given up), retry state, pause, last error.
 * - **attempt** (`attempt:<id>`): one delivery attempt, for GET /admin/webhooks/{id}/deliveries.
 * - **sequence** (`sequence`): the last sequence number handed out.
 *
 * Filter fields are keywords so that "the next events for this target" is one engine query
 * (webhook.query.ts); the rest is kept in `data` and never searched.
 */
import { date, keyword, storedOnly } from './analysis.ts';
import { F } from './fields.ts';
import { type ServedType, servedTypes } from './tombstone.document.ts';

export const WEBHOOKS_INDEX = 'webhooks';

const long = { type: 'long' } as const;

export const webhooksMapping = {
  dynamic: 'strict',
  properties: {
    kind: keyword,
    seq: long,
    at: date,
    webhook_id: keyword,
    record_type: keyword,
    action: keyword,
    organization_id: keyword,
    taxonomy_term_ids: keyword,
    taxonomy_ids: keyword,
    source: keyword,
    data: storedOnly,
  },
} as const;

export type WebhookAction = 'created' | 'updated' | 'deleted';

/** A published change, as the publish knows it (before it is numbered). */
export type RecordChange = {
  record_type: ServedType;
  id: string;
  action: WebhookAction;
  organization_id?: string;
  taxonomy_term_ids?: string[];
  taxonomy_ids?: string[];
};

/** A change as stored: numbered, timed, with the source that published it. */
export type WebhookEvent = RecordChange & { seq: number; at: string; source?: string };

export type WebhookEventDocument = {
  kind: 'event';
  seq: number;
  at: string;
  record_type: ServedType;
  action: WebhookAction;
  organization_id?: string;
  taxonomy_term_ids?: string[];
  taxonomy_ids?: string[];
  source?: string;
  data: { id: string };
};

export const eventDocumentId = (seq: number) => `event:${seq}`;
export const webhookDocumentId = (id: string) => `webhook:${id}`;
export const SEQUENCE_DOCUMENT_ID = 'sequence';

export function toEventDocument(event: WebhookEvent): WebhookEventDocument {
  return {
    kind: 'event',
    seq: event.seq,
    at: event.at,
    record_type: event.record_type,
    action: event.action,
    ...(event.organization_id ? { organization_id: event.organization_id } : {}),
    ...(event.taxonomy_term_ids?.length ? { taxonomy_term_ids: event.taxonomy_term_ids } : {}),
    ...(event.taxonomy_ids?.length ? { taxonomy_ids: event.taxonomy_ids } : {}),
    ...(event.source ? { source: event.source } : {}),
    data: { id: event.id },
  };
}

export function fromEventDocument(doc: WebhookEventDocument): WebhookEvent {
  return {
    seq: doc.seq,
    at: doc.at,
    record_type: doc.record_type,
    id: doc.data.id,
    action: doc.action,
    ...(doc.organization_id ? { organization_id: doc.organization_id } : {}),
    ...(doc.taxonomy_term_ids ? { taxonomy_term_ids: doc.taxonomy_term_ids } : {}),
    ...(doc.taxonomy_ids ? { taxonomy_ids: doc.taxonomy_ids } : {}),
    ...(doc.source ? { source: doc.source } : {}),
  };
}

const strings = (value: unknown): string[] =>
  Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string') : [];

/**
 * What a target's filter may ask of a served document (a read document, or the fields of one read
 * back before it is deleted): its organization, taxonomy terms and taxonomies. A record of those
 * types counts as its own (an organization is its own organization, a term its own term).
 */
export function changeAttributes(
  type: ServedType,
  id: string,
  doc: Record<string, unknown> | undefined,
): Pick<RecordChange, 'organization_id' | 'taxonomy_term_ids' | 'taxonomy_ids'> {
  const organization =
    type === 'organization'
      ? id
      : typeof doc?.[F.organizationId] === 'string'
        ? (doc[F.organizationId] as string)
        : undefined;
  const terms = type === 'taxonomy_term' ? [id] : strings(doc?.[F.taxonomyTermIds]);
  const taxonomies =
    type === 'taxonomy'
      ? [id]
      : type === 'taxonomy_term' && typeof doc?.[F.taxonomyId] === 'string'
        ? [doc[F.taxonomyId] as string]
        : strings(doc?.[F.taxonomyIds]);
  return {
    ...(organization ? { organization_id: organization } : {}),
    ...(terms.length ? { taxonomy_term_ids: terms } : {}),
    ...(taxonomies.length ? { taxonomy_ids: taxonomies } : {}),
  };
}

/** The fields a publish reads of a served document before it changes (changeAttributes). */
export const ATTRIBUTE_FIELDS = [F.organizationId, F.taxonomyTermIds, F.taxonomyIds, F.taxonomyId] as const;

/** What a target asks to hear about; an empty or absent list does not filter. Lists are ORed, fields ANDed. */
export type WebhookFilter = {
  record_types?: ServedType[];
  taxonomy_term_ids?: string[];
  taxonomy_ids?: string[];
  organization_ids?: string[];
  sources?: string[];
};

/** A registered target with its delivery state (what the worker and the admin routes read and write). */
export type WebhookTarget = {
  id: string;
  url: string;
  /** `whsec_` and the base64 of the key (the Standard Webhooks form). Never served after creation. */
  secret: string;
  filter: WebhookFilter;
  description?: string;
  created_at: string;
  /** `paused`: it failed for longer than the retry period; resumed by an operator. */
  state: 'active' | 'paused';
  /** The last sequence delivered (or skipped by the filter): delivery resumes after it. */
  cursor: number;
  /** The current event's failed attempts so far, and when the first of them failed. */
  failures: number;
  failing_since?: string;
  next_attempt_at?: string;
  last_error?: string;
  last_error_at?: string;
  last_success_at?: string;
  paused_at?: string;
};

/** `at`: when the target was registered, the order the admin list pages in (absent before 2026-12). */
export type WebhookDocument = { kind: 'webhook'; webhook_id: string; at?: string; data: WebhookTarget };

export const toWebhookDocument = (target: WebhookTarget): WebhookDocument => ({
  kind: 'webhook',
  webhook_id: target.id,
  at: target.created_at,
  data: target,
});

/** One delivery attempt of one event to one target. */
export type DeliveryAttempt = {
  id: string;
  webhook_id: string;
  event_id: string;
  seq: number;
  record_type: ServedType;
  record_id: string;
  action: WebhookAction;
  attempt: number;
  at: string;
  ok: boolean;
  status?: number;
  error?: string;
  duration_ms: number;
};

export type AttemptDocument = {
  kind: 'attempt';
  webhook_id: string;
  seq: number;
  at: string;
  data: DeliveryAttempt;
};

export const attemptDocumentId = (attempt: Pick<DeliveryAttempt, 'webhook_id' | 'seq' | 'attempt'>) =>
  `attempt:${attempt.webhook_id}:${attempt.seq}:${attempt.attempt}`;

/** The public path of a served record (the `/{type}/{id}` route it is read at). */
export const recordPath = (type: ServedType, id: string) => `/${servedTypes[type]}/${encodeURIComponent(id)}`;
