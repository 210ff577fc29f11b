/** The search report as text, for `npx hsds search-report` (the route serves it as JSON). */
import type { SearchReport, SearchReportQuery } from '../index-mapping/search-log.document.ts';

type Column<Row> = { title: string; value: (row: Row) => string | number; left?: boolean };

/** Rows under their titles, numbers right-aligned; the last column may run as long as it needs. */
function table<Row>(rows: readonly Row[], columns: readonly Column<Row>[]): string[] {
  const cells = rows.map((row) => columns.map((col) => String(col.value(row))));
  const widths = columns.map((col, i) => Math.max(col.title.length, ...cells.map((r) => r[i]!.length)));
  const line = (values: string[]) =>
    values
      .map((v, i) => (columns[i]!.left ? v.padEnd(widths[i]!) : v.padStart(widths[i]!)))
      .join('  ')
      .trimEnd();
  return [line(columns.map((c) => c.title)), ...cells.map(line)].map((l) => `  ${l}`);
}

// The same columns in each list; each list is ranked by its own count.
const queryColumns = (minDays: number): Column<SearchReportQuery>[] => [
  { title: 'searches', value: (q) => q.searches },
  { title: 'found nothing', value: (q) => q.zero_results },
  { title: 'relaxed', value: (q) => q.relaxed },
  { title: 'days', value: (q) => q.days },
  {
    title: 'query',
    value: (q) => q.query ?? `(held back until searched on ${minDays} days)`,
    left: true,
  },
];

type Report = SearchReport & { retention_days: number; min_days: number };

const queries = (report: Report, title: string, rows: readonly SearchReportQuery[]) => [
  '',
  title,
  ...(rows.length === 0 ? ['  (none)'] : table(rows, queryColumns(report.min_days))),
];

export function formatSearchReport(report: Report): string {
  const { totals } = report;
  const lines = [
    `Search report, ${report.from} to ${report.to} (${report.days} day${report.days === 1 ? '' : 's'}, UTC)` +
      (report.retention_days > 0
        ? `; counts are kept ${report.retention_days} days`
        : '; SEARCH_LOG_RETENTION_DAYS=0: searches are not being recorded'),
    `${totals.searches} searches, ${totals.zero_results} found nothing, ${totals.relaxed} relaxed; ${totals.distinct_queries} distinct texts`,
    `Texts are redacted, and shown once searched on ${report.min_days} distinct day${report.min_days === 1 ? '' : 's'} (SEARCH_LOG_MIN_DAYS)`,
  ];
  if (totals.dropped > 0)
    lines.push(
      `${totals.dropped} searches were counted without their text (too many distinct texts at once)`,
    );
  lines.push(
    '',
    ...table(report.per_day, [
      { title: 'day', value: (d) => d.day, left: true },
      { title: 'searches', value: (d) => d.searches },
      { title: 'found nothing', value: (d) => d.zero_results },
      { title: 'relaxed', value: (d) => d.relaxed },
      { title: 'texts', value: (d) => d.distinct_queries },
    ]),
    ...queries(report, 'Top queries', report.top_queries),
    ...queries(
      report,
      'Queries that found nothing (rules for SYNONYMS_FILE, then `npx hsds synonyms reload`)',
      report.zero_result_queries,
    ),
    ...queries(report, 'Queries relaxed to find something', report.relaxed_queries),
  );
  return lines.join('\n');
}
