/**
 * A record endpoint (`/{resource}/{id}`): the stored record, fully nested, or 404.
 */
import { createRoute, z } from '@hono/zod-openapi';
import type { Context } from 'hono';
import { EngineNotFoundError } from '../engine/index.ts';
import { caseVariants } from '../index-mapping/ids.ts';
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
  app.openapi(route, (async (c: Context<AppEnv>) => {
    const valid = c.req.valid.bind(c.req) as unknown as Valid;
    const query = (endpoint.query ? valid('query') : {}) as z.output<Query>;
    // An id in another case than the one stored (see caseVariants): looked up again on a miss only.
    const asGiven = valid('param').id;
    const others = caseVariants(asGiven).slice(1);
    try {
      return await endpoint.handle(c, asGiven, query);
    } catch (error) {
      if (!(error instanceof EngineNotFoundError)) throw error;
      for (const id of others) {
        try {
          return await endpoint.handle(c, id, query);
        } catch (again) {
          if (!(again instanceof EngineNotFoundError)) throw again;
        }
      }
      throw error;
    }
  }) as never);
}

/** A 200 whose body is JSON text already (a record as stored). */
export const jsonText = (c: Context<AppEnv>, text: string) =>
  c.body(text, 200, { 'content-type': 'application/json' });
