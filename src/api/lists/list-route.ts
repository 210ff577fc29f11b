/**
 * A list endpoint and its POST twin from one description: the same parameters (query string, JSON
 * body or form body; the body wins where both give a value), the same responses, one handler.
 */
import { createRoute, type z } from '@hono/zod-openapi';
import { type ReadBudget, type RecordTexts, searchPage, streamRecords } from '../../engine/search.ts';
import { pageWindow, type SearchRequest, streamOrder } from '../../index-mapping/search.query.ts';
import { IGNORED_PARAMETERS_HEADER } from '../http/ignored-params.ts';
import { asJsonAnswer, type JsonAnswer } from '../http/json-answer.ts';
import {
  bodyErrorResponses,
  errorResponses,
  pageTooLargeResponse,
  tooManyDumpsResponse,
} from '../http/problem.ts';
import { type RouteContext, requirementTag } from '../http/route-context.ts';
import type { AppContext } from '../types.ts';
import { openDump } from './dumps.ts';
import { openPageBudget } from './large-pages.ts';
import type { Paging } from './list-params.ts';
import { NDJSON_CONTENT_TYPE, ndjsonResponse } from './ndjson.ts';
import { type PageExtensions, pageText } from './paging.ts';

export type ListEndpoint<Params extends z.ZodObject, Page extends z.ZodType> = {
  path: string;
  /** The specification's operationId; the POST twin's is the same with `post` for `get`. */
  operationId: `get${string}`;
  summary: string;
  description: string;
  params: Params;
  /** The JSON page. */
  pageSchema: Page;
  /** One line of `format=ndjson`. */
  itemSchema: z.ZodType;
  responseDescription: string;
};

const FORM_TYPES = ['application/x-www-form-urlencoded', 'multipart/form-data'] as const;

/**
 * A list endpoint's two routes from one description: `get` takes the parameters in the query
 * string; `post`, its twin, also in a JSON or form body. Register both with one handler:
 * `app.openapi(routes.get, (c) => list(c, c.req.valid('query')))` and
 * `app.openapi(routes.post, (c) => list(c, postedParams(c)))`.
 */
export function listRoutes<Params extends z.ZodObject, Page extends z.ZodType>(
  ctx: RouteContext,
  endpoint: ListEndpoint<Params, Page>,
) {
  const responses = {
    200: {
      description: endpoint.responseDescription,
      headers: {
        [IGNORED_PARAMETERS_HEADER]: {
          description:
            'Present when the query string (or a POST body) held parameters this endpoint does not take: their names (percent-encoded, comma-separated), which did not change the answer. With `STRICT_PARAMETERS=true` they are a 400 instead.',
          schema: { type: 'string' as const, example: 'serch' },
        },
      },
      content: {
        'application/json': { schema: endpoint.pageSchema },
        [NDJSON_CONTENT_TYPE]: { schema: endpoint.itemSchema },
      },
    },
    ...errorResponses,
    ...tooManyDumpsResponse,
    ...pageTooLargeResponse,
  };
  const common = {
    path: endpoint.path,
    summary: endpoint.summary,
    description: endpoint.description,
  };
  const get = createRoute({
    ...common,
    method: 'get',
    operationId: endpoint.operationId,
    tags: [requirementTag(ctx, 'get', endpoint.path)],
    request: { query: endpoint.params },
    responses,
  });
  const post = createRoute({
    ...common,
    method: 'post',
    operationId: endpoint.operationId.replace(/^get/, 'post'),
    tags: [requirementTag(ctx, 'post', endpoint.path)],
    responses: {
      ...responses,
      ...bodyErrorResponses,
      413: {
        ...bodyErrorResponses[413],
        description: `${bodyErrorResponses[413].description} Or, as for GET: ${pageTooLargeResponse[413].description}`,
      },
    },
    description: `${endpoint.description}\n\nThe same search as GET, with the parameters in the query string, a JSON body or a form body (a value in the body overrides the same parameter in the query string). An empty body means no parameters; a body larger than the server's limit is a 413, one of another media type a 415.`,
    request: {
      query: endpoint.params,
      body: {
        required: false,
        description: 'The parameters of the GET twin, as a JSON object or a form.',
        content: {
          'application/json': { schema: endpoint.params },
          [FORM_TYPES[0]]: { schema: endpoint.params },
          [FORM_TYPES[1]]: { schema: endpoint.params },
        },
      },
    },
  });
  return { get, post };
}

