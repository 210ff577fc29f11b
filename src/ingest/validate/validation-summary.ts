/** The terminal summary of a validation: the verdict, counts per record type, conformance, first issues. */
import type { ValidationReport, ValidationVerdict } from './validate-items.ts';

/** The verdict as the terminal and the HTML page say it. */
export const VERDICT_WORDS: Record<ValidationVerdict, string> = {
  valid: 'valid as published',
  'importable-with-repairs': 'importable with repairs',
  'not-importable': 'not importable',
};

/** How many records the repairs touch and of which types: "1412 of 1412 records (service 818, organization 594)". */
export function describeRepairs(report: ValidationReport): string {
  const types = Object.entries(report.repairs.by_type)
    .sort((a, b) => b[1] - a[1])
    .map(([type, n]) => `${type} ${n}`)
    .join(', ');
  return `${report.repairs.records} of ${report.records} records repaired${types ? ` (${types})` : ''}`;
}

const pad = (text: string, width: number) => text.padEnd(width);
const padLeft = (text: string, width: number) => text.padStart(width);

export function formatValidationReport(report: ValidationReport, shownIssues = 20): string {
  const lines: string[] = [];
  const verdict = VERDICT_WORDS[report.verdict].toUpperCase();
  lines.push(
    `${verdict}: ${report.source} (${report.kind}${report.strict ? ', strict' : ''}): ${report.items} items, ` +
      `${report.records} records kept (${report.repaired} repaired), ${report.rejected} rejected, ` +
      `${report.dangling_references} dangling references${report.truncated ? ' (stopped early: item limit)' : ''}`,
  );
  lines.push(
    `  issues ${report.issues_total} (${report.by_severity.error} errors, ${report.by_severity.warning} warnings, ${report.by_severity.info} notes)`,
  );
  if (report.repairs.records > 0) {
    lines.push(`  ${describeRepairs(report)}; the repairs, most frequent first:`);
    const reasons = Object.entries(report.repairs.by_reason).sort((a, b) => b[1] - a[1]);
    for (const [reason, n] of reasons.slice(0, 10)) lines.push(`  ${padLeft(String(n), 8)}  ${reason}`);
    if (reasons.length > 10)
      lines.push(`  ... and ${reasons.length - 10} other kinds of repair (--json lists them all)`);
  }
  const types = Object.entries(report.by_type).sort((a, b) => b[1].kept - a[1].kept);
  if (types.length > 0) {
    lines.push(
      '',
      `  ${pad('record type', 26)}${padLeft('kept', 8)}${padLeft('repaired', 10)}${padLeft('rejected', 10)}`,
    );
    for (const [type, c] of types)
      lines.push(
        `  ${pad(type, 26)}${padLeft(String(c.kept), 8)}${padLeft(String(c.repaired), 10)}${padLeft(String(c.rejected), 10)}`,
      );
  }
  if (report.conformance) {
    lines.push('', `  API conformance: ${report.conformance.conformant ? 'conformant' : 'NOT conformant'}`);
    for (const c of report.conformance.checks)
      lines.push(
        `  ${c.ok ? 'ok  ' : c.required ? 'FAIL' : 'no  '}  ${c.check}${c.required ? '' : ' (optional)'}${c.ok ? '' : `: ${c.detail}`}`,
      );
  }
  const shown = report.issues.filter((i) => i.severity !== 'info').slice(0, shownIssues);
  if (shown.length > 0) {
    lines.push('', '  first issues:');
    for (const i of shown)
      lines.push(
        `  ${i.severity.toUpperCase()} ${i.source}  ${i.record_type ?? ''} ${i.record_id ?? ''}  ${i.path}: ${i.reason}${i.value ? ` (found ${i.value})` : ''}`,
      );
  }
  return lines.join('\n');
}
