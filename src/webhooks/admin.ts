/**
 * What the admin routes do with targets (AppDeps.webhooks, matched by structure: the API imports
 * nothing of this room): register, list, read, resume, remove, and read recent attempts.
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
  createWebhook,
  currentSequence,
  deleteWebhook,
  getWebhook,
  listWebhooks,
  recentAttempts,
  updateWebhook,
} from '../engine/webhooks.ts';
import type { DeliveryAttempt, WebhookFilter, WebhookTarget } from '../index-mapping/webhook.document.ts';
import { checkRemoteUrl, RemoteRefused } from '../ingest/index.ts';
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

export function createWebhookAdmin(engine: Engine, options: { allowPrivate: boolean }) {
  return {
    /** The new target and its secret, or why it was refused (its URL or its secret). */
    async register(
      input: WebhookRegistration,
    ): Promise<{ webhook: WebhookView; secret: string } | { refused: string }> {
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
      return { webhook: view(target), secret };
    },
    async list(): Promise<WebhookView[]> {
      return (await listWebhooks(engine)).map(view);
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
    remove: (id: string): Promise<boolean> => deleteWebhook(engine, id),
    /** The target's most recent attempts, newest first; undefined when there is no such target. */
    async deliveries(id: string, limit: number): Promise<DeliveryAttempt[] | undefined> {
      if (!(await getWebhook(engine, id))) return undefined;
      return recentAttempts(engine, id, limit);
    },
  };
}

export type WebhookAdmin = ReturnType<typeof createWebhookAdmin>;
