/**
 * createApp(deps): the whole HTTP API as a Hono app, with no side effects (docs/style.md 1). The server
 * (src/cli/serve.command.ts) reads configuration, builds the dependencies and serves it; tests call
 * `app.request(...)` on an app built with test dependencies.
 */
import { OpenAPIHono } from '@hono/zod-openapi';
import { cors } from 'hono/cors';
import { HTTPException } from 'hono/http-exception';
import type { Config } from '../config.ts';
import { registerConsole, registerImportJobRoutes, registerVocabularyRuleRoutes } from '../console/index.ts';
import { EngineNotFoundError, EngineUnavailableError } from '../engine/index.ts';
import { registerAdminRoutes } from './admin/admin.routes.ts';
import { parseTokens } from './http/auth.ts';
import { IGNORED_PARAMETERS_HEADER, ignoredParameters } from './http/ignored-params.ts';
import { allowedMethods } from './http/methods.ts';
import { ApiProblem, type ParameterError, problemAnswer } from './http/problem.ts';
import { boundedBody } from './http/request-body.ts';
import { REQUEST_ID_HEADER, requestIds } from './http/request-id.ts';
import { routeContext } from './http/route-context.ts';
import { createDumps, dumpLimitsOf } from './lists/dumps.ts';
import { GEOCODE_HEADER_NAMES } from './lists/geo-params.ts';
import { createLargePages, pageLimitsOf } from './lists/large-pages.ts';
import { registerOpenApi } from './openapi/openapi.ts';
import { registerExplore } from './routes/explore.ts';
import { registerMcpRoute } from './routes/mcp.routes.ts';
import { registerOrganizationRoutes } from './routes/organizations.routes.ts';
import { registerRootRoutes } from './routes/root.routes.ts';
import { registerServiceAtLocationRoutes } from './routes/service-at-locations.routes.ts';
import { registerServiceRoutes } from './routes/services.routes.ts';
import { registerSuggestRoutes } from './routes/suggest.routes.ts';
import { registerTaxonomyRoutes } from './routes/taxonomies.routes.ts';
import type { App, AppDeps, AppEnv } from './types.ts';
import { registerValidateRoutes } from './validate/validate.routes.ts';
import { registerWriteRoutes } from './writes/write.routes.ts';

const targetToIn: Record<string, ParameterError['in']> = {
  query: 'query',
  param: 'path',
  json: 'body',
  form: 'body',
  header: 'header',
};

/** One place formats validation failures: a 400 naming every bad parameter (docs/style.md 13). */
export function createRouter(): App {
  return new OpenAPIHono<AppEnv>({
    defaultHook: (result, c) => {
      if (result.success) return;
      const where = targetToIn[result.target] ?? 'query';
      const errors: ParameterError[] = result.error.issues.map((issue) => ({
        parameter: issue.path.length > 0 ? issue.path.map(String).join('.') : '(body)',
        in: where,
        reason: issue.message,
      }));
      const detail = errors.map((e) => `${e.parameter}: ${e.reason}`).join('; ');
      return problemAnswer(c, new ApiProblem(400, detail, { errors }), new URL(c.req.url).pathname);
    },
  });
}

/**
 * Every route, shaped by the configuration alone (limits, profile, tokens): no dependency is
 * needed to build them, so the OpenAPI document is generated from the same call without an engine.
 */
export function registerRoutes(app: App, config: Config) {
  // Malformed API_TOKENS stop the server at its start, naming the entry.
  const tokens = parseTokens(config.API_TOKENS, config.ADMIN_TOKEN);
  const routes = routeContext(config);
  registerRootRoutes(app);
  registerServiceRoutes(app, routes);
  registerServiceAtLocationRoutes(app, routes);
  registerOrganizationRoutes(app, routes);
  registerTaxonomyRoutes(app, routes);
  registerSuggestRoutes(app);
  registerWriteRoutes(app, tokens);
  registerValidateRoutes(app);
  if (tokens.some((t) => t.scopes.includes('admin'))) {
    // The console's files first: they need no token (only the page's calls carry one).
    registerConsole(app);
    registerAdminRoutes(app, tokens);
    registerImportJobRoutes(app);
    registerVocabularyRuleRoutes(app);
  }
  registerOpenApi(app, config);
  registerExplore(app, config);
}

/** Response headers a page in a browser may read (CORS). */
const EXPOSED_HEADERS = [
  'Content-Type',
  'Retry-After',
  'ETag',
  'Last-Modified',
  'Location',
  // A record's audit trail, in pages (record-route.ts).
  'Link',
  'Audit-Total',
  REQUEST_ID_HEADER,
  IGNORED_PARAMETERS_HEADER,
  ...GEOCODE_HEADER_NAMES,
];

