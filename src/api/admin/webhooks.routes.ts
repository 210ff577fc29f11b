/**
 * Change webhooks (admin scope; registered with the admin routes): register a target, list and
 * remove targets, pause and resume one, rotate its secret, read its recent delivery attempts. The targets and the
 * delivery live in src/webhooks (AppDeps.webhooks); the event a target receives is described here
 * too, as the document's `webhooks` entry `recordChanged`.
 */
import { createRoute, z } from '@hono/zod-openapi';
import { servedTypes } from '../../index-mapping/tombstone.document.ts';
import { ADMIN_SECURITY, adminAuthResponses } from '../http/auth.ts';
import { ApiProblem, bodyErrorResponses, errorResponses, problemContent } from '../http/problem.ts';
import { integerParam } from '../lists/list-params.ts';
import { toPage } from '../lists/paging.ts';
import type { App, AppDeps, Webhooks } from '../types.ts';

const recordType = z.enum(
  Object.keys(servedTypes) as [keyof typeof servedTypes, ...(keyof typeof servedTypes)[]],
);
const ids = (description: string) =>
  z.array(z.string().min(1).max(500)).max(1000).optional().openapi({ description });

const filterSchema = z
  .object({
    record_types: z
      .array(recordType)
      .max(5)
      .optional()
      .openapi({ description: 'Only changes of these record types.' }),
    taxonomy_term_ids: ids(
      "Only changes of records carrying one of these taxonomy terms (a service's or service_at_location's terms, or the term itself).",
    ),
    taxonomy_ids: ids(
      'Only changes of records with a term of one of these taxonomies (or the taxonomy itself).',
    ),
    organization_ids: ids(
      'Only changes of these organizations and of their services and service_at_locations.',
    ),
    sources: ids(
      'Only changes published by an import, sync or deletion of one of these sources (`--source`, else the path or URL); a write through the API is the source `api:<token name>`.',
    ),
  })
  .strict()
  .openapi('WebhookFilter', {
    description:
      'What a target hears about. A list matches any of its values; the lists given must all match; an empty filter lets every change through. A deleted record is matched on what it was when it went.',
  });

const webhookSchema = z
  .object({
    id: z.string().openapi({ description: 'The target id.' }),
    url: z.string().openapi({ description: 'Where each change is POSTed.' }),
    filter: filterSchema,
    description: z.string().optional(),
    created_at: z.string().openapi({ format: 'date-time' }),
    state: z.enum(['active', 'paused']).openapi({
      description:
        '`paused`: one change kept failing for the whole retry period (WEBHOOK_RETRY_HOURS); nothing is delivered until `POST /admin/webhooks/{id}/resume`, which starts again with that change.',
    }),
    cursor: z.number().int().openapi({
      description: 'The sequence number of the last change delivered; delivery goes on after it.',
    }),
    failures: z.number().int().openapi({ description: 'Failed attempts at the current change.' }),
    failing_since: z.string().optional().openapi({ format: 'date-time' }),
    next_attempt_at: z.string().optional().openapi({ format: 'date-time' }),
    last_error: z.string().optional().openapi({ description: 'Why the last failed attempt failed.' }),
    last_error_at: z.string().optional().openapi({ format: 'date-time' }),
    last_success_at: z.string().optional().openapi({ format: 'date-time' }),
    paused_at: z.string().optional().openapi({ format: 'date-time' }),
  })
  .openapi('Webhook');

const createdSchema = webhookSchema
  .extend({
    secret: z.string().openapi({
      description:
        'The signing secret (Standard Webhooks form, `whsec_...`): shown in this answer only, never again.',
    }),
  })
  .openapi('WebhookCreated');

const registrationSchema = z
  .object({
    url: z
      .url({ protocol: /^https?$/ })
      .max(2000)
      .openapi({
        description:
          'An http(s) URL. One on a loopback, private, link-local or reserved address is refused unless the server allows it (WEBHOOK_ALLOW_PRIVATE_TARGETS).',
        example: 'https://example.org/hooks/directory',
      }),
    secret: z.string().max(200).optional().openapi({
      description:
        'The signing secret: `whsec_` and the base64 of 24 to 64 random bytes. Left out, one is made and answered once.',
    }),
    filter: filterSchema.optional(),
    description: z.string().max(500).optional(),
  })
  .strict()
  .openapi('WebhookRegistration');

