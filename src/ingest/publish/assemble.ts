/**
 * Reassembly, the pure half of reindex: flat records of one batch in, nested HSDS out (the shapes
 * the API serves), following the same nesting table import flattened with. Children are ordered
 * by id, so the same records always give the same document.
 */
import type { RecordType } from '../../hsds/index.ts';
import type { RecordStoreDocument } from '../../index-mapping/record-store.document.ts';
import {
  asRecordType,
  childLinks,
  hasAttributes,
  hasMetadata,
  recordKey,
  references,
} from '../records/nesting.ts';

/** The records of a batch: by key, and by the ids they nest under. */
export class RecordGraph {
  readonly byKey = new Map<string, RecordStoreDocument>();
  private readonly children = new Map<string, RecordStoreDocument[]>();

  /** Adds a record, filed under each of its parents; false when its key is held already. */
  add(doc: RecordStoreDocument): boolean {
    if (this.byKey.has(doc.key)) return false;
    this.byKey.set(doc.key, doc);
    for (const parentId of new Set(doc.parent_ids)) {
      const list = this.children.get(parentId);
      if (list) list.push(doc);
      else this.children.set(parentId, [doc]);
    }
    return true;
  }

  childrenOf(parentId: string): readonly RecordStoreDocument[] {
    return this.children.get(parentId) ?? [];
  }

  get(type: RecordType, id: unknown): RecordStoreDocument | undefined {
    return typeof id === 'string' ? this.byKey.get(recordKey(type, id)) : undefined;
  }
}

/** The keys of the records a record refers to (its organization, location, unit, term, taxonomy). */
export function referenceKeysOf(doc: RecordStoreDocument): string[] {
  const keys: string[] = [];
  for (const ref of references[doc.type as RecordType] ?? []) {
    const id = doc.record[ref.field];
    if (typeof id === 'string') keys.push(recordKey(ref.type, id));
  }
  return keys;
}

const byId = (a: RecordStoreDocument, b: RecordStoreDocument) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);

// Beyond any real nesting (service › service_at_location › location › contact › phone › language
// › attribute › taxonomy_term › taxonomy is 9); guards against link cycles in bad data.
const MAX_DEPTH = 12;

export type NestOptions = {
  /** Called for every service area nested, with its stored geometry (for coverage). */
  onServiceArea?: (doc: RecordStoreDocument) => void;
};

/** The record nested with everything under it, as the API serves it. */
export function nestRecord(
  graph: RecordGraph,
  doc: RecordStoreDocument,
  options: NestOptions = {},
  depth = 0,
): Record<string, unknown> {
  const type = doc.type as RecordType;
  const out: Record<string, unknown> = { ...doc.record };
  if (type === 'service_area') options.onServiceArea?.(doc);
  if (depth >= MAX_DEPTH) return out;
  const children = graph.childrenOf(doc.id);
  const nest = (child: RecordStoreDocument) => nestRecord(graph, child, options, depth + 1);

  for (const link of childLinks[type] ?? []) {
    const list = children.filter((c) => c.type === link.type && c.record[link.field] === doc.id);
    if (list.length > 0) out[link.key] = list.sort(byId).map(nest);
  }
  for (const ref of references[type] ?? []) {
    const target = graph.get(ref.type, doc.record[ref.field]);
    if (target) out[ref.key] = nest(target);
  }
  // `link_entity` / `resource_type` are unreliable in published data (the official example nests
  // metadata of `resource_type` location under a service): an attribute or metadata entry goes
  // where its id points, unless the table it names holds a record with that id.
  const belongsHere = (c: RecordStoreDocument, idField: string, entityField: string) => {
    if (c.record[idField] !== doc.id) return false;
    const named =
      typeof c.record[entityField] === 'string' ? asRecordType(c.record[entityField] as string) : undefined;
    return named === undefined || named === type || graph.get(named, doc.id) === undefined;
  };
  if (hasAttributes(type)) {
    const attributes = children.filter(
      (c) => c.type === 'attribute' && belongsHere(c, 'link_id', 'link_entity'),
    );
    if (attributes.length > 0) out.attributes = attributes.sort(byId).map(nest);
  }
  if (hasMetadata(type)) {
    const metadata = children.filter(
      (c) => c.type === 'metadata' && belongsHere(c, 'resource_id', 'resource_type'),
    );
    if (metadata.length > 0) out.metadata = metadata.sort(byId).map(nest);
  }
  return out;
}
