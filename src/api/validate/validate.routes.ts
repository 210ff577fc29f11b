/**
 * POST /validate: what an import of a feed would keep, repair and reject, writing nothing. The
 * feed comes in the body (HSDS JSON, NDJSON, or a zipped tabular data package; bounded by
 * VALIDATE_MAX_BODY_BYTES, app.ts) or, where VALIDATE_REMOTE allows, as `?url=` of a remote HSDS
 * API, which is read (up to 5000 items) and whose endpoints are checked. The validation itself
 * is given (AppDeps.validation, src/ingest/validate); without it the route answers 503.
 * The status says whether an import keeps everything: 200 for the verdicts `valid` and
 * `importable-with-repairs` (the body's `verdict` tells them apart), 422 for `not-importable`, the
 * same report in all. A browser (Accept: text/html) gets the report as a page.
 *
 * Anyone may ask, and a validation holds its feed and its records in memory while it reads them
 * (a 20 MB body, or 5000 remote items, is tens of MB and seconds of CPU): at most
 * VALIDATE_MAX_CONCURRENT run at once in a process; the others are refused at once with 503
 * `validation-busy` and Retry-After, so the directory's reads keep their memory and CPU.
 */
import { z } from '@hono/zod-openapi';
import { createSlots, type Slots } from '../../resilience/slots.ts';
import { ApiProblem, errorResponses, problemContent } from '../http/problem.ts';
import type { App, AppContext } from '../types.ts';
import { type ValidationAnswer, validationReportSchema } from './feed-validation.ts';

type Validation = NonNullable<AppContext['var']['deps']['validation']>;

const binary = { schema: { type: 'string', format: 'binary' } } as const;

const query = z.object({
  url: z.string().optional().openapi({
    description:
      'A remote HSDS API to validate instead of a body (its records, and its endpoints against the HSDS 3.1 API reference). Only where the server allows it (VALIDATE_REMOTE: `public` never fetches a loopback, private or reserved address, redirects included).',
    example: 'https://example.org/hsds',
  }),
  strict: z.enum(['true', 'false']).optional().openapi({
    description: 'Validate as published, without repairs (what a publisher should check).',
  }),
});

export function registerValidateRoutes(app: App) {
  const answer = {
    'application/json': { schema: validationReportSchema },
    'text/html': { schema: { type: 'string' as const } },
  };
  app.openAPIRegistry.registerPath({
    method: 'post',
    path: '/validate',
    operationId: 'validate',
    tags: ['Validation (extension)'],
    summary: 'Validates a feed without importing it.',
    description:
      'Reads the feed as `hsds import` would (the same sources, leniency and schemas) and writes nothing. The answer counts, per record type, the records an import would keep (of which repaired) and reject, and lists each issue as the import report does (source, record, field path, value found, reason). Its `verdict` is one of `valid` (as published), `importable-with-repairs` (with `repairs`: how many records, which types, which repairs) and `not-importable`. 200 when importable (the first two), 422 when not, with the same report; `Accept: text/html` gets it as a page.',
    request: {
      query,
      body: {
        required: false,
        description:
          'The feed, unless `url` is given: HSDS JSON (an array, a Page or one record), NDJSON, or a zipped tabular data package.',
        content: { 'application/json': binary, 'application/x-ndjson': binary, 'application/zip': binary },
      },
    },
    responses: {
      200: {
        description:
          'Importable: `verdict` is `valid` (as published) or `importable-with-repairs` (an import keeps everything, repairing some records).',
        content: answer,
      },
      422: {
        description:
          'Not importable (`verdict` `not-importable`): records would be rejected, or a required endpoint does not conform.',
        content: answer,
      },
      ...errorResponses,
      400: problemContent(
        'An unreadable archive (an entry that unpacks to more than its directory declares is named), neither a body nor `url`, or a `url` that is no http(s) URL.',
      ),
      403: problemContent(
        '`url` given where the server does not allow it (VALIDATE_REMOTE), or to a refused address.',
      ),
      413: problemContent(
        'The body is over VALIDATE_MAX_BODY_BYTES, or a zipped package unpacks to more than VALIDATE_MAX_BODY_BYTES.',
      ),
      415: problemContent('The body is none of JSON, NDJSON or ZIP.'),
      503: problemContent(
        'This server does not validate feeds, or VALIDATE_MAX_CONCURRENT validations are running (`validation-busy`, with Retry-After).',
      ),
    },
  });

  // One set of slots per app, sized by its configuration when it first validates.
  let slots: Slots | undefined;
  app.post('/validate', async (c) => {
    const { validation, config } = c.get('deps');
    if (!validation) throw new ApiProblem(503, 'this server does not validate feeds');
    slots ??= createSlots(config.VALIDATE_MAX_CONCURRENT ?? 2);
    const release = slots.tryAcquire();
    if (!release) {
      throw new ApiProblem(
        503,
        `${slots.inUse} feed validations are running, the most this server runs at once (VALIDATE_MAX_CONCURRENT); try again shortly`,
        { type: 'validation-busy', retryAfterSeconds: 5 },
      );
    }
    try {
      return await validate(c, validation);
    } finally {
      release();
    }
  });
}

