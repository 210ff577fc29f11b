/**
 * Duplicates across sources (src/duplicates, given as AppDeps.duplicates): GET /admin/duplicates
 * lists the pairs of records two sources publish under different ids, with a score and the
 * evidence; POST /admin/duplicates/marks marks a pair as the same record (served once: the other
 * id answers 301 to the kept one) or as distinct (no longer listed); DELETE undoes a mark; GET
 * lists the marks. Registered with the admin routes (admin scope).
 */
import { createRoute, z } from '@hono/zod-openapi';
import { ADMIN_SECURITY, adminAuthResponses } from '../http/auth.ts';
import { ApiProblem, errorResponses, problemContent } from '../http/problem.ts';
import type { App, AppDeps } from '../types.ts';

const TYPES = ['service', 'organization', 'location'] as const;
type DuplicateType = (typeof TYPES)[number];

const evidenceSchema = z
  .object({
    field: z.enum(['name', 'postcode', 'address', 'phone', 'email', 'website']),
    outcome: z.enum(['same', 'similar', 'different']).openapi({
      description:
        '`same`: equal once normalised (postcodes by the UK normal form, phones by their national digits, e-mails in lower case, websites by host); `similar`: alike (names, address lines); `different`: both have one and none agree.',
    }),
    a: z.array(z.string()).openapi({ description: 'What the first record (`ids[0]`) has, normalised.' }),
    b: z.array(z.string()).openapi({ description: 'What the second record (`ids[1]`) has, normalised.' }),
    similarity: z.number().optional().openapi({ description: 'Names and address lines: 0 to 1.' }),
    weight: z.number().openapi({ description: 'What it added to the score (negative: took from it).' }),
  })
  .openapi('DuplicateEvidence');

const pairSchema = z
  .object({
    type: z.enum(TYPES),
    ids: z.tuple([z.string(), z.string()]).openapi({ description: 'The two ids, in string order.' }),
    score: z.number().openapi({ description: '0 to 1; pairs at or above the threshold are listed.' }),
    records: z.array(z.object({ id: z.string(), name: z.string(), sources: z.array(z.string()) })),
    evidence: z.array(evidenceSchema),
  })
  .openapi('DuplicatePair');

const markSchema = z
  .object({
    key: z.string().openapi({ example: 'service:0d2a…|7f3c…' }),
    type: z.string().openapi({ description: 'service, organization or location.' }),
    ids: z.tuple([z.string(), z.string()]),
    decision: z.enum(['same', 'distinct']),
    keep: z.string().optional().openapi({ description: '`same`: the id served.' }),
    merged: z.string().optional().openapi({ description: '`same`: the id that answers with the kept one.' }),
    marked_at: z.string().openapi({ format: 'date-time' }),
    marked_by: z.string().optional().openapi({ description: "The marking token's name." }),
  })
  .openapi('DuplicateMark');

/** What the routes need (src/duplicates createDuplicates, matched by structure). */
/** What GET /admin/duplicates answers: the report src/duplicates makes, typed by its schema. */
const reportSchema = z.object({
  threshold: z.number(),
  counts: z.record(z.string(), z.object({ records: z.number(), compared: z.number(), listed: z.number() })),
  pairs: z.array(pairSchema),
});

export type Duplicates = {
  list(options: {
    types?: readonly DuplicateType[];
    threshold?: number;
    limit?: number;
  }): Promise<z.infer<typeof reportSchema>>;
  mark(input: {
    type: DuplicateType;
    ids: [string, string];
    decision: 'same' | 'distinct';
    keep?: string | undefined;
    by?: string | undefined;
  }): Promise<z.infer<typeof markSchema>>;
  unmark(type: DuplicateType, ids: [string, string]): Promise<z.infer<typeof markSchema> | undefined>;
  marks(type?: DuplicateType): Promise<z.infer<typeof markSchema>[]>;
  /** The kept id a merged-away id answers with (record routes), if it was merged away. */
  keptId(type: string, id: string): Promise<string | undefined>;
};

const typeParam = z
  .enum(TYPES)
  .optional()
  .openapi({ description: 'Only this type (default: services, organizations and locations).' });

const listRoute = createRoute({
  method: 'get',
  path: '/admin/duplicates',
  operationId: 'getDuplicates',
  tags: ['operations'],
  summary: 'Records two sources publish under different ids: pairs with a score and the evidence.',
  description:
    'Reads every served record of each type with the sources that provide it, pairs those that share a normalised postcode, phone, e-mail or name word (blocking: a key shared by more than 50 records is not used to pair them), and scores each pair of records from different sources on name similarity, postcode, address line, phone digits, e-mail and website host. Pairs at or above `threshold` are listed, best first; pairs an operator marked (POST /admin/duplicates/marks) are not. Reads the whole directory: seconds on 100,000 services. The same: `npx hsds duplicates`.',
  security: ADMIN_SECURITY,
  request: {
    query: z.object({
      type: typeParam,
      threshold: z.coerce.number().min(0).max(1).optional().openapi({ description: 'Default 0.6.' }),
      limit: z.coerce.number().int().min(1).max(10_000).optional().openapi({ description: 'Default 1000.' }),
    }),
  },
  responses: {
    200: {
      description: 'The pairs, best first.',
      content: {
        'application/json': {
          schema: reportSchema,
        },
      },
    },
    ...adminAuthResponses,
    ...errorResponses,
  },
});

