/**
 * The control index's one surface: what processes sharing one engine agree on, a module per job.
 *
 * - control-index.ts: the index, and how its documents are read and written.
 * - leases.ts: one reindex, publish or write at a time across processes (`lease:<name>`).
 * - import-runs.ts: each import's start, heartbeat and end (`import:<hash of the source>`).
 * - builds.ts: the counts each published version was verified to hold (`build:<version>`).
 * - change-log.ts: the keys each publish is to write, pending until published (`change:...`).
 * - audit-intents.ts: each write's audit, stored before the write (`audit:<write id>`).
 * - operator-vocabulary.ts: synonym rules an operator added (`vocabulary-rule:<id>`).
 */
export { type AuditIntent, clearAuditIntent, listAuditIntents, recordAuditIntent } from './audit-intents.ts';
export { type BuildRecord, readBuilds, recordBuild } from './builds.ts';
export {
  abandonedChanges,
  type ChangeEntry,
  type ChangeHandle,
  listChanges,
  logChange,
  markChangesDone,
  pruneChanges,
} from './change-log.ts';
export { controlIndex, ensureControlIndex } from './control-index.ts';
export {
  abandonImportRuns,
  IMPORT_HEARTBEAT_MS,
  type ImportRun,
  type ImportRunCounts,
  type ImportRunHandle,
  lastCompleteImport,
  listImportRuns,
  startImportRun,
  type UnfinishedImport,
  unfinishedImports,
} from './import-runs.ts';
export {
  acquireLease,
  type Lease,
  LeaseHeldError,
  type LeaseHolder,
  LeaseLostError,
  type LeaseOptions,
  waitForLease,
} from './leases.ts';
