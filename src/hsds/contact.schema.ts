import { z } from '@hono/zod-openapi';
import { emailString, uuidString } from './formats.schema.ts';

/** HSDS `contact`, direct fields only: its scalars and parent ids, one row of the tabular form. */
export const contactSchema = z
  .looseObject({
    id: uuidString().openapi({
      description: 'The identifier for the contact. Each contact must have a unique identifier.',
      example: '1e7efce3-639b-4880-940c-b95cd30cdb50',
    }),
    organization_id: uuidString()
      .openapi({
        description: 'The identifier of the organization for which this is a contact.',
        example: 'ae67a707-5893-4225-b0b1-320ab9cb596b',
      })
      .optional(),
    service_id: uuidString()
      .openapi({
        description: 'The identifier of the service for which this is a contact.',
        example: 'ac148810-d857-441c-9679-408f346de14b',
      })
      .optional(),
    service_at_location_id: uuidString()
      .openapi({
        description:
          'The identifier of the ‘service at location’ entry, when this contact is specific to a service in a particular location.',
        example: '93eaf18d-1cd2-4ec7-bffb-3c9172ee5070',
      })
      .optional(),
    location_id: uuidString()
      .openapi({
        description: 'The identifier for the location of the contact.',
        example: '3a19ff88-4620-4d17-9830-ac1d859eb5d5',
      })
      .optional(),
    name: z.string().openapi({ description: 'The name of the contact.', example: 'Ann Persona' }).optional(),
    title: z
      .string()
      .openapi({ description: 'The job title of the contact.', example: 'Reception Manager' })
      .optional(),
    department: z
      .string()
      .openapi({ description: 'The department that the contact is a part of.', example: 'Reception' })
      .optional(),
    email: emailString()
      .openapi({ description: 'The email address of the contact.', example: 'email@example.com' })
      .optional(),
  })
  .openapi('contact', { description: 'The details of the named contacts for services and organizations.' });

export type Contact = z.infer<typeof contactSchema>;
