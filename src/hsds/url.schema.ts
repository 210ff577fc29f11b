import { z } from '@hono/zod-openapi';
import { uriString, uuidString } from './formats.schema.ts';

/** HSDS `url`, direct fields only: its scalars and parent ids, one row of the tabular form. */
export const urlSchema = z
  .looseObject({
    id: uuidString().openapi({
      description: 'The identifier for the URL object. Each URL must have a unique identifier.',
      example: '30951f94-7b24-11ef-ba1b-a79405d4dcaa',
    }),
    label: z
      .string()
      .openapi({
        description: 'The human-readable label for this url e.g. “Twitter” or “Website”.',
        example: 'Website',
      })
      .optional(),
    url: uriString().openapi({
      description: 'The URL for this URL object. This must be formatted as a valid URI.',
      example: 'https://example.org',
    }),
    organization_id: uuidString()
      .openapi({
        description: 'The identifier for the organization associated with this URL object',
        example: 'd9d5e0f5-d3ce-4f73-9a2f-4dd0ecc6c610',
      })
      .optional(),
    service_id: uuidString()
      .openapi({
        description: 'The identifier for the service associated with this URL object',
        example: 'ac148810-d857-441c-9679-408f346de14b',
      })
      .optional(),
  })
  .openapi('url', { description: 'A URL with a label' });

export type Url = z.infer<typeof urlSchema>;
