import { createRoute, z } from '@hono/zod-openapi';
import { getEngineHealth } from '../../engine/index.ts';
import type { App } from '../app.ts';
import { errorResponses, PROBLEM_CONTENT_TYPE, problemSchema } from '../problem.ts';
import { apiInfo } from '../profile.ts';
import { publicBaseUrl } from '../public-url.ts';

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
      })
      .optional(),
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

const healthSchema = z
  .object({
    status: z.enum(['ok']),
    engine: z.object({
      status: z.enum(['green', 'yellow', 'red']),
      cluster: z.string(),
      nodes: z.number().int(),
    }),
  })
  .openapi('Health');

const healthRoute = createRoute({
  method: 'get',
  path: '/health',
  operationId: 'getHealth',
  tags: ['operations'],
  summary: 'Whether the API can reach its search engine.',
  responses: {
    200: {
      description: 'The engine is reachable.',
      content: { 'application/json': { schema: healthSchema } },
    },
    503: {
      description: 'The engine is unreachable or its cluster is red.',
      content: { [PROBLEM_CONTENT_TYPE]: { schema: problemSchema } },
    },
  },
});

export function registerRootRoutes(app: App) {
  app.openapi(rootRoute, (c) => {
    const { config } = c.get('deps');
    return c.json(apiInfo(config, publicBaseUrl(c, config)), 200);
  });

  app.openapi(healthRoute, async (c) => {
    const health = await getEngineHealth(c.get('deps').engine);
    if (health.status === 'red') {
      return c.json(
        {
          type: 'https://hsds-directory.dev/problems/engine-unavailable',
          title: 'Service unavailable',
          status: 503,
          detail: 'the search cluster is red',
        },
        503,
        { 'content-type': PROBLEM_CONTENT_TYPE },
      );
    }
    return c.json({ status: 'ok' as const, engine: health }, 200);
  });
}
