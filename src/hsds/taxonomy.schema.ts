import { z } from '@hono/zod-openapi';
import { uriString, uuidString } from './formats.schema.ts';

/** HSDS `taxonomy`, direct fields only: its scalars and parent ids, one row of the tabular form. */
export const taxonomySchema = z
  .looseObject({
    id: uuidString().openapi({
      description: 'The identifier of the taxonomy. Each entry must have a unique identifier',
      example: '5c4d79d7-cc55-470e-9f1f-8cad074e4892',
    }),
    name: z
      .string()
      .openapi({ description: 'The name of the taxonomy from which terms are sourced.', example: 'name' }),
    description: z
      .string()
      .openapi({ description: 'A free text description of the taxonomy.', example: 'description' }),
    uri: uriString()
      .openapi({ description: 'The URI of the taxonomy.', example: 'http://example.com' })
      .optional(),
    version: z
      .string()
      .openapi({ description: 'The version of the taxonomy.', example: 'version' })
      .optional(),
  })
  .openapi('taxonomy', { description: 'The taxonomies from which taxonomy terms are taken.' });

export type Taxonomy = z.infer<typeof taxonomySchema>;
