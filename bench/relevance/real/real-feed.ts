/**
 * What a real judged set is made of, pure: the feed it was written on (never committed: it is
 * fetched into bench/.data/realdata/) and its judgments, which name services by the PUBLISHER'S
 * OWN id so that they stay true whatever the import does to ids.
 */
import { isUuid, migrateId } from '../../../src/ingest/migrate/legacy-ids.ts';

export type RealFeed = {
  name: string;
  format: 'oruk' | 'hsds-1.1-tabular';
  /** The file or folder imported, under the real-data folder (bench/.data/realdata/). */
  file: string;
  /** Where the publisher's file comes from: repository@commit:path. */
  source: string;
  /** SHA-256 of `checksumFile` (else of `file`) as the judgments were written on it. */
  sha256: string;
  checksumFile?: string;
  /** Services in the feed as published. */
  services: number;
};

export type RealJudgment = {
  query: string;
  class: string;
  /** Grade by the publisher's service id: 2 what they are looking for, 1 useful. */
  grades: Readonly<Record<string, 1 | 2>>;
};

/**
 * The id the API serves for a service the publisher calls `sourceId`: a UUID as published, lower
 * case (ORUK feeds; the import folds a UUID's case the same way), any other id (a 211's numbers)
 * the UUID v5 an import maps a non-UUID id to (src/ingest/repairs/non-uuid-ids.ts, the legacy migration).
 */
export function servedServiceId(sourceId: string): string {
  const id = sourceId.trim();
  return isUuid(id) ? id.toLowerCase() : migrateId('service', id);
}
