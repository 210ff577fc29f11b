/**
 * /admin/vocabulary/rules: synonym rules an operator adds while the server runs (from the
 * console's Search gaps page, or any client), stored in the engine (engine/operator-vocabulary.ts)
 * and served at once by a vocabulary reload (engine/vocabulary.ts: clones of the served indices,
 * no reindex). Registered after the admin routes' token check, so every one needs a token of the
 * admin scope.
 */
import { createRoute, z } from '@hono/zod-openapi';
import { ADMIN_SECURITY, adminAuthResponses } from '../api/http/auth.ts';
import { ApiProblem, bodyErrorResponses, errorResponses, problemContent } from '../api/http/problem.ts';
import type { App } from '../api/types.ts';
import { LeaseHeldError } from '../engine/control.ts';
import type { Engine } from '../engine/engine.ts';
import {
  listOperatorRules,
  OperatorRuleError,
  parseOperatorRule,
  removeOperatorRule,
  storeOperatorRule,
} from '../engine/operator-vocabulary.ts';
import { NoServedIndicesError, reloadVocabulary } from '../engine/vocabulary.ts';
import { VocabularyError } from '../index-mapping/vocabulary.ts';

const ruleSchema = z
  .object({
    id: z.string().openapi({ example: '0b6f7c4e-3f9a-4d2b-9a55-1c2d3e4f5a6b' }),
    rule: z.string().openapi({
      description: 'The rule in its normal form (terms trimmed, `, ` and ` => ` between them).',
      example: 'foodbank, food pantry => food bank',
    }),
    created_at: z.string().openapi({ format: 'date-time' }),
  })
  .openapi('VocabularyRule');

const addedSchema = ruleSchema
  .extend({
    served: z.boolean().openapi({
      description:
        'Whether the served indices search with it now; false only before the first reindex (which will use it).',
    }),
  })
  .openapi('VocabularyRuleAdded');

const addBody = z
  .object({
    rule: z.string().max(2000).openapi({
      description:
        'One rule in the syntax of SYNONYMS_FILE lines (Solr synonyms): `a, b, c` (all the same) or `a, b => x, y` (a search for a or b finds x or y).',
      example: 'foodbank, food pantry => food bank',
    }),
  })
  .openapi('VocabularyRuleAdd');

const reloadBusy = problemContent(
  'A reindex, reload or publish holds the lease: nothing changed; try again when it is done.',
);

const listRoute = createRoute({
  method: 'get',
  path: '/admin/vocabulary/rules',
  operationId: 'listVocabularyRules',
  tags: ['operations'],
  summary: 'The synonym rules operators added (beside the configured vocabulary), oldest first.',
  security: ADMIN_SECURITY,
  responses: {
    200: {
      description: 'The rules.',
      content: { 'application/json': { schema: z.object({ rules: z.array(ruleSchema) }) } },
    },
    ...adminAuthResponses,
    ...errorResponses,
  },
});

const addRoute = createRoute({
  method: 'post',
  path: '/admin/vocabulary/rules',
  operationId: 'addVocabularyRule',
  tags: ['operations'],
  summary: 'Add a synonym rule: stored in the engine, served at once without a reindex.',
  description:
    'The rule is checked by the parser of SYNONYMS_FILE, stored in the engine (so every process and every later reindex uses it), then the served indices are reloaded with the configured rules, the stored ones and the taxonomy synonyms (as `npx hsds synonyms reload`: clones swapped in, a second or so). A search made after the answer uses it.',
  security: ADMIN_SECURITY,
  request: { body: { required: true, content: { 'application/json': { schema: addBody } } } },
  responses: {
    201: {
      description: 'Added.',
      headers: { Location: { schema: { type: 'string' }, description: 'The rule, to delete it.' } },
      content: { 'application/json': { schema: addedSchema } },
    },
    ...adminAuthResponses,
    409: reloadBusy,
    ...bodyErrorResponses,
    ...errorResponses,
  },
});

const deleteRoute = createRoute({
  method: 'delete',
  path: '/admin/vocabulary/rules/{id}',
  operationId: 'deleteVocabularyRule',
  tags: ['operations'],
  summary: 'Remove an operator synonym rule, and serve the vocabulary without it.',
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
    204: { description: 'Removed, and the served indices reloaded without it.' },
    ...adminAuthResponses,
    404: problemContent('No operator rule has this id.'),
    409: reloadBusy,
    ...errorResponses,
  },
});

/** A rule that does not parse: 400 naming the reason, as a SYNONYMS_FILE line would be refused. */
function parsed(text: string): string {
  try {
    return parseOperatorRule(text);
  } catch (error) {
    const reason =
      error instanceof VocabularyError
        ? (error.problems[0]?.reason ?? 'not a rule')
        : error instanceof OperatorRuleError
          ? error.message
          : undefined;
    if (reason === undefined) throw error;
    throw new ApiProblem(400, `rule: ${reason}`, {
      errors: [{ parameter: 'rule', in: 'body', reason }],
    });
  }
}

/** Serves the vocabulary again; false when nothing is served yet (the first build will use it). */
async function reload(engine: Engine, purpose: string): Promise<boolean> {
  try {
    await reloadVocabulary(engine, engine.settings.synonyms, { purpose });
    return true;
  } catch (error) {
    if (error instanceof NoServedIndicesError) return false;
    if (error instanceof LeaseHeldError) throw new ApiProblem(409, error.message, { type: 'lease-held' });
    throw error;
  }
}

export function registerVocabularyRuleRoutes(app: App) {
  app.openapi(listRoute, async (c) => c.json({ rules: await listOperatorRules(c.get('deps').engine) }, 200));

  app.openapi(addRoute, async (c) => {
    const rule = parsed(c.req.valid('json').rule);
    const { engine } = c.get('deps');
    const stored = await storeOperatorRule(engine, rule);
    let served: boolean;
    try {
      served = await reload(engine, 'vocabulary rule added');
    } catch (error) {
      // Not served, so not kept: the operator sees one outcome, and tries again.
      await removeOperatorRule(engine, stored.id).catch(() => {});
      throw error;
    }
    c.header('location', `/admin/vocabulary/rules/${stored.id}`);
    return c.json({ ...stored, served }, 201);
  });

  app.openapi(deleteRoute, async (c) => {
    const { engine } = c.get('deps');
    if (!(await removeOperatorRule(engine, c.req.valid('param').id)))
      throw new ApiProblem(404, 'no operator rule has this id');
    await reload(engine, 'vocabulary rule removed');
    return c.body(null, 204);
  });
}
