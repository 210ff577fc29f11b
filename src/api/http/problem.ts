/**
 * One error format: RFC 9457 problem details (`application/problem+json`). Handlers throw
 * ApiProblem; validation failures are formatted once in the app's default hook; the engine's own
 * errors are mapped in app.ts. `errorResponses` documents them in every route of the OpenAPI document.
 */
import { z } from '@hono/zod-openapi';
import type { Context } from 'hono';
import type { ContentfulStatusCode } from 'hono/utils/http-status';
import { currentRequestId } from './request-id.ts';

export const PROBLEM_CONTENT_TYPE = 'application/problem+json';

export const problemSchema = z
  .object({
    type: z.string().openapi({ example: 'https://hsds-directory.dev/problems/invalid-parameter' }),
    title: z.string().openapi({ example: 'Invalid parameter' }),
    status: z.number().int().openapi({ example: 400 }),
    detail: z.string().optional().openapi({ example: 'per_page: must be at most 1000' }),
    instance: z.string().optional(),
    errors: z
      .array(
        z.object({
          parameter: z.string().openapi({ description: 'The parameter (or body field) at fault.' }),
          in: z.enum(['query', 'path', 'body', 'header']).optional(),
          reason: z.string(),
          // A write's body is checked as an import checks a feed: its errors carry the import
          // report's fields (src/ingest/records/flatten.ts Issue).
          severity: z.enum(['error', 'warning', 'info']).optional(),
          kind: z.string().optional().openapi({ description: "The import report's kind of issue." }),
          record_type: z.string().optional(),
          record_id: z.string().optional(),
          value: z
            .string()
            .optional()
            .openapi({ description: 'The value found, when the issue is about one.' }),
        }),
      )
      .optional()
      .openapi({
        description:
          'Each bad parameter with the reason it was refused (at most 100: `errors_total` counts them all).',
      }),
    errors_total: z
      .number()
      .int()
      .optional()
      .openapi({ description: 'How many errors were found, when `errors` lists only the first of them.' }),
    request_id: z.string().optional().openapi({
      description:
        'The id of the request this answers (also sent as `X-Request-Id`: the one the request sent, when it sent one): quote it when reporting a problem, it is on every log line of the request.',
      example: '6f1c0a5e-2b9d-4c47-9a51-0d3e7f8b2c14',
    }),
  })
  .openapi('Problem');

export type Problem = z.infer<typeof problemSchema>;
export type ParameterError = NonNullable<Problem['errors']>[number];

const problemTypes = {
  400: ['invalid-parameter', 'Invalid parameter'],
  401: ['unauthorized', 'Unauthorized'],
  403: ['forbidden', 'Forbidden'],
  404: ['not-found', 'Not found'],
  405: ['method-not-allowed', 'Method not allowed'],
  409: ['conflict', 'Conflict'],
  412: ['precondition-failed', 'Precondition failed'],
  413: ['content-too-large', 'Content too large'],
  415: ['unsupported-media-type', 'Unsupported media type'],
  422: ['unprocessable', 'Unprocessable request'],
  429: ['too-many-requests', 'Too many requests'],
  500: ['internal-error', 'Internal server error'],
  503: ['service-unavailable', 'Service unavailable'],
} as const;

export type ProblemStatus = keyof typeof problemTypes;

const PROBLEM_BASE = 'https://hsds-directory.dev/problems/';

/** A problem a handler throws; app.ts turns it into the response. */
export class ApiProblem extends Error {
  readonly status: ProblemStatus;
  readonly detail: string;
  readonly errors: ParameterError[] | undefined;
  /** How many errors there were, when `errors` lists only the first of them. */
  readonly errorsTotal: number | undefined;
  readonly title: string | undefined;
  readonly typeSlug: string | undefined;
  /** Sent as Retry-After (a 503 without it gets 5 s). */
  readonly retryAfterSeconds: number | undefined;
  /** Other response headers the problem carries (a 409's Location of what it conflicts with). */
  readonly headers: Record<string, string>;
  constructor(
    status: ProblemStatus,
    detail: string,
    options: {
      errors?: ParameterError[];
      errorsTotal?: number;
      title?: string;
      type?: string;
      retryAfterSeconds?: number;
      headers?: Record<string, string>;
    } = {},
  ) {
    super(detail);
    this.status = status;
    this.detail = detail;
    this.errors = options.errors;
    this.errorsTotal = options.errorsTotal;
    this.title = options.title;
    this.typeSlug = options.type;
    this.retryAfterSeconds = options.retryAfterSeconds;
    this.headers = options.headers ?? {};
  }
}

