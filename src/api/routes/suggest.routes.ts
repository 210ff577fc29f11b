/**
 * GET /suggest (an extension of this API): what a search box offers while someone types.
 */
import { createRoute, z } from '@hono/zod-openapi';
import { suggest } from '../../engine/suggest.ts';
import { errorResponses } from '../http/problem.ts';
import { integerParam } from '../lists/list-params.ts';
import type { App } from '../types.ts';

export const MAX_SUGGEST_CHARS = 100;
export const MAX_SUGGEST_SIZE = 20;

const named = z.object({
  id: z.string().openapi({ description: 'The record id.' }),
  name: z.string().openapi({ description: 'Its name.' }),
});

const suggestionsSchema = z
  .object({
    q: z.string().openapi({ description: 'The text the suggestions are for.' }),
    services: z.array(z.string()).openapi({
      description: 'Service names that start with the text, or with it from a later word on; each name once.',
      example: ['Torry Foodbank'],
    }),
    organizations: z.array(named).openapi({ description: 'Organizations whose names match likewise.' }),
    taxonomy_terms: z.array(named).openapi({ description: 'Taxonomy terms whose names match likewise.' }),
    places: z
      .array(
        z.object({
          postcode: z.string().openapi({ description: 'A UK outcode or postcode, as `postcode=` takes it.' }),
          kind: z.enum(['outcode', 'postcode']),
        }),
      )
      .openapi({
        description:
          'Outcodes, then postcodes, that start with the text, from the postcode index this server holds (`npx hsds postcodes import`); empty when the text cannot start a postcode.',
      }),
  })
  .openapi('suggestions');

const suggestRoute = createRoute({
  method: 'get',
  path: '/suggest',
  operationId: 'getSuggestions',
  tags: ['optional'],
  summary: 'Suggestions for a search box (an extension of this API).',
  description:
    'While someone types, what to offer: service names, organization names and taxonomy terms that start with the text (or with it from a later word on: "bank" offers "Torry Food Bank"; from four characters, one typo is forgiven), and UK outcodes and postcodes from the postcode index. Not part of HSDS.',
  request: {
    query: z.object({
      q: z
        .string({ error: 'is required' })
        .trim()
        .min(1, { error: 'must not be empty' })
        .max(MAX_SUGGEST_CHARS, { error: `must be at most ${MAX_SUGGEST_CHARS} characters` })
        .openapi({ description: 'What has been typed so far.', example: 'food' }),
      size: integerParam(`Suggestions of each kind, at most ${MAX_SUGGEST_SIZE}.`, 1, MAX_SUGGEST_SIZE, {
        default: 5,
      }).optional(),
    }),
  },
  responses: {
    200: {
      description: 'Suggestions of each kind.',
      content: { 'application/json': { schema: suggestionsSchema } },
    },
    ...errorResponses,
  },
});

export function registerSuggestRoutes(app: App) {
  app.openapi(suggestRoute, async (c) => {
    const { q, size } = c.req.valid('query');
    const suggestions = await suggest(c.get('deps').engine, q, size ?? 5);
    return c.json({ q, ...suggestions }, 200);
  });
}
