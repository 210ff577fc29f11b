/**
 * Validation without import: a source's items read, flattened and checked exactly as an import
 * would (flatten.ts: leniency, schemas, ids), and nothing written. The answer counts, per record
 * type, the distinct records an import would keep (of which repaired) and reject, and lists each
 * issue in the import report's format (import-report.ts), with the same "a record rejected in
 * every item counts and is reported once" rule. Links are checked within the source only (an
 * import also finds them in the store): a link to a record the source does not contain is a
 * `dangling-reference` warning, as an import into an empty directory reports it.
 * Memory: the keys of the records met (for distinct counts and the link check) and the issues up to
 * `maxIssues` (counted beyond it).
 */

import { reasonKey, type SourceKind } from '../import/import-report.ts';
import { flattenItems } from '../import/validate.ts';
import type { Issue, Severity } from '../records/flatten.ts';
import { recordKey } from '../records/nesting.ts';
import type { SourceItem } from '../sources/source.ts';

export type ValidationTypeCounts = { kept: number; repaired: number; rejected: number };

/** What the conformance check of a remote HSDS API found (conformance.ts). */
export type ConformanceCheck = {
  /** What was checked: `GET /services` (Page shape), `GET /services/{id}`... */
  check: string;
  /** Whether the HSDS 3.1 API reference requires it (else: optional, reported as such). */
  required: boolean;
  ok: boolean;
  detail: string;
};

export type ConformanceSummary = { conformant: boolean; checks: ConformanceCheck[] };

/**
 * The answer in three words, each its own exit code (src/cli/validate.command.ts):
 * - `valid`: valid as published: an import keeps every record as it is, nothing repaired;
 * - `importable-with-repairs`: an import keeps every record, but only after repairing some
 *   (`repairs` says how many and which);
 * - `not-importable`: an import would reject records or fail (an error, a required endpoint
 *   that does not conform).
 * Notes that change nothing a record says (a migration from an older version, a dangling link
 * reported and kept) leave a feed valid.
 */
export type ValidationVerdict = 'valid' | 'importable-with-repairs' | 'not-importable';

/** What the repairs an import would make come to. */
export type RepairSummary = {
  /** Distinct records repaired (a field rewritten or dropped). */
  records: number;
  /** Of those, per record type. */
  by_type: Record<string, number>;
  /** Every repair counted by kind, record type, field and reason (the import report's `by_reason`). */
  by_reason: Record<string, number>;
};

export type ValidationReport = {
  source: string;
  kind: SourceKind;
  verdict: ValidationVerdict;
  /** Valid as published (`verdict` is `valid`): nothing rejected, repaired or in error. */
  valid: boolean;
  /** An import keeps every record, repaired or not (`verdict` is not `not-importable`). */
  importable: boolean;
  repairs: RepairSummary;
  /** Validated as published: no repairs (what `--strict` imports would keep). */
  strict: boolean;
  items: number;
  /** Distinct records an import would keep, of which repaired, and reject. */
  records: number;
  repaired: number;
  rejected: number;
  dangling_references: number;
  by_type: Record<string, ValidationTypeCounts>;
  by_severity: Record<Severity, number>;
  issues_total: number;
  /** The first `maxIssues` issues (import report format); `issues_total` counts them all. */
  issues: Issue[];
  /** Items not read: `maxItems` was reached. */
  truncated?: boolean;
  /** For a remote HSDS API: its endpoints checked against the HSDS 3.1 API reference. */
  conformance?: ConformanceSummary;
};

export type ValidateOptions = {
  source: string;
  kind: SourceKind;
  strict?: boolean;
  /** The country of addresses whose country is blank and not told by the postal code (DEFAULT_COUNTRY). */
  defaultCountry?: string;
  /** Issues listed in the answer (all are counted); default 1000. */
  maxIssues?: number;
  /** Items read at most (a remote API may be large); default: all. */
  maxItems?: number;
  signal?: AbortSignal;
};

const BATCH = 200;

