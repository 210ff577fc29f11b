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
} from '../../hsds/index.ts';
import { CONSTRAINT_KINDS } from '../../index-mapping/constraints.query.ts';

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

/** What `include_deleted=true` lists in place of a deleted record (the change feed). */
export const tombstoneSchema = z
  .object({
    id: z.string().openapi({ description: 'The identifier of the deleted record.' }),
    deleted: z.literal(true).openapi({ description: 'Always true: the record was deleted.' }),
    deleted_at: z.string().openapi({ description: 'When it was deleted (ISO 8601).', format: 'date-time' }),
  })
  .strict()
  .openapi('tombstone', {
    description:
      'An extension: a record deleted from the directory, as `include_deleted=true` lists it for harvesters.',
  });

export const serviceItemSchema = z
  .union([serviceListItemSchema, serviceFullSchema, serviceMinimalSchema, tombstoneSchema])
  .openapi({
    description:
      'A service: direct fields with its organization and program; fully nested with `full=true`; id and last_modified with `minimal=true`; a tombstone for a deleted service with `include_deleted=true`.',
  });

/** An extension field of every page (src/api/http/ignored-params.ts). */
const listPageExtensions = {
  ignored_parameters: z
    .array(z.string())
    .optional()
    .openapi({
      description:
        'An extension of this API, present only when the query string (or a POST body) held parameters this endpoint does not take: their names, which did not change the answer (also in the `Ignored-Parameters` header). With `STRICT_PARAMETERS=true` they are a 400 instead.',
      example: ['serch'],
    }),
};

/** The page's understood member's schema (response-schemas.ts). */
const understoodSchema = z
  .object(
    Object.fromEntries(
      CONSTRAINT_KINDS.map((kind) => [
        kind,
        z
          .object({
            text: z.string().openapi({ description: 'The words of `search` read as this constraint.' }),
            place: z
              .string()
              .optional()
              .openapi({ description: 'place: as the directory writes it, lower-cased.' }),
            language: z.string().optional(),
            minimum_age: z.number().int().optional(),
            maximum_age: z.number().int().optional(),
            free: z.boolean().optional(),
            applied: z.enum(['filter', 'boost', 'relaxed']).openapi({
              description:
                '`filter`: only services it holds for (by their structured fields or their own words); `boost`: ranks them first; `relaxed`: the filter emptied the answer and was dropped.',
            }),
          })
          .optional(),
      ]),
    ),
  )
  .optional()
  .openapi({
    description:
      'An extension of this API, present only when `search` states a constraint beside its need: a place the directory serves ("in Hialeah", a postcode), a language ("Creole speaking"), an age or group ("for teenagers", "over 50s") or a cost ("free"). Their words no longer count as required words of the need. Remove one with `ignore_understood=<kind>`, all with `understand=false`.',
    example: { place: { text: 'in Hialeah', place: 'hialeah', applied: 'filter' } },
  });

/** Extension fields of the services and service-at-locations pages (src/api/lists/search-extensions.ts). */
const searchPageExtensions = {
  ...listPageExtensions,
  facets: z
    .record(
      z.string(),
      z.array(
        z.object({
          id: z.string().openapi({ description: 'The value: a taxonomy term, taxonomy or organization id.' }),
          name: z
            .string()
            .optional()
            .openapi({ description: 'Its name, when the directory holds the record.' }),
          count: z.number().int().openapi({ description: 'Matches with this value.' }),
        }),
      ),
    )
    .optional()
    .openapi({
      description:
        'An extension of this API, present only with the `facets` parameter: for each facet asked for, the counts of the matches per value, most frequent first.',
    }),
  did_you_mean: z.string().optional().openapi({
    description:
      'An extension of this API, present only when a `search` found nothing: the search with its words corrected to words that names in the directory hold, offered only when it finds something.',
    example: 'debt advice',
  }),
  relaxed: z.enum(['constraints', 'fewer_words', 'meaning']).optional().openapi({
    description:
      'An extension of this API, present only when a `search` found nothing as typed and a wider search is served instead: `constraints` (the constraints read from it, see `understood`, no longer filter), `fewer_words` (half of its words required, from three words on), or `meaning` (what it means alone: the needs and taxonomy terms closest to it). A search that means nothing the directory offers is never relaxed and stays empty.',
    example: 'meaning',
  }),
  understood: understoodSchema,
  crisis_lines: z
    .array(
      z.object({
        name: z.string().openapi({ example: 'Samaritans' }),
        phone: z
          .string()
          .optional()
          .openapi({ description: 'As the operator wrote it.', example: '116 123' }),
        url: z.string().optional().openapi({ example: 'https://www.samaritans.org' }),
      }),
    )
    .optional()
    .openapi({
      description:
        'An extension of this API, present only when a `search` means a risk to life or safety (suicide, abuse, an overdose, nowhere to sleep tonight...) and the operator configures crisis lines (CRISIS_LINES): the lines to show beside the results, whether or not the directory holds a crisis service.',
    }),
};

export const servicePageSchema = pageSchema(serviceItemSchema)
  .extend(searchPageExtensions)
  .openapi('service_page');

export const serviceAtLocationItemSchema = z
  .union([serviceAtLocationListItemSchema, serviceAtLocationFullSchema])
  .openapi({
    description:
      'A service-at-location: direct fields, its location and its service (direct fields with organization and program); fully nested with `full=true`.',
  });

export const serviceAtLocationPageSchema = pageSchema(serviceAtLocationItemSchema)
  .extend(searchPageExtensions)
  .openapi('service_at_location_page');

export const organizationItemSchema = z
  .union([organizationListItemSchema, organizationFullSchema, tombstoneSchema])
  .openapi({
    description:
      'An organization: direct fields; fully nested with `full=true` or `full_service=true` (with its services); a tombstone with `include_deleted=true`.',
  });

export const organizationPageSchema = pageSchema(organizationItemSchema)
  .extend(listPageExtensions)
  .openapi('organization_page');

export const taxonomyItemSchema = z.union([taxonomyFullSchema, tombstoneSchema]).openapi({
  description: 'A taxonomy; a tombstone for a deleted one with `include_deleted=true`.',
});

export const taxonomyPageSchema = pageSchema(taxonomyItemSchema)
  .extend(listPageExtensions)
  .openapi('taxonomy_page');

export const taxonomyTermItemSchema = z.union([taxonomyTermFullSchema, tombstoneSchema]).openapi({
  description: 'A taxonomy term; a tombstone for a deleted one with `include_deleted=true`.',
});

export const taxonomyTermPageSchema = pageSchema(taxonomyTermItemSchema)
  .extend(listPageExtensions)
  .openapi('taxonomy_term_page');
