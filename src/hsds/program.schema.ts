import { z } from '@hono/zod-openapi';
import { uuidString } from './formats.schema.ts';

/** HSDS `program`, direct fields only: its scalars and parent ids, one row of the tabular form. */
export const programSchema = z
  .looseObject({
    id: uuidString().openapi({
      description: 'The identifier for the program. Each program must have a unique identifier.',
      example: 'e7ec2e57-4540-43fa-b2c7-6be5a0ef7f42',
    }),
    organization_id: uuidString()
      .openapi({
        description:
          'The identifier for the organization which the program belongs to. Each program must belong to a single organization, and the identifier for that organization should be given here.',
        example: 'd9d5e0f5-d3ce-4f73-9a2f-4dd0ecc6c610',
      })
      .optional(),
    name: z
      .string()
      .openapi({ description: 'The name of the program.', example: 'Community Mental Health Support' }),
    alternate_name: z
      .string()
      .openapi({
        description: 'The (optional) alternative name for the program.',
        example: 'MyCity Mental Health Group',
      })
      .optional(),
    description: z.string().openapi({
      description: 'A free text description of the program',
      example:
        'Comprehensive Mental Health Services available to residents of MyCity including CBT and Counselling. This is not an emergency service and should not be used as an alternative to hospital and GP services.',
    }),
  })
  .openapi('program', { description: 'The details of collections of related services.' });

export type Program = z.infer<typeof programSchema>;
