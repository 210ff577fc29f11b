/**
 * Record writes as the API sees them: an interface the app is given (src/api never imports
 * src/ingest; the implementation, src/ingest/write/write.ts `createRecordWrites`, is wired in by the
 * server command and the tests).
 */
export type WritableType = 'service' | 'organization' | 'service_at_location' | 'taxonomy' | 'taxonomy_term';

/** One problem found in a body, with the fields of the import report's issues. */
export type WriteIssue = {
  severity: 'error' | 'warning' | 'info';
  kind: string;
  record_type?: string;
  record_id?: string;
  /** Where in the body: `phones[2].number`; empty for the body as a whole. */
  path: string;
  reason: string;
  value?: string;
};

export type WriteRequest = {
  type: WritableType;
  id: string;
  /** The token's name: `updated_by` in the audit trail, and the source of what it writes. */
  actor: string;
  /** Checked under the write lock, against the record as stored: false refuses the write (412). */
  precondition?: (exists: boolean) => Promise<boolean>;
  /** Read under the write lock once the write is published: the record's JSON text as now served. */
  readBack?: () => Promise<string | undefined>;
  /** How long the write may wait for the writes and the publishing before it (WRITE_QUEUE_WAIT_MS). */
  waitMs?: number;
};

export type WriteOutcome =
  | { kind: 'written'; created: boolean; served?: string | undefined }
  | { kind: 'deleted' }
  | { kind: 'not-found' }
  | { kind: 'rejected'; issues: WriteIssue[] }
  | { kind: 'precondition-failed' }
  /** The body holds more than a write takes (array elements, keys of an object): nothing written. */
  | { kind: 'too-large'; reason: string }
  /** The writes and the publishing before it outlasted `waitMs`: nothing written. */
  | { kind: 'busy'; reason: string; waitedMs: number };

export type RecordWrites = {
  /** Creates or replaces a record from its nested body (the GET shape); served when it answers. */
  put(request: WriteRequest, body: unknown): Promise<WriteOutcome>;
  /** Deletes a record with what its deletion takes; gone from every endpoint when it answers. */
  delete(request: WriteRequest): Promise<WriteOutcome>;
};
