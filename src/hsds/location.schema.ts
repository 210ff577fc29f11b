import { z } from '@hono/zod-openapi';
import { uriString, uuidString } from './formats.schema.ts';

/** HSDS `location`, direct fields only: its scalars and parent ids, one row of the tabular form. */
export const locationSchema = z
  .looseObject({
    id: uuidString().openapi({
      description: 'The identifier of the location. Each location must have a unique identifier.',
      example: '3a19ff88-4620-4d17-9830-ac1d859eb5d5',
    }),
    location_type: z.enum(['physical', 'postal', 'virtual']).openapi({
      description: 'The type of location, which may be either `physical`, `postal`, or `virtual`.',
      example: 'physical',
    }),
    url: uriString()
      .openapi({
        description: 'If location_type is virtual, then this field represents the URL of a virtual location.',
        example: 'http://example.com',
      })
      .optional(),
    organization_id: uuidString()
      .openapi({
        description:
          'The organization identifier for a location. This is the organization that is responsible for maintaining information about this location. The identifier of the organization should be given here. Details of the services the organization delivers at this location should be provided in the services_at_location table.',
        example: '985e4a42-bd9f-4edc-911d-0243a4640aca',
      })
      .optional(),
    name: z
      .string()
      .openapi({ description: 'The name of the location.', example: 'MyCity Civic Center' })
      .optional(),
    alternate_name: z
      .string()
      .openapi({ description: 'An (optional) alternative name of the location.', example: 'Civic Center' })
      .optional(),
    description: z
      .string()
      .openapi({
        description: 'A free text description of the location.',
        example:
          'MyCity Civic Center is located on Main Street and contains facilities for a number of civic and community services available.',
      })
      .optional(),
    transportation: z
      .string()
      .openapi({
        description:
          'A free text description of the access to public or private transportation to and from the location.',
        example:
          'MyCity Civic Center is serviced by the number 1 Bus and is a short walk from the Main Street Metro Station',
      })
      .optional(),
    latitude: z
      .number()
      .openapi({
        description: 'The latitude of the location expressed in decimal degrees in WGS84 datum.',
        example: 100,
      })
      .optional(),
    longitude: z
      .number()
      .openapi({
        description: 'The longitude of the location expressed in decimal degrees in WGS84 datum.',
        example: 101,
      })
      .optional(),
    external_identifier: z
      .string()
      .openapi({
        description:
          'A third party identifier for the location, which can be drawn from other services e.g. UK UPRN.',
        example: '10092008082',
      })
      .optional(),
    external_identifier_type: z
      .string()
      .openapi({
        description: "The scheme used for the location's external_identifier e.g. UK UPRN.",
        example: 'UPRN',
      })
      .optional(),
  })
  .openapi('location', {
    description:
      'The locations where organizations operate. Locations may be virtual, and one organization may have many locations.',
  });

export type Location = z.infer<typeof locationSchema>;
