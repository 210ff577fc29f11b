/**
 * The write API: `PUT` and `DELETE` on `/services/{id}`, `/organizations/{id}`,
 * `/service_at_locations/{id}`, `/taxonomies/{id}` and `/taxonomy_terms/{id}`, with a bearer token
 * of the `write` scope (auth.ts). A PUT body is the record as `GET /{resource}/{id}` serves it; it
 * is checked as an import checks a feed (same schemas, same leniency, the import report's issues
 * in the 400's `errors[]`), written through the import and published incrementally
 * (src/ingest/write.ts, given as AppDeps.writes), so every read endpoint serves it when the answer comes. The answer is the
 * record as now served, with its ETag. `If-Match` (the ETag of the plain `GET /{resource}/{id}`)
 * makes a write conditional: 412 when the record changed meanwhile; `If-None-Match: *` creates
 * only. Writes are rate limited per token (WRITE_RATE_LIMIT a minute).
 *
 * The handlers are plain Hono routes, documented in the OpenAPI registry by hand: a zod body
 * validator would refuse what the import's leniency repairs.
 */
import { z } from '@hono/zod-openapi';
import type { MiddlewareHandler } from 'hono';
import { rateLimiter } from 'hono-rate-limiter';
import {
  organizationFullSchema,
  serviceAtLocationFullSchema,
  serviceFullSchema,
  taxonomyFullSchema,
  taxonomyTermFullSchema,
} from '../../hsds/index.ts';
import { requireScope } from '../auth.ts';
import { tagListed } from '../http-cache.ts';
import { ApiProblem, errorResponses, type ParameterError, problemAnswer, problemSchema } from '../problem.ts';
import type { WritableType, WriteIssue, WriteOutcome, WriteRequest } from '../record-writes.ts';
import type { ApiToken, App, AppContext, AppEnv } from '../types.ts';

type Writable = {
  path: string;
  type: WritableType;
  schema: z.ZodType;
  noun: string;
  example: string;
};

const writables: Writable[] = [
  {
    path: '/services',
    type: 'service',
    schema: serviceFullSchema,
    noun: 'service',
    example: 'ac148810-d857-441c-9679-408f346de14b',
  },
  {
    path: '/organizations',
    type: 'organization',
    schema: organizationFullSchema,
    noun: 'organization',
    example: 'd9d5e0f5-d3ce-4f73-9a2f-4dd0ecc6c610',
  },
  {
    path: '/service_at_locations',
    type: 'service_at_location',
    schema: serviceAtLocationFullSchema,
    noun: 'service at location',
    example: 'e94c9f38-1e8f-4564-91d4-d53501ab1765',
  },
  {
    path: '/taxonomies',
    type: 'taxonomy',
    schema: taxonomyFullSchema,
    noun: 'taxonomy',
    example: '5c4d79d7-cc55-470e-9f1f-8cad074e4892',
  },
  {
    path: '/taxonomy_terms',
    type: 'taxonomy_term',
    schema: taxonomyTermFullSchema,
    noun: 'taxonomy term',
    example: '3f7b145d-84af-42d7-8fae-eaca714b02b2',
  },
];

/** An import issue as one entry of a problem's `errors[]`. */
const asError = (issue: WriteIssue): ParameterError => ({
  parameter: issue.path || '(body)',
  in: 'body',
  reason: issue.reason,
  severity: issue.severity,
  kind: issue.kind,
  ...(issue.record_type ? { record_type: issue.record_type } : {}),
  ...(issue.record_id ? { record_id: issue.record_id } : {}),
  ...(issue.value ? { value: issue.value } : {}),
});

const problem = (description: string) => ({
  description,
  content: { 'application/problem+json': { schema: problemSchema } },
});

/** The served record (the plain GET), or undefined when it is not served. */
async function served(app: App, c: AppContext, path: string): Promise<Response | undefined> {
  const res = await app.request(path, { headers: { accept: 'application/json' } }, c.env);
  return res.status === 200 ? res : undefined;
}

function document(app: App, w: Writable) {
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
    401: problem('No bearer token, or one that is not configured (WWW-Authenticate says which).'),
    403: problem('The token lacks the write scope.'),
    412: problem(
      'If-Match names another version of the record (it changed meanwhile), or If-None-Match: * and it exists.',
    ),
    429: problem('Too many writes from this token; Retry-After says when to try again.'),
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
      400: problem('The body breaks the schema: each error names the field (nothing was written).'),
      ...authErrors,
      413: problem('The body is over WRITE_MAX_BODY_BYTES.'),
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
      404: problem('No such record.'),
      ...authErrors,
    },
  });
}

