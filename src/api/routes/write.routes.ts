/**
 * The write API: `PUT` and `DELETE` on `/services/{id}`, `/organizations/{id}`,
 * `/service_at_locations/{id}`, `/taxonomies/{id}` and `/taxonomy_terms/{id}`, with a bearer token
 * of the `write` scope (auth.ts). A PUT body is the record as `GET /{resource}/{id}` serves it; it
 * is checked as an import checks a feed (same schemas, same leniency, the import report's issues
 * in the 400's `errors[]`), written through the import and published incrementally
 * (src/ingest/write.ts, given as AppDeps.writes), so every read endpoint serves it when the answer comes. The answer is the
 * record as now served, with its ETag. `If-Match` (the ETag of the plain `GET /{resource}/{id}`)
 * makes a write conditional: 412 when the record changed meanwhile; `If-None-Match: *` creates
 * only. Writes are rate limited per token (WRITE_RATE_LIMIT a minute, all write routes together).
 *
 * The precondition and the answer read the record from the engine under the write lock, never
 * through the record cache (record-cache.ts, up to RECORD_CACHE_MAX_STALE_MS old): a copy this
 * process cached before another process wrote would let a stale If-Match pass and lose that
 * write. Both read what the plain GET reads (`served`), so the answer's ETag is the next GET's.
 *
 * The handlers are plain Hono routes, documented in the OpenAPI registry by hand: a zod body
 * validator would refuse what the import's leniency repairs.
 */
import { z } from '@hono/zod-openapi';
import type { MiddlewareHandler } from 'hono';
import { rateLimiter } from 'hono-rate-limiter';
import type { Engine } from '../../engine/engine.ts';
import { EngineNotFoundError } from '../../engine/index.ts';
import { getOrganizationWithServices } from '../../engine/organizations.ts';
import { getRecordText } from '../../engine/search.ts';
import {
  organizationFullSchema,
  serviceAtLocationFullSchema,
  serviceFullSchema,
  taxonomyFullSchema,
  taxonomyTermFullSchema,
} from '../../hsds/index.ts';
import { caseVariants } from '../../index-mapping/ids.ts';
import { requireScope } from '../auth.ts';
import { entityTag, recordValidators, tagListed } from '../http-cache.ts';
import { ApiProblem, errorResponses, type ParameterError, problemAnswer, problemSchema } from '../problem.ts';
import type { WritableType, WriteIssue, WriteOutcome, WriteRequest } from '../record-writes.ts';
import type { ApiToken, App, AppContext, AppEnv } from '../types.ts';
import { parseWriteBody } from '../write-body.ts';

type Writable = {
  path: string;
  type: WritableType;
  schema: z.ZodType;
  noun: string;
  example: string;
  /**
   * The record's JSON text as the plain `GET {path}/{id}` serves it, read from the engine (not the
   * record cache); EngineNotFoundError when there is none. The GET routes read the same
   * (services.routes.ts and its siblings); write-api.test.ts checks the ETags agree.
   */
  read: (engine: Engine, id: string) => Promise<string>;
};