const deliverySchema = z
  .object({
    id: z.string(),
    webhook_id: z.string(),
    event_id: z.string().openapi({ description: 'The `webhook-id` header sent (the same on every retry).' }),
    seq: z.number().int().openapi({ description: "The change's sequence number." }),
    record_type: recordType,
    record_id: z.string(),
    action: z.enum(['created', 'updated', 'deleted']),
    attempt: z.number().int().openapi({ description: 'Which attempt at this change (from 1).' }),
    at: z.string().openapi({ format: 'date-time' }),
    ok: z.boolean(),
    status: z
      .number()
      .int()
      .optional()
      .openapi({ description: "The target's HTTP status, when it answered." }),
    error: z.string().optional(),
    duration_ms: z.number().int(),
  })
  .openapi('WebhookDelivery');

export const webhookEventSchema = z
  .object({
    type: z.string().openapi({
      description: '`<record_type>.<action>`, e.g. `service.updated`.',
      example: 'service.updated',
    }),
    timestamp: z.string().openapi({ format: 'date-time', description: 'When the change was published.' }),
    data: z.object({
      id: z.string().openapi({ description: "The record's id." }),
      record_type: recordType,
      action: z.enum(['created', 'updated', 'deleted']).openapi({
        description:
          '`created`: newly served; `updated`: served differently (its own fields, or a record it nests or summarises); `deleted`: no longer served (its URL answers 404; `include_deleted=true` lists it).',
      }),
      url: z.string().openapi({
        description:
          'Where the record is read now (PUBLIC_BASE_URL and `/{type}/{id}`); the body never carries the record.',
        example: 'https://api.example.org/services/0a8b5c34-4c6e-4f0b-9d54-7a8b2f1e3c11',
      }),
      published_at: z.string().openapi({ format: 'date-time' }),
      sequence: z.number().int().openapi({
        description: 'The order changes were published in: a later change of a record has a higher number.',
      }),
    }),
  })
  .openapi('WebhookEvent');

const idParam = z.object({
  id: z
    .string()
    .min(1)
    .max(100)
    .openapi({ param: { name: 'id', in: 'path' } }),
});

const listRoute = createRoute({
  method: 'get',
  path: '/admin/webhooks',
  operationId: 'listWebhooks',
  tags: ['webhooks'],
  summary:
    'The registered webhook targets, with their delivery state (never their secrets), a page at a time.',
  description:
    'Oldest first, `per_page` at a time (50 unless given, at most 1000), with the paging fields of an HSDS Page (`total_items` is exact) around `webhooks`. At most WEBHOOK_MAX_TARGETS (1000 by default) targets can be registered.',
  security: ADMIN_SECURITY,
  request: {
    query: z.object({
      page: integerParam('The page, from 1.', 1, 10_000).optional(),
      per_page: integerParam('Targets a page (default 50).', 1, 1000).optional(),
    }),
  },
  responses: {
    200: {
      description: 'A page of the targets.',
      content: {
        'application/json': {
          schema: z
            .object({
              total_items: z.number().int().openapi({ description: 'How many targets are registered.' }),
              total_pages: z.number().int(),
              page_number: z.number().int(),
              size: z.number().int().openapi({ description: 'How many targets this page holds.' }),
              first_page: z.boolean(),
              last_page: z.boolean(),
              empty: z.boolean(),
              webhooks: z.array(webhookSchema),
            })
            .openapi('WebhookPage'),
        },
      },
    },
    ...adminAuthResponses,
    ...errorResponses,
  },
});

const createRoute_ = createRoute({
  method: 'post',
  path: '/admin/webhooks',
  operationId: 'createWebhook',
  tags: ['webhooks'],
  summary: 'Registers a target for change webhooks.',
  description:
    "From now on, every published change of a served record (created, updated, deleted; by an import, a sync, a write or a deletion) that the filter lets through is POSTed to `url`, signed per Standard Webhooks (`webhook-id`, `webhook-timestamp`, `webhook-signature`: HMAC-SHA256 with the secret; verify with any Standard Webhooks library). The body is a `WebhookEvent` (see `webhooks.recordChanged`): the record's id, type, the action, when, and its URL, never the record. Delivery is at least once (drop repeats by `webhook-id`), in publishing order, retried with backoff for WEBHOOK_RETRY_HOURS, then the target is paused. Publishing never waits for a target.",
  security: ADMIN_SECURITY,
  request: {
    body: { required: true, content: { 'application/json': { schema: registrationSchema } } },
  },
  responses: {
    201: {
      description: 'Registered; the answer carries the secret, this once.',
      headers: { Location: { schema: { type: 'string' }, description: '/admin/webhooks/{id}.' } },
      content: { 'application/json': { schema: createdSchema } },
    },
    ...adminAuthResponses,
    409: problemContent(
      'WEBHOOK_MAX_TARGETS targets (1000 by default) are registered already: remove one before registering another.',
    ),
    422: problemContent(
      'The URL is refused (not http(s), a loopback, private, link-local or reserved address, a name that does not resolve) or the secret is not in the Standard Webhooks form.',
    ),
    ...errorResponses,
    ...bodyErrorResponses,
  },
});

