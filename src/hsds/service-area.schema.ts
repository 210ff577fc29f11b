import { z } from '@hono/zod-openapi';
import { uuidString } from './formats.schema.ts';

/** HSDS `service_area`, direct fields only: its scalars and parent ids, one row of the tabular form. */
export const serviceAreaSchema = z
  .looseObject({
    id: uuidString().openapi({
      description: 'The identifier for the service area. Each service area must have a unique identifier.',
      example: '381c64f1-a724-4884-9c21-ac96c21cca3e',
    }),
    service_id: uuidString()
      .openapi({
        description: 'The identifier of the service for which this entry describes the service area',
        example: 'ac148810-d857-441c-9679-408f346de14b',
      })
      .optional(),
    service_at_location_id: uuidString()
      .openapi({
        description: 'The identifier of the service at location object linked to this object.',
        example: 'e94c9f38-1e8f-4564-91d4-d53501ab1765',
      })
      .optional(),
    name: z
      .string()
      .openapi({
        description: 'A free text geographic area where a service is available.',
        example:
          'The service is available to all residents of the MyCity area. We provide the service in our offices or via video conferencing to any who can provide evidence of their residency.',
      })
      .optional(),
    description: z
      .string()
      .openapi({
        description:
          'A more detailed free text description of this service area. Used to provide any additional information that cannot be communicated using the structured area and geometry fields.',
        example:
          'The service is available to all residents of the MyCity area, including all postcodes starting with AB1, AB2, and AB3',
      })
      .optional(),
    extent: z
      .string()
      .openapi({ description: 'A definition of the polygon defining the area.', example: 'extent' })
      .optional(),
    extent_type: z
      .string()
      .openapi({
        description:
          'The format of the extent field  populated from an enum of  "geojson", "topojson",  "kml",and (for legacy systems or early state during transformation) "text".',
        example: 'geojson',
      })
      .optional(),
    uri: z
      .string()
      .openapi({
        description: 'A URI which acts as a persistent identifier to identify an area.',
        example: 'http://example.com',
      })
      .optional(),
  })
  .openapi('service_area', {
    description: 'The details of the geographic area for which a service is available.',
  });

export type ServiceArea = z.infer<typeof serviceAreaSchema>;
