/**
 * GET /admin/sources: each source's quality and freshness (src/ingest/maintenance/source-quality.ts, given as
 * AppDeps.sources): its last import, records by type, services' ages and the share of services
 * with a phone, an e-mail, opening times, a located address and a service area. JSON, or a page
 * for a browser (Accept: text/html). Registered with the admin routes (admin scope).
 */
import { createRoute, z } from '@hono/zod-openapi';
import { ADMIN_SECURITY, adminAuthResponses } from '../http/auth.ts';
import { ApiProblem, errorResponses } from '../http/problem.ts';
import type { App, SourceQualityAnswer } from '../types.ts';

const count = z.number().int();
const shares = z.object({
  phone: z.number(),
  email: z.number(),
  schedule: z.number(),
  located_address: z.number(),
  service_area: z.number(),
});
const ages = z.object({ within_30_days: count, within_365_days: count, older: count, none: count }).openapi({
  description: 'Services by the age of the date: within 30 days, within a year, older, not said.',
});

export const sourceQualitySchema = z
  .looseObject({
    source: z.string().openapi({ description: 'The source name (`--source`, else the path or URL).' }),
    last_import: z
      .looseObject({
        state: z.enum(['running', 'complete', 'failed', 'abandoned']),
        started_at: z.string(),
        finished_at: z.string().optional(),
        error: z.string().optional(),
        counts: z
          .looseObject({ items: count, records: count, repaired: count, rejected: count })
          .optional()
          .openapi({ description: 'What the import counted (its report summary).' }),
      })
      .optional(),
    records: z.record(z.string(), count).openapi({ description: 'Records it last wrote, by type.' }),
    placeholder_organizations: count.openapi({
      description:
        'Of its organizations, the placeholders (`x-placeholder: true`) stored for organizations its services name but no source describes.',
    }),
    services: count,
    services_with_placeholder_organization: count.openapi({
      description: 'Of its services, those whose organization is a placeholder (not shown to people).',
    }),
    services_with: shares.openapi({ description: 'Services with each.' }),
    shares: shares.openapi({ description: 'The same as fractions of `services` (0 to 1).' }),
    last_modified: ages,
    assured_date: ages,
  })
  .openapi('SourceQuality');

const sourcesRoute = createRoute({
  method: 'get',
  path: '/admin/sources',
  operationId: 'getSources',
  tags: ['operations'],
  summary: 'Each source: its last import, its records, how fresh and how complete its services are.',
  description:
    'For each named source: its last import (time, state, counts, repairs, rejections), its records by type, its services by the age of `last_modified` and `assured_date`, and the share of its services with a phone, an e-mail, opening times, a located address and a service area. The same: `npx hsds sources`. A browser (Accept: text/html) gets a page.',
  security: ADMIN_SECURITY,
  responses: {
    200: {
      description: 'Every source, by name.',
      content: {
        'application/json': { schema: z.object({ sources: z.array(sourceQualitySchema) }) },
        'text/html': { schema: { type: 'string' as const } },
      },
    },
    ...adminAuthResponses,
    ...errorResponses,
  },
});

const esc = (text: string) =>
  text.replace(
    /[&<>"']/g,
    (ch) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[ch]!,
  );
const pct = (share: number) => `${Math.round(share * 100)}%`;

function renderSources(sources: readonly SourceQualityAnswer[]): string {
  const rows = sources
    .map((q) => {
      const run = q.last_import;
      const last = run
        ? `${esc(run.state)} ${esc(run.finished_at ?? run.started_at)}${run.counts ? `: ${run.counts.records} kept, ${run.counts.repaired} repaired, ${run.counts.rejected} rejected` : ''}`
        : 'none recorded';
      const fresh = `${q.last_modified.within_30_days} / ${q.last_modified.within_365_days} / ${q.last_modified.older} / ${q.last_modified.none}`;
      return `<tr><th scope="row">${esc(q.source)}</th><td>${last}</td><td>${q.services}</td><td>${pct(q.shares.phone)}</td><td>${pct(q.shares.email)}</td><td>${pct(q.shares.schedule)}</td><td>${pct(q.shares.located_address)}</td><td>${pct(q.shares.service_area)}</td><td>${q.services_with_placeholder_organization}</td><td>${fresh}</td></tr>`;
    })
    .join('');
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Sources</title>
<style>body{font-family:system-ui,sans-serif;margin:2rem}table{border-collapse:collapse}td,th{border:1px solid #ccc;padding:.25rem .5rem;text-align:left}</style></head>
<body><h1>Sources</h1><table><thead><tr><th scope="col">source</th><th scope="col">last import</th><th scope="col">services</th><th scope="col">phone</th><th scope="col">e-mail</th><th scope="col">opening times</th><th scope="col">located address</th><th scope="col">service area</th><th scope="col">organization unknown</th><th scope="col">last_modified: 30 days / a year / older / not said</th></tr></thead><tbody>${rows}</tbody></table></body></html>`;
}

/** Called by registerAdminRoutes, after its token check on /admin/*. */
export function registerSourcesRoute(app: App) {
  app.openapi(sourcesRoute, async (c) => {
    const { sources } = c.get('deps');
    if (!sources) throw new ApiProblem(503, 'this server does not report on sources');
    const answer = await sources();
    if (/text\/html/i.test(c.req.header('accept') ?? '')) return c.html(renderSources(answer), 200);
    return c.json({ sources: answer }, 200);
  });
}