/** Validates a source's items; writes nothing. */
export async function validateItems(
  items: AsyncIterable<SourceItem>,
  options: ValidateOptions,
): Promise<ValidationReport> {
  const strict = options.strict ?? false;
  const maxIssues = options.maxIssues ?? 1000;
  const report: ValidationReport = {
    source: options.source,
    kind: options.kind,
    verdict: 'valid',
    valid: true,
    importable: true,
    repairs: { records: 0, by_type: {}, by_reason: {} },
    strict,
    items: 0,
    records: 0,
    repaired: 0,
    rejected: 0,
    dangling_references: 0,
    by_type: {},
    by_severity: { error: 0, warning: 0, info: 0 },
    issues_total: 0,
    issues: [],
  };
  const counts = (type: string) => {
    let c = report.by_type[type];
    if (!c) {
      c = { kept: 0, repaired: 0, rejected: 0 };
      report.by_type[type] = c;
    }
    return c;
  };
  const add = (issue: Issue) => {
    report.issues_total += 1;
    report.by_severity[issue.severity] += 1;
    if (issue.kind === 'dangling-reference') report.dangling_references += 1;
    if (isRepair(issue)) {
      const key = reasonKey(issue);
      report.repairs.by_reason[key] = (report.repairs.by_reason[key] ?? 0) + 1;
    }
    if (report.issues.length < maxIssues) report.issues.push(issue);
  };
  const kept = new Set<string>();
  const keptIds = new Set<string>();
  const rejected = new Set<string>();
  // Links to records outside their item, checked when every record is known.
  const links: { issue: Omit<Issue, 'reason'>; key?: string; id: string; field: string }[] = [];

  const validateBatch = (batch: SourceItem[]) => {
    const flattened = flattenItems(batch, {
      strict,
      ...(options.defaultCountry ? { leniency: { defaultCountry: options.defaultCountry } } : {}),
    });
    batch.forEach((item, i) => {
      if (item.kind === 'issue') {
        add(item.issue);
        return;
      }
      const result = flattened[i];
      if (!result) return;
      const again = new Set(
        result.rejected
          .filter((r) => r.id !== undefined && rejected.has(recordKey(r.type, r.id)))
          .map((r) => recordKey(r.type, r.id!)),
      );
      for (const issue of result.issues) {
        if (issue.record_id && issue.record_type && again.has(recordKey(issue.record_type, issue.record_id)))
          continue;
        add(issue);
      }
      for (const r of result.rejected) {
        if (r.id !== undefined) {
          const key = recordKey(r.type, r.id);
          if (rejected.has(key)) continue;
          rejected.add(key);
        }
        report.rejected += 1;
        counts(r.type).rejected += 1;
      }
      for (const record of result.records) {
        const key = recordKey(record.type, record.id);
        if (kept.has(key)) continue; // met again: reported and counted once, where first met
        kept.add(key);
        keptIds.add(record.id);
        report.records += 1;
        counts(record.type).kept += 1;
        if (record.notes.some(isRepair)) {
          report.repaired += 1;
          counts(record.type).repaired += 1;
          report.repairs.records += 1;
          report.repairs.by_type[record.type] = (report.repairs.by_type[record.type] ?? 0) + 1;
        }
        for (const note of record.notes) add(note);
        for (const link of record.external) {
          links.push({
            issue: {
              severity: 'warning',
              kind: 'dangling-reference',
              source: item.kind === 'nested' || item.kind === 'row' ? item.origin : '',
              record_type: record.type,
              record_id: record.id,
              path: record.path ? `${record.path}.${link.field}` : link.field,
            },
            ...(link.type ? { key: recordKey(link.type, link.id) } : {}),
            id: link.id,
            field: link.field,
          });
        }
      }
    });
  };

  let batch: SourceItem[] = [];
  for await (const item of items) {
    options.signal?.throwIfAborted();
    if (item.kind !== 'issue') report.items += 1;
    batch.push(item);
    if (batch.length >= BATCH) {
      validateBatch(batch);
      batch = [];
    }
    if (options.maxItems !== undefined && report.items >= options.maxItems) {
      report.truncated = true;
      break;
    }
  }
  validateBatch(batch);

  for (const link of links) {
    const present = link.key ? kept.has(link.key) : keptIds.has(link.id);
    if (present) continue;
    add({
      ...link.issue,
      reason: `${link.field} ${link.id}: no ${link.key ? link.key.split(':')[0] : 'record'} with this id in the source`,
    });
  }
  setVerdict(report);
  return report;
}

const isRepair = (issue: Issue) => issue.kind === 'repaired' || issue.kind === 'dropped-field';

/**
 * Sets `verdict`, `valid` and `importable` from the counts (and the conformance summary, when a
 * remote API's endpoints were checked): called again after those are added.
 */
export function setVerdict(report: ValidationReport): void {
  const conforms = report.conformance?.conformant ?? true;
  report.verdict =
    report.rejected > 0 || report.by_severity.error > 0 || !conforms
      ? 'not-importable'
      : report.repaired > 0
        ? 'importable-with-repairs'
        : 'valid';
  report.valid = report.verdict === 'valid';
  report.importable = report.verdict !== 'not-importable';
}
