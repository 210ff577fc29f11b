import { z } from '@hono/zod-openapi';
import { dateTimeString, uuidString } from './formats.schema.ts';

/** HSDS `service_capacity`, direct fields only: its scalars and parent ids, one row of the tabular form. */
export const serviceCapacitySchema = z
  .looseObject({
    id: uuidString().openapi({
      description:
        'The identifier for the service_capacity object. Each service_capacity must have a unique identifier.',
      example: '8896b788-7b3e-11ef-8db9-7f3d040352b3',
    }),
    service_id: uuidString()
      .openapi({
        description:
          'The identifier for the Service object associated with this service capacity object. Only required in the tabular representation.',
        example: 'ac148810-d857-441c-9679-408f346de14b',
      })
      .optional(),
    unit_id: uuidString()
      .openapi({
        description: 'The identifier for the unit object.',
        example: '8896b788-7b3e-11ef-8db9-7f3d040352b3',
      })
      .optional(),
    available: z
      .number()
      .openapi({ description: 'The number of units available as of the last update.', example: 12 }),
    maximum: z
      .number()
      .openapi({
        description: 'The maximum number of units that can be available for this service, if applicable',
        example: 10,
      })
      .optional(),
    description: z
      .string()
      .openapi({
        description:
          'A Human-Friendly description of this service capacity e.g. “Beds available for people experiencing homelessness”',
        example: 'Beds available for people experiencing homelessness.',
      })
      .optional(),
    updated: dateTimeString().openapi({
      description:
        'The datetime when this service_capacit y object was last updated or changed. Should have millisecond accuracy. ',
      example: '2024-09-25T14:23:06.5+01:00',
    }),
  })
  .openapi('service_capacity', { description: 'The details of service capacities for services.' });

export type ServiceCapacity = z.infer<typeof serviceCapacitySchema>;
