/**
 * Tombstones, `${prefix}-tombstones`: what was deleted, for harvesters that sync with
 * `modified_after` (the change feed, `include_deleted=true`). One document per deleted record of
 * a served type, id `type:id`, kept for a configurable period. `record` is what a list serves in
 * place of the record: `{ id, deleted: true, deleted_at }`. The sort fields of the read indices'
 * lists (`name.sort`, `id`) are mapped so one search can run over a read index and this one.
 */
import { date, keyword, storedOnly } from './analysis.ts';
import { F } from './fields.ts';
import type { ReadIndex } from './read-indices.mapping.ts';
import type { SearchRequest } from './search.query.ts';

export const TOMBSTONES_INDEX = 'tombstones';

/** The record types that have a read index of their own, and so a place in the change feed. */
export const servedTypes = {
  service: 'services',
  service_at_location: 'service_at_locations',
  organization: 'organizations',
  taxonomy: 'taxonomies',
  taxonomy_term: 'taxonomy_terms',
} as const satisfies Record<string, ReadIndex>;
export type ServedType = keyof typeof servedTypes;
export const isServedType = (type: string): type is ServedType => Object.hasOwn(servedTypes, type);
export const servedTypeOf = (index: ReadIndex): ServedType =>
  (Object.entries(servedTypes) as [ServedType, ReadIndex][]).find(([, i]) => i === index)![0];

export type TombstoneDocument = {
  id: string;
  record_type: ServedType;
  deleted_at: string;
  record: { id: string; deleted: true; deleted_at: string };
};

export const tombstoneMapping = {
  dynamic: 'strict',
  properties: {
    [F.id]: keyword,
    record_type: keyword,
    deleted_at: date,
    // Never set: mapped so that a list's sort on `name.sort` also runs over tombstones.
    [F.name]: { type: 'keyword', fields: { sort: keyword } },
    [F.record]: storedOnly,
  },
} as const;

export const tombstoneId = (type: string, id: string) => `${type}:${id}`;

export function toTombstoneDocument(type: ServedType, id: string, deletedAt: string): TombstoneDocument {
  return {
    id,
    record_type: type,
    deleted_at: deletedAt,
    record: { id, deleted: true, deleted_at: deletedAt },
  };
}

/**
 * A list's query with the tombstones of its type added (`include_deleted=true`): the live query
 * matches only live documents (tombstones have none of their fields, and none of theirs), and
 * tombstones deleted at or after `since` are added.
 */
export function withTombstones(
  live: Record<string, unknown>,
  type: ServedType,
  since: string | undefined,
): Record<string, unknown> {
  return {
    bool: {
      should: [
        { bool: { must: [live], must_not: [{ exists: { field: 'deleted_at' } }] } },
        {
          bool: {
            filter: [
              { term: { record_type: type } },
              ...(since ? [{ range: { deleted_at: { gte: since } } }] : []),
            ],
          },
        },
      ],
      minimum_should_match: 1,
    },
  };
}

/** What a tombstone serves, when a list asks for parts of records only. */
const TOMBSTONE_SOURCE = [`${F.record}.id`, `${F.record}.deleted`, `${F.record}.deleted_at`];

/**
 * A list's search with the deletions of its type since `since` (all kept ones without it) added:
 * `include_deleted=true`. Tombstones sort with the live records (by name they come last).
 */
export function includeDeleted(request: SearchRequest, since: string | undefined): SearchRequest {
  const wholeRecord = request.source.length === 1 && request.source[0] === F.record;
  return {
    ...request,
    query: withTombstones(request.query as Record<string, unknown>, servedTypeOf(request.index), since),
    source: wholeRecord ? request.source : [...new Set([...request.source, ...TOMBSTONE_SOURCE])],
    alsoIndices: [TOMBSTONES_INDEX],
  };
}
