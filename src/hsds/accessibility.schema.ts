import { z } from '@hono/zod-openapi';
import { uriString, uuidString } from './formats.schema.ts';

/** HSDS `accessibility`, direct fields only: its scalars and parent ids, one row of the tabular form. */
export const accessibilitySchema = z
  .looseObject({
    id: uuidString().openapi({
      description:
        'The identifier for this accessibility information. Each entry must have a unique identifier.',
      example: 'afcf296e-1cb2-4139-9c88-33d587d1a50b',
    }),
    location_id: uuidString()
      .openapi({
        description: 'The identifier for the location of the accessibility provision.',
        example: '3a19ff88-4620-4d17-9830-ac1d859eb5d5',
      })
      .optional(),
    description: z
      .string()
      .openapi({
        description:
          'A free text description of the assistance or infrastructure that facilitates access to clients with disabilities.',
        example:
          'The building is equipped with induction loops for hearing aids. Wheelchair access is possible on all levels.',
      })
      .optional(),
    details: z
      .string()
      .openapi({
        description:
          'Any further details relating to the relevant accessibility arrangements at this location.',
        example: 'Switch hearing aid to T-coil to access the induction loop facility.',
      })
      .optional(),
    url: uriString()
      .openapi({
        description: 'The URL of a page giving more information about the accessibility of the location.',
        example: 'http://example.com',
      })
      .optional(),
  })
  .openapi('accessibility', {
    description: 'The details of the arrangements for access to locations for people who have disabilities.',
  });

export type Accessibility = z.infer<typeof accessibilitySchema>;
