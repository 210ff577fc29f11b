/**
 * Query parameters (and a POST twin's body fields) a route does not take are named, never silently dropped: `serch=food` used to
 * return the whole directory as if nothing had been asked. By default the answer is served and
 * the names are sent in the `Ignored-Parameters` header (and in a list page's
 * `ignored_parameters`): clients add their own parameters (cache busters, tracking), and a
 * refusal would break them. With `STRICT_PARAMETERS=true` each is a 400 naming it.
 *
 * What a route takes is read from its zod query schema in the OpenAPI registry, the same one the
 * validator and the document use, so the list cannot drift. Routes without a query schema (hand
 * documented, or taking none) are left alone: their handlers may read what the schema does not say.
 */
import type { Context, MiddlewareHandler } from 'hono';
import type { App, AppEnv } from '../types.ts';
import { ApiProblem } from './problem.ts';

export const IGNORED_PARAMETERS_HEADER = 'Ignored-Parameters';

type KnownRoute = {
  method: string;
  pattern: RegExp;
  names: ReadonlySet<string>;
  /** A POST twin's body takes the query's parameters (list-route.ts): its fields are checked too. */
  bodyIsQuery: boolean;
};

/** `/services/{id}` as a pattern over a request path. */
const pathPattern = (path: string) =>
  new RegExp(
    `^${path
      .split(/\{[^}]+\}/)
      .map((part) => part.replace(/[.*+?^$()|[\]\\]/g, '\\$&'))
      .join('[^/]+')}$`,
  );

function queryNames(query: unknown): ReadonlySet<string> | undefined {
  if (
    query &&
    typeof query === 'object' &&
    'shape' in query &&
    query.shape &&
    typeof query.shape === 'object'
  ) {
    return new Set(Object.keys(query.shape));
  }
  return undefined;
}

/** Every documented route with a query schema, and the names that schema takes. */
export function knownRoutes(app: App): KnownRoute[] {
  const known: KnownRoute[] = [];
  for (const definition of app.openAPIRegistry.definitions) {
    if (definition.type !== 'route') continue;
    const { request, method, path } = definition.route;
    const names = queryNames(request?.query);
    if (!names) continue;
    const json = request?.body?.content['application/json'];
    const bodyIsQuery = json !== undefined && 'schema' in json && json.schema === request?.query;
    known.push({ method: method.toUpperCase(), pattern: pathPattern(path), names, bodyIsQuery });
  }
  return known;
}

/** The query parameters of `url` that `names` does not hold, each once, in the order asked. */
export function unknownParameters(url: URL, names: ReadonlySet<string>): string[] {
  return [...new Set(url.searchParams.keys())].filter((name) => !names.has(name));
}

/**
 * The fields of a POST twin's JSON or form body. Only the raw bytes go through Hono's body cache,
 * parsed here on a copy: a parse that fails must not leave a rejected promise in that cache, which
 * the route's validator would then meet outside its own error handling (a 500, not its 400). A
 * body that does not parse is the validator's to refuse.
 */
async function bodyNames(c: Context<AppEnv>): Promise<string[]> {
  const type = c.req.header('content-type') ?? '';
  if (!type.includes('json') && !type.includes('form')) return [];
  try {
    const bytes = await c.req.arrayBuffer();
    if (type.includes('json')) {
      const body: unknown = JSON.parse(new TextDecoder().decode(bytes));
      return body && typeof body === 'object' && !Array.isArray(body) ? Object.keys(body) : [];
    }
    const form = await new Response(bytes, { headers: { 'content-type': type } }).formData();
    return [...new Set(form.keys())];
  } catch {
    // Refused by the validator, with the problem that says why.
  }
  return [];
}

/** The header's value: the names, percent-encoded (a header is ASCII), comma-separated. */
export const ignoredHeaderValue = (names: readonly string[]) => names.map(encodeURIComponent).join(', ');

/**
 * Sets `ignoredParameters` for the route's handler (a list puts it in its page), adds the header
 * to the answer, or, when `strict`, refuses the request naming each parameter.
 */
export function ignoredParameters(app: App, strict: boolean): MiddlewareHandler<AppEnv> {
  // Read on first request: the routes are registered after this middleware.
  let table: KnownRoute[] | undefined;
  return async (c, next) => {
    table ??= knownRoutes(app);
    const route = table.find((r) => r.method === c.req.method && r.pattern.test(c.req.path));
    if (!route) return next();
    const query = unknownParameters(new URL(c.req.url), route.names);
    const body = route.bodyIsQuery
      ? (await bodyNames(c)).filter((name) => !route.names.has(name) && !query.includes(name))
      : [];
    const ignored = [...query, ...body];
    if (ignored.length === 0) return next();
    if (strict) {
      const reason = `${c.req.method} ${c.req.path} does not take this parameter (STRICT_PARAMETERS is on)`;
      throw new ApiProblem(400, `unknown parameters: ${ignored.join(', ')}`, {
        errors: [
          ...query.map((parameter) => ({ parameter, in: 'query' as const, reason })),
          ...body.map((parameter) => ({ parameter, in: 'body' as const, reason })),
        ],
      });
    }
    c.set('ignoredParameters', ignored);
    await next();
    c.res.headers.set(IGNORED_PARAMETERS_HEADER, ignoredHeaderValue(ignored));
  };
}