const getRoute = createRoute({
  method: 'get',
  path: '/admin/webhooks/{id}',
  operationId: 'getWebhook',
  tags: ['webhooks'],
  summary: 'A target and its delivery state: cursor, failures, last error, paused or not.',
  security: ADMIN_SECURITY,
  request: { params: idParam },
  responses: {
    200: { description: 'The target.', content: { 'application/json': { schema: webhookSchema } } },
    ...adminAuthResponses,
    404: problemContent('No target has this id.'),
    ...errorResponses,
  },
});

const deleteRoute = createRoute({
  method: 'delete',
  path: '/admin/webhooks/{id}',
  operationId: 'deleteWebhook',
  tags: ['webhooks'],
  summary: 'Removes a target (and its delivery history); nothing more is sent to it.',
  security: ADMIN_SECURITY,
  request: { params: idParam },
  responses: {
    204: { description: 'Removed.' },
    ...adminAuthResponses,
    404: problemContent('No target has this id.'),
    ...errorResponses,
  },
});

const resumeRoute = createRoute({
  method: 'post',
  path: '/admin/webhooks/{id}/resume',
  operationId: 'resumeWebhook',
  tags: ['webhooks'],
  summary: 'Resumes a paused target: delivery starts again with the change it was paused on.',
  security: ADMIN_SECURITY,
  request: { params: idParam },
  responses: {
    200: { description: 'The target, active.', content: { 'application/json': { schema: webhookSchema } } },
    ...adminAuthResponses,
    404: problemContent('No target has this id.'),
    ...errorResponses,
  },
});

const pauseRoute = createRoute({
  method: 'post',
  path: '/admin/webhooks/{id}/pause',
  operationId: 'pauseWebhook',
  tags: ['webhooks'],
  summary: 'Pauses a target by hand: nothing is delivered to it until it is resumed.',
  description:
    'Changes published meanwhile are kept in order: `POST /admin/webhooks/{id}/resume` delivers them, from where the target stopped. Pausing a paused target changes nothing.',
  security: ADMIN_SECURITY,
  request: { params: idParam },
  responses: {
    200: { description: 'The target, paused.', content: { 'application/json': { schema: webhookSchema } } },
    ...adminAuthResponses,
    404: problemContent('No target has this id.'),
    ...errorResponses,
  },
});

const rotateRoute = createRoute({
  method: 'post',
  path: '/admin/webhooks/{id}/secret',
  operationId: 'rotateWebhookSecret',
  tags: ['webhooks'],
  summary: "Rotates a target's signing secret; the new one is answered this once.",
  description:
    'The next attempt (a retry included) is signed with the new secret, per Standard Webhooks; the old one is never used again, so update the receiver with the answer. Without a body (or without `secret`) a secret is made.',
  security: ADMIN_SECURITY,
  request: {
    params: idParam,
    body: {
      required: false,
      content: {
        'application/json': {
          schema: z
            .object({
              secret: z.string().max(200).optional().openapi({
                description:
                  'The new secret: `whsec_` and the base64 of 24 to 64 random bytes. Left out, one is made.',
              }),
            })
            .strict()
            .openapi('WebhookSecretRotation'),
        },
      },
    },
  },
  responses: {
    200: {
      description: 'Rotated; the answer carries the new secret, this once.',
      content: { 'application/json': { schema: createdSchema } },
    },
    ...adminAuthResponses,
    404: problemContent('No target has this id.'),
    422: problemContent('The secret given is not in the Standard Webhooks form.'),
    ...errorResponses,
    ...bodyErrorResponses,
  },
});

