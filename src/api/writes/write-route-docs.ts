/**
 * The write routes in the OpenAPI document (write.routes.ts): the bearer token scheme, and a
 * PUT and a DELETE per writable resource. Registered by hand: the handlers read their bodies
 * themselves, since a zod body validator would refuse what the import's leniency repairs.
 */
import { z } from '@hono/zod-openapi';
import { errorResponses, problemContent } from '../http/problem.ts';
import type { App } from '../types.ts';
import type { WritableType } from './record-writes.ts';

/** What the document says of a writable resource. */
export type WriteRouteDoc = {
  path: string;
  type: WritableType;
  schema: z.ZodType;
  noun: string;
  example: string;
};

export function registerWriteSecurity(app: App) {
  app.openAPIRegistry.registerComponent('securitySchemes', 'bearerToken', {
    type: 'http',
    scheme: 'bearer',
    description:
      'A token configured in API_TOKENS (hashed) with the write scope; `hsds token NAME` makes one. Reads need none.',
  });
}

export function documentWriteRoute(app: App, w: WriteRouteDoc) {
  const idParam = z
    .string()
    .min(1)
    .max(200)
    .openapi({
      param: { name: 'id', in: 'path' },
      description: `The id of the ${w.noun}.`,
      example: w.example,
    });
  const security = [{ bearerToken: ['write'] }];
  const authErrors = {
    401: problemContent('No bearer token, or one that is not configured (WWW-Authenticate says which).'),
    403: problemContent('The token lacks the write scope.'),
    412: problemContent(
      'If-Match names another version of the record (it changed meanwhile; compared strongly: a weak tag never matches), or If-None-Match: * and it exists.',
    ),
    429: problemContent(
      'Too many writes from this token (WRITE_RATE_LIMIT a minute, all write routes together); Retry-After says when to try again.',
    ),
    503: problemContent(
      'The engine is unreachable, or the write waited WRITE_QUEUE_WAIT_MS (15 s) behind the writes before it and a publish in progress (an import’s) and was not made (type `writes-busy`; nothing was written); try again after Retry-After seconds.',
    ),
  };
  const preconditions = z.object({
    'if-match': z
      .string()
      .optional()
      .openapi({
        description: `Write only if the record is still this version: the ETag of GET ${w.path}/{id}`,
      }),
    'if-none-match': z.string().optional().openapi({ description: '`*`: create only, 412 if it exists.' }),
  });
  app.openAPIRegistry.registerPath({
    method: 'put',
    path: `${w.path}/{id}`,
    operationId: `put_${w.type}`,
    tags: ['Write API (extension)'],
    summary: `Creates or replaces a ${w.noun}.`,
    description: `The body is the ${w.noun} as GET ${w.path}/{id} serves it, with what it nests. It is checked as an import checks a feed (the same schemas and leniency); a child collection it lists (phones, schedules...) replaces the stored one, a collection it leaves out stays. Published to every read endpoint before the answer; the answer is the record as served, with its ETag.`,
    security,
    request: {
      params: z.object({ id: idParam }),
      headers: preconditions,
      body: { required: true, content: { 'application/json': { schema: w.schema } } },
    },
    responses: {
      200: {
        description: 'Replaced; the record as now served.',
        content: { 'application/json': { schema: w.schema } },
      },
      201: {
        description: 'Created; the record as now served.',
        content: { 'application/json': { schema: w.schema } },
      },
      ...errorResponses,
      400: problemContent(
        'The body is not UTF-8 (the byte offset of the first invalid byte is named), not JSON, has a `__proto__`, `constructor` or `prototype` key, or breaks the schema: each error names the field, at most 100 are listed (`errors_total` counts them all). Nothing was written.',
      ),
      ...authErrors,
      413: problemContent(
        'The body is over WRITE_MAX_BODY_BYTES, or holds more than 10,000 array elements (records and what they list) or an object of more than 1,000 keys. Nothing was written.',
      ),
    },
  });
  app.openAPIRegistry.registerPath({
    method: 'delete',
    path: `${w.path}/{id}`,
    operationId: `delete_${w.type}`,
    tags: ['Write API (extension)'],
    summary: `Deletes a ${w.noun}, with what its deletion takes.`,
    description:
      'What a deletion takes is what `hsds delete` takes: the child records that nest under nothing else; an organization its services; a location the service_at_locations at it; a taxonomy its terms. Gone from every read endpoint before the answer, and in the change feed (`include_deleted`).',
    security,
    request: { params: z.object({ id: idParam }), headers: preconditions },
    responses: {
      204: { description: 'Deleted.' },
      ...errorResponses,
      404: problemContent('No such record.'),
      ...authErrors,
    },
  });
}
