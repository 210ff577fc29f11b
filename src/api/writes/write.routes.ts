/**
 * The write API: `PUT` and `DELETE` on `/services/{id}`, `/organizations/{id}`,
 * `/service_at_locations/{id}`, `/taxonomies/{id}` and `/taxonomy_terms/{id}`, with a bearer token
 * of the `write` scope (auth.ts). A PUT body is the record as `GET /{resource}/{id}` serves it; it
 * is checked as an import checks a feed (same schemas, same leniency, the import report's issues
 * in the 400's `errors[]`), stored by the import's rules and published incrementally
 * (src/ingest/write/write.ts, given as AppDeps.writes), so every read endpoint serves it when the answer comes. The answer is the
 * record as now served, with its ETag. `If-Match` (the ETag of the plain `GET /{resource}/{id}`)
 * makes a write conditional: 412 when the record changed meanwhile; `If-None-Match: *` creates
 * only. Writes are rate limited per token (WRITE_RATE_LIMIT a minute, all write routes together).
 *
 * The precondition and the answer read the record from the engine under the write lock, never
 * through the record cache (record-cache.ts, up to RECORD_CACHE_MAX_STALE_MS old): a copy this
 * process cached before another process wrote would let a stale If-Match pass and lose that
 * write. Both read what the plain GET reads (`served`), so the answer's ETag is the next GET's.
 *
 * The handlers are plain Hono routes, documented in the OpenAPI registry by hand
 * (write-route-docs.ts): a zod body validator would refuse what the import's leniency repairs. Their
 * guards (token, rate limit) are in write-guards.ts, the conditional headers' check in
 * write-preconditions.ts, and what a refused write answers in write-outcomes.ts.
 */
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
import { ApiProblem } from '../http/problem.ts';
import { recordValidators } from '../records/http-cache.ts';
import type { ApiToken, App, AppContext } from '../types.ts';
import type { WriteRequest } from './record-writes.ts';
import { parseWriteBody } from './write-body.ts';
import { writeGuards } from './write-guards.ts';
import { writeRefusal } from './write-outcomes.ts';
import { writePrecondition } from './write-preconditions.ts';
import { documentWriteRoute, registerWriteSecurity, type WriteRouteDoc } from './write-route-docs.ts';

type Writable = WriteRouteDoc & {
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

const writesOf = (c: AppContext) => {
  const { writes } = c.get('deps');
  if (!writes) throw new ApiProblem(503, 'this server takes no writes');
  return writes;
};

/** The write a request asks for: its record, its actor, and its precondition (checked under the write lock). */
function requestOf(c: AppContext, w: Writable, id: string): WriteRequest {
  const check = writePrecondition(
    { ifMatch: c.req.header('if-match'), ifNoneMatch: c.req.header('if-none-match') },
    () => served(c.get('deps').engine, w, id),
  );
  // The guard has set it; a route registered without the guard would fail here, loudly.
  const token = c.get('token');
  if (!token) throw new ApiProblem(401, 'a bearer token is required');
  return {
    type: w.type,
    id,
    actor: token.name,
    waitMs: c.get('deps').config.WRITE_QUEUE_WAIT_MS,
    ...(check ? { precondition: check } : {}),
  };
}

async function putRecord(c: AppContext, w: Writable) {
  const id = c.req.param('id') ?? '';
  const body = parseWriteBody(new Uint8Array(await c.req.arrayBuffer()));
  const engine = c.get('deps').engine;
  const outcome = await writesOf(c).put(
    { ...requestOf(c, w, id), readBack: () => served(engine, w, id) },
    body,
  );
  const problem = writeRefusal(outcome, w.noun, id);
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
}

async function deleteRecord(c: AppContext, w: Writable) {
  const id = c.req.param('id') ?? '';
  const outcome = await writesOf(c).delete(requestOf(c, w, id));
  const problem = writeRefusal(outcome, w.noun, id);
  if (problem) throw problem;
  return c.body(null, 204);
}

export function registerWriteRoutes(app: App, tokens: readonly ApiToken[]) {
  registerWriteSecurity(app);
  const { authenticate, limitRate } = writeGuards(tokens);
  for (const w of writables) {
    documentWriteRoute(app, w);
    const path = `${w.path}/:id`;
    app.use(path, authenticate);
    app.use(path, limitRate);
    app.put(path, (c) => putRecord(c, w));
    app.delete(path, (c) => deleteRecord(c, w));
  }
}