const writables: Writable[] = [
  {
    path: '/services',
    type: 'service',
    schema: serviceFullSchema,
    noun: 'service',
    example: 'ac148810-d857-441c-9679-408f346de14b',
    read: (engine, id) => getRecordText(engine, 'services', id),
  },
  {
    path: '/organizations',
    type: 'organization',
    schema: organizationFullSchema,
    noun: 'organization',
    example: 'd9d5e0f5-d3ce-4f73-9a2f-4dd0ecc6c610',
    read: async (engine, id) => JSON.stringify(await getOrganizationWithServices(engine, id, false)),
  },
  {
    path: '/service_at_locations',
    type: 'service_at_location',
    schema: serviceAtLocationFullSchema,
    noun: 'service at location',
    example: 'e94c9f38-1e8f-4564-91d4-d53501ab1765',
    read: (engine, id) => getRecordText(engine, 'service_at_locations', id),
  },
  {
    path: '/taxonomies',
    type: 'taxonomy',
    schema: taxonomyFullSchema,
    noun: 'taxonomy',
    example: '5c4d79d7-cc55-470e-9f1f-8cad074e4892',
    read: (engine, id) => getRecordText(engine, 'taxonomies', id),
  },
  {
    path: '/taxonomy_terms',
    type: 'taxonomy_term',
    schema: taxonomyTermFullSchema,
    noun: 'taxonomy term',
    example: '3f7b145d-84af-42d7-8fae-eaca714b02b2',
    read: (engine, id) => getRecordText(engine, 'taxonomy_terms', id),
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

/** The record as the plain GET serves it now, in the id's case or another (as GET finds it), or undefined. */
async function served(engine: Engine, w: Writable, id: string): Promise<string | undefined> {
  for (const variant of caseVariants(id)) {
    try {
      return await w.read(engine, variant);
    } catch (error) {
      if (!(error instanceof EngineNotFoundError)) throw error;
    }
  }
  return undefined;
}

/** At most this many of a body's errors are listed (`errors_total` counts them all). */
const MAX_LISTED_ERRORS = 100;

/** A 400 listing the first MAX_LISTED_ERRORS issues, and how many more there were. */
function invalidRecord(noun: string, issues: readonly WriteIssue[]): ApiProblem {
  const listed = issues.slice(0, MAX_LISTED_ERRORS);
  const more = issues.length - listed.length;
  const named = listed.map((i) => `${i.path || '(body)'}: ${i.reason}`).join('; ');
  return new ApiProblem(
    400,
    `the ${noun} was not written: ${named}${more > 0 ? `; and ${more} more (${issues.length} in all)` : ''}`,
    {
      errors: listed.map(asError),
      ...(more > 0 ? { errorsTotal: issues.length } : {}),
      type: 'invalid-record',
    },
  );
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
      'If-Match names another version of the record (it changed meanwhile; compared strongly: a weak tag never matches), or If-None-Match: * and it exists.',
    ),
    429: problem(
      'Too many writes from this token (WRITE_RATE_LIMIT a minute, all write routes together); Retry-After says when to try again.',
    ),
    503: problem(
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
      400: problem(
        'The body is not UTF-8 (the byte offset of the first invalid byte is named), not JSON, has a `__proto__`, `constructor` or `prototype` key, or breaks the schema: each error names the field, at most 100 are listed (`errors_total` counts them all). Nothing was written.',
      ),
      ...authErrors,
      413: problem(
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
  const isWrite = (c: AppContext) => c.req.method === 'PUT' || c.req.method === 'DELETE';
  const guard: MiddlewareHandler<AppEnv> = async (c, next) => {
    if (!isWrite(c)) return next();
    return requireScope('write', () => tokens)(c, next);
  };
  // One limiter (one store) for every write route: WRITE_RATE_LIMIT counts a token's writes of
  // every resource type together.
  const limiter = rateLimiter<AppEnv>({
    windowMs: 60_000,
    limit: (c) => c.get('deps').config.WRITE_RATE_LIMIT,
    standardHeaders: 'draft-7',
    skip: (c) => !isWrite(c),
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
  });
  for (const w of writables) {
    document(app, w);
    const path = `${w.path}/:id`;
    app.use(path, guard);
    app.use(path, limiter);

    // Run under the write lock (src/ingest/write.ts), against the engine: see the header.
    const precondition = (c: AppContext, id: string) => {
      const ifMatch = c.req.header('if-match');
      const ifNoneMatch = c.req.header('if-none-match');
      if (ifMatch === undefined && ifNoneMatch === undefined) return undefined;
      return async (exists: boolean) => {
        if (ifNoneMatch !== undefined && ifNoneMatch.trim() === '*' && exists) return false;
        if (ifMatch === undefined) return true;
        const current = exists ? await served(c.get('deps').engine, w, id) : undefined;
        return tagListed(ifMatch, current === undefined ? undefined : entityTag(current), 'strong');
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
      return {
        type: w.type,
        id,
        actor: token.name,
        waitMs: c.get('deps').config.WRITE_QUEUE_WAIT_MS,
        ...(check ? { precondition: check } : {}),
      };
    };
    const refused = (outcome: WriteOutcome, id: string) => {
      if (outcome.kind === 'rejected') return invalidRecord(w.noun, outcome.issues);
      if (outcome.kind === 'too-large') {
        return new ApiProblem(413, `the ${w.noun} was not written: ${outcome.reason}`, {
          errors: [{ parameter: '(body)', in: 'body', reason: outcome.reason }],
        });
      }
      if (outcome.kind === 'busy') {
        return new ApiProblem(
          503,
          `the ${w.noun} ${id} was not written: ${outcome.reason}; nothing was written`,
          {
            type: 'writes-busy',
            title: 'Writes busy',
            retryAfterSeconds: Math.max(1, Math.ceil(outcome.waitedMs / 1000)),
          },
        );
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
      const body = parseWriteBody(new Uint8Array(await c.req.arrayBuffer()));
      const engine = c.get('deps').engine;
      const outcome = await writesOf(c).put(
        { ...requestOf(c, id), readBack: () => served(engine, w, id) },
        body,
      );
      const problem = refused(outcome, id);
      if (problem) throw problem;
      if (outcome.kind !== 'written') throw new Error(`a put answered ${outcome.kind}`);
      const text = outcome.served;
      if (text === undefined)
        throw new ApiProblem(503, 'the record was written but is not served yet; try GET shortly');
      // The validators a GET of this text gives (http-cache.ts): the answer's ETag is the next GET's.
      const headers: Record<string, string> = {
        'content-type': 'application/json',
        ...(await recordValidators(c, text)),
      };
      if (outcome.created) headers.location = `${w.path}/${encodeURIComponent(id)}`;
      return c.body(text, outcome.created ? 201 : 200, headers);
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
