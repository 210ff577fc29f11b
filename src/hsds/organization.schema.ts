import { z } from '@hono/zod-openapi';
import { emailString, uriString, uuidString } from './formats.schema.ts';

/** HSDS `organization`, direct fields only: its scalars and parent ids, one row of the tabular form. */
export const organizationSchema = z
  .looseObject({
    id: uuidString().openapi({
      description: 'The identifier for the organization. Each organization must have a unique identifier.',
      example: 'd9d5e0f5-d3ce-4f73-9a2f-4dd0ecc6c610',
    }),
    name: z.string().openapi({
      description: 'The official or public name of the organization.',
      example: 'Example Organization Inc.',
    }),
    alternate_name: z
      .string()
      .openapi({
        description: 'An (optional) alternative or commonly used name for the organization.',
        example: 'Example Org',
      })
      .optional(),
    description: z.string().openapi({
      description:
        'A free text description containing a brief summary about the organization. It can contain markup such as HTML or Markdown.',
      example:
        'Example Org is a non-profit organization dedicated to providing services to qualified beneficiaries',
    }),
    email: emailString()
      .openapi({
        description: 'The contact e-mail address for the organization.',
        example: 'email@example.com',
      })
      .optional(),
    website: uriString()
      .openapi({
        description: 'The URL (website address) of the organization.',
        example: 'http://example.com',
      })
      .optional(),
    tax_status: z
      .string()
      .openapi({
        description: 'DEPRECATED: Government assigned tax designation for tax-exempt organizations.',
        example: 'tax_status',
      })
      .optional(),
    tax_id: z
      .string()
      .openapi({
        description: 'DEPRECATED: A government issued identifier used for the purpose of tax administration.',
        example: 'tax_id',
      })
      .optional(),
    year_incorporated: z
      .number()
      .openapi({ description: 'The year in which the organization was legally formed.', example: 2011 })
      .optional(),
    legal_status: z
      .string()
      .openapi({
        description: 'The legal conditions that an organization is operating under.',
        example: 'Limited Company',
      })
      .optional(),
    logo: z
      .string()
      .openapi({
        description:
          'A URL to an image associated with the organization which can be presented alongside its name.',
        example: 'https://openreferral.org/wp-content/uploads/2018/02/OpenReferral_Logo_Green-4-1.png',
      })
      .optional(),
    uri: uriString()
      .openapi({
        description:
          'A persistent identifier to uniquely identify the organization such as those provided by Open Corporates or some other relevant URI provider. This is not for listing the website of the organization: that can be done through the website field of the Organization.',
        example: 'http://example.com',
      })
      .optional(),
    parent_organization_id: uuidString()
      .openapi({
        description: "The identifier of the organization's parent organization.",
        example: 'cd09a387-91f4-4555-94ec-e799c35344cd',
      })
      .optional(),
  })
  .openapi('organization', {
    description:
      'The details about each organization delivering services. Each service should be linked to the organization responsible for its delivery. One organization may deliver many services.',
  });

export type Organization = z.infer<typeof organizationSchema>;

/**
 * An organization the directory stored because services name it and no source describes it
 * (src/ingest/import/placeholder-organizations.ts) carries this extension field, `true`: HSDS has no word
 * for "made up", and an extension field validates against the official schemas (they allow
 * properties of their own), so clients can tell it from a real one. Pages for people
 * (src/explore/format.js has its twin) and the MCP server leave such an organization out.
 */
export const PLACEHOLDER_FIELD = 'x-placeholder';
export const PLACEHOLDER_ORGANIZATION_NAME = 'Unknown organization';
export const PLACEHOLDER_ORGANIZATION_DESCRIPTION =
  'Placeholder: services in this directory name this organization, but no imported source describes it.';

/**
 * Whether an organization (as stored or served) is a placeholder: marked so, or, as stored before
 * the mark existed (a stored placeholder is not written again until the real one arrives), named
 * and described exactly as placeholders are.
 */
export function isPlaceholderOrganization(organization: unknown): boolean {
  if (typeof organization !== 'object' || organization === null) return false;
  const fields = organization as Record<string, unknown>;
  return (
    fields[PLACEHOLDER_FIELD] === true ||
    (fields.name === PLACEHOLDER_ORGANIZATION_NAME &&
      fields.description === PLACEHOLDER_ORGANIZATION_DESCRIPTION)
  );
}
