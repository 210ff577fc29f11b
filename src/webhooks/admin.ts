/**
 * What the admin routes do with targets (AppDeps.webhooks, matched by structure: the API imports
 * nothing of this room): register, list, read, pause, resume, rotate the secret, remove, and read
 * recent attempts.
 *
 * A target's secret is the Standard Webhooks form, `whsec_` and base64 of 24 to 64 random bytes:
 * given by the operator, or made here. It is answered once, when the target is registered, and
 * never again. A target on a loopback, private, link-local or reserved address is refused unless
 * WEBHOOK_ALLOW_PRIVATE_TARGETS allows it (a webhook that may POST anywhere is a way into the
 * network the server runs in); delivery checks again at every attempt.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import type { Engine } from '../engine/engine.ts';
import {
  countWebhooks,
  createWebhook,
  currentSequence,
  deleteWebhook,
  getWebhook,
  listWebhooksPage,
  recentAttempts,
  updateWebhook,
} from '../engine/webhooks.ts';
import type { DeliveryAttempt, WebhookFilter, WebhookTarget } from '../index-mapping/webhook.document.ts';
import { checkRemoteUrl, RemoteRefused } from '../outbound/index.ts';
import { refusalText } from './delivery.ts';

/** A target as the admin routes show it: everything but the secret. */
export type WebhookView = Omit<WebhookTarget, 'secret'>;

export type WebhookRegistration = {
  url: string;
  secret?: string | undefined;
  filter?: WebhookFilter | undefined;
  description?: string | undefined;
};

const SECRET = /^whsec_([A-Za-z0-9+/]+={0,2})$/;

/** Whether a secret is the Standard Webhooks form with a key of 24 to 64 bytes. */
export function isWebhookSecret(secret: string): boolean {
  const match = SECRET.exec(secret);
  if (!match) return false;
  const bytes = Buffer.from(match[1]!, 'base64').length;
  return bytes >= 24 && bytes <= 64;
}

export const newWebhookSecret = () => `whsec_${randomBytes(32).toString('base64')}`;

const view = ({ secret: _secret, ...rest }: WebhookTarget): WebhookView => rest;

const compact = (filter: WebhookFilter | undefined): WebhookFilter =>
  Object.fromEntries(
    Object.entries(filter ?? {}).filter(([, values]) => Array.isArray(values) && values.length > 0),
  ) as WebhookFilter;

/** WEBHOOK_MAX_TARGETS' default: how many targets may be registered. */
export const DEFAULT_MAX_WEBHOOKS = 1000;

export type WebhookAdminOptions = {
  allowPrivate: boolean;
  /** How many targets may be registered (WEBHOOK_MAX_TARGETS); one more is refused. */
  maxTargets?: number;
};

export function createWebhookAdmin(engine: Engine, options: WebhookAdminOptions) {
  const maxTargets = options.maxTargets ?? DEFAULT_MAX_WEBHOOKS;
  const full = () => ({
    refused: `${maxTargets} webhook targets are registered, the most this server takes (WEBHOOK_MAX_TARGETS): remove one first`,
    full: true as const,
  });
  return {
    /**
     * The new target and its secret, or why it was refused: its URL or its secret, or (`full`)
     * the cap on registrations reached. Every target costs the delivery worker a read each second
     * and every publish an event per change, so their number is bounded.
     */
    async register(
      input: WebhookRegistration,
    ): Promise<{ webhook: WebhookView; secret: string } | { refused: string; full?: true }> {
      if ((await countWebhooks(engine)) >= maxTargets) return full();
      try {
        await checkRemoteUrl(input.url, options.allowPrivate ? 'any' : 'public');
      } catch (error) {
        if (error instanceof RemoteRefused) {
          return { refused: refusalText(error) };
        }
        // A name that does not resolve.
        return { refused: `${input.url}: ${(error as Error).message}` };
      }
      if (input.secret !== undefined && !isWebhookSecret(input.secret)) {
        return {
          refused:
            'secret: must be `whsec_` followed by the base64 of 24 to 64 random bytes (or leave it out to have one made)',
        };
      }
      const secret = input.secret ?? newWebhookSecret();
      const target: WebhookTarget = {
        id: randomUUID(),
        url: input.url,
        secret,
        filter: compact(input.filter),
        ...(input.description ? { description: input.description } : {}),
        created_at: new Date().toISOString(),
        state: 'active',
        // Changes published from now on.
        cursor: await currentSequence(engine),
        failures: 0,
      };
      await createWebhook(engine, target);
      // Two registrations at once may both have counted one place left: each counts again once
      // it is visible (created with refresh), and one past the cap takes itself back.
      if ((await countWebhooks(engine)) > maxTargets) {
        await deleteWebhook(engine, target.id);
        return full();
      }
      return { webhook: view(target), secret };
    },
    /** A page of the targets, oldest first, with how many there are. */
    async list(page: number, perPage: number): Promise<{ total: number; webhooks: WebhookView[] }> {
      const { total, targets } = await listWebhooksPage(engine, page, perPage);
      return { total, webhooks: targets.map(view) };
    },
    async get(id: string): Promise<WebhookView | undefined> {
      const target = await getWebhook(engine, id);
      return target && view(target);
    },
    /** Delivers again from where the target stopped (its failed event first). */
    async resume(id: string): Promise<WebhookView | undefined> {
      const target = await updateWebhook(engine, id, (current) => {
        const { paused_at: _p, failing_since: _f, next_attempt_at: _n, ...rest } = current;
        return { ...rest, state: 'active', failures: 0 };
      });
      return target && view(target);
    },
    /**
     * Stops delivery to a target by hand (a receiver under maintenance): the worker passes a
     * paused target by, and its cursor stays where it is, so a resume delivers what was published
     * meanwhile, in order. Pausing a paused target changes nothing.
     */
    async pause(id: string): Promise<WebhookView | undefined> {
      const target = await updateWebhook(engine, id, (current) => {
        if (current.state === 'paused') return undefined;
        const { next_attempt_at: _n, ...rest } = current;
        return { ...rest, state: 'paused', paused_at: new Date().toISOString() };
      });
      return target && view(target);
    },
    /**
     * A new signing secret (made here, or the operator's in the Standard Webhooks form), answered
     * this once: the next attempt is signed with it, the old one is never used again.
     */
    async rotateSecret(
      id: string,
      given?: string,
    ): Promise<{ webhook: WebhookView; secret: string } | { refused: string } | undefined> {
      if (given !== undefined && !isWebhookSecret(given)) {
        return {
          refused:
            'secret: must be `whsec_` followed by the base64 of 24 to 64 random bytes (or leave it out to have one made)',
        };
      }
      const secret = given ?? newWebhookSecret();
      const target = await updateWebhook(engine, id, (current) => ({ ...current, secret }));
      return target && { webhook: view(target), secret };
    },
    remove: (id: string): Promise<boolean> => deleteWebhook(engine, id),
    /** The target's most recent attempts, newest first; undefined when there is no such target. */
    async deliveries(id: string, limit: number): Promise<DeliveryAttempt[] | undefined> {
      if (!(await getWebhook(engine, id))) return undefined;
      return recentAttempts(engine, id, limit);
    },
  };
}

export type WebhookAdmin = ReturnType<typeof createWebhookAdmin>;
