/**
 * The report of an import run: counts, counts by reason, and every issue. Issues are spooled to a
 * temporary file as they happen (a bad source can have millions), so memory holds only counters
 * and the first few for the terminal; `writeReportFile` writes the whole report as one JSON file.
 */
import { once } from 'node:events';
import { createReadStream, createWriteStream, type WriteStream } from 'node:fs';
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { createInterface } from 'node:readline';
import type { ImportRunCounts } from '../../engine/control.ts';
import type { Issue, Severity } from '../records/flatten.ts';

export type SourceKind = 'json' | 'tabular' | 'remote' | 'api';

export type TypeCounts = { imported: number; repaired: number; rejected: number; duplicates: number };

/** The counts are those an import run keeps in the control index (ImportRunCounts), and more. */
export type ImportSummary = ImportRunCounts & {
  source: string;
  kind: SourceKind;
  started_at: string;
  finished_at?: string;
  by_type: Record<string, TypeCounts>;
  /** Issue counts by kind and reason, e.g. `invalid: Invalid email address`. */
  by_reason: Record<string, number>;
  by_severity: Record<Severity, number>;
  issues_total: number;
  /** Set by the run: the reindex that followed, if any. */
  reindex?: unknown;
};

export type ImportReport = ImportSummary & { issues: Issue[] };

// Reasons that carry values (`[1.2, 3.4] is out of range`) would make a counter per record; the
// counted reason drops numbers and quoted values so alike reasons add up.
export function reasonKey(issue: Issue): string {
  const reason = issue.reason
    .replace(/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/gi, '<id>')
    .replace(/"[^"]*"/g, '"…"')
    .replace(/\[[^\]]*\]/g, '[…]')
    .replace(/(?<![\w.])-?\d+(\.\d+)?(?![\w.])/g, 'N');
  const field = issue.path
    .replace(/\[\d+\]/g, '[]')
    .split('.')
    .pop();
  return `${issue.kind}: ${issue.record_type ?? ''}${field ? `.${field}` : ''}: ${reason}`;
}

export class IssueLog {
  readonly summary: ImportSummary;
  readonly first: Issue[] = [];
  private spool: WriteStream | undefined;
  private spoolDir: string | undefined;
  private readonly keepFirst: number;

  constructor(source: string, kind: SourceKind, keepFirst = 20) {
    this.keepFirst = keepFirst;
    this.summary = {
      source,
      kind,
      started_at: new Date().toISOString(),
      items: 0,
      records: 0,
      repaired: 0,
      rejected: 0,
      duplicates: 0,
      dangling_references: 0,
      by_type: {},
      by_reason: {},
      by_severity: { error: 0, warning: 0, info: 0 },
      issues_total: 0,
    };
  }

  typeCounts(type: string): TypeCounts {
    let counts = this.summary.by_type[type];
    if (!counts) {
      counts = { imported: 0, repaired: 0, rejected: 0, duplicates: 0 };
      this.summary.by_type[type] = counts;
    }
    return counts;
  }

  async add(issue: Issue): Promise<void> {
    const s = this.summary;
    s.issues_total += 1;
    s.by_severity[issue.severity] += 1;
    const key = reasonKey(issue);
    s.by_reason[key] = (s.by_reason[key] ?? 0) + 1;
    if (issue.kind === 'duplicate') {
      s.duplicates += 1;
      if (issue.record_type) this.typeCounts(issue.record_type).duplicates += 1;
    }
    if (issue.kind === 'dangling-reference') s.dangling_references += 1;
    if (this.first.length < this.keepFirst && issue.severity !== 'info') this.first.push(issue);
    if (!this.spool) {
      this.spoolDir = await mkdtemp(join(tmpdir(), 'hsds-import-'));
      this.spool = createWriteStream(join(this.spoolDir, 'issues.ndjson'));
    }
    if (!this.spool.write(`${JSON.stringify(issue)}\n`)) await once(this.spool, 'drain');
  }

  // Keys of the records rejected so far: a record rejected in many items counts once. Only bad
  // records are held, so a feed that is mostly good keeps this small.
  private readonly rejectedKeys = new Set<string>();

  /** Whether this record (by type and id) was rejected earlier in the run. */
  wasRejected(type: string, id: string | undefined): boolean {
    return id !== undefined && this.rejectedKeys.has(`${type}:${id}`);
  }

  /** Counts a rejected record, once per distinct record (records without a usable id each count). */
  rejected(type: string, id?: string): void {
    if (id !== undefined) {
      const key = `${type}:${id}`;
      if (this.rejectedKeys.has(key)) return;
      this.rejectedKeys.add(key);
    }
    this.summary.rejected += 1;
    this.typeCounts(type).rejected += 1;
  }