const markBody = z
  .object({
    type: z.enum(TYPES),
    ids: z.tuple([z.string().min(1).max(200), z.string().min(1).max(200)]),
    decision: z.enum(['same', 'distinct']),
    keep: z.string().max(200).optional().openapi({ description: 'With `same`: which of `ids` is served.' }),
  })
  .openapi('DuplicateMarkRequest');

const markRoute = createRoute({
  method: 'post',
  path: '/admin/duplicates/marks',
  operationId: 'markDuplicates',
  tags: ['operations'],
  summary: 'Mark a pair as the same record (served once) or as distinct.',
  description:
    '`same` with `keep`: the kept record is served; the other leaves the lists, dumps and searches (for services, with its service_at_locations; for organizations, the organization), and `GET /services/{other}` (or `/organizations/{other}`) answers `301 Moved Permanently` to the kept id, so a harvester that follows redirects gets the kept record and learns its id. A merged location is only no longer listed (locations have no endpoint of their own). `distinct`: the pair is no longer listed. Marks never chain nor cycle: a kept record is never merged away by another mark, and a merged record is merged into one record only (409 otherwise); marks are made one at a time. A kept record that is deleted (a write, `hsds delete`, a sync that drops it) takes its marks with it: what they merged away is served again, listed by the change feed (`modified_after`) from that moment, not as deleted. A mark replaces an earlier one of the pair and lives in its own index, so imports, syncs and reindexes keep it. Published at once.',
  security: ADMIN_SECURITY,
  request: { body: { content: { 'application/json': { schema: markBody } }, required: true } },
  responses: {
    200: { description: 'The mark stored.', content: { 'application/json': { schema: markSchema } } },
    ...adminAuthResponses,
    404: problemContent('An id is not a stored record of the type.'),
    409: problemContent(
      "A `same` mark that would chain or cycle with another (type `duplicate-mark-conflict`; `detail` names the other mark's key, kept and merged ids): its kept record is merged away by another mark, or the record it would merge away is kept by another mark or merged into a third record already. Remove that mark first, or keep the other way round.",
    ),
    ...errorResponses,
  },
});

const unmarkRoute = createRoute({
  method: 'delete',
  path: '/admin/duplicates/marks',
  operationId: 'unmarkDuplicates',
  tags: ['operations'],
  summary: "Undo a pair's mark: it is listed again, and a merged-away record served again.",
  security: ADMIN_SECURITY,
  request: {
    query: z.object({
      type: z.enum(TYPES),
      ids: z
        .string()
        .regex(/^[^,]+,[^,]+$/)
        .openapi({ description: 'The two ids, comma-separated.', example: 'a1…,b2…' }),
    }),
  },
  responses: {
    200: { description: 'The mark removed.', content: { 'application/json': { schema: markSchema } } },
    ...adminAuthResponses,
    404: problemContent('The pair has no mark.'),
    ...errorResponses,
  },
});

const marksRoute = createRoute({
  method: 'get',
  path: '/admin/duplicates/marks',
  operationId: 'getDuplicateMarks',
  tags: ['operations'],
  summary: 'Every mark operators made, in key order.',
  security: ADMIN_SECURITY,
  request: { query: z.object({ type: typeParam }) },
  responses: {
    200: {
      description: 'The marks.',
      content: { 'application/json': { schema: z.object({ marks: z.array(markSchema) }) } },
    },
    ...adminAuthResponses,
    ...errorResponses,
  },
});

const duplicatesOf = (deps: AppDeps): Duplicates => {
  if (!deps.duplicates) throw new ApiProblem(503, 'this server does not look for duplicates');
  return deps.duplicates;
};

/**
 * A refusal from src/duplicates (MarkError: `status` 400, 404, 409 naming the mark in the way, or
 * 503 while an import publishes) as a problem.
 */
function asProblem(error: unknown): unknown {
  if (error instanceof Error && error.name === 'MarkError') {
    const status = (error as Error & { status: 400 | 404 | 409 | 503 }).status;
    return new ApiProblem(status, error.message, status === 409 ? { type: 'duplicate-mark-conflict' } : {});
  }
  return error;
}

/** Called by registerAdminRoutes, after its token check on /admin/*. */
export function registerDuplicatesRoutes(app: App) {
  app.openapi(listRoute, async (c) => {
    const { type, threshold, limit } = c.req.valid('query');
    const report = await duplicatesOf(c.get('deps')).list({
      ...(type ? { types: [type] } : {}),
      ...(threshold === undefined ? {} : { threshold }),
      limit: limit ?? 1000,
    });
    return c.json(report, 200);
  });

  app.openapi(marksRoute, async (c) => {
    const { type } = c.req.valid('query');
    return c.json({ marks: await duplicatesOf(c.get('deps')).marks(type) }, 200);
  });

  app.openapi(markRoute, async (c) => {
    const body = c.req.valid('json');
    try {
      const mark = await duplicatesOf(c.get('deps')).mark({ ...body, by: c.get('token')?.name });
      return c.json(mark, 200);
    } catch (error) {
      throw asProblem(error);
    }
  });

  app.openapi(unmarkRoute, async (c) => {
    const { type, ids } = c.req.valid('query');
    const [a, b] = ids.split(',') as [string, string];
    const removed = await duplicatesOf(c.get('deps')).unmark(type, [a.trim(), b.trim()]);
    if (!removed) throw new ApiProblem(404, 'this pair has no mark');
    return c.json(removed, 200);
  });
}
