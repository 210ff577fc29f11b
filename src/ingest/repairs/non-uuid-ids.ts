/**
 * Ids that are not UUIDs in a feed of any version: an HSDS 3.x transformer's output numbers its
 * records (`"id": "240"`, `"organization_id": 240`), as old feeds did. HSDS 3.1 requires UUIDs, and
 * rejecting the id rejects the record with everything it nests (a whole feed, for an
 * organization). Unless the import is strict, such an id is mapped as the legacy migration maps
 * one (migrate/legacy-ids.ts): to the UUID v5 of `type:original-id`, so that
 * - every reference to the original id (`service_id`, a nested organization, `link_id` with its
 *   `link_entity`) becomes the same UUID, in the same item or any other, without a lookup table;
 * - importing the feed again, or the same record published by a legacy feed, gives the same UUID.
 * The source's name is deliberately not part of it: a record published in two formats (an HSDS
 * 1.1 package and its 3.x conversion) stays one record, as the legacy migration promises.
 * Each mapping is a repair (info); a record's own id also gets the original-id `metadata` record
 * the legacy migration writes (field `id`, previous value the original), served with the record.
 * Pure, no I/O.
 */
import type { RecordType } from '../../hsds/index.ts';
import { isUuid, migrateId, originalIdMetadata, publishedId } from '../migrate/legacy-ids.ts';
import { asRecordType } from '../records/nesting.ts';
import type { Repair } from './leniency.ts';

/** The type of record an id field names; `undefined` for `link_id` / `resource_id` of no known type. */
function typeNamedBy(
  type: RecordType,
  field: string,
  fields: Record<string, unknown>,
): RecordType | undefined {
  if (field === 'id') return type;
  if (field === 'parent_id') return type === 'taxonomy_term' ? 'taxonomy_term' : undefined;
  if (field === 'parent_organization_id') return 'organization';
  const entity =
    field === 'link_id' ? fields.link_entity : field === 'resource_id' ? fields.resource_type : undefined;
  if (field === 'link_id' || field === 'resource_id')
    return typeof entity === 'string' ? asRecordType(entity) : undefined;
  return field.endsWith('_id') ? asRecordType(field.slice(0, -3)) : undefined;
}

/** A record's original id, when `mapNonUuidIds` replaced it. */
export type MappedId = { original: string; id: string };

/**
 * Replaces every id field of `fields` (`idFields`: the record's id and its references) that holds
 * a number or a non-UUID string by its UUID, in place; a repair for each. Returns the record's
 * own original id when it was mapped.
 */
export function mapNonUuidIds(
  type: RecordType,
  fields: Record<string, unknown>,
  idFields: readonly string[],
  repairs: Repair[] | undefined,
): { repairs: Repair[] | undefined; own?: MappedId } {
  let own: MappedId | undefined;
  for (const field of idFields) {
    const value = fields[field];
    const original = publishedId(value);
    if (original === undefined || isUuid(original)) continue;
    const named = typeNamedBy(type, field, fields);
    if (named === undefined) continue; // a link of unknown type: left for validation to report
    const id = migrateId(named, original);
    fields[field] = id;
    if (field === 'id') own = { original, id };
    const action = `not a UUID: mapped to ${id}, the UUID of ${named} ${JSON.stringify(original)} (every reference to it maps alike${field === 'id' ? '; the original id is kept in the record’s metadata' : ''})`;
    const earlier = repairs?.find((r) => r.field === field);
    if (earlier) {
      earlier.action = `${earlier.action}, ${action}`;
      continue;
    }
    repairs ??= [];
    repairs.push({ field, found: value, action, effect: 'changed', severity: 'info' });
  }
  return own ? { repairs, own } : { repairs };
}

/** The date the original-id metadata of a mapped record carries when the feed gives none. */
export const UNKNOWN_MAPPING_DATE = '1970-01-01';

/**
 * The metadata record keeping a mapped record's original id (as the legacy migration writes it),
 * dated with the record's `last_modified` day, or `date` (the item's), so that importing the same
 * feed again writes the same record.
 */
export function mappedIdMetadata(
  type: RecordType,
  mapped: MappedId,
  date: string | undefined,
): Record<string, string> {
  return {
    ...originalIdMetadata(type, type, mapped.id, mapped.original, date ?? UNKNOWN_MAPPING_DATE),
    updated_by: MAPPING_AUTHOR,
  };
}

/** Who the original-id metadata of a mapped (not migrated) record says made the change. */
export const MAPPING_AUTHOR = 'hsds import (an id that is not a UUID mapped to one)';

/** The YYYY-MM-DD day of a `last_modified` value, if it has one. */
export const dayOf = (value: unknown): string | undefined =>
  typeof value === 'string' && /^\d{4}-\d{2}-\d{2}/.test(value) ? value.slice(0, 10) : undefined;
