/**
 * Ids of older feeds: HSDS 1.x/2.0 and ORUK 1.0 publishers use integers, slugs or their own codes
 * (`101`, `svc-rent-help`, `esdsvc:1234`); HSDS 3.1 requires UUIDs. A non-UUID id becomes a UUID v5
 * (RFC 9562: SHA-1 over a fixed namespace and a name), the name being `type:original-id`:
 * - the same source id gives the same UUID on every import, from any source, so imports stay
 *   repeatable and a record published in two formats stays one record;
 * - references translate with the same function (`service_id` 101 → the UUID of `service:101`),
 *   so tables still line up without a lookup table;
 * - the type is part of the name because old feeds number each table from 1.
 * The original id is kept in a `metadata` record (field `id`, previous value the original, new
 * value the UUID), which HSDS serves with the record: an operator finds it under the record's
 * `metadata`. UUIDs are kept as published.
 */
import { createHash } from 'node:crypto';
import type { RecordType } from '../../hsds/index.ts';

/** The namespace of every migrated id. Fixed forever: changing it would change every UUID. */
export const LEGACY_ID_NAMESPACE = '6f1d7a52-3c0e-5b8e-9a41-0d2c8e7b5f13';

const uuidPattern = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export const isUuid = (value: string): boolean => uuidPattern.test(value);

/** RFC 9562 UUID version 5 of `name` in `namespace`. */
export function uuidV5(name: string, namespace: string = LEGACY_ID_NAMESPACE): string {
  const hash = createHash('sha1')
    .update(Buffer.from(namespace.replaceAll('-', ''), 'hex'))
    .update(name, 'utf8')
    .digest();
  hash[6] = (hash[6]! & 0x0f) | 0x50; // version 5
  hash[8] = (hash[8]! & 0x3f) | 0x80; // RFC variant
  const hex = hash.subarray(0, 16).toString('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

/**
 * The HSDS 3.1 id of a record published with `original` as its id. `kind` is the record type, or
 * a finer name where one old table became two (`address:physical`, `address:postal`).
 */
export function migrateId(kind: string, original: string | number): string {
  const id = String(original).trim();
  return isUuid(id) ? id : uuidV5(`${kind}:${id}`);
}

/** A non-empty id as published (numbers as their decimal text), else undefined. */
export function publishedId(value: unknown): string | undefined {
  if (typeof value === 'number' && Number.isFinite(value)) return String(value);
  if (typeof value !== 'string') return undefined;
  const id = value.trim();
  return id === '' ? undefined : id;
}

/** Who the original-id metadata says made the change. */
export const MIGRATION_AUTHOR = 'hsds import (migration from an older HSDS version)';

/**
 * The metadata record that keeps a migrated record's original id. `date` is the day the source was
 * published (its file's modification date), so importing the same file again writes the same record.
 */
export function originalIdMetadata(
  type: RecordType,
  kind: string,
  id: string,
  original: string,
  date: string,
  /** Set for a row that shares its original id with an earlier one (sources/row-identity.ts). */
  variant?: string,
): Record<string, string> {
  return {
    id: uuidV5(
      variant === undefined ? `metadata:${kind}:${original}` : `metadata:${kind}:${original}:row:${variant}`,
    ),
    resource_id: id,
    resource_type: type,
    last_action_date: date,
    last_action_type: 'id migrated',
    field_name: 'id',
    previous_value: original,
    replacement_value: id,
    updated_by: MIGRATION_AUTHOR,
  };
}

/**
 * Counts of what a migration did, one line per mapping (`services_taxonomy.csv → attribute`),
 * so the report says each once with how many records it touched, not once per record.
 */
export class MigrationNotes {
  private readonly counts = new Map<string, number>();
  add(note: string, times = 1): void {
    this.counts.set(note, (this.counts.get(note) ?? 0) + times);
  }
  /** Each note with its count, in the order first met. */
  entries(): [note: string, count: number][] {
    return [...this.counts];
  }
  get size(): number {
    return this.counts.size;
  }
}