const deliveriesRoute = createRoute({
  method: 'get',
  path: '/admin/webhooks/{id}/deliveries',
  operationId: 'getWebhookDeliveries',
  tags: ['webhooks'],
  summary: "A target's recent delivery attempts, newest first.",
  description:
    'Each attempt: the change (sequence, record, action), which attempt, when, the status answered or the error, how long it took. Kept 7 days (or twice WEBHOOK_RETRY_HOURS, if longer).',
  security: ADMIN_SECURITY,
  request: {
    params: idParam,
    query: z.object({
      limit: z.coerce
        .number()
        .int()
        .min(1)
        .max(500)
        .default(50)
        .openapi({ description: 'How many (at most 500).' }),
    }),
  },
  responses: {
    200: {
      description: 'The attempts.',
      content: { 'application/json': { schema: z.object({ deliveries: z.array(deliverySchema) }) } },
    },
    ...adminAuthResponses,
    404: problemContent('No target has this id.'),
    ...errorResponses,
  },
});

export function registerWebhookRoutes(app: App) {
  const webhooksOf = (deps: AppDeps): Webhooks => {
    if (!deps.webhooks) throw new ApiProblem(503, 'webhooks are not available in this server');
    return deps.webhooks;
  };
  const notFound = () => new ApiProblem(404, 'no webhook has this id');

  app.openAPIRegistry.registerWebhook({
    method: 'post',
    path: 'recordChanged',
    operationId: 'recordChanged',
    tags: ['webhooks'],
    summary: 'A served record was created, updated or deleted (sent to each target whose filter it passes).',
    description:
      "Headers per Standard Webhooks: `webhook-id` (the same on every retry of the change), `webhook-timestamp` (seconds, the attempt's time) and `webhook-signature` (`v1,` and the base64 HMAC-SHA256 of `id.timestamp.body` with the secret's key). Answer 2xx to acknowledge; anything else, a redirect or no answer within WEBHOOK_TIMEOUT_MS is retried.",
    request: {
      headers: z.object({
        'webhook-id': z.string(),
        'webhook-timestamp': z.string(),
        'webhook-signature': z.string(),
      }),
      body: { required: true, content: { 'application/json': { schema: webhookEventSchema } } },
    },
    responses: {
      200: { description: 'Any 2xx acknowledges the change.' },
    },
  });

  app.openapi(listRoute, async (c) => {
    const { page = 1, per_page: perPage = 50 } = c.req.valid('query');
    const { total, webhooks } = await webhooksOf(c.get('deps')).list(page, perPage);
    const { contents, ...envelope } = toPage(webhooks, total, page, perPage);
    return c.json({ ...envelope, webhooks: contents }, 200);
  });

  app.openapi(createRoute_, async (c) => {
    const registered = await webhooksOf(c.get('deps')).register(c.req.valid('json'));
    if ('refused' in registered) throw new ApiProblem(registered.full ? 409 : 422, registered.refused);
    c.header('location', `/admin/webhooks/${registered.webhook.id}`);
    return c.json({ ...registered.webhook, secret: registered.secret }, 201);
  });

  app.openapi(getRoute, async (c) => {
    const webhook = await webhooksOf(c.get('deps')).get(c.req.valid('param').id);
    if (!webhook) throw notFound();
    return c.json(webhook, 200);
  });

  app.openapi(deleteRoute, async (c) => {
    if (!(await webhooksOf(c.get('deps')).remove(c.req.valid('param').id))) throw notFound();
    return c.body(null, 204);
  });

  app.openapi(resumeRoute, async (c) => {
    const webhook = await webhooksOf(c.get('deps')).resume(c.req.valid('param').id);
    if (!webhook) throw notFound();
    return c.json(webhook, 200);
  });

  app.openapi(pauseRoute, async (c) => {
    const webhook = await webhooksOf(c.get('deps')).pause(c.req.valid('param').id);
    if (!webhook) throw notFound();
    return c.json(webhook, 200);
  });

  app.openapi(rotateRoute, async (c) => {
    const given = c.req.valid('json')?.secret;
    const rotated = await webhooksOf(c.get('deps')).rotateSecret(c.req.valid('param').id, given);
    if (!rotated) throw notFound();
    if ('refused' in rotated) throw new ApiProblem(422, rotated.refused);
    return c.json({ ...rotated.webhook, secret: rotated.secret }, 200);
  });

  app.openapi(deliveriesRoute, async (c) => {
    const { id } = c.req.valid('param');
    const deliveries = await webhooksOf(c.get('deps')).deliveries(id, c.req.valid('query').limit);
    if (!deliveries) throw notFound();
    return c.json({ deliveries }, 200);
  });
}
