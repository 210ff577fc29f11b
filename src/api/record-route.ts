/**
 * A record endpoint (`/{resource}/{id}`): the stored record, fully nested, or 404.
 */
import { createRoute, z } from '@hono/zod-openapi';
import { readAudit } from '../engine/audit.ts';
import { EngineNotFoundError } from '../engine/index.ts';
import { caseVariants } from '../index-mapping/ids.ts';
import { recordAnswer } from './http-cache.ts';
import { asJsonAnswer, type JsonAnswer } from './json-answer.ts';
import { idParam } from './list-params.ts';
import { errorResponses, notFoundResponse } from './problem.ts';
import { type RouteContext, requirementTag } from './route-context.ts';
import type { AppContext } from './types.ts';

export type RecordEndpoint<Schema extends z.ZodType, Query extends z.ZodObject> = {
  path: `${string}/{id}`;
  operationId: string;
  summary: string;
  description: string;
  idDescription: string;
  /** The id of the official HSDS example record of this kind (documentation, and test clients' first try). */
  idExample: string;
  schema: Schema;
  responseDescription: string;
  query: Query;
};

/** The record type (in the audit trail) of each `{id}` path's first segment. */
const recordTypes: Record<string, string> = {
  services: 'service',
  organizations: 'organization',
  service_at_locations: 'service_at_location',
  taxonomies: 'taxonomy',
  taxonomy_terms: 'taxonomy_term',
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

/** The record's `metadata` with its audit trail added (newest first). */
async function withAudit(c: AppContext, text: string, type: string, id: string, which: 'last' | 'all') {
  const record = JSON.parse(text) as Record<string, unknown>;
  const trail = await readAudit(c.get('deps').engine, type, (record.id as string) ?? id, which);
  const metadata = Array.isArray(record.metadata) ? record.metadata : [];
  return JSON.stringify({ ...record, metadata: [...trail, ...metadata] });
}

/** The `{id}` route of a record endpoint; `audit` is added to its query (see recordResponse). */
export function recordRoute<Schema extends z.ZodType, Query extends z.ZodObject>(
  ctx: RouteContext,
  endpoint: RecordEndpoint<Schema, Query>,
) {
  return createRoute({
    method: 'get',
    path: endpoint.path,
    operationId: endpoint.operationId,
    tags: [requirementTag(ctx, 'get', endpoint.path)],
    summary: endpoint.summary,
    description: endpoint.description,
    request: {
      params: z.object({ id: idParam(endpoint.idDescription, endpoint.idExample) }),
      query: endpoint.query.extend({ audit: auditParam }),
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
}

/** No query parameters but `audit`. */
export const noQuery = z.object({});

/**
 * A record endpoint's answer: `read` gives the record's JSON text for an id, or throws
 * EngineNotFoundError (a 404), for the id in any case; `audit=last|all` adds the write API's
 * trail to the record's metadata.
 */
export async function recordResponse<Schema extends z.ZodType>(
  c: AppContext,
  schema: Schema,
  request: { id: string; audit?: 'none' | 'last' | 'all' | undefined },
  read: (id: string) => Promise<string>,
): Promise<JsonAnswer<Schema>> {
  let text = await readAnyCase(request.id, read);
  const { audit } = request;
  if (audit === 'last' || audit === 'all') {
    const type = recordTypes[c.req.path.split('/')[1] ?? ''] ?? 'record';
    text = await withAudit(c, text, type, request.id, audit);
  }
  // The record as the engine holds it, as JSON text not parsed again, with its validators.
  return asJsonAnswer(schema, await recordAnswer(c, text));
}

/** The record of an id as given or, on a miss only, in another case (see caseVariants). */
async function readAnyCase(asGiven: string, read: (id: string) => Promise<string>): Promise<string> {
  try {
    return await read(asGiven);
  } catch (error) {
    if (!(error instanceof EngineNotFoundError)) throw error;
    for (const id of caseVariants(asGiven).slice(1)) {
      try {
        return await read(id);
      } catch (again) {
        if (!(again instanceof EngineNotFoundError)) throw again;
      }
    }
    throw error;
  }
}
