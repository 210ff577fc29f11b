import type { Config } from '../../config.ts';
import { MAX_SEARCH_CHARS } from '../../index-mapping/text.query.ts';
import { OPENAPI_PATH, profiles } from '../http/profile.ts';
import { routeContext } from '../http/route-context.ts';
import type { App } from '../types.ts';
import { docsPolicy, renderDocsPage } from './docs-page.ts';

function describeApi(config: Config): string {
  const { limits, profile } = routeContext(config);
  return [
    `An Open Referral Human Services Data Specification (HSDS) API${profile === 'oruk' ? ', speaking the Open Referral UK profile (HSDS-UK 3.0)' : ''}: organizations, the services they run, where and for whom.`,
    '',
    '**Lists.** Every list is a Page: `page` from 1; `per_page` ' +
      `${limits.defaultPerPage} unless given, at most ${limits.maxPerPage}; \`total_items\` is exact. ` +
      '`first_page` is true on page 1 only; `last_page` on the last page and on any page past it; `empty` when `contents` is empty; `size` is the number of items in `contents`; every page but the last is full. ' +
      'A page past the end is an empty page, not an error. Every page can be reached, including those past the 10,000th result (served with `search_after` inside a point in time); to harvest a whole result set, `format=ndjson` is faster.',
    '',
    '**Filters** combine with AND. `search` never fails on what is typed: quotes mark phrases, other punctuation is ignored.',
    '',
    "**Streaming.** `format=ndjson` on any list returns every matching record, one JSON object a line (`application/x-ndjson`), streamed from a consistent snapshot; `page` and `per_page` are then ignored. `minimal=true` on /services returns every matching service's id and last_modified in one response.",
    '',
    '**POST** on a list endpoint is the same search, with the parameters in the query string, a JSON body or a form body.',
    '',
    "**Parameters an endpoint does not take are ignored and named** (clients add their own): in the `Ignored-Parameters` response header and, on a list, the page's `ignored_parameters`; a server with `STRICT_PARAMETERS=true` refuses them with a 400 naming each. Known parameters with bad values are refused with a 400.",
    '',
    '**Errors** are RFC 9457 problem details (`application/problem+json`) whose `errors` name each bad parameter. Ids are UUIDs, in either case: a malformed id is a 400, an unknown one a 404. ' +
      `A known path asked with a method it does not take is a 405 whose \`Allow\` header lists those it does; a request body over ${config.MAX_BODY_BYTES} bytes is a 413 (refused as soon as the size is known, never read further); a body that is neither JSON nor a form, a 415. \`search\` takes at most ${MAX_SEARCH_CHARS} characters.`,
  ].join('\n');
}

export const openApiInfo = (config: Config) => ({
  openapi: '3.1.0',
  info: {
    title: 'HSDS directory API',
    version: profiles[config.HSDS_PROFILE].version,
    description: describeApi(config),
    license: { name: 'Apache-2.0', identifier: 'Apache-2.0' },
  },
  tags: [
    { name: 'required', description: 'Endpoints every HSDS API must provide.' },
    { name: 'optional', description: 'Endpoints an HSDS API may provide.' },
    { name: 'operations', description: 'Health and administration; not part of HSDS.' },
  ],
});

/** The OpenAPI document, generated from the routes' zod schemas. */
export function buildOpenApiDocument(app: App, config: Config) {
  return app.getOpenAPI31Document(openApiInfo(config));
}

/**
 * Serves the OpenAPI document (built once, on first request: the routes do not change while the
 * app lives) and the reference page at /docs (rendered here, from that document: it works offline).
 */
export function registerOpenApi(app: App, config: Config) {
  let document: string | undefined;
  app.get(OPENAPI_PATH, (c) => {
    document ??= JSON.stringify(buildOpenApiDocument(app, config));
    return c.body(document, 200, { 'content-type': 'application/json' });
  });
  let page: string | undefined;
  app.get('/docs', (c) => {
    page ??= renderDocsPage(buildOpenApiDocument(app, config), OPENAPI_PATH.slice(1));
    return c.body(page, 200, {
      'content-type': 'text/html; charset=utf-8',
      'content-security-policy': docsPolicy(),
      'x-content-type-options': 'nosniff',
      'referrer-policy': 'same-origin',
    });
  });
}
