/**
 * What deleting a record takes with it (`hsds delete`, a harvested deletion). HSDS records hang off
 * each other two ways: children carry their parent's id (a phone its service's), references point
 * at a record nested whole (a service_at_location at its location). A deletion takes:
 *
 * - any record: itself, and every child record that nests under nothing else (a phone of a
 *   deleted service goes; a phone of the service and of a contact that stays, stays). Parents are
 *   told by table and id: ids are unique per table only, and the phones of service X are no
 *   children of an organization X;
 * - an organization: also its services (and theirs, as above) and its locations, programs,
 *   contacts and other children;
 * - a location: also the service_at_locations at it (the services stay, at their other locations);
 * - a taxonomy: also its terms (as below);
 * - a taxonomy term: also the attributes that link a record to it (the records stay, without it).
 *
 * Reads the store (refreshed) for children and an organization's services, and the served indices
 * for references the store does not index (service_at_locations at a location, a taxonomy's terms,
 * the records that carry a term).
 */
import type { Engine } from '../../engine/engine.ts';
import { findDocuments, getRecords } from '../../engine/records.ts';
import { lookupServed } from '../../engine/served.ts';
import type { RecordType } from '../../hsds/index.ts';
import { F } from '../../index-mapping/fields.ts';
import { caseVariants } from '../../index-mapping/ids.ts';
import { type RecordStoreDocument, unpackDocument } from '../../index-mapping/record-store.document.ts';
import { hasAttributes, hasMetadata, type ParentLink, parentLinksOf, recordKey } from './nesting.ts';

export type RecordRef = { type: string; id: string };

/** Terms on `field` in a served index: the ids (and, when asked, another field) of what matches. */
const servedMatching = (
  engine: Engine,
  alias: string,
  field: string,
  values: readonly string[],
  source: readonly string[] = [F.id],
) => lookupServed(engine, alias, field, values, source);

/**
 * Of `records`, those every parent of which is among `keys` (`type:id`): what goes when the records
 * of `keys` go. Parents are matched by table and id (nesting.ts ParentLink): a phone whose
 * `service_id` is X nests under service X, whatever else has id X. An attribute's `link_id` (a
 * metadata's `resource_id`) goes where assemble.ts nests it: under the record of the table its
 * `link_entity` names when the store holds that one, else under every stored record with that id.
 * A record whose parents are nowhere in the store is not taken.
 */
export async function nestingOnlyUnder(
  engine: Engine,
  records: readonly RecordStoreDocument[],
  keys: ReadonlySet<string>,
): Promise<RecordStoreDocument[]> {
  const links = new Map(records.map((r) => [r.key, parentLinksOf(r.type as RecordType, r.record)]));
  const untypedIds = new Set<string>();
  for (const list of links.values()) for (const link of list) if (!('key' in link)) untypedIds.add(link.id);
  // The stored records of each id an untyped link names (one terms query).
  const holders = new Map<string, Map<string, string>>();
  if (untypedIds.size > 0) {
    for (const doc of await findDocuments(engine, 'ids', [...untypedIds], undefined)) {
      for (const record of unpackDocument(doc)) {
        if (!untypedIds.has(record.id)) continue;
        const byKey = holders.get(record.id) ?? new Map<string, string>();
        byKey.set(record.key, record.type);
        holders.set(record.id, byKey);
      }
    }
  }
  const parentsOf = (link: ParentLink): string[] => {
    if ('key' in link) return [link.key];
    const carries = link.carrier === 'attributes' ? hasAttributes : hasMetadata;
    const stored = [...(holders.get(link.id) ?? [])]
      .filter(([, type]) => carries(type as RecordType))
      .map(([key]) => key);
    const named = link.named ? recordKey(link.named, link.id) : undefined;
    return named && stored.includes(named) ? [named] : stored;
  };
  return records.filter((record) => {
    const parents = links.get(record.key)!.flatMap(parentsOf);
    return parents.length > 0 && parents.every((key) => keys.has(key));
  });
}

/**
 * The keys (`type:id`) of every record the deletion of `refs` takes, `refs` included when stored.
 * Records named but not stored are left out (and reported by the caller).
 */
export async function deletionClosure(engine: Engine, refs: readonly RecordRef[]): Promise<Set<string>> {
  const doomed = new Map<string, RecordStoreDocument>();
  // Ids are stored in lower case (index-mapping/ids.ts); a store written before may hold another
  // case, and a deletion takes the record in whichever case it was stored.
  let frontier: RecordStoreDocument[] = [
    ...(
      await getRecords(
        engine,
        refs.flatMap((r) => caseVariants(r.id).map((id) => recordKey(r.type, id))),
      )
    ).values(),
  ];
  const take = (records: Iterable<RecordStoreDocument>) => {
    const added: RecordStoreDocument[] = [];
    for (const record of records) {
      if (doomed.has(record.key)) continue;
      doomed.set(record.key, record);
      added.push(record);
    }
    return added;
  };
  frontier = take(frontier);
  while (frontier.length > 0) {
    const ids = (type: string) => frontier.filter((r) => r.type === type).map((r) => r.id);
    const extraKeys: string[] = [];
    // An organization's services.
    const organizations = ids('organization');
    if (organizations.length > 0) {
      for (const doc of await findDocuments(engine, 'group', organizations, undefined)) {
        for (const record of unpackDocument(doc)) {
          if (record.type === 'service' && organizations.includes(record.record.organization_id as string))
            extraKeys.push(record.key);
        }
      }
    }
    // The service_at_locations at a location.
    for (const sal of await servedMatching(engine, 'service_at_locations', F.locationId, ids('location'))) {
      extraKeys.push(recordKey('service_at_location', sal[F.id] as string));
    }
    // A taxonomy's terms.
    for (const term of await servedMatching(engine, 'taxonomy_terms', F.taxonomyId, ids('taxonomy'))) {
      extraKeys.push(recordKey('taxonomy_term', term[F.id] as string));
    }
    // The attributes that link records to a term: under the records that carry it.
    const terms = ids('taxonomy_term');
    const carriers = [
      ...(await servedMatching(engine, 'services', F.taxonomyTermIds, terms, [F.nestedIds])),
      ...(await servedMatching(engine, 'organizations', F.taxonomyTermIds, terms, [F.nestedIds])),
    ].flatMap((doc) => (doc[F.nestedIds] as string[] | undefined) ?? []);
    const attributes: RecordStoreDocument[] = [];
    if (carriers.length > 0) {
      for (const doc of await findDocuments(engine, 'parent_ids', [...new Set(carriers)], undefined)) {
        for (const record of unpackDocument(doc)) {
          if (record.type === 'attribute' && terms.includes(record.record.taxonomy_term_id as string))
            attributes.push(record);
        }
      }
    }
    const extra = extraKeys.length > 0 ? [...(await getRecords(engine, extraKeys)).values()] : [];
    // Children that nest under nothing that stays. `parent_ids` holds bare ids: what it finds is
    // checked by table and id, as a record of another table may share a doomed record's id.
    const candidates = new Map<string, RecordStoreDocument>();
    const parentIds = frontier.map((r) => r.id);
    for (const doc of await findDocuments(engine, 'parent_ids', parentIds, undefined)) {
      for (const record of unpackDocument(doc))
        if (!doomed.has(record.key)) candidates.set(record.key, record);
    }
    const children = await nestingOnlyUnder(engine, [...candidates.values()], new Set(doomed.keys()));
    frontier = take([...extra, ...attributes, ...children]);
  }
  return new Set(doomed.keys());
}
