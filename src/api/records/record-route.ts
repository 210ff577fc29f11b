/**
 * A record endpoint (`/{resource}/{id}`): the stored record, fully nested, or 404.
 */
import { createRoute, z } from '@hono/zod-openapi';
import { AUDIT_MAX_PER_PAGE, decodeAuditCursor, readAudit } from '../../engine/audit.ts';
import { EngineNotFoundError } from '../../engine/index.ts';
import { type RecordBody, textOf } from '../../engine/record-cache.ts';
import { findDocuments } from '../../engine/records.ts';
import { caseVariants } from '../../index-mapping/ids.ts';
import { asJsonAnswer, asMergedRedirect, type JsonAnswer } from '../http/json-answer.ts';
import { errorResponses, invalidParameter, notFoundResponse } from '../http/problem.ts';
import { type RouteContext, requirementTag } from '../http/route-context.ts';
import { idParam } from '../lists/list-params.ts';
import type { AppContext } from '../types.ts';
import { recordAnswer } from './http-cache.ts';

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
      'An extension: the write API\'s audit trail of this record, as HSDS `metadata` records added to its `metadata` (who changed which field, from what, to what, when). `none` (default): the record as published; `last`: the changes of the last write; `all`: every change, newest first. The trail comes in pages of `audit_per_page` entries: the `Audit-Total` response header counts every entry asked for, and while more remain a `Link` header with `rel="next"` gives the URL of the next page (the same request with `audit_after`). Nested records of one type that a write changed more than 20 of are one entry on the record: `field_name` their type, `replacement_value` the counts (`16000 created`). Entries are kept for a period the server sets (AUDIT_RETENTION_DAYS, 365 days by default).',
    example: 'last',
  });

const auditPerPageParam = z.coerce
  .number()
  .int()
  .min(1)
  .max(AUDIT_MAX_PER_PAGE)
  .optional()
  .openapi({
    param: { name: 'audit_per_page', in: 'query' },
    description: `With \`audit\`: entries of the trail per page, 1000 by default, ${AUDIT_MAX_PER_PAGE} at most.`,
    example: 1000,
  });

const auditAfterParam = z
  .string()
  .max(500)
  .optional()
  .openapi({
    param: { name: 'audit_after', in: 'query' },
    description:
      'With `audit`: where the page starts, as the `Link: rel="next"` header of the page before gave it (an opaque cursor: a page keeps its place while new writes are recorded).',
  });

const provenanceParam = z
  .enum(['true', 'false'])
  .optional()
  .openapi({
    param: { name: 'provenance', in: 'query' },
    description:
      "An extension: `true` adds `x-sources` to the record: the names of the sources whose stored copy provides it (an import's `--source` name, else its file path or URL; `api:<token name>` for the write API), in name order. Nested records are not annotated.",
  });

type AuditRequest = {
  provenance?: 'true' | 'false' | undefined;
  audit?: 'none' | 'last' | 'all' | undefined;
  audit_per_page?: number | undefined;
  audit_after?: string | undefined;
};

const DEFAULT_AUDIT_PER_PAGE = 1000;

/**
 * The record's `metadata` with a page of its audit trail added (newest first); the trail's size
 * and the next page's URL go in the `Audit-Total` and `Link` headers.
 */
async function withAudit(c: AppContext, text: string, type: string, id: string, request: AuditRequest) {
  const which = request.audit === 'all' ? 'all' : 'last';
  const after = request.audit_after === undefined ? undefined : decodeAuditCursor(request.audit_after);
  if (request.audit_after !== undefined && !after)
    throw invalidParameter('audit_after', 'not a cursor this server gave: follow the Link header of a page');
  const record = JSON.parse(text) as Record<string, unknown>;
  const page = await readAudit(c.get('deps').engine, type, (record.id as string) ?? id, which, {
    perPage: request.audit_per_page ?? DEFAULT_AUDIT_PER_PAGE,
    after,
  });
  c.header('audit-total', String(page.total));
  if (page.next) {
    const next = new URL(c.req.url);
    next.searchParams.set('audit_after', page.next);
    // Relative to the record's own URL, so it holds behind a proxy that mounts the API under a path.
    const own = next.pathname.slice(next.pathname.lastIndexOf('/') + 1);
    c.header('link', `<${own}${next.search}>; rel="next"`);
  }
  const metadata = Array.isArray(record.metadata) ? record.metadata : [];
  return JSON.stringify({ ...record, metadata: [...page.entries, ...metadata] });
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
      query: endpoint.query.extend({
        audit: auditParam,
        audit_per_page: auditPerPageParam,
        audit_after: auditAfterParam,
        provenance: provenanceParam,
      }),
    },
    responses: {
      200: {
        description: endpoint.responseDescription,
        content: { 'application/json': { schema: endpoint.schema } },
      },
      301: {
        description:
          'This id was merged into another record as its duplicate (an operator marked the two the same, `POST /admin/duplicates/marks`): `Location` is the kept record, with the same query.',
        headers: { Location: { schema: { type: 'string' }, description: 'The kept record.' } },
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
  request: { id: string } & AuditRequest,
  read: (id: string) => Promise<string | RecordBody>,
): Promise<JsonAnswer<Schema>> {
  let record: string | RecordBody;
  try {
    record = await readAnyCase(request.id, read);
  } catch (error) {
    const kept = error instanceof EngineNotFoundError ? await keptIdOf(c, request.id) : undefined;
    if (!kept) throw error;
    // Merged into the kept record as a duplicate (src/duplicates): a permanent redirect, so a
    // harvester that follows it gets the kept record and one that stores ids learns the new one.
    // Relative, as the Link header, so it holds behind a proxy that mounts the API under a path.
    return asMergedRedirect(
      schema,
      c.redirect(`${encodeURIComponent(kept)}${new URL(c.req.url).search}`, 301),
    );
  }
  const { audit } = request;
  if (audit === 'last' || audit === 'all') {
    const type = recordTypes[c.req.path.split('/')[1] ?? ''] ?? 'record';
    record = await withAudit(c, textOf(record), type, request.id, request);
  }
  if (request.provenance === 'true') record = await withSources(c, textOf(record));
  // The record as the engine holds it, as JSON text not parsed again, with its validators.
  return asJsonAnswer(schema, await recordAnswer(c, record));
}

/** The id a merged-away id answers with (duplicates across sources), when the server knows of marks. */
async function keptIdOf(c: AppContext, id: string): Promise<string | undefined> {
  const type = recordTypes[c.req.path.split('/')[1] ?? ''];
  const duplicates = c.get('deps').duplicates;
  return type && duplicates ? duplicates.keptId(type, id) : undefined;
}

/** The record with `x-sources`: the sources of the store documents that hold it. */
async function withSources(c: AppContext, text: string): Promise<string> {
  const record = JSON.parse(text) as Record<string, unknown>;
  const type = recordTypes[c.req.path.split('/')[1] ?? ''];
  if (!type || typeof record.id !== 'string') return text;
  const docs = await findDocuments(c.get('deps').engine, 'keys', [`${type}:${record.id}`], undefined);
  return JSON.stringify({ ...record, 'x-sources': [...new Set(docs.map((d) => d.source))].sort() });
}

/** The record of an id as given or, on a miss only, in another case (see caseVariants). */
async function readAnyCase<T>(asGiven: string, read: (id: string) => Promise<T>): Promise<T> {
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
