/**
 * GET /admin/search-report: what people searched for, per day, with no personal data (the search
 * log, src/engine/search-log.ts; recorded by src/search-report). Registered with the other admin
 * routes, behind their bearer token of the admin scope.
 */
import { createRoute, z } from '@hono/zod-openapi';
import { readSearchReport } from '../../engine/search-log.ts';
import { REPORT_DAYS, REPORT_QUERIES } from '../../index-mapping/search-log.document.ts';
import { ADMIN_SECURITY, adminAuthResponses } from '../http/auth.ts';
import { errorResponses } from '../http/problem.ts';
import { integerParam } from '../lists/list-params.ts';
import type { App } from '../types.ts';

const counts = {
  searches: z
    .number()
    .int()
    .openapi({ description: 'Searches (first pages of a search; dumps not counted).' }),
  zero_results: z.number().int().openapi({ description: 'Of those, searches that found nothing.' }),
  relaxed: z.number().int().openapi({
    description: 'Of those, searches that found something only once relaxed (fewer of their words required).',
  }),
};

const querySchema = z
  .object({
    query: z.string().nullable().openapi({
      description:
        'The search text as counted: lower case, spaces collapsed, at most 500 characters, identifiers replaced by a label (`[email]`, `[phone]`, `[number]`, `[address]`, `[postcode b12]`). Null while the text is held back: searched on fewer distinct days than `min_days`, it is not stored, only its counts.',
      example: 'food bank [postcode b12]',
    }),
    days: z.number().int().openapi({
      description: 'Distinct days the text was searched on, within the retention period.',
    }),
    ...counts,
  })
  .openapi('SearchReportQuery');

const dayCounts = {
  ...counts,
  dropped: z.number().int().openapi({
    description:
      'Searches counted whose text was not kept: a server holds at most 10,000 distinct texts between two writes to the engine (every 10 s).',
  }),
  distinct_queries: z.number().int().openapi({ description: 'Distinct search texts.' }),
};

const reportSchema = z
  .object({
    from: z.string().openapi({ format: 'date', description: 'First day of the period (UTC).' }),
    to: z.string().openapi({ format: 'date', description: 'Last day of the period: today (UTC).' }),
    days: z.number().int(),
    retention_days: z.number().int().openapi({
      description:
        "Days the search log keeps (this server's SEARCH_LOG_RETENTION_DAYS); 0: this server records nothing.",
    }),
    min_days: z.number().int().openapi({
      description:
        "Distinct days a text must be searched on before it is stored and shown (this server's SEARCH_LOG_MIN_DAYS).",
    }),
    totals: z.object(dayCounts).openapi({ description: 'The whole period.' }),
    per_day: z
      .array(z.object({ day: z.string().openapi({ format: 'date' }), ...dayCounts }))
      .openapi({ description: 'Every day of the period, oldest first (days with no search count 0).' }),
    top_queries: z.array(querySchema).openapi({ description: 'The most searched texts, most first.' }),
    zero_result_queries: z.array(querySchema).openapi({
      description:
        'Texts that found nothing, most such searches first: candidates for a synonym rule (POST /admin/vocabulary/rules, served at once; or SYNONYMS_FILE, then `npx hsds synonyms reload`).',
    }),
    relaxed_queries: z.array(querySchema).openapi({
      description: 'Texts that found something only once relaxed, most such searches first.',
    }),
  })
  .openapi('SearchReport');

const searchReportRoute = createRoute({
  method: 'get',
  path: '/admin/search-report',
  operationId: 'getSearchReport',
  tags: ['operations'],
  summary: 'What people searched for: top queries, queries that found nothing, relaxed queries, per day.',
  description:
    'Aggregated search analytics with no personal data. For each search made on `/services` and `/service_at_locations` (GET or POST, page 1 of a JSON page), the server counts only its normalised text, its UTC day, whether it found nothing and whether it was relaxed: never an address, token, user agent, time of day, filter or id. The text is redacted before anything is stored (e-mail addresses, phone numbers, runs of 6 or more digits, house number and street, the inward half of a postcode), and stored only once searched on SEARCH_LOG_MIN_DAYS distinct days (3 by default); until then a text appears with `query: null` and its counts. Counts are kept per day and text for SEARCH_LOG_RETENTION_DAYS days (90 by default; 0 records nothing), written every 10 s, so a search shows here within about 10 s. The same report: `npx hsds search-report`.',
  security: ADMIN_SECURITY,
  request: {
    query: z.object({
      days: integerParam(
        `Days to report, ending today (UTC); ${REPORT_DAYS.default} unless given.`,
        1,
        REPORT_DAYS.max,
      ).optional(),
      limit: integerParam(
        `Texts in each list; ${REPORT_QUERIES.default} unless given.`,
        1,
        REPORT_QUERIES.max,
      ).optional(),
    }),
  },
  responses: {
    200: { description: 'The report.', content: { 'application/json': { schema: reportSchema } } },
    ...adminAuthResponses,
    ...errorResponses,
  },
});

/** Called by registerAdminRoutes, after its token check on /admin/*. */
export function registerSearchReportRoute(app: App) {
  app.openapi(searchReportRoute, async (c) => {
    const { days = REPORT_DAYS.default, limit = REPORT_QUERIES.default } = c.req.valid('query');
    const { engine, config } = c.get('deps');
    const report = await readSearchReport(engine, { days, limit });
    return c.json(
      { retention_days: config.SEARCH_LOG_RETENTION_DAYS, min_days: config.SEARCH_LOG_MIN_DAYS, ...report },
      200,
    );
  });
}
