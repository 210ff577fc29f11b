/**
 * How HSDS records nest: one table drives both directions, flattening nested JSON into records
 * (import) and reassembling records into nested JSON (reindex), so the two cannot disagree.
 *
 * Two kinds of link, as in the official compiled schemas:
 * - a child collection: the child carries its parent's id (`phone.service_id` → `service.phones`);
 *   a child may belong to several parents at once (a phone of a service and of its contact);
 * - a reference: the parent carries the id of a single record nested whole
 *   (`service.organization_id` → `service.organization`).
 * `attributes` and `metadata` hang off every record by `link_id` / `resource_id`.
 */
import { isRecordType, type RecordType } from '../../hsds/index.ts';
import { recordKey } from '../../index-mapping/ids.ts';

export type ChildLink = { key: string; type: RecordType; field: string };
export type Reference = { key: string; type: RecordType; field: string };

// Child collections by parent type, in the order the official examples list them.
export const childLinks: Partial<Record<RecordType, readonly ChildLink[]>> = {
  service: [
    { key: 'additional_urls', type: 'url', field: 'service_id' },
    { key: 'phones', type: 'phone', field: 'service_id' },
    { key: 'schedules', type: 'schedule', field: 'service_id' },
    { key: 'service_areas', type: 'service_area', field: 'service_id' },
    { key: 'service_at_locations', type: 'service_at_location', field: 'service_id' },
    { key: 'languages', type: 'language', field: 'service_id' },
    { key: 'funding', type: 'funding', field: 'service_id' },
    { key: 'cost_options', type: 'cost_option', field: 'service_id' },
    { key: 'required_documents', type: 'required_document', field: 'service_id' },
    { key: 'contacts', type: 'contact', field: 'service_id' },
    { key: 'capacities', type: 'service_capacity', field: 'service_id' },
  ],
  service_at_location: [
    { key: 'service_areas', type: 'service_area', field: 'service_at_location_id' },
    { key: 'contacts', type: 'contact', field: 'service_at_location_id' },
    { key: 'phones', type: 'phone', field: 'service_at_location_id' },
    { key: 'schedules', type: 'schedule', field: 'service_at_location_id' },
  ],
  location: [
    { key: 'languages', type: 'language', field: 'location_id' },
    { key: 'addresses', type: 'address', field: 'location_id' },
    { key: 'contacts', type: 'contact', field: 'location_id' },
    { key: 'accessibility', type: 'accessibility', field: 'location_id' },
    { key: 'phones', type: 'phone', field: 'location_id' },
    { key: 'schedules', type: 'schedule', field: 'location_id' },
  ],
  organization: [
    { key: 'additional_websites', type: 'url', field: 'organization_id' },
    { key: 'funding', type: 'funding', field: 'organization_id' },
    { key: 'contacts', type: 'contact', field: 'organization_id' },
    { key: 'phones', type: 'phone', field: 'organization_id' },
    { key: 'locations', type: 'location', field: 'organization_id' },
    { key: 'programs', type: 'program', field: 'organization_id' },
    { key: 'organization_identifiers', type: 'organization_identifier', field: 'organization_id' },
  ],
  contact: [{ key: 'phones', type: 'phone', field: 'contact_id' }],
  phone: [{ key: 'languages', type: 'language', field: 'phone_id' }],
};

export const references: Partial<Record<RecordType, readonly Reference[]>> = {
  service: [
    { key: 'organization', type: 'organization', field: 'organization_id' },
    { key: 'program', type: 'program', field: 'program_id' },
  ],
  service_at_location: [{ key: 'location', type: 'location', field: 'location_id' }],
  service_capacity: [{ key: 'unit', type: 'unit', field: 'unit_id' }],
  attribute: [{ key: 'taxonomy_term', type: 'taxonomy_term', field: 'taxonomy_term_id' }],
  taxonomy_term: [{ key: 'taxonomy_detail', type: 'taxonomy', field: 'taxonomy_id' }],
};

/** Types that carry `attributes` (every type but these) and `metadata` (every type but metadata). */
const withoutAttributes = new Set<RecordType>(['attribute', 'metadata', 'taxonomy', 'taxonomy_term']);
export const hasAttributes = (type: RecordType) => !withoutAttributes.has(type);
export const hasMetadata = (type: RecordType) => type !== 'metadata';

/**
 * The keys under which a nested record holds other records: its child collections, references,
 * `attributes`, `metadata`, and the two endpoint-only reverse links (an organization's `services`,
 * a service-at-location's `service`).
 */
export function nestedKeysOf(type: RecordType): Set<string> {
  const keys = new Set<string>();
  for (const link of childLinks[type] ?? []) keys.add(link.key);
  for (const ref of references[type] ?? []) keys.add(ref.key);
  if (hasAttributes(type)) keys.add('attributes');
  if (hasMetadata(type)) keys.add('metadata');
  if (type === 'organization') keys.add('services');
  if (type === 'service_at_location') keys.add('service');
  return keys;
}

