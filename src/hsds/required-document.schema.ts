import { z } from '@hono/zod-openapi';
import { uriString, uuidString } from './formats.schema.ts';

/** HSDS `required_document`, direct fields only: its scalars and parent ids, one row of the tabular form. */
export const requiredDocumentSchema = z
  .looseObject({
    id: uuidString().openapi({
      description: 'The identifier for the document. Each document must have a unique identifier.',
      example: 'f6ad7e69-b9c8-42ce-92db-92cedb4c05c0',
    }),
    service_id: uuidString()
      .openapi({
        description: 'The identifier of the service for which this entry describes the required document.',
        example: 'ac148810-d857-441c-9679-408f346de14b',
      })
      .optional(),
    document: z
      .string()
      .openapi({
        description: 'A free text description of the document required to apply for or receive the service.',
        example:
          "Any official identification document (Passport, Driver's Licence, identity card) and evidence of address such as an official letter from local or national government. A driver's license which shows your name, photograph, and address can be used as a sole identification document.",
      })
      .optional(),
    uri: uriString()
      .openapi({ description: 'A web link to the document.', example: 'http://example.com' })
      .optional(),
  })
  .openapi('required_document', {
    description: 'The details of any documents that are required in order to access or use services.',
  });

export type RequiredDocument = z.infer<typeof requiredDocumentSchema>;
