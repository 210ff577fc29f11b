/**
 * The identity of a nested record its id does not tell (issue 50, the Brevard "HSDS 3" feed):
 * - a child record without an id (`languages: [{"name": "English"}]`) gets a stable minted id, the
 *   UUID v5 of its type, its parent link and its content, so the same input gets the same id on
 *   every import and the same language under two services is two records;
 * - a child record whose id this import already met with other content where a merge would lose a
 *   fact (see `splitsFrom`) is a record of its own: the UUID v5 of its type, original id and
 *   content (parent links included), noted as a repair. The nested tabular path does the same for
 *   rows (sources/row-identity.ts); this one works on flat records of nested items.
 */

import type { RecordType } from '../../hsds/index.ts';
import { uuidV5 } from '../migrate/legacy-ids.ts';
import { linkFieldsOf } from '../records/nesting.ts';
import type { Repair } from './leniency.ts';
import { recordContent } from './record-content.ts';

type Fields = Record<string, unknown>;

/** The id of a nested child without one: the UUID v5 of `type:nested:content` (parent link included). */
export const mintedNestedId = (type: RecordType, fields: Fields): string =>
  uuidV5(`${type}:nested:${recordContent(fields)}`);

/** The id of a copy made its own: the UUID v5 of `type:id:nested:content` (parent links included). */
export const copyNestedId = (type: RecordType, original: string, fields: Fields): string => {
  // Dates the import may stamp (a service's last_modified, the date of an id's metadata) are no
  // part of what the publisher said: the same copy keeps its id on the next import.
  const { last_modified: _, last_action_date: __, ...said } = fields;
  return uuidV5(`${type}:${original}:nested:${recordContent(said)}`);
};

export const mintedRepair = (id: string): Repair => ({
  field: 'id',
  found: undefined,
  action: `no id: given ${id}, the UUID v5 of its type, parent and content (the same record gets the same id on every import)`,
  effect: 'changed',
  severity: 'info',
});

// Records other records name by id (a service_at_location names its location): a copy given a new
// id would leave those names on the first copy, so they keep the "last content wins" merge across
// items; only their copies inside one item split.
const REFERENCED: ReadonlySet<RecordType> = new Set<RecordType>([
  'organization',
  'service',
  'location',
  'service_at_location',
  'taxonomy',
  'taxonomy_term',
]);

/**
 * Why a record met again in this import is a record of its own rather than the same one updated,
 * or undefined when it merges (the rule of import/repeats.ts: parents united, last content wins).
 * The merge protects the same entity met twice: a phone under its service and its contact (other
 * parent fields, no conflict), an organization nested whole in each of its services, a record a
 * later page of the feed updates. It loses a fact when
 * - the two copies sit in ONE nested item with other content: one document cannot update itself,
 *   the publisher listed two records (Brevard: two services `223` with other fees and hours);
 * - a child record (not one others name by id) sits under another parent of the same kind (one
 *   parent field cannot hold both), or under another parent with other content: each parent holds
 *   a copy (Brevard: one schedule id under every service and location), so each keeps its own.
 */
export function splitsFrom(
  type: RecordType,
  earlier: Fields,
  later: Fields,
  sameItem: boolean,
  contentChanged: boolean,
): 'same-item' | 'other-parent' | undefined {
  if (sameItem && contentChanged) return 'same-item';
  if (REFERENCED.has(type)) return undefined;
  let otherParents = false;
  for (const field of linkFieldsOf(type)) {
    const before = earlier[field];
    const after = later[field];
    // One parent field cannot hold both parents: each keeps its copy, even of the same content.
    if (before !== undefined && after !== undefined && before !== after) return 'other-parent';
    if (before !== after) otherParents = true;
  }
  // Other content under other parents (a location's hours, then a service's): two records. The
  // same content under its service and its contact is one record, its parents united.
  return otherParents && contentChanged ? 'other-parent' : undefined;
}

export function copyRepair(
  original: string,
  id: string,
  why: 'same-item' | 'other-parent',
  first: string,
): Repair {
  const what =
    why === 'same-item'
      ? `the id of an earlier record of the same item with other content (first at ${first})`
      : `the id of a record under another parent (first at ${first})`;
  return {
    field: 'id',
    found: original,
    action: `${what}: a record of its own, given ${id} (the UUID v5 of its type, id, parent and content); its nested records follow it`,
    effect: 'changed',
    severity: 'info',
  };
}