// Which fields of a record name a parent it nests under (the inverse of childLinks).
const parentFieldsByType = new Map<RecordType, Map<string, RecordType>>();
for (const [parentType, links] of Object.entries(childLinks) as [RecordType, readonly ChildLink[]][]) {
  for (const link of links) {
    const fields = parentFieldsByType.get(link.type) ?? new Map<string, RecordType>();
    fields.set(link.field, parentType);
    parentFieldsByType.set(link.type, fields);
  }
}

/** The fields of a record of this type that point at a parent it nests under, with the parent's type. */
export const parentFieldsOf = (type: RecordType): ReadonlyMap<string, RecordType> =>
  parentFieldsByType.get(type) ?? new Map();

type Fields = Record<string, unknown>;

/**
 * The ids this record nests under: its parents' ids, plus `link_id` for attributes and
 * `resource_id` for metadata. The records store indexes them so reindex can fetch the children
 * of a batch of records with one terms query.
 */
export function parentIdsOf(type: RecordType, record: Fields): string[] {
  const ids: string[] = [];
  for (const field of parentFieldsOf(type).keys()) {
    const value = record[field];
    if (typeof value === 'string') ids.push(value);
  }
  if (type === 'attribute' && typeof record.link_id === 'string') ids.push(record.link_id);
  if (type === 'metadata' && typeof record.resource_id === 'string') ids.push(record.resource_id);
  return [...new Set(ids)];
}

/**
 * A parent a record nests under. Ids are unique per table only (an organization may share its id
 * with a service), so a parent is a key, `type:id`, wherever the link names its table: a child
 * collection's field does (a phone's `service_id` is a service's id, never an organization's). An
 * attribute's `link_id` and a metadata's `resource_id` name an id in any table that carries
 * attributes (metadata); `named` is the table `link_entity` (`resource_type`) names, which
 * published data often gets wrong (assemble.ts nests them by the same rule).
 */
export type ParentLink =
  | { key: string }
  | { id: string; named: RecordType | undefined; carrier: 'attributes' | 'metadata' };

/** The parents a record nests under (the typed form of `parentIdsOf`). */
export function parentLinksOf(type: RecordType, record: Fields): ParentLink[] {
  const links: ParentLink[] = [];
  for (const [field, parentType] of parentFieldsOf(type)) {
    const value = record[field];
    if (typeof value === 'string') links.push({ key: recordKey(parentType, value) });
  }
  const untyped = (id: unknown, entity: unknown, carrier: 'attributes' | 'metadata') => {
    if (typeof id !== 'string') return;
    const named = typeof entity === 'string' ? asRecordType(entity) : undefined;
    links.push({ id, named, carrier });
  };
  if (type === 'attribute') untyped(record.link_id, record.link_entity, 'attributes');
  if (type === 'metadata') untyped(record.resource_id, record.resource_type, 'metadata');
  return links;
}

/** Every id a record points at, with the type it should have: parents and references. */
export function outgoingLinksOf(
  type: RecordType,
  record: Fields,
): { field: string; type?: RecordType; id: string }[] {
  const links: { field: string; type?: RecordType; id: string }[] = [];
  for (const [field, parentType] of parentFieldsOf(type)) {
    const value = record[field];
    if (typeof value === 'string') links.push({ field, type: parentType, id: value });
  }
  for (const ref of references[type] ?? []) {
    const value = record[ref.field];
    if (typeof value === 'string') links.push({ field: ref.field, type: ref.type, id: value });
  }
  // `link_entity` / `resource_type` are often wrong or placeholders (the official example says
  // `link_entity`); these links are checked by id whatever the type.
  if (type === 'attribute' && typeof record.link_id === 'string')
    links.push({ field: 'link_id', id: record.link_id });
  if (type === 'metadata' && typeof record.resource_id === 'string') {
    links.push({ field: 'resource_id', id: record.resource_id });
  }
  return links;
}

/** `link_entity` / `resource_type` name a table; tolerate plurals (`services`) and case. */
export function asRecordType(name: string): RecordType | undefined {
  const n = name.trim().toLowerCase();
  if (isRecordType(n)) return n;
  const singular = n.replace(/ies$/, 'y').replace(/s$/, '');
  return isRecordType(singular) ? singular : undefined;
}

/** The key of a record in the records store: type and id (ids are unique per table, not across). */
// Record keys are built and taken apart in index-mapping/ids.ts; re-exported for ingest's modules.
export { recordKey };

/**
 * Fields that place a record under its parents. A record met under several parents (a phone of a
 * service and of its contact) is one record with all of them: these fields are merged, not
 * compared, when the same id is met again.
 */
export function linkFieldsOf(type: RecordType): ReadonlySet<string> {
  let fields = linkFieldsCache.get(type);
  if (!fields) {
    fields = new Set(parentFieldsOf(type).keys());
    if (type === 'attribute') fields.add('link_id').add('link_entity');
    if (type === 'metadata') fields.add('resource_id').add('resource_type');
    linkFieldsCache.set(type, fields);
  }
  return fields;
}

const linkFieldsCache = new Map<RecordType, Set<string>>();