/** A 400 naming one parameter. */
export const invalidParameter = (parameter: string, reason: string, where: ParameterError['in'] = 'query') =>
  new ApiProblem(400, `${parameter}: ${reason}`, { errors: [{ parameter, in: where, reason }] });

export function toProblem(
  problem: ApiProblem,
  instance?: string,
  requestId: string | undefined = currentRequestId(),
): Problem {
  const [slug, title] = problemTypes[problem.status];
  return {
    type: PROBLEM_BASE + (problem.typeSlug ?? slug),
    title: problem.title ?? title,
    status: problem.status,
    detail: problem.detail,
    ...(instance ? { instance } : {}),
    ...(problem.errors ? { errors: problem.errors } : {}),
    ...(problem.errorsTotal !== undefined ? { errors_total: problem.errorsTotal } : {}),
    ...(requestId !== undefined ? { request_id: requestId } : {}),
  };
}

export function problemResponse(
  problem: ApiProblem,
  instance?: string,
  headers: Record<string, string> = {},
): Response {
  return new Response(JSON.stringify(toProblem(problem, instance)), {
    status: problem.status,
    headers: { 'content-type': PROBLEM_CONTENT_TYPE, ...headers },
  });
}

/**
 * problemResponse made through the request's context, so headers set on it before the answer
 * existed (`c.header()`: a rate limit's, a geocoded postcode's) are kept.
 */
export function problemAnswer(
  c: Context,
  problem: ApiProblem,
  instance?: string,
  headers: Record<string, string> = {},
): Response {
  return c.newResponse(JSON.stringify(toProblem(problem, instance)), problem.status as ContentfulStatusCode, {
    'content-type': PROBLEM_CONTENT_TYPE,
    ...headers,
  });
}

/** A problem+json answer as a route's OpenAPI document describes it (`401: problemContent('...')`). */
export const problemContent = (description: string) => ({
  description,
  content: { [PROBLEM_CONTENT_TYPE]: { schema: problemSchema } },
});

/** The error responses every route can give, spread into each route's `responses`. */
export const errorResponses = {
  400: problemContent('A parameter is malformed or out of range; `errors` names each one.'),
  500: problemContent('An unexpected error on our side; it is logged.'),
  503: problemContent(
    'The search engine (or a geocoder it needs) is unreachable or shedding load, this server has `ENGINE_MAX_IN_FLIGHT` requests to it in progress (`server-busy`), or every dump slot or large-page slot (`too-many-large-pages`: a page over `PAGE_LARGE_BYTES`) is taken; try again after `Retry-After` seconds.',
  ),
} as const;

/** The refusals only a route that takes a body can give (the POST twins). */
export const bodyErrorResponses = {
  413: problemContent(
    'The request body is larger than this server accepts (`MAX_BODY_BYTES`); it is refused before it is read (on `Content-Length`) or as soon as it passes the limit.',
  ),
  415: problemContent(
    'The body is neither JSON (`application/json`) nor a form (`application/x-www-form-urlencoded`, `multipart/form-data`).',
  ),
} as const;

export const notFoundResponse = { 404: problemContent('No record has this id.') } as const;

/** A JSON page is built whole in memory, within a size budget (large-pages.ts). */
export const pageTooLargeResponse = {
  413: problemContent(
    'The page asked for would be larger than this server builds for one answer (`PAGE_MAX_BYTES`), type `page-too-large`: `errors` names `per_page` with the most that fits this search; `format=ndjson` streams every match, whatever its size.',
  ),
} as const;

/** Lists can be dumps (`format=ndjson`, `minimal=true`), which are capped per client. */
export const tooManyDumpsResponse = {
  429: problemContent(
    'This client already runs as many dumps as one client may (`DUMP_MAX_PER_CLIENT`); retry after `Retry-After` seconds.',
  ),
} as const;
