/**
 * /admin/imports: start an import from the console (the demo dataset, a URL or an uploaded file),
 * follow its progress, cancel it, and read its full report. Registered after the admin routes'
 * token check (routes/admin.routes.ts), so every one of them needs a token of the admin scope:
 * the console uses these routes like any other client, and has no way around them.
 */
import { createRoute, z } from '@hono/zod-openapi';
import { ADMIN_SECURITY, adminAuthResponses } from '../api/http/auth.ts';
import { ApiProblem, bodyErrorResponses, errorResponses, problemContent } from '../api/http/problem.ts';
import type { App, AppDeps } from '../api/types.ts';
import type { ImportFrom, ImportJobs } from './import-jobs.ts';

const jobSchema = z
  .object({
    id: z.string().openapi({ example: 'import-1732291200000-3f9a' }),
    state: z.enum(['running', 'succeeded', 'failed', 'cancelled']),
    source: z.string().openapi({ description: 'The source name its records carry (see /admin/sources).' }),
    started_at: z.string().openapi({ format: 'date-time' }),
    finished_at: z.string().optional().openapi({ format: 'date-time' }),
    progress: z.object({
      phase: z.enum(['starting', 'reading', 'publishing', 'done']),
      items: z.number().int().openapi({ description: 'Items read from the feed so far.' }),
      records: z.number().int().openapi({ description: 'Records kept so far.' }),
      rejected: z.number().int(),
      total_items: z
        .number()
        .int()
        .optional()
        .openapi({ description: 'Items in the feed, when known before reading it (the demo).' }),
      services: z.number().int().openapi({ description: 'Services published so far.' }),
      total_services: z.number().int(),
      percent: z
        .number()
        .int()
        .openapi({ description: '0 to 100: reading is the first 80, publishing the last 20.' }),
      rate_per_second: z.number().openapi({ description: 'Items read a second, over the run so far.' }),
      seconds_left: z
        .number()
        .int()
        .optional()
        .openapi({ description: 'Estimated, when the total is known.' }),
    }),
    summary: z.record(z.string(), z.unknown()).optional().openapi({
      description:
        'When finished: the import summary (items, records, repaired, rejected, by_type, by_reason).',
    }),
    error: z.string().optional().openapi({ description: 'When failed or cancelled: why.' }),
  })
  .openapi('ImportJob');

const startBody = z
  .object({
    from: z.enum(['demo', 'url', 'file']).openapi({
      description:
        '`demo`: the synthetic demo dataset (500 services, a fixed seed); `url`: a remote HSDS API or a feed file at a URL; `file`: the `content` of an uploaded HSDS JSON or NDJSON file.',
    }),
    url: z.string().url().optional().openapi({ description: 'With `from: url`.' }),
    name: z
      .string()
      .regex(/^[\w.-]{1,100}$/, 'a file name of letters, digits, dots, dashes and underscores')
      .optional()
      .openapi({ description: 'With `from: file`: its name, e.g. `services.json`.' }),
    content: z.string().optional().openapi({ description: 'With `from: file`: its text.' }),
    source: z
      .string()
      .min(1)
      .max(200)
      .optional()
      .openapi({ description: 'The source name (default: the URL, or `upload:<name>`).' }),
    sync: z.boolean().optional().openapi({
      description: 'Delete what this source provided before and no longer does (as `hsds import --sync`).',
    }),
  })
  .openapi('ImportStart');

const idParam = z.object({
  id: z
    .string()
    .min(1)
    .max(100)
    .openapi({ param: { name: 'id', in: 'path' } }),
});
const notFound = problemContent(
  'No import job has this id (jobs are kept in memory by the server that ran them).',
);

const startRoute = createRoute({
  method: 'post',
  path: '/admin/imports',
  operationId: 'startImport',
  tags: ['operations'],
  summary: 'Import the demo dataset, a URL or an uploaded file, then publish it, in the background.',
  description:
    'One import runs at a time across every process sharing the engine (the `import` lease): while one runs the answer is 409, naming its holder. The upload is bounded by `VALIDATE_MAX_BODY_BYTES`.',
  security: ADMIN_SECURITY,
  request: { body: { required: true, content: { 'application/json': { schema: startBody } } } },
  responses: {
    202: {
      description: 'Started; follow it at `Location`.',
      headers: { Location: { schema: { type: 'string' }, description: 'The job, /admin/imports/{id}.' } },
      content: { 'application/json': { schema: jobSchema } },
    },
    ...adminAuthResponses,
    409: problemContent(
      "An import is running: this server's (`Location` is its job) or another process's (the detail names it).",
    ),
    ...bodyErrorResponses,
    ...errorResponses,
  },
});

const listRoute = createRoute({
  method: 'get',
  path: '/admin/imports',
  operationId: 'listImports',
  tags: ['operations'],
  summary: "This server's import jobs, newest first.",
  security: ADMIN_SECURITY,
  responses: {
    200: {
      description: 'The jobs.',
      content: { 'application/json': { schema: z.object({ imports: z.array(jobSchema) }) } },
    },
    ...adminAuthResponses,
    ...errorResponses,
  },
});

