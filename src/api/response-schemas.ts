/**
 * Response schemas of the list and record endpoints, composed from the HSDS zod schemas: they
 * drive the OpenAPI document. Responses are not re-validated at run time (the hot path); the
 * integration tests validate them against the official JSON Schemas.
 */
import { z } from '@hono/zod-openapi';
import {
  organizationFullSchema,
  organizationListItemSchema,
  pageSchema,
  serviceAtLocationFullSchema,
  serviceAtLocationListItemSchema,
  serviceFullSchema,
  serviceListItemSchema,
  taxonomyFullSchema,
  taxonomyTermFullSchema,
} from '../hsds/index.ts';

export const serviceMinimalSchema = z
  .object({
    id: z.string().openapi({ description: 'The identifier for the service.' }),
    last_modified: z.string().optional().openapi({
      description:
        'The datetime when the service, or any related information about the service, has changed.',
    }),
  })
  .openapi('service_minimal', {
    description: 'A service as `minimal=true` lists it: its id and last_modified.',
  });

export const serviceItemSchema = z
  .union([serviceListItemSchema, serviceFullSchema, serviceMinimalSchema])
  .openapi({
    description:
      'A service: direct fields with its organization and program; fully nested with `full=true`; id and last_modified with `minimal=true`.',
  });

export const servicePageSchema = pageSchema(serviceItemSchema).openapi('service_page');

export const serviceAtLocationItemSchema = z
  .union([serviceAtLocationListItemSchema, serviceAtLocationFullSchema])
  .openapi({
    description:
      'A service-at-location: direct fields, its location and its service (direct fields with organization and program); fully nested with `full=true`.',
  });

export const serviceAtLocationPageSchema =
  pageSchema(serviceAtLocationItemSchema).openapi('service_at_location_page');

export const organizationItemSchema = z.union([organizationListItemSchema, organizationFullSchema]).openapi({
  description:
    'An organization: direct fields; fully nested with `full=true` or `full_service=true` (with its services).',
});

export const organizationPageSchema = pageSchema(organizationItemSchema).openapi('organization_page');

export const taxonomyPageSchema = pageSchema(taxonomyFullSchema).openapi('taxonomy_page');

export const taxonomyTermPageSchema = pageSchema(taxonomyTermFullSchema).openapi('taxonomy_term_page');
