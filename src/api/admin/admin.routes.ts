/**
 * Operator routes: start a reindex, follow it; the search report (search-report.routes.ts); change
 * webhooks (webhooks.routes.ts).
 * Registered only when a token of the `admin` scope is configured (API_TOKENS, or the older
 * ADMIN_TOKEN; without one they do not exist: 404); every request needs
 * `Authorization: Bearer <that token>` (auth.ts: 401, or 403 without the scope).
 */
import { createRoute, z } from '@hono/zod-openapi';
import { ADMIN_SECURITY, type ApiToken, adminAuthResponses, requireScope } from '../http/auth.ts';
import { ApiProblem, errorResponses, problemContent } from '../http/problem.ts';
import type { App, AppDeps } from '../types.ts';
import { registerDuplicatesRoutes } from './duplicates.routes.ts';
import type { ReindexJob, ReindexJobs } from './jobs.ts';
import { registerSearchReportRoute } from './search-report.routes.ts';
import { registerSourcesRoute } from './sources.routes.ts';
import { registerWebhookRoutes } from './webhooks.routes.ts';

const jobSchema = z
  .object({
    id: z.string().openapi({ description: 'The job id.', example: 'reindex-1732291200000-3f9a' }),
    state: z.enum(['running', 'succeeded', 'failed']),
    started_at: z.string().openapi({ format: 'date-time' }),
    finished_at: z.string().optional().openapi({ format: 'date-time' }),
    progress: z.object({
      phase: z.string().openapi({
        description: 'taxonomies, taxonomy_terms, services, organizations, finishing, then swapped.',
      }),
      services: z.number().int().openapi({ description: 'Services written so far.' }),
      total_services: z.number().int().openapi({ description: 'Services in the records store.' }),
      documents: z.number().int().openapi({ description: 'Documents written so far, all indices.' }),
    }),
    report: z.record(z.string(), z.unknown()).optional().openapi({
      description:
        'When succeeded: the new version, document counts, the previous version kept for rollback.',
    }),
    error: z
      .string()
      .optional()
      .openapi({ description: 'When failed: why. The served indices are unchanged.' }),
  })
  .openapi('ReindexJob');

const startRoute = createRoute({
  method: 'post',
  path: '/admin/reindex',
  operationId: 'startReindex',
  tags: ['operations'],
  summary: 'Rebuild the read indices from the records store; the aliases swap atomically at the end.',
  description:
    'Starts a reindex in the background and returns its job. One reindex runs at a time across every process ' +
    'sharing the engine (a lease in the engine): while one runs, the answer is 409 naming it (and `Location` ' +
    "points at it when it is this server's job). Readers see the old data until the swap; a failed reindex " +
    'changes nothing.',
  security: ADMIN_SECURITY,
  request: {
    query: z.object({
      allow_incomplete: z.enum(['true', 'false']).optional().openapi({
        description:
          'Publish even though an import did not finish (was killed, failed or still runs): the records store may hold part of that source. Without it such a reindex fails and says which import.',
      }),
    }),
  },
  responses: {
    202: {
      description: 'Started; follow it at `Location`.',
      headers: { Location: { schema: { type: 'string' }, description: 'The job, /admin/jobs/{id}.' } },
      content: { 'application/json': { schema: jobSchema } },
    },
    ...adminAuthResponses,
    409: problemContent(
      "A reindex is already running: this server's (`Location` is its job) or another process's (the detail names it).",
    ),
    ...errorResponses,
  },
});

const jobRoute = createRoute({
  method: 'get',
  path: '/admin/jobs/{id}',
  operationId: 'getJob',
  tags: ['operations'],
  summary: 'The state, progress and report of a reindex job.',
  security: ADMIN_SECURITY,
  request: {
    params: z.object({
      id: z
        .string()
        .min(1)
        .max(100)
        .openapi({ param: { name: 'id', in: 'path' } }),
    }),
  },
  responses: {
    200: { description: 'The job.', content: { 'application/json': { schema: jobSchema } } },
    ...adminAuthResponses,
    404: problemContent('No job has this id (jobs are kept in memory by the server that ran them).'),
    ...errorResponses,
  },
});

export function registerAdminRoutes(app: App, tokens: readonly ApiToken[]) {
  app.openAPIRegistry.registerComponent('securitySchemes', 'adminToken', {
    type: 'http',
    scheme: 'bearer',
    description: 'A token of the admin scope (API_TOKENS), or the ADMIN_TOKEN the server was started with.',
  });

  app.use(
    '/admin/*',
    requireScope('admin', () => tokens),
  );

  registerDuplicatesRoutes(app);

  const jobsOf = (deps: AppDeps): ReindexJobs => {
    if (!deps.jobs) throw new ApiProblem(503, 'reindex jobs are not available in this server');
    return deps.jobs;
  };

  app.openapi(startRoute, async (c) => {
    const { allow_incomplete } = c.req.valid('query');
    const started = await jobsOf(c.get('deps')).start({ allowIncomplete: allow_incomplete === 'true' });
    if ('busy' in started) {
      throw new ApiProblem(409, started.busy, { type: 'reindex-running' });
    }
    if ('conflict' in started) {
      const running: ReindexJob = started.conflict;
      throw new ApiProblem(409, `a reindex is already running: job ${running.id}`, {
        type: 'reindex-running',
        headers: { location: `/admin/jobs/${running.id}` },
      });
    }
    c.header('location', `/admin/jobs/${started.job.id}`);
    return c.json(started.job, 202);
  });

  app.openapi(jobRoute, (c) => {
    const job = jobsOf(c.get('deps')).get(c.req.valid('param').id);
    if (!job) throw new ApiProblem(404, 'no job has this id');
    return c.json(job, 200);
  });

  registerSearchReportRoute(app);
  registerSourcesRoute(app);
  registerWebhookRoutes(app);
}
