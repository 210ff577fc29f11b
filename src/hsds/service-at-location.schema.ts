import { z } from '@hono/zod-openapi';
import { uuidString } from './formats.schema.ts';

/** HSDS `service_at_location`, direct fields only: its scalars and parent ids, one row of the tabular form. */
export const serviceAtLocationSchema = z
  .looseObject({
    id: uuidString().openapi({
      description:
        'The identifier of the service at location entry. Each entry must have a unique identifier.',
      example: 'e94c9f38-1e8f-4564-91d4-d53501ab1765',
    }),
    service_id: uuidString()
      .openapi({
        description: 'The identifier of the service at a given location.',
        example: 'ac148810-d857-441c-9679-408f346de14b',
      })
      .optional(),
    location_id: uuidString()
      .openapi({
        description: 'The identifier of the location where this service operates.',
        example: '3a19ff88-4620-4d17-9830-ac1d859eb5d5',
      })
      .optional(),
    description: z
      .string()
      .openapi({
        description: 'A free text description of the service at this specific location.',
        example: 'Counselling Services provided by trained professionals in the MyCity area.',
      })
      .optional(),
  })
  .openapi('service_at_location', { description: 'A link between a service and a specific location.' });

export type ServiceAtLocation = z.infer<typeof serviceAtLocationSchema>;
