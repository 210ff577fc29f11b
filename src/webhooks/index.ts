/**
 * Change webhooks: the public surface of this room (the composition root, src/cli, wires it; the
 * API sees the admin side as AppDeps.webhooks and imports nothing from here).
 *
 *   publish ──records events──▶ webhooks index ◀──follows, from each target's cursor── worker ──POST──▶ targets
 *
 * admin.ts registers targets; worker.ts delivers; delivery.ts signs and sends one event.
 */
export {
  createWebhookAdmin,
  DEFAULT_MAX_WEBHOOKS,
  isWebhookSecret,
  newWebhookSecret,
  type WebhookAdmin,
  type WebhookAdminOptions,
  type WebhookRegistration,
  type WebhookView,
} from './admin.ts';
export { deliverEvent, eventMessageId, toEventBody, type WebhookEventBody } from './delivery.ts';
export {
  backoffMs,
  startWebhookDelivery,
  type WebhookDelivery,
  type WebhookDeliverySettings,
} from './worker.ts';
