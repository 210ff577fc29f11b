/**
 * The verdict that ends `hsds import`: one line an operator (or a scheduled job) reads, and an exit
 * code that says the same, as `hsds validate` ends with its own (validate.command.ts). An import
 * keeps every good record whatever else the feed holds, so its verdict tells three kinds of
 * success apart (as published, after repairs, with some records rejected) from a failure. Pure.
 */
import type { ImportSummary } from '../ingest/index.ts';

export type ImportVerdict = 'clean' | 'repaired' | 'rejected-some' | 'failed';

/**
 * Exit codes, 2 staying the usage error as for every command: 0 for an import that kept every
 * record (repaired or not); 3 when it kept the good records but rejected some (look at the
 * report); 1 when it failed: the feed had items and none was kept (a thrown error is 1 too).
 */
export const IMPORT_EXIT_CODES: Record<ImportVerdict, number> = {
  clean: 0,
  repaired: 0,
  'rejected-some': 3,
  failed: 1,
};

/** Validate's words, said of what was done: "valid as published" becomes "imported as published". */
export const IMPORT_VERDICT_WORDS: Record<ImportVerdict, string> = {
  clean: 'imported as published',
  repaired: 'imported with repairs',
  'rejected-some': 'imported, some records rejected',
  failed: 'not imported',
};

type Counts = Pick<ImportSummary, 'items' | 'records' | 'repaired' | 'rejected'>;

export function importVerdict(summary: Counts): ImportVerdict {
  if (summary.items > 0 && summary.records === 0) return 'failed';
  if (summary.rejected > 0) return 'rejected-some';
  return summary.repaired > 0 ? 'repaired' : 'clean';
}

/** `IMPORTED WITH REPAIRS: 120 records kept (3 repaired), 0 rejected, from 118 items` and the report's place. */
export function formatImportVerdict(summary: Counts, reportFile?: string): string {
  const verdict = importVerdict(summary);
  return (
    `${IMPORT_VERDICT_WORDS[verdict].toUpperCase()}: ${summary.records} records kept (${summary.repaired} repaired), ` +
    `${summary.rejected} rejected, from ${summary.items} items` +
    (verdict === 'rejected-some' || verdict === 'failed'
      ? `; each rejection and why in ${reportFile ?? 'the report'}`
      : '')
  );
}