  repaired(type: string): void {
    this.summary.repaired += 1;
    this.typeCounts(type).repaired += 1;
  }

  imported(type: string): void {
    this.summary.records += 1;
    this.typeCounts(type).imported += 1;
  }

  /** Writes `{ ...summary, issues: [...] }` to `file`, streaming the issues from the spool. */
  async writeReportFile(file: string): Promise<void> {
    await mkdir(dirname(file), { recursive: true });
    const out = createWriteStream(file);
    const { by_reason, ...rest } = this.summary;
    const sorted = Object.fromEntries(Object.entries(by_reason).sort((a, b) => b[1] - a[1]));
    const head = JSON.stringify({ ...rest, by_reason: sorted }, null, 2);
    out.write(`${head.slice(0, -2)},\n  "issues": [`);
    let first = true;
    if (this.spool) {
      await new Promise<void>((resolve) => this.spool!.end(resolve));
      const lines = createInterface({ input: createReadStream(join(this.spoolDir!, 'issues.ndjson')) });
      for await (const line of lines) {
        if (!line) continue;
        if (!out.write(`${first ? '\n' : ',\n'}    ${line}`)) await once(out, 'drain');
        first = false;
      }
      this.spool = createWriteStream(join(this.spoolDir!, 'issues.ndjson'), { flags: 'a' });
    }
    out.end(`${first ? '' : '\n  '}]\n}\n`);
    await once(out, 'finish');
  }

  async dispose(): Promise<void> {
    if (this.spool) await new Promise<void>((resolve) => this.spool!.end(resolve));
    if (this.spoolDir) await rm(this.spoolDir, { recursive: true, force: true });
    this.spool = undefined;
    this.spoolDir = undefined;
  }
}

const pad = (text: string, width: number) =>
  text.length >= width ? text : text + ' '.repeat(width - text.length);
const padLeft = (text: string, width: number) =>
  text.length >= width ? text : ' '.repeat(width - text.length) + text;

/** The terminal summary of an import: counts by record type, top reasons, first issues. */
export function formatImportSummary(
  summary: ImportSummary,
  firstIssues: Issue[],
  reportFile?: string,
): string {
  const lines: string[] = [];
  const seconds =
    summary.finished_at !== undefined
      ? (Date.parse(summary.finished_at) - Date.parse(summary.started_at)) / 1000
      : undefined;
  lines.push(
    `Imported ${summary.records} records from ${summary.items} items of ${summary.source} (${summary.kind})` +
      (seconds !== undefined ? ` in ${seconds.toFixed(1)} s` : ''),
  );
  lines.push(
    `  repaired ${summary.repaired}, rejected ${summary.rejected}, duplicates ${summary.duplicates}, dangling references ${summary.dangling_references}, ` +
      `issues ${summary.issues_total} (${summary.by_severity.error} errors, ${summary.by_severity.warning} warnings, ${summary.by_severity.info} notes)`,
  );
  if (summary.removed)
    lines.push(`  removed ${summary.removed} records the source no longer provides or deleted`);
  const types = Object.entries(summary.by_type).sort((a, b) => b[1].imported - a[1].imported);
  if (types.length > 0) {
    lines.push(
      '',
      `  ${pad('record type', 26)}${padLeft('imported', 10)}${padLeft('repaired', 10)}${padLeft('rejected', 10)}${padLeft('duplicates', 12)}`,
    );
    for (const [type, c] of types) {
      lines.push(
        `  ${pad(type, 26)}${padLeft(String(c.imported), 10)}${padLeft(String(c.repaired), 10)}${padLeft(String(c.rejected), 10)}${padLeft(String(c.duplicates), 12)}`,
      );
    }
  }
  const reasons = Object.entries(summary.by_reason).sort((a, b) => b[1] - a[1]);
  if (reasons.length > 0) {
    lines.push('', '  issues by reason:');
    for (const [reason, n] of reasons.slice(0, 15)) lines.push(`  ${padLeft(String(n), 8)}  ${reason}`);
    if (reasons.length > 15) lines.push(`  ... and ${reasons.length - 15} more reasons`);
  }
  if (firstIssues.length > 0) {
    lines.push('', '  first issues:');
    for (const i of firstIssues.slice(0, 10)) {
      lines.push(
        `  ${i.severity.toUpperCase()} ${i.source}  ${i.record_type ?? ''} ${i.record_id ?? ''}  ${i.path}: ${i.reason}${i.value ? ` (found ${i.value})` : ''}`,
      );
    }
  }
  if (reportFile) lines.push('', `  full report: ${reportFile}`);
  return lines.join('\n');
}
