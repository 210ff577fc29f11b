/**
 * Queries of the webhooks index (webhook.document.ts): the next events a target should hear
 * about, its recent delivery attempts, and what is old enough to forget. Pure.
 */
import type { WebhookFilter } from './webhook.document.ts';

const termsIf = (field: string, values: readonly string[] | undefined) =>
  values && values.length > 0 ? [{ terms: { [field]: [...values] } }] : [];

/** The filter's conditions on an event: each list ORs its values, the lists AND. */
export function eventFilter(filter: WebhookFilter): object[] {
  return [
    ...termsIf('record_type', filter.record_types),
    ...termsIf('organization_id', filter.organization_ids),
    ...termsIf('taxonomy_term_ids', filter.taxonomy_term_ids),
    ...termsIf('taxonomy_ids', filter.taxonomy_ids),
    ...termsIf('source', filter.sources),
  ];
}

/** The first `size` events after `afterSeq` that `filter` lets through, in sequence order. */
export function buildNextEventsQuery(filter: WebhookFilter, afterSeq: number, size: number) {
  return {
    size,
    sort: [{ seq: 'asc' }],
    track_total_hits: false,
    query: {
      bool: {
        filter: [{ term: { kind: 'event' } }, { range: { seq: { gt: afterSeq } } }, ...eventFilter(filter)],
      },
    },
  };
}

/** A target's most recent delivery attempts, newest first. */
export function buildRecentAttemptsQuery(webhookId: string, size: number) {
  return {
    size,
    sort: [{ at: 'desc' }, { seq: 'desc' }],
    track_total_hits: false,
    query: { bool: { filter: [{ term: { kind: 'attempt' } }, { term: { webhook_id: webhookId } }] } },
  };
}

const webhookTargets = { term: { kind: 'webhook' } };

/**
 * One page of the registered targets, oldest first, with their exact count. `from` paging is
 * enough: registrations are capped (WEBHOOK_MAX_TARGETS, at most 10,000, the engine's window).
 * Targets registered before documents carried `at` come first, by id.
 */
export function buildWebhooksPageQuery(from: number, size: number) {
  return {
    from,
    size,
    track_total_hits: true,
    sort: [{ at: { order: 'asc', missing: '_first' } }, { webhook_id: 'asc' }],
    query: webhookTargets,
  };
}

/** The next `size` targets after `after` (a sort value of the last page), by id: every one, page by page. */
export function buildWebhooksAfterQuery(size: number, after: unknown[] | undefined) {
  return {
    size,
    track_total_hits: false,
    sort: [{ webhook_id: 'asc' }],
    query: webhookTargets,
    ...(after ? { search_after: after } : {}),
  };
}

/** Counts the registered targets. */
export function buildCountWebhooksQuery() {
  return { query: webhookTargets };
}

/** Events and attempts logged before `before` (ISO time). */
export function buildPruneQuery(before: string) {
  return {
    bool: {
      filter: [{ terms: { kind: ['event', 'attempt'] } }, { range: { at: { lt: before } } }],
    },
  };
}

/** A target's attempts (when it is deleted). */
export function buildAttemptsOfQuery(webhookId: string) {
  return { bool: { filter: [{ term: { kind: 'attempt' } }, { term: { webhook_id: webhookId } }] } };
}
