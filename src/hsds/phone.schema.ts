import { z } from '@hono/zod-openapi';
import { uuidString } from './formats.schema.ts';

/** HSDS `phone`, direct fields only: its scalars and parent ids, one row of the tabular form. */
export const phoneSchema = z
  .looseObject({
    id: uuidString().openapi({
      description: 'The identifier for the phone number. Each entry must have a unique identifier.',
      example: '1554f2e2-a373-45db-a3fa-9fc48a61c15e',
    }),
    location_id: uuidString()
      .openapi({
        description: 'The identifier of the location where this phone number is located.',
        example: '3a19ff88-4620-4d17-9830-ac1d859eb5d5',
      })
      .optional(),
    service_id: uuidString()
      .openapi({
        description: 'The identifier of the service for which this is the phone number.',
        example: 'ac148810-d857-441c-9679-408f346de14b',
      })
      .optional(),
    organization_id: uuidString()
      .openapi({
        description: 'The identifier of the organization for which this is the phone number.',
        example: 'd9d5e0f5-d3ce-4f73-9a2f-4dd0ecc6c610',
      })
      .optional(),
    contact_id: uuidString()
      .openapi({
        description: 'The identifier of the contact for which this is the phone number.',
        example: '1e7efce3-639b-4880-940c-b95cd30cdb50',
      })
      .optional(),
    service_at_location_id: uuidString()
      .openapi({
        description:
          'The identifier of the ‘service at location’ table entry, when this phone number is specific to a service in a particular location.',
        example: 'e94c9f38-1e8f-4564-91d4-d53501ab1765',
      })
      .optional(),
    number: z.string().openapi({ description: 'The phone number.', example: '"+44 1234 234567"' }),
    extension: z
      .number()
      .openapi({ description: 'The extension of the phone number.', example: 100 })
      .optional(),
    type: z
      .string()
      .openapi({
        description:
          'Indicates the type of phone service, drawing from the RFC6350 list of types (text (for SMS), voice, fax, cell, video, pager, textphone).',
        example: 'voice',
      })
      .optional(),
    description: z
      .string()
      .openapi({
        description: 'A free text description providing extra information about the phone service',
        example:
          'Our main reception phone number. The phones will be available from 0800 (8am) until 1800 (6pm) local time. There may be some slight delays in answering your call if we are busy.',
      })
      .optional(),
  })
  .openapi('phone', {
    description:
      'The details of the telephone numbers used to contact organizations, services, and locations.',
  });

export type Phone = z.infer<typeof phoneSchema>;