export function createApp(deps: AppDeps): App {
  const app = createRouter();
  const { logger } = deps;
  const dumps = deps.dumps ?? createDumps(dumpLimitsOf(deps.config));
  const largePages = deps.largePages ?? createLargePages(pageLimitsOf(deps.config));

  // First, so that every later step, its log lines and its problems carry the request's id.
  app.use('*', requestIds());
  app.use('*', async (c, next) => {
    c.set('deps', deps);
    c.set('dumps', dumps);
    c.set('largePages', largePages);
    const started = performance.now();
    await next();
    const ms = Math.round((performance.now() - started) * 10) / 10;
    const status = c.res.status;
    const line = { method: c.req.method, path: c.req.path, status, ms, request_id: c.get('requestId') };
    if (status >= 500) logger.error(line, 'request failed');
    else logger.info(line, 'request');
  });
  // Reads are public (ORUK compliance asks for `*` and no API keys); admin routes use a bearer token.
  // Hono's cors() answers preflights; on other requests it writes its headers on a placeholder
  // response before the route runs, and the route's answer is then copied through its body
  // stream, which the server writes out in pieces (profiled: a third of a lookup's CPU). So those
  // headers are added to the route's own answer instead.
  const preflight = cors({ origin: '*', exposeHeaders: EXPOSED_HEADERS });
  const exposed = EXPOSED_HEADERS.join(',');
  app.use('*', async (c, next) => {
    if (c.req.method === 'OPTIONS') return preflight(c, next);
    await next();
    c.res.headers.set('access-control-allow-origin', '*');
    c.res.headers.set('access-control-expose-headers', exposed);
  });
  // Every body is bounded before anything reads it. The POST twins carry search parameters only;
  // a write (PUT) carries a record with all it nests.
  app.use(
    '*',
    boundedBody((c) =>
      c.req.method === 'PUT'
        ? deps.config.WRITE_MAX_BODY_BYTES
        : c.req.path === '/validate' || c.req.path === '/admin/imports'
          ? deps.config.VALIDATE_MAX_BODY_BYTES
          : deps.config.MAX_BODY_BYTES,
    ),
  );
  // Lists may be cached as the operator says (CACHE_CONTROL_LISTS); `{id}` answers carry their
  // own validators (http-cache.ts).
  for (const list of [
    '/',
    '/services',
    '/service_at_locations',
    '/organizations',
    '/taxonomies',
    '/taxonomy_terms',
  ]) {
    app.use(list, async (c, next) => {
      await next();
      if (c.req.method === 'GET' && c.res.status === 200 && !c.res.headers.has('cache-control'))
        c.res.headers.set('cache-control', deps.config.CACHE_CONTROL_LISTS);
    });
  }

  // After the body bound and CORS (a strict refusal carries CORS headers), before every route.
  app.use('*', ignoredParameters(app, deps.config.STRICT_PARAMETERS));

  registerRoutes(app, deps.config);
  // The MCP server's tools call this app back, so it is mounted here, where the app exists.
  registerMcpRoute(app, deps.config.MCP_TOKEN);

  app.notFound((c) => {
    // A path the API serves, asked with another method, is a 405 that says which methods it takes.
    const allowed = allowedMethods(app, c.req.path);
    if (allowed.length > 0) {
      return problemAnswer(
        c,
        new ApiProblem(405, `${c.req.path} does not take ${c.req.method}; it takes ${allowed.join(', ')}`),
        c.req.path,
        { allow: allowed.join(', ') },
      );
    }
    return problemAnswer(c, new ApiProblem(404, `no route ${c.req.method} ${c.req.path}`), c.req.path);
  });

  app.onError((error, c) => {
    const path = c.req.path;
    if (error instanceof ApiProblem) {
      // A 503 (or 429) is temporary by definition: tell clients when to try again.
      const retryAfter = error.retryAfterSeconds ?? (error.status === 503 ? 5 : undefined);
      return problemAnswer(c, error, path, {
        ...error.headers,
        ...(retryAfter === undefined ? {} : { 'retry-after': String(retryAfter) }),
      });
    }
    if (error instanceof EngineUnavailableError && error.shed?.why === 'busy') {
      // This process's own cap on requests in flight to the engine (ENGINE_MAX_IN_FLIGHT) is
      // full: the engine is healthy as far as anyone knows, so saying it is unavailable would be
      // untrue (and would send operators to the wrong place). A request a second later is answered.
      return problemAnswer(
        c,
        new ApiProblem(
          503,
          'this server has as many searches in progress as it runs at once (ENGINE_MAX_IN_FLIGHT); try again in a second',
          { type: 'server-busy', title: 'Server busy' },
        ),
        path,
        { 'retry-after': String(error.shed.retryAfterSeconds) },
      );
    }
    if (error instanceof EngineUnavailableError) {
      // A call the gateway refused without sending (circuit open, too many in flight) is logged
      // once, by the breaker, not once a request.
      if (!error.shed)
        logger.error(
          { err: error.message, path, request_id: c.get('requestId') },
          'search engine unavailable',
        );
      return problemAnswer(
        c,
        new ApiProblem(503, 'the search engine is unavailable; try again shortly', {
          type: 'engine-unavailable',
        }),
        path,
        { 'retry-after': String(error.shed?.retryAfterSeconds ?? 5) },
      );
    }
    if (error instanceof EngineNotFoundError) return problemAnswer(c, new ApiProblem(404, 'not found'), path);
    if (error instanceof HTTPException && error.status < 500) {
      // Hono's own refusals: a JSON body that does not parse (400), a body of a media type the
      // route does not take (415, from @hono/zod-openapi).
      const status = error.status === 415 ? 415 : 400;
      const reason =
        status === 415
          ? `Content-Type ${c.req.header('content-type') ?? '(none)'} is not accepted: send application/json, application/x-www-form-urlencoded or multipart/form-data`
          : error.message || 'malformed request';
      return problemAnswer(
        c,
        new ApiProblem(status, reason, { errors: [{ parameter: '(body)', in: 'body', reason }] }),
        path,
      );
    }
    logger.error({ err: error, path, request_id: c.get('requestId') }, 'unhandled error');
    return problemAnswer(c, new ApiProblem(500, 'an unexpected error occurred; it has been logged'), path);
  });

  return app;
}
