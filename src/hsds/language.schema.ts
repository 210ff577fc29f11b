import { z } from '@hono/zod-openapi';
import { uuidString } from './formats.schema.ts';

/** HSDS `language`, direct fields only: its scalars and parent ids, one row of the tabular form. */
export const languageSchema = z
  .looseObject({
    id: uuidString().openapi({
      description: 'The identifier for the language. Each entry must have a unique identifier.',
      example: '2989d3ed-c547-48f8-8f9d-432d81c7892e',
    }),
    service_id: uuidString()
      .openapi({
        description:
          'The identifier of the service for which the entry describes the languages in which services are delivered.',
        example: 'ac148810-d857-441c-9679-408f346de14b',
      })
      .optional(),
    location_id: uuidString()
      .openapi({
        description:
          'The identifier of the location for which the entry describes the languages in which services are delivered.',
        example: '3a19ff88-4620-4d17-9830-ac1d859eb5d5',
      })
      .optional(),
    phone_id: uuidString()
      .openapi({
        description:
          'The identifier of the phone for which the entry describes the languages in which services delivered.',
        example: '1554f2e2-a373-45db-a3fa-9fc48a61c15e',
      })
      .optional(),
    name: z
      .string()
      .openapi({
        description: 'The name of the language in which the service is delivered.',
        example: 'Urdu',
      })
      .optional(),
    code: z
      .string()
      .openapi({ description: 'The ISO 639-1 or ISO 639-3 code for the language.', example: 'ur' })
      .optional(),
    note: z
      .string()
      .openapi({
        description:
          'A free text description of any additional context or services provided for this language.',
        example: 'Translation services provided via bilingual staff when they are available',
      })
      .optional(),
  })
  .openapi('language', {
    description:
      'The languages that are spoken at locations or services. This does not include languages which can only be used with interpretation.',
  });

export type Language = z.infer<typeof languageSchema>;
