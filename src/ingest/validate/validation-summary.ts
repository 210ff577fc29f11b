/** The terminal summary of a validation: the verdict, counts per record type, conformance, first issues. */
import type { ValidationReport } from './validate-items.ts';

const pad = (text: string, width: number) => text.padEnd(width);
const padLeft = (text: string, width: number) => text.padStart(width);

export function formatValidationReport(report: ValidationReport, shownIssues = 20): string {
  const lines: string[] = [];
  const verdict = report.valid ? 'VALID' : 'NOT VALID';
  lines.push(
    `${verdict}: ${report.source} (${report.kind}${report.strict ? ', strict' : ''}): ${report.items} items, ` +
      `${report.records} records kept (${report.repaired} repaired), ${report.rejected} rejected, ` +
      `${report.dangling_references} dangling references${report.truncated ? ' (stopped early: item limit)' : ''}`,
  );
  lines.push(
    `  issues ${report.issues_total} (${report.by_severity.error} errors, ${report.by_severity.warning} warnings, ${report.by_severity.info} notes)`,
  );
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
