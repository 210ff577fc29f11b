/**
 * HSDS ids are UUIDs, which name the same thing in any case (RFC 9562 compares them
 * case-insensitively). The records store keys a record by `type:id`, so an id kept as published
 * would let `0D2A...` and `0d2a...` be two records (a PUT under one case created a second service).
 * Every write path therefore stores ids, and every reference to one, in lower case: an import
 * (src/ingest/repairs/leniency.ts lowerCaseIds, strict or not), the write API and deletions (`storedId`).
 *
 * Reads still try the id as given, lower-cased and upper-cased (`caseVariants`): a client may ask
 * in any case, and a store written before ids were lower-cased may hold upper-case ones until
 * `hsds check-ids --fix` rewrites them. (Ids in mixed case match only as given.)
 */
export function caseVariants(id: string): string[] {
  return [...new Set([id, id.toLowerCase(), id.toUpperCase()])];
}

/** The id as the store holds it: lower case. */
export const storedId = (id: string): string => id.toLowerCase();

/**
 * The key a record is stored, logged and published under: its table and its id, `type:id`. The
 * only place a key is built (recordKey) and taken apart (parseRecordKey): an id may hold `:`, a
 * table never does.
 */
export const recordKey = (type: string, id: string): string => `${type}:${id}`;

/** A record key's table and id (recordKey's inverse). */
export function parseRecordKey(key: string): { type: string; id: string } {
  const at = key.indexOf(':');
  return { type: key.slice(0, at), id: key.slice(at + 1) };
}
