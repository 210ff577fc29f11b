import { z } from '@hono/zod-openapi';
import { dateString, uuidString } from './formats.schema.ts';

/** HSDS `cost_option`, direct fields only: its scalars and parent ids, one row of the tabular form. */
export const costOptionSchema = z
  .looseObject({
    id: uuidString().openapi({
      description: 'The identifier for the cost option. Each entry must have a unique identifier',
      example: '1fdf4d39-3d80-484d-9f92-a8ffa08621e7',
    }),
    service_id: uuidString()
      .openapi({
        description: 'The identifier of the services for which the entry describes the cost.',
        example: 'ac148810-d857-441c-9679-408f346de14b',
      })
      .optional(),
    valid_from: dateString()
      .openapi({ description: 'The date when this price is valid from.', example: '2020-01-01' })
      .optional(),
    valid_to: dateString()
      .openapi({ description: 'The date when this price is valid to.', example: '2022-12-31' })
      .optional(),
    option: z
      .string()
      .openapi({
        description: 'Conditions associated with the cost option.',
        example: 'Under 18s and Over 60s',
      })
      .optional(),
    currency: z
      .string()
      .openapi({
        description:
          'The 3 letter currency code of this cost option (expected to be gbp by Open Referral UK).',
        example: 'gbp',
      })
      .optional(),
    amount: z
      .number()
      .openapi({ description: 'The cost of the option, expressed as an amount.', example: 35 })
      .optional(),
    amount_description: z
      .string()
      .openapi({ description: 'Specific details qualifying the cost amount.', example: 'per 1 hour session' })
      .optional(),
  })
  .openapi('cost_option', {
    description:
      "The costs of a service at certain points in time. This is an LGA Extension. This object provides a structured version of the text information contained in the 'fees' field of the 'service' object.",
  });

export type CostOption = z.infer<typeof costOptionSchema>;
