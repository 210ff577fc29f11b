/**
 * Feed validation as the API sees it (POST /validate): an interface the app is given, as it is
 * given the writes (src/api never imports src/ingest; the implementation,
 * src/ingest/validate/feed-validation.ts, is wired in by the composition root, src/cli), and the
 * schema of its answer, which documents it in the OpenAPI document.
 */
import { z } from '@hono/zod-openapi';

const count = z.number().int();

const issueSchema = z
  .looseObject({
    severity: z.enum(['error', 'warning', 'info']),
    kind: z.string().openapi({ description: 'invalid, repaired, dropped-field, dangling-reference...' }),
    source: z.string().openapi({ description: 'Where in the feed: file and line or item, or URL.' }),
    record_type: z.string().optional(),
    record_id: z.string().optional(),
    path: z
      .string()
      .openapi({ description: 'The field path in the item: `service_at_locations[0].location.latitude`.' }),
    reason: z.string(),
    value: z
      .string()
      .optional()
      .openapi({ description: 'The value found, e.g. `string "www.example.org"`.' }),
  })
  .openapi('ValidationIssue', { description: 'One finding, in the format of the import report.' });

export const validationReportSchema = z
  .looseObject({
    source: z.string(),
    kind: z.enum(['json', 'tabular', 'remote', 'api']),
    verdict: z.enum(['valid', 'importable-with-repairs', 'not-importable']).openapi({
      description:
        '`valid`: valid as published, every record kept as it is (and, for a remote API, every required endpoint conforms). `importable-with-repairs`: every record kept, some only after a repair (`repairs` says how many and which). `not-importable`: records would be rejected, an error was found, or a required endpoint does not conform. Migration from an older version and dangling links (reported, kept) do not count as repairs.',
    }),
    valid: z.boolean().openapi({ description: 'Valid as published: `verdict` is `valid`.' }),
    importable: z.boolean().openapi({
      description: 'An import keeps every record, repaired or not: `verdict` is not `not-importable`.',
    }),
    repairs: z
      .object({
        records: count.openapi({ description: 'Distinct records an import would repair.' }),
        by_type: z.record(z.string(), count).openapi({ description: 'Those records per record type.' }),
        by_reason: z.record(z.string(), count).openapi({
          description:
            'Every repair counted by kind, record type, field and reason, as the import report counts them: `repaired: service.url: https:// added`.',
        }),
      })
      .openapi({ description: 'What the repairs come to (none when `verdict` is `valid`).' }),
    strict: z.boolean().openapi({ description: 'Validated as published, without repairs.' }),
    items: count.openapi({ description: 'Items read: nested documents or tabular rows.' }),
    records: count.openapi({ description: 'Distinct records an import would keep.' }),
    repaired: count.openapi({ description: 'Of those, the ones the leniency policy repaired.' }),
    rejected: count.openapi({
      description: 'Distinct records an import would reject (with what they nest).',
    }),
    dangling_references: count.openapi({ description: 'Links to records the feed does not contain.' }),
    by_type: z.record(z.string(), z.object({ kept: count, repaired: count, rejected: count })),
    by_severity: z.object({ error: count, warning: count, info: count }),
    issues_total: count,
    issues: z
      .array(issueSchema)
      .openapi({ description: 'The first issues (all are counted in `issues_total`).' }),
    truncated: z.boolean().optional().openapi({ description: 'The item limit stopped the reading early.' }),
    conformance: z
      .object({
        conformant: z.boolean(),
        checks: z.array(
          z.object({ check: z.string(), required: z.boolean(), ok: z.boolean(), detail: z.string() }),
        ),
      })
      .optional()
      .openapi({
        description:
          'For a remote API: its endpoints against the HSDS 3.1 API reference (`/`, `/services` and `/services/{id}` required; the other lists and `{id}` routes, and `format=ndjson`, optional).',
      }),
  })
  .openapi('ValidationReport');

export type ValidationAnswer = z.infer<typeof validationReportSchema>;

export type FeedValidationOutcome =
  | { kind: 'validated'; report: ValidationAnswer }
  /**
   * Not validated: an unknown format (415), an unreadable archive (400), an archive that unpacks
   * to more than `maxUnpackedBytes` (413), a URL not allowed (403).
   */
  | { kind: 'refused'; status: 400 | 403 | 413 | 415; reason: string };

export type FeedValidation = {
  /** A feed in the body: HSDS JSON, NDJSON, or a zipped tabular data package. */
  validateBody(
    body: Uint8Array,
    contentType: string | undefined,
    /** `maxUnpackedBytes`: what a zipped package may unpack to at most. */
    options: { strict: boolean; maxUnpackedBytes?: number },
  ): Promise<FeedValidationOutcome>;
  /** A remote HSDS API, where the server's VALIDATE_REMOTE allows it. */
  validateUrl(url: string, options: { strict: boolean }): Promise<FeedValidationOutcome>;
};
