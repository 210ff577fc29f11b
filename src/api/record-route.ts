/**
 * A record endpoint (`/{resource}/{id}`): the stored record, fully nested, or 404.
 */
import { createRoute, z } from '@hono/zod-openapi';
import type { Context } from 'hono';
import type { App, AppEnv } from './app.ts';
import { idParam } from './list-params.ts';
import { errorResponses, notFoundResponse } from './problem.ts';
import { type RouteContext, requirementTag } from './route-context.ts';

export type RecordEndpoint<Query extends z.ZodObject> = {
  path: `${string}/{id}`;
  operationId: string;
  summary: string;
  description: string;
  idDescription: string;
  /** The id of the official HSDS example record of this kind (documentation, and test clients' first try). */
  idExample: string;
  schema: z.ZodType;
  responseDescription: string;
  query?: Query;
  handle: (c: Context<AppEnv>, id: string, query: z.output<Query>) => Promise<Response>;
};

export function registerRecordEndpoint<Query extends z.ZodObject>(
  app: App,
  ctx: RouteContext,
  endpoint: RecordEndpoint<Query>,
) {
  const route = createRoute({
    method: 'get',
    path: endpoint.path,
    operationId: endpoint.operationId,
    tags: [requirementTag(ctx, 'get', endpoint.path)],
    summary: endpoint.summary,
    description: endpoint.description,
    request: {
      params: z.object({ id: idParam(endpoint.idDescription, endpoint.idExample) }),
      ...(endpoint.query ? { query: endpoint.query } : {}),
    },
    responses: {
      200: {
        description: endpoint.responseDescription,
        content: { 'application/json': { schema: endpoint.schema } },
      },
      ...notFoundResponse,
      ...errorResponses,
    },
  });
  type Valid = (target: 'param' | 'query') => { id: string } & z.output<Query>;
  app.openapi(route, ((c: Context<AppEnv>) => {
    const valid = c.req.valid.bind(c.req) as unknown as Valid;
    return endpoint.handle(c, valid('param').id, (endpoint.query ? valid('query') : {}) as z.output<Query>);
  }) as never);
}

/** A 200 whose body is JSON text already (a record as stored). */
export const jsonText = (c: Context<AppEnv>, text: string) =>
  c.body(text, 200, { 'content-type': 'application/json' });