const getRoute = createRoute({
  method: 'get',
  path: '/admin/imports/{id}',
  operationId: 'getImport',
  tags: ['operations'],
  summary: 'An import job: its state, progress and summary.',
  security: ADMIN_SECURITY,
  request: { params: idParam },
  responses: {
    200: { description: 'The job.', content: { 'application/json': { schema: jobSchema } } },
    ...adminAuthResponses,
    404: notFound,
    ...errorResponses,
  },
});

const cancelRoute = createRoute({
  method: 'delete',
  path: '/admin/imports/{id}',
  operationId: 'cancelImport',
  tags: ['operations'],
  summary: 'Cancel a running import job.',
  description:
    'What it wrote so far stays in the records store, the run marked unfinished (as an interrupted `hsds import`): the next import of the source finishes it, and nothing is published meanwhile.',
  security: ADMIN_SECURITY,
  request: { params: idParam },
  responses: {
    202: {
      description: 'Cancelling; the job ends `cancelled`.',
      content: { 'application/json': { schema: jobSchema } },
    },
    ...adminAuthResponses,
    404: notFound,
    409: problemContent('The job has finished already.'),
    ...errorResponses,
  },
});

const reportRoute = createRoute({
  method: 'get',
  path: '/admin/imports/{id}/report',
  operationId: 'getImportReport',
  tags: ['operations'],
  summary:
    "A finished import's full report: every issue with its path, the value as published and what was done.",
  security: ADMIN_SECURITY,
  request: { params: idParam },
  responses: {
    200: {
      description: 'The report, as `hsds import --report` writes it.',
      content: { 'application/json': { schema: z.record(z.string(), z.unknown()).openapi('ImportReport') } },
    },
    ...adminAuthResponses,
    404: problemContent(
      'No import job has this id, or it has no report (it is running, or failed before reading).',
    ),
    ...errorResponses,
  },
});

const importsOf = (deps: AppDeps): ImportJobs => {
  if (!deps.imports) throw new ApiProblem(503, 'import jobs are not available in this server');
  return deps.imports;
};

/** The body's fields as the kind of source needs them, or a 400 naming the missing one. */
function importFrom(body: z.infer<typeof startBody>): ImportFrom {
  const missing = (parameter: string) =>
    new ApiProblem(400, `${parameter}: required with from=${body.from}`, {
      errors: [{ parameter, in: 'body', reason: `required with from=${body.from}` }],
    });
  const common = {
    ...(body.source !== undefined ? { source: body.source } : {}),
    ...(body.sync !== undefined ? { sync: body.sync } : {}),
  };
  if (body.from === 'demo') return { from: 'demo' };
  if (body.from === 'url') {
    if (!body.url) throw missing('url');
    return { from: 'url', url: body.url, ...common };
  }
  if (!body.name) throw missing('name');
  if (body.content === undefined) throw missing('content');
  return { from: 'file', name: body.name, content: body.content, ...common };
}

export function registerImportJobRoutes(app: App) {
  app.openapi(startRoute, async (c) => {
    const started = await importsOf(c.get('deps')).start(importFrom(c.req.valid('json')));
    if ('busy' in started) throw new ApiProblem(409, started.busy, { type: 'import-running' });
    if ('conflict' in started) {
      throw new ApiProblem(409, `an import is already running: job ${started.conflict.id}`, {
        type: 'import-running',
        headers: { location: `/admin/imports/${started.conflict.id}` },
      });
    }
    c.header('location', `/admin/imports/${started.job.id}`);
    return c.json(started.job, 202);
  });

  app.openapi(listRoute, (c) => c.json({ imports: importsOf(c.get('deps')).list() }, 200));

  app.openapi(getRoute, (c) => {
    const job = importsOf(c.get('deps')).get(c.req.valid('param').id);
    if (!job) throw new ApiProblem(404, 'no import job has this id');
    return c.json(job, 200);
  });

  app.openapi(cancelRoute, (c) => {
    const imports = importsOf(c.get('deps'));
    const { id } = c.req.valid('param');
    const job = imports.get(id);
    if (!job) throw new ApiProblem(404, 'no import job has this id');
    if (job.state !== 'running') throw new ApiProblem(409, `the import has finished already (${job.state})`);
    return c.json(imports.cancel(id) ?? job, 202);
  });

  app.openapi(reportRoute, async (c) => {
    const { id } = c.req.valid('param');
    const text = await importsOf(c.get('deps')).report(id);
    if (text === undefined) throw new ApiProblem(404, 'this import job has no report');
    // Parsed again rather than passed through, so the route's answer is typed as documented.
    return c.json(JSON.parse(text) as Record<string, unknown>, 200, {
      'content-disposition': `attachment; filename="${id}-report.json"`,
    });
  });
}
