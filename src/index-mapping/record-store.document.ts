/**
 * The records store, `${prefix}-records` (docs/architecture.md): every HSDS record flat, the source
 * of truth the read indices are rebuilt from. Not served by the API.
 *
 * A record is a flat HSDS record with the ids of the records it nests under (`parent_ids`), keyed
 * `type:id` (ids are unique per table only: the official example reuses one uuid for a unit and a
 * service capacity). The store keeps records in two kinds of document:
 * - a **bundle**, id `item:type:id`: the records one nested source item brought for the first time
 *   in its import (a service with its phones, schedules, locations...), written and read as one
 *   document. Most of the cost of a search engine document is per document, not per byte: a
 *   service is about 14 records, and reading or writing them one document each cost the engine
 *   10 times more than one bundle.
 * - a **single** record, id `type:id`: a row of a tabular source, or a record that must win over a
 *   copy held in a bundle (`overrides`): a record met again with other content (the last one
 *   wins), or one a later import brought again. A single record always wins over bundled copies.
 *
 * Only what reads select on is indexed: the keys, ids, types and parents held (so a batch's
 * children and references come back from one terms query), the import run, and `key`/`group` for
 * paging order. Records and service areas' checked geometries are stored, not indexed.
 */
import { createHash } from 'node:crypto';
import { keyword, storedOnly } from './analysis.ts';
import type { AreaGeometry } from './service-at-location.document.ts';

export const RECORDS_INDEX = 'records';

/** One flat record, as reindex joins it (a single document holds one, a bundle several). */
export type RecordStoreDocument = {
  key: string;
  type: string;
  id: string;
  /** Where the record was last imported from: a file path or a URL. */
  source: string;
  parent_ids: string[];
  /**
   * Records read together by reindex: a service's organization id, so the services of one
   * organization land in one batch and its subtree is fetched once.
   */
  group?: string;
  record: Record<string, unknown>;
  geometry?: AreaGeometry;
};

/** What a bundle keeps of each record (its key, source and group are the bundle's or derived). */
export type BundledRecord = Pick<RecordStoreDocument, 'type' | 'id' | 'parent_ids' | 'record' | 'geometry'>;

/** A document of the store: a single record, or a bundle of the records of one source item. */
export type StoreDocument = {
  /** The document id: `type:id` for a single record, `item:type:id` for a bundle. */
  key: string;
  kind: 'single' | 'bundle';
  /** The record's type and id; a bundle's are its item's. */
  type: string;
  id: string;
  source: string;
  /** The import run that wrote it (its start, in ms). */
  run: number;
  keys: string[];
  ids: string[];
  types: string[];
  /** Every parent id of the records held. */
  parent_ids: string[];
  /**
   * `key#hash` of each record held (recordHash): an import compares them with what the document
   * held before to tell which records changed, without reading the records.
   */
  hashes?: string[];
  group?: string;
  /** A single record that wins over any copy of it held in a bundle. */
  overrides?: boolean;
  record?: Record<string, unknown>;
  geometry?: AreaGeometry;
  records?: BundledRecord[];
};

export const recordStoreMapping = {
  dynamic: 'strict',
  // Bumped when the shape changes: a store written by another version is not read.
  _meta: { store_version: 3 },
  properties: {
    key: keyword,
    kind: keyword,
    type: keyword,
    id: keyword,
    source: keyword,
    run: { type: 'long' },
    keys: keyword,
    ids: keyword,
    types: keyword,
    parent_ids: keyword,
    hashes: keyword,
    group: keyword,
    overrides: { type: 'boolean' },
    record: storedOnly,
    geometry: storedOnly,
    records: storedOnly,
  },
} as const;

export const STORE_VERSION = recordStoreMapping._meta.store_version;

export function toRecordStoreDocument(
  type: string,
  id: string,
  record: Record<string, unknown>,
  parentIds: string[],
  source: string,
  geometry?: AreaGeometry,
): RecordStoreDocument {
  return {
    key: `${type}:${id}`,
    type,
    id,
    source,
    parent_ids: parentIds,
    ...(type === 'service' && typeof record.organization_id === 'string'
      ? { group: record.organization_id }
      : {}),
    record,
    ...(geometry ? { geometry } : {}),
  };
}

/**
 * A short hash of what a record is: its fields, its parents and its area's geometry. Equal hashes
 * mean the published documents built from it do not change.
 */
