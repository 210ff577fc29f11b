import { z } from '@hono/zod-openapi';
import { uriString, uuidString } from './formats.schema.ts';

/** HSDS `unit`, direct fields only: its scalars and parent ids, one row of the tabular form. */
export const unitSchema = z
  .looseObject({
    id: uuidString().openapi({
      description: 'The identifier for the unit object. Each unit must have a unique identifier.',
      example: '8896b788-7b3e-11ef-8db9-7f3d040352b3',
    }),
    name: z.string().openapi({
      description: 'The human-readable name for this unit e.g. “Bed” or “Hours”',
      example: 'Kilogram',
    }),
    scheme: z
      .string()
      .openapi({
        description:
          'The scheme which formalizes the unit, if applicable e.g. “SI” for Standard International Units such as Kilogram, Litre, etc.',
        example: 'SI',
      })
      .optional(),
    identifier: z
      .string()
      .openapi({
        description:
          'The identifier of the unit taken from the scheme if applicable e.g. `kgm` for Kilogram.',
        example: 'kgm',
      })
      .optional(),
    uri: uriString()
      .openapi({
        description: 'The URI to the definition of the unit, if applicable',
        example: 'https://not-a-real-url.org/standard-international-units/kgm',
      })
      .optional(),
  })
  .openapi('unit', { description: 'The details of units which are used to measure service capacity.' });

export type Unit = z.infer<typeof unitSchema>;
