/**
 * A service must never point at an organization that `/organizations/{id}` does not serve: a
 * client following the link gets a 404 and the service is listed under no organization. When a
 * service links to an organization that neither the source nor the records store holds (a tabular package with a service whose organization row is missing, a feed that
 * names its organizations by id only), the import stores a placeholder organization under that
 * id, so the data stays served and the link resolves, and reports it. Importing the real
 * organization later replaces it (the last import wins), as any record. Other records' links to a
 * missing organization (a location's, a contact's, `parent_organization_id`) are reported as
 * dangling and left alone: the API serves them as published and links nothing through them.
 *
 * The placeholder is marked with the extension field `x-placeholder: true` (src/hsds,
 * `PLACEHOLDER_FIELD`), so clients, the explore page and the MCP server do not show people an
 * "Unknown organization" as if it were one.
 */
import {
  PLACEHOLDER_FIELD,
  PLACEHOLDER_ORGANIZATION_DESCRIPTION,
  PLACEHOLDER_ORGANIZATION_NAME,
  recordSchemas,
} from '../../hsds/index.ts';

export { PLACEHOLDER_ORGANIZATION_NAME };

/** The placeholder organization stored for `id`; valid HSDS 3.1. */
export function placeholderOrganization(id: string): Record<string, unknown> {
  return recordSchemas.organization.parse({
    id,
    name: PLACEHOLDER_ORGANIZATION_NAME,
    description: PLACEHOLDER_ORGANIZATION_DESCRIPTION,
    [PLACEHOLDER_FIELD]: true,
  }) as Record<string, unknown>;
}
