/**
 * The records store, `${prefix}-records` (DESIGN.md section 3): every HSDS record flat, one
 * document each, the source of truth the read indices are rebuilt from. Not served by the API.
 *
 * Document id `type:id` (ids are unique per table only: the official example reuses one uuid for
 * a unit and a service capacity). Only what reindex joins on is indexed: `type`, `parent_ids` (the
 * records it nests under, so a batch's children come back from one terms query) and `key` (sort
 * order for paging). The record itself and a service area's checked geometry are stored, not
 * indexed.
 */
import { keyword, storedOnly } from './analysis.ts';
import type { AreaGeometry } from './service-at-location.document.ts';

export const RECORDS_INDEX = 'records';

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

export const recordStoreMapping = {
  dynamic: 'strict',
  properties: {
    key: keyword,
    type: keyword,
    id: keyword,
    source: keyword,
    parent_ids: keyword,
    group: keyword,
    record: storedOnly,
    geometry: storedOnly,
  },
} as const;

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