/** One validation: the feed in the body, or the remote API `?url=` names; its report as JSON or a page. */
async function validate(c: AppContext, validation: Validation) {
  const parsed = query.safeParse(c.req.query());
  if (!parsed.success) throw new ApiProblem(400, 'strict must be true or false');
  const strict = parsed.data.strict === 'true';
  const body = new Uint8Array(await c.req.arrayBuffer());
  const outcome = parsed.data.url
    ? await validation.validateUrl(parsed.data.url, { strict })
    : body.byteLength > 0
      ? await validation.validateBody(body, c.req.header('content-type'), {
          strict,
          // A zipped package is held to what the same feed may weigh as JSON: the validation's
          // work (files, rows, records in memory) grows with the unpacked size, not the body's.
          maxUnpackedBytes: c.get('deps').config.VALIDATE_MAX_BODY_BYTES,
        })
      : undefined;
  if (!outcome) throw new ApiProblem(400, 'send a feed in the body, or a remote API as ?url=');
  if (outcome.kind === 'refused') throw new ApiProblem(outcome.status, outcome.reason);
  const status = outcome.report.verdict === 'not-importable' ? 422 : 200;
  if (prefersHtml(c)) return c.html(renderReport(outcome.report), status);
  return c.json(outcome.report, status);
}

const prefersHtml = (c: AppContext) => {
  const accept = c.req.header('accept') ?? '';
  return /text\/html/i.test(accept) && !/application\/json/i.test(accept.split('text/html')[0] ?? '');
};

const escapeHtml = (text: string) =>
  text.replace(
    /[&<>"']/g,
    (ch) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[ch]!,
  );

const VERDICT_TITLES: Record<ValidationAnswer['verdict'], string> = {
  valid: 'Valid as published',
  'importable-with-repairs': 'Importable with repairs',
  'not-importable': 'Not importable',
};

/** The report as a page an operator can read: the verdict, the counts, the checks, the issues. */
export function renderReport(report: ValidationAnswer): string {
  const repairTypes = Object.entries(report.repairs.by_type)
    .map(([type, n]) => `${escapeHtml(type)} ${n}`)
    .join(', ');
  const repairs =
    report.repairs.records > 0
      ? `<p>${report.repairs.records} of ${report.records} records need a repair (${repairTypes}):</p><ul>${Object.entries(
          report.repairs.by_reason,
        )
          .sort((a, b) => b[1] - a[1])
          .map(([reason, n]) => `<li>${n} × ${escapeHtml(reason)}</li>`)
          .join('')}</ul>`
      : '';
  const rows = Object.entries(report.by_type)
    .map(
      ([type, n]) =>
        `<tr><th scope="row">${escapeHtml(type)}</th><td>${n.kept}</td><td>${n.repaired}</td><td>${n.rejected}</td></tr>`,
    )
    .join('');
  const checks = report.conformance
    ? `<h2>API conformance: ${report.conformance.conformant ? 'conformant' : 'not conformant'}</h2><ul>${report.conformance.checks
        .map(
          (ch) =>
            `<li>${ch.ok ? '✔' : ch.required ? '✘' : '–'} ${escapeHtml(ch.check)}${ch.required ? '' : ' (optional)'}${ch.ok ? '' : `: ${escapeHtml(ch.detail)}`}</li>`,
        )
        .join('')}</ul>`
    : '';
  const issues = report.issues
    .map(
      (i) =>
        `<tr><td>${escapeHtml(i.severity)}</td><td>${escapeHtml(i.source)}</td><td>${escapeHtml(i.record_type ?? '')} ${escapeHtml(i.record_id ?? '')}</td><td><code>${escapeHtml(i.path)}</code></td><td>${escapeHtml(i.reason)}</td><td>${escapeHtml(i.value ?? '')}</td></tr>`,
    )
    .join('');
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Validation of ${escapeHtml(report.source)}</title>
<style>body{font-family:system-ui,sans-serif;margin:2rem;max-width:80rem}table{border-collapse:collapse}td,th{border:1px solid #ccc;padding:.25rem .5rem;text-align:left;vertical-align:top}</style></head>
<body><h1>${VERDICT_TITLES[report.verdict]}: ${escapeHtml(report.source)}</h1>${repairs}
<p>${report.items} items; ${report.records} records kept (${report.repaired} repaired), ${report.rejected} rejected, ${report.dangling_references} dangling references; ${report.issues_total} issues (${report.by_severity.error} errors, ${report.by_severity.warning} warnings, ${report.by_severity.info} notes).</p>
<table><thead><tr><th scope="col">record type</th><th scope="col">kept</th><th scope="col">repaired</th><th scope="col">rejected</th></tr></thead><tbody>${rows}</tbody></table>
${checks}
<h2>Issues${report.issues.length < report.issues_total ? ` (the first ${report.issues.length} of ${report.issues_total})` : ''}</h2>
<table><thead><tr><th scope="col">severity</th><th scope="col">source</th><th scope="col">record</th><th scope="col">path</th><th scope="col">reason</th><th scope="col">value found</th></tr></thead><tbody>${issues}</tbody></table>
</body></html>`;
}
