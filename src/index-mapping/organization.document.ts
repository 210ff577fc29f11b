/**
 * The `organizations` document: the organization nested as in GET /organizations/{id}, without
 * `services` (the API nests them from the services index at read time; `service_ids` lists them),
 * plus search fields. Pure.
 */
import type { OrganizationNested } from '../hsds/index.ts';
import type { OrganizationDocument } from './documents.ts';
import { nestedIdsOf } from './nested-ids.ts';
import { toSearchText } from './search-text.ts';
import { toTermRefs } from './service.document.ts';
import { listItemText } from './sources.query.ts';
import { toSuggestField } from './suggest.query.ts';

/** What an organization's services contribute: their ids and taxonomy links. */
export type OrganizationServiceSummary = {
  service_ids: readonly string[];
  taxonomy_term_ids: readonly string[];
  taxonomy_ids: readonly string[];
  /** The newest last_modified of its services. */
  last_modified?: string | undefined;
};

const suggestOf = (name: string | undefined) => {
  const suggest = toSuggestField(name);
  return suggest ? { suggest } : {};
};

const union = (...lists: (readonly string[])[]) => [...new Set(lists.flat())];

/**
 * `taxonomy_term_ids` / `taxonomy_ids`: the organization's own attributes and its services' (so
 * `GET /organizations?taxonomy_term_id=` finds the organizations that run such services).
 * `last_modified`: the newest of its services'; HSDS organizations have no such field.
 */
export function toOrganizationDocument(
  organization: OrganizationNested & { services?: unknown },
  services: OrganizationServiceSummary,
): OrganizationDocument {
  const { services: _, ...record } = organization;
  const own = toTermRefs(organization.attributes);
  return {
    id: organization.id,
    name: toSearchText(organization.name),
    ...(organization.alternate_name ? { alternate_name: toSearchText(organization.alternate_name) } : {}),
    ...(organization.description ? { description: toSearchText(organization.description) } : {}),
    service_ids: union(services.service_ids),
    taxonomy_term_ids: union(own.ids, services.taxonomy_term_ids),
    taxonomy_ids: union(own.taxonomyIds, services.taxonomy_ids),
    ...(services.last_modified ? { last_modified: services.last_modified } : {}),
    nested_ids: nestedIdsOf(record),
    ...suggestOf(organization.name),
    record,
    list_item: listItemText('organizations', record),
  };
}
