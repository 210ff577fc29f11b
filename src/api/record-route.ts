/**
 * A record endpoint (`/{resource}/{id}`): the stored record, fully nested, or 404.
 */
import { createRoute, z } from '@hono/zod-openapi';
import type { Context } from 'hono';
import { readAudit } from '../engine/audit.ts';
import { EngineNotFoundError } from '../engine/index.ts';
import { caseVariants } from '../index-mapping/ids.ts';
import type { App, AppEnv } from './app.ts';
import { recordCaching } from './http-cache.ts';
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

/** The record type a `{id}` path serves. */
const recordTypes: Record<string, string> = {
  '/services/{id}': 'service',
  '/organizations/{id}': 'organization',
  '/service_at_locations/{id}': 'service_at_location',
  '/taxonomies/{id}': 'taxonomy',
  '/taxonomy_terms/{id}': 'taxonomy_term',
};

const auditParam = z
  .enum(['none', 'last', 'all'])
  .optional()
  .openapi({
    param: { name: 'audit', in: 'query' },
    description:
      "An extension: the write API's audit trail of this record, as HSDS `metadata` records added to its `metadata` (who changed which field, from what, to what, when). `none` (default): the record as published; `last`: the changes of the last write; `all`: every change, newest first.",
    example: 'last',
  });

/** The record's `metadata` with its audit trail added (newest first), when asked. */
async function withAudit(c: Context<AppEnv>, res: Response, type: string, id: string, which: 'last' | 'all') {
  if (res.status !== 200) return res;
  const record = (await res.json()) as Record<string, unknown>;
  const trail = await readAudit(c.get('deps').engine, type, (record.id as string) ?? id, which);
  const metadata = Array.isArray(record.metadata) ? record.metadata : [];
  return c.json({ ...record, metadata: [...trail, ...metadata] }, 200);
}

export function registerRecordEndpoint<Query extends z.ZodObject>(
  app: App,
  ctx: RouteContext,
  endpoint: RecordEndpoint<Query>,
) {
  app.use(endpoint.path.replace('{id}', ':id'), recordCaching());
  const query = (endpoint.query ?? z.object({})).extend({ audit: auditParam });
  const type = recordTypes[endpoint.path] ?? endpoint.path;
  const route = createRoute({
    method: 'get',
    path: endpoint.path,
    operationId: endpoint.operationId,
    tags: [requirementTag(ctx, 'get', endpoint.path)],
    summary: endpoint.summary,
    description: endpoint.description,
    request: {
      params: z.object({ id: idParam(endpoint.idDescription, endpoint.idExample) }),
      query,
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
  type Valid = (
    target: 'param' | 'query',
  ) => { id: string; audit?: 'none' | 'last' | 'all' } & z.output<Query>;
  const lookUp = async (c: Context<AppEnv>, asGiven: string, query: z.output<Query>) => {
    // An id in another case than the one stored (see caseVariants): looked up again on a miss only.
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
  };
  app.openapi(route, (async (c: Context<AppEnv>) => {
    const valid = c.req.valid.bind(c.req) as unknown as Valid;
    const { audit, ...rest } = valid('query');
    const id = valid('param').id;
    const res = await lookUp(c, id, rest as z.output<Query>);
    return audit === 'last' || audit === 'all' ? withAudit(c, res, type, id, audit) : res;
  }) as never);
}

/** A 200 whose body is JSON text already (a record as stored). */
export const jsonText = (c: Context<AppEnv>, text: string) =>
  c.body(text, 200, { 'content-type': 'application/json' });
