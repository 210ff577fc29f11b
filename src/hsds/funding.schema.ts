import { z } from '@hono/zod-openapi';
import { uuidString } from './formats.schema.ts';

/** HSDS `funding`, direct fields only: its scalars and parent ids, one row of the tabular form. */
export const fundingSchema = z
  .looseObject({
    id: uuidString().openapi({
      description: 'The identifier for the funding. Each entry must have a unique identifier.',
      example: '1f2df32c-bf08-4b8e-bd6f-e834014b19bc',
    }),
    organization_id: uuidString()
      .openapi({
        description: 'The identifier of the organization in receipt of this funding.',
        example: 'd9d5e0f5-d3ce-4f73-9a2f-4dd0ecc6c610',
      })
      .optional(),
    service_id: uuidString()
      .openapi({
        description: 'The identifier of the service in receipt of this funding.',
        example: 'ac148810-d857-441c-9679-408f346de14b',
      })
      .optional(),
    source: z
      .string()
      .openapi({
        description: 'A free text description of the source of funds for this organization or service.',
        example:
          'This service is funded partially by the MyCity local government and via grants made by charity funding bodies. We also operate a for-profit department which is used to partially cover the expense of the public service',
      })
      .optional(),
  })
  .openapi('funding', { description: 'The sources of funding for a service or organization.' });

export type Funding = z.infer<typeof fundingSchema>;
