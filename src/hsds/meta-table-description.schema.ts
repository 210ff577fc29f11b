import { z } from '@hono/zod-openapi';
import { uuidString } from './formats.schema.ts';

/** HSDS `meta_table_description`, direct fields only: its scalars and parent ids, one row of the tabular form. */
export const metaTableDescriptionSchema = z
  .looseObject({
    id: uuidString().openapi({
      description: 'The identifier for the metadata description. Each entry must have a unique identifier.',
      example: 'c11af60b-a394-4e53-9943-324dda2d17a1',
    }),
    name: z
      .string()
      .openapi({ description: 'The name for the metadata description.', example: 'Example name' })
      .optional(),
    language: z
      .string()
      .openapi({
        description: 'The ISO 639-1 or ISO 639-3 code for the language of the metadata description.',
        example: 'ur',
      })
      .optional(),
    character_set: z
      .string()
      .openapi({ description: 'The character set of the metadata description.', example: 'ASCII' })
      .optional(),
  })
  .openapi('meta_table_description', { description: 'Metadata about individual tables.' });

export type MetaTableDescription = z.infer<typeof metaTableDescriptionSchema>;