export function recordHash(doc: Pick<RecordStoreDocument, 'record' | 'parent_ids' | 'geometry'>): string {
  return createHash('sha1')
    .update(JSON.stringify([doc.record, doc.parent_ids, doc.geometry ?? null]))
    .digest('base64url')
    .slice(0, 12);
}

export const hashEntry = (doc: RecordStoreDocument) => `${doc.key}#${recordHash(doc)}`;

/** The key of a `key#hash` entry. */
export const keyOfHashEntry = (entry: string) => entry.slice(0, entry.lastIndexOf('#'));

/** `key#hash` entries as a map of key to hash. */
export function parseHashes(entries: readonly string[] | undefined): Map<string, string> {
  const out = new Map<string, string>();
  for (const entry of entries ?? []) {
    const at = entry.lastIndexOf('#');
    if (at > 0) out.set(entry.slice(0, at), entry.slice(at + 1));
  }
  return out;
}

/** A record as a single document of its own. */
export function toSingleDocument(doc: RecordStoreDocument, run: number, overrides: boolean): StoreDocument {
  return {
    key: doc.key,
    kind: 'single',
    type: doc.type,
    id: doc.id,
    source: doc.source,
    run,
    keys: [doc.key],
    ids: [doc.id],
    types: [doc.type],
    parent_ids: doc.parent_ids,
    hashes: [hashEntry(doc)],
    ...(doc.group ? { group: doc.group } : {}),
    ...(overrides ? { overrides: true } : {}),
    record: doc.record,
    ...(doc.geometry ? { geometry: doc.geometry } : {}),
  };
}

const toBundled = ({ type, id, parent_ids, record, geometry }: RecordStoreDocument): BundledRecord => ({
  type,
  id,
  parent_ids,
  record,
  ...(geometry ? { geometry } : {}),
});

/**
 * A short, stable tag of a source's name: bundles are kept per source (`item:<tag>:type:id`), so
 * two feeds that carry the same item each keep their copy, and a sync of one never deletes what
 * the other still provides.
 */
export const sourceTag = (source: string) => createHash('sha1').update(source).digest('hex').slice(0, 10);

/** The records of one source item as one bundle; the first is the item itself. */
export function toBundleDocument(records: readonly RecordStoreDocument[], run: number): StoreDocument {
  const root = records[0]!;
  const group = records.find((r) => r.group)?.group ?? (root.type === 'organization' ? root.id : undefined);
  const parents = new Set<string>();
  for (const r of records) for (const p of r.parent_ids) parents.add(p);
  return {
    key: `item:${sourceTag(root.source)}:${root.key}`,
    kind: 'bundle',
    type: root.type,
    id: root.id,
    source: root.source,
    run,
    keys: records.map((r) => r.key),
    ids: [...new Set(records.map((r) => r.id))],
    types: [...new Set(records.map((r) => r.type))],
    parent_ids: [...parents],
    hashes: records.map(hashEntry),
    ...(group ? { group } : {}),
    records: records.map(toBundled),
  };
}

/** The records a store document holds. */
export function unpackDocument(doc: StoreDocument): RecordStoreDocument[] {
  if (doc.kind !== 'bundle') {
    return [
      toRecordStoreDocument(doc.type, doc.id, doc.record ?? {}, doc.parent_ids, doc.source, doc.geometry),
    ];
  }
  return (doc.records ?? []).map((r) =>
    toRecordStoreDocument(r.type, r.id, r.record, r.parent_ids, doc.source, r.geometry),
  );
}

/**
 * The document without the records of the given keys (a deletion), or undefined when nothing is
 * left of it. A bundle keeps its id, its item and its run.
 */
export function withoutRecords(doc: StoreDocument, keys: ReadonlySet<string>): StoreDocument | undefined {
  const kept = unpackDocument(doc).filter((r) => !keys.has(r.key));
  if (kept.length === 0) return undefined;
  if (doc.kind !== 'bundle' || kept.length === unpackDocument(doc).length) return doc;
  const parents = new Set<string>();
  for (const r of kept) for (const p of r.parent_ids) parents.add(p);
  return {
    ...doc,
    keys: kept.map((r) => r.key),
    ids: [...new Set(kept.map((r) => r.id))],
    types: [...new Set(kept.map((r) => r.type))],
    parent_ids: [...parents],
    hashes: kept.map(hashEntry),
    records: kept.map(toBundled),
  };
}
