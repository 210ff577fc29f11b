import { z } from '@hono/zod-openapi';
import { uuidString } from './formats.schema.ts';

/** HSDS `organization_identifier`, direct fields only: its scalars and parent ids, one row of the tabular form. */
export const organizationIdentifierSchema = z
  .looseObject({
    id: uuidString().openapi({
      description:
        'The identifier for this organization identifier entry. Each entry must have a unique identifier.',
      example: 'd4dbcebc-0802-47cb-8651-b937ac4f2f3e',
    }),
    organization_id: uuidString()
      .openapi({
        description:
          'The identifier of the organization. This should match the uuid of an organization object.',
        example: 'd9d5e0f5-d3ce-4f73-9a2f-4dd0ecc6c610',
      })
      .optional(),
    identifier_scheme: z
      .string()
      .openapi({
        description: 'The scheme of the third party identifier, according to http://org-id.guide/.',
        example: 'GB-COH',
      })
      .optional(),
    identifier_type: z.string().openapi({
      description:
        'A human-readable equivalent of the identifier_scheme. This may be used in cases where org-id.guide does not list an appropriate identifier scheme.',
      example: 'Company number',
    }),
    identifier: z.string().openapi({ description: 'The third-party identifier value.', example: '1234567' }),
  })
  .openapi('organization_identifier', {
    description:
      'The details of the third party identifiers for organizations, such as: company registration number, charity number, tax registration number.',
  });

export type OrganizationIdentifier = z.infer<typeof organizationIdentifierSchema>;