export function registerWriteRoutes(app: App, tokens: readonly ApiToken[]) {
  app.openAPIRegistry.registerComponent('securitySchemes', 'bearerToken', {
    type: 'http',
    scheme: 'bearer',
    description:
      'A token configured in API_TOKENS (hashed) with the write scope; `hsds token NAME` makes one. Reads need none.',
  });
  for (const w of writables) {
    document(app, w);
    const path = `${w.path}/:id`;
    const guard: MiddlewareHandler<AppEnv> = async (c, next) => {
      if (c.req.method !== 'PUT' && c.req.method !== 'DELETE') return next();
      return requireScope('write', () => tokens)(c, next);
    };
    app.use(path, guard);
    app.use(
      path,
      rateLimiter<AppEnv>({
        windowMs: 60_000,
        limit: (c) => c.get('deps').config.WRITE_RATE_LIMIT,
        standardHeaders: 'draft-7',
        skip: (c) => c.req.method !== 'PUT' && c.req.method !== 'DELETE',
        keyGenerator: (c) => c.get('token')?.name ?? 'anonymous',
        handler: (c) =>
          problemAnswer(
            c,
            new ApiProblem(
              429,
              `the token ${c.get('token')?.name} made more than ${c.get('deps').config.WRITE_RATE_LIMIT} writes this minute`,
            ),
            c.req.path,
            { 'retry-after': String(Math.ceil(60 - ((Date.now() / 1000) % 60))) },
          ),
      }),
    );

    const precondition = (c: AppContext, id: string) => {
      const ifMatch = c.req.header('if-match');
      const ifNoneMatch = c.req.header('if-none-match');
      if (ifMatch === undefined && ifNoneMatch === undefined) return undefined;
      return async (exists: boolean) => {
        if (ifNoneMatch !== undefined && ifNoneMatch.trim() === '*' && exists) return false;
        if (ifMatch === undefined) return true;
        const current = exists
          ? (await served(app, c, `${w.path}/${encodeURIComponent(id)}`))?.headers.get('etag')
          : undefined;
        return tagListed(ifMatch, current ?? undefined);
      };
    };

    const writesOf = (c: AppContext) => {
      const { writes } = c.get('deps');
      if (!writes) throw new ApiProblem(503, 'this server takes no writes');
      return writes;
    };
    const requestOf = (c: AppContext, id: string): WriteRequest => {
      const check = precondition(c, id);
      // The guard above has set it; a route registered without the guard would fail here, loudly.
      const token = c.get('token');
      if (!token) throw new ApiProblem(401, 'a bearer token is required');
      return { type: w.type, id, actor: token.name, ...(check ? { precondition: check } : {}) };
    };
    const refused = (outcome: WriteOutcome, id: string) => {
      if (outcome.kind === 'rejected') {
        const detail = outcome.issues.map((i) => `${i.path || '(body)'}: ${i.reason}`).join('; ');
        return new ApiProblem(400, `the ${w.noun} was not written: ${detail}`, {
          errors: outcome.issues.map(asError),
          type: 'invalid-record',
        });
      }
      if (outcome.kind === 'precondition-failed') {
        return new ApiProblem(
          412,
          `the ${w.noun} ${id} changed since the version named in If-Match (or exists, with If-None-Match: *)`,
        );
      }
      if (outcome.kind === 'not-found') return new ApiProblem(404, `no ${w.noun} ${id}`);
      return undefined;
    };

    app.put(path, async (c) => {
      const id = c.req.param('id') ?? '';
      let body: unknown;
      try {
        body = await c.req.json();
      } catch {
        throw new ApiProblem(400, 'the body is not JSON', {
          errors: [{ parameter: '(body)', in: 'body', reason: 'must be a JSON object' }],
        });
      }
      const outcome = await writesOf(c).put(requestOf(c, id), body);
      const problem = refused(outcome, id);
      if (problem) throw problem;
      const created = outcome.kind === 'written' && outcome.created;
      const res = await served(app, c, `${w.path}/${encodeURIComponent(id)}`);
      if (!res) throw new ApiProblem(503, 'the record was written but is not served yet; try GET shortly');
      const headers: Record<string, string> = { 'content-type': 'application/json' };
      for (const name of ['etag', 'last-modified']) {
        const value = res.headers.get(name);
        if (value) headers[name] = value;
      }
      if (created) headers.location = `${w.path}/${encodeURIComponent(id)}`;
      return c.body(await res.text(), created ? 201 : 200, headers);
    });

    app.delete(path, async (c) => {
      const id = c.req.param('id') ?? '';
      const outcome = await writesOf(c).delete(requestOf(c, id));
      const problem = refused(outcome, id);
      if (problem) throw problem;
      return c.body(null, 204);
    });
  }
}