/** What a POST twin's handler can read: the same parameters from the query string and the body. */
type Posted<Params> = {
  req: { header(name: string): string | undefined; valid(target: 'query' | 'json' | 'form'): Params };
};

/**
 * A POST twin's parameters: the query string's, overridden by the body's. Only the body of the
 * request's media type was validated (an empty body has none).
 */
export function postedParams<Params extends object>(c: Posted<Params>): Params {
  const contentType = c.req.header('content-type') ?? '';
  const body = contentType.includes('json')
    ? c.req.valid('json')
    : contentType.includes('form')
      ? c.req.valid('form')
      : undefined;
  return { ...c.req.valid('query'), ...body };
}

/**
 * A step on each page or stream batch of record texts, for a list that adds to its records (the
 * services nested in organizations): it parses what it needs. On a JSON page, what it reads
 * counts against the page's budget.
 */
export type Enrich = (texts: string[], budget?: ReadBudget) => Promise<string[]>;

async function* enriched(
  batches: AsyncGenerator<RecordTexts, void, undefined>,
  enrich: Enrich,
): AsyncGenerator<RecordTexts, void, undefined> {
  try {
    for await (const batch of batches) yield { total: batch.total, texts: await enrich(batch.texts) };
  } finally {
    await batches.return(undefined);
  }
}

/** Extension fields for a JSON page, given its total (facets, did you mean: search-extensions.ts). */
/** The page's extension fields, given the total of the search as asked and whether a wider one was served. */
export type Extend = (total: number, relaxed: boolean) => Promise<PageExtensions>;

/** A wider search to serve instead when a page's search found nothing, and what its page says of it. */
export type Relaxed = { request: SearchRequest; extensions: PageExtensions };

type ListOptions = {
  enrich?: Enrich;
  extend?: Extend | undefined;
  /** Tried in order when the search finds nothing: the first that finds something is served. */
  relax?: readonly Relaxed[] | undefined;
  /** What the enrich step nests, when that changes what an item weighs (large-pages.ts). */
  nests?: string;
};

/** A page of a search as JSON, or every match as NDJSON; typed as the route's page. */
export async function listResponse<Page extends z.ZodType>(
  c: AppContext,
  page: Page,
  request: SearchRequest,
  paging: Paging,
  options: ListOptions = {},
): Promise<JsonAnswer<Page>> {
  return asJsonAnswer(page, await listAnswer(c, request, paging, options));
}

async function listAnswer(
  c: AppContext,
  request: SearchRequest,
  paging: Paging,
  options: ListOptions,
): Promise<Response> {
  const { engine, logger } = c.get('deps');
  if (paging.format === 'ndjson') {
    const dump = openDump(c);
    const batches = streamRecords(engine, streamOrder(request), dump.stream);
    return ndjsonResponse(options.enrich ? enriched(batches, options.enrich) : batches, dump, logger);
  }
  // A page is held whole while it is built: bounded by size, and large ones by number (large-pages.ts).
  const kind = `${request.index} ${request.source.join(',')} ${options.nests ?? ''}`;
  const budget = openPageBudget(c.get('largePages'), kind, paging.perPage);
  try {
    const window = pageWindow(paging.page, paging.perPage);
    let page = await searchPage(engine, request, window, budget);
    // The extensions speak of the search as asked (did_you_mean when it found nothing).
    const asked = page.total;
    let relaxedBy: PageExtensions = {};
    for (const relaxed of asked === 0 ? (options.relax ?? []) : []) {
      const wider = await searchPage(engine, relaxed.request, window, budget);
      if (wider.total === 0) continue;
      page = wider;
      relaxedBy = relaxed.extensions;
      break;
    }
    const texts = options.enrich ? await options.enrich(page.texts, budget) : page.texts;
    budget.served(texts.length);
    const wider = relaxedBy.relaxed !== undefined;
    const ignored = c.get('ignoredParameters');
    const extensions = {
      ...(options.extend ? await options.extend(asked, wider) : {}),
      ...relaxedBy,
      ...(ignored ? { ignored_parameters: ignored } : {}),
    };
    return c.body(pageText(texts, page.total, paging.page, paging.perPage, extensions), 200, {
      'content-type': 'application/json',
    });
  } finally {
    budget.release();
  }
}
