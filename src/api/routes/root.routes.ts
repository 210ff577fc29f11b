import { createRoute, z } from '@hono/zod-openapi';
import { checkServedData, getEngineHealth, unservedIndices } from '../../engine/index.ts';
import { ApiProblem, errorResponses, PROBLEM_CONTENT_TYPE, problemSchema } from '../http/problem.ts';
import { apiInfo } from '../http/profile.ts';
import { publicBaseUrl } from '../http/public-url.ts';
import type { App } from '../types.ts';

const apiInfoSchema = z
  .object({
    version: z.string().openapi({ description: 'HSDS version of this API.', example: '3.1.1' }),
    profile: z.url().openapi({ description: 'URL of the information on the HSDS profile of this API.' }),
    openapi_url: z.url().openapi({ description: 'URL of the openapi JSON file which defines this API.' }),
    description: z
      .string()
      .optional()
      .openapi({ description: 'A human-readable description of this API feed' }),
    publisher: z
      .object({
        name: z.string().optional().openapi({ description: 'The name of the publisher of this API feed.' }),
        identifier: z.string().optional().openapi({
          description:
            'An organization identifier string formatted according to org-id.guide e.g. GB-COH-123456.',
        }),
        email: z.email().optional().openapi({
          description: 'An email address that can be used to submit feedback about data in this feed.',
        }),
        website: z
          .url()
          .optional()
          .openapi({ description: 'A URL that can be used to submit feedback about data in this feed.' }),
        additional_websites: z
          .array(z.object({ url: z.url().openapi({ description: 'The URL of the website.' }) }))
          .optional()
          .openapi({
            description:
              "HSDS 3.2 (optional): the publisher's other websites (PUBLISHER_ADDITIONAL_WEBSITES), each as an object with its `url`.",
          }),
      })
      .optional(),
    data_guide: z.url().optional().openapi({
      description:
        "HSDS 3.2 (optional): a URL of a guide to this feed's data: what it covers and how it is kept (DATA_GUIDE_URL).",
    }),
  })
  .openapi('ApiInfo');

const rootRoute = createRoute({
  method: 'get',
  path: '/',
  operationId: 'getAPIMetaInformation',
  tags: ['required'],
  summary: 'Retrieve information about this API and its relationship with HSDS.',
  responses: {
    200: {
      description: 'Information about this API.',
      content: { 'application/json': { schema: apiInfoSchema } },
    },
    ...errorResponses,
  },
});

const servedIndexSchema = z.object({
  index: z.string().optional().openapi({ description: 'The versioned index the alias points at.' }),
  served: z.number().int().optional().openapi({ description: 'Documents served now.' }),
  published: z
    .number()
    .int()
    .optional()
    .openapi({ description: 'Documents the version was verified to hold when it was published.' }),
});

const engineSchema = z.object({
  status: z.enum(['green', 'yellow', 'red']),
  cluster: z.string(),
  nodes: z.number().int(),
});

const healthSchema = z
  .object({
    status: z.enum(['ok']),
    engine: engineSchema,
    data: z.record(z.string(), servedIndexSchema).openapi({
      description: 'Each read index: what it serves against what was published.',
    }),
  })
  .openapi('Health');

const readySchema = z.object({ status: z.enum(['ready']) }).openapi('Ready');

const unavailable = (description: string) => ({
  description,
  content: { [PROBLEM_CONTENT_TYPE]: { schema: problemSchema } },
});

const healthRoute = createRoute({
  method: 'get',
  path: '/health',
  operationId: 'getHealth',
  tags: ['operations'],
  summary: 'Whether the API can reach its engine and serves the data that was published.',
  description:
    'For monitoring: 200 when the engine is reachable and every read index serves exactly the documents ' +
    'its version was verified to hold when it was published; 503 otherwise (engine unreachable or red, ' +
    'nothing published yet, an index missing, or documents lost), with the reasons in `detail`. ' +
    'Orchestrators deciding whether to send traffic should use `/ready`.',
  responses: {
    200: {
      description: 'The engine is reachable and the served data is as published.',
      content: { 'application/json': { schema: healthSchema } },
    },
    503: unavailable('The engine is unreachable or red, or the served data is missing or incomplete.'),
  },
});

const readyRoute = createRoute({
  method: 'get',
  path: '/ready',
  operationId: 'getReady',
  tags: ['operations'],
  summary: 'Whether this instance can answer requests (for load balancers and orchestrators).',
  description:
    'Cheaper and more lenient than `/health`: 200 when the engine is reachable and every read index has ' +
    'an alias, even if its data is stale or incomplete (serving what there is beats serving nothing).',
  responses: {
    200: { description: 'Ready.', content: { 'application/json': { schema: readySchema } } },
    503: unavailable('The engine is unreachable or red, or no data is published yet.'),
  },
});

/** A 503 `unhealthy` problem (app.ts answers it, with Retry-After). */
const unhealthy = (detail: string) => new ApiProblem(503, detail, { type: 'unhealthy' });

export function registerRootRoutes(app: App) {
  app.openapi(rootRoute, (c) => {
    const { config } = c.get('deps');
    return c.json(apiInfo(config, publicBaseUrl(c, config)), 200);
  });

  app.openapi(healthRoute, async (c) => {
    const { engine } = c.get('deps');
    const health = await getEngineHealth(engine);
    if (health.status === 'red') throw unhealthy('the search cluster is red');
    const data = await checkServedData(engine);
    if (data.problems.length > 0) throw unhealthy(data.problems.join('; '));
    return c.json({ status: 'ok' as const, engine: health, data: data.indices }, 200);
  });

  app.openapi(readyRoute, async (c) => {
    const { engine } = c.get('deps');
    const health = await getEngineHealth(engine);
    if (health.status === 'red') throw unhealthy('the search cluster is red');
    const missing = await unservedIndices(engine);
    if (missing.length > 0) throw unhealthy(`no index is served for ${missing.join(', ')}`);
    return c.json({ status: 'ready' as const }, 200);
  });
}
