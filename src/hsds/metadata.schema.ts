import { z } from '@hono/zod-openapi';
import { dateString, uuidString } from './formats.schema.ts';

/** HSDS `metadata`, direct fields only: its scalars and parent ids, one row of the tabular form. */
export const metadataSchema = z
  .looseObject({
    id: uuidString().openapi({
      description: 'The identifier for this metadata. Each entry must have a unique identifier.',
      example: '6cd71e9f-1013-49d9-8370-26b8f59d3e5a',
    }),
    resource_id: uuidString()
      .openapi({
        description:
          'The identifier of the resource (service, program, location, address, or contact) that this metadata describes.',
        example: '38960354-e7d2-4cfa-a368-820f729d6ccf',
      })
      .optional(),
    resource_type: z
      .string()
      .openapi({ description: 'The type of entity being referenced.', example: 'location' })
      .optional(),
    last_action_date: dateString().openapi({
      description: 'The date when data was changed.',
      example: '2011-01-01',
    }),
    last_action_type: z
      .string()
      .openapi({ description: 'The kind of change made to the data.', example: 'update' }),
    field_name: z
      .string()
      .openapi({ description: 'The name of field that has been modified.', example: 'name' }),
    previous_value: z.string().openapi({
      description: 'The previous value of the field that has been modified.',
      example: 'MyCity Civic Center',
    }),
    replacement_value: z.string().openapi({
      description: 'The new value of the field that has been modified.',
      example: 'MyCity New Civic Center',
    }),
    updated_by: z
      .string()
      .openapi({ description: 'The name of the person who modified the field.', example: 'Ann Persona' }),
  })
  .openapi('metadata', {
    description:
      'A record of the changes that have been made to the data in order to maintain provenance information.',
  });

export type Metadata = z.infer<typeof metadataSchema>;
