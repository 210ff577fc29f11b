import { z } from '@hono/zod-openapi';
import { uuidString } from './formats.schema.ts';

/** HSDS `attribute`, direct fields only: its scalars and parent ids, one row of the tabular form. */
export const attributeSchema = z
  .looseObject({
    id: uuidString().openapi({
      description:
        'The identifier of the attribute entry. Each attribute entry should have a unique identifier.',
      example: 'ae58cc39-8b70-4ab1-8aea-786882e5ac8e',
    }),
    link_id: uuidString()
      .openapi({
        description: 'The identifier of the entity to which this taxonomy term applies.',
        example: 'f28dd44b-0c4d-479f-8e90-4c52219a8b3c',
      })
      .optional(),
    taxonomy_term_id: uuidString()
      .openapi({
        description: 'The identifier of this taxonomy term from the taxonomy table.',
        example: '3f7b145d-84af-42d7-8fae-eaca714b02b2',
      })
      .optional(),
    link_type: z
      .string()
      .openapi({
        description:
          'A code taken from an enumerated open codelist to indicate what the taxonomy term describes, e.g. the service eligibility or intended audience.',
        example: 'link_type',
      })
      .optional(),
    link_entity: z
      .string()
      .openapi({ description: 'The table of the Link Identifier.', example: 'link_entity' })
      .optional(),
    value: z
      .string()
      .openapi({ description: 'The value (if any) of an attribute.', example: 'value' })
      .optional(),
    label: z
      .string()
      .openapi({ description: 'A free text label of the attribute.', example: 'An Example Label' })
      .optional(),
  })
  .openapi('attribute', {
    description:
      'A link between a service and one or more classifications that describe the nature of the service provided.',
  });

export type Attribute = z.infer<typeof attributeSchema>;
