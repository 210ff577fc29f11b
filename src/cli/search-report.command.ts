/**
 * `hsds search-report [--days N] [--limit N] [--json]`: what people searched for, from the search
 * log the API servers write (src/search-report), as GET /admin/search-report serves it.
 */
import { parseArgs } from 'node:util';
import { readSearchReport } from '../engine/search-log.ts';
import { REPORT_DAYS, REPORT_QUERIES } from '../index-mapping/search-log.document.ts';
import { formatSearchReport } from '../search-report/report-table.ts';
import { openRuntime } from './runtime.ts';

const usage = `usage: hsds search-report [--days N] [--limit N] [--json]

  Searches made on /services and /service_at_locations, counted per UTC day and normalised text,
  with no personal data: the most searched texts, those that found nothing, those relaxed to find
  something, and each day's totals.
  --days N    days to report, ending today (default ${REPORT_DAYS.default}, at most ${REPORT_DAYS.max})
  --limit N   texts in each list (default ${REPORT_QUERIES.default}, at most ${REPORT_QUERIES.max})
  --json      print the report as JSON (as GET /admin/search-report serves it)`;

function wholeNumber(name: string, value: string | undefined, fallback: number, max: number): number {
  if (value === undefined) return fallback;
  const n = Number(value);
  if (!/^\d+$/.test(value) || n < 1 || n > max)
    throw new Error(`--${name} must be a whole number from 1 to ${max}`);
  return n;
}

export async function run(args: string[]): Promise<number> {
  const { values } = parseArgs({
    args,
    options: {
      days: { type: 'string' },
      limit: { type: 'string' },
      json: { type: 'boolean', default: false },
      help: { type: 'boolean', default: false },
    },
  });
  if (values.help) {
    console.error(usage);
    return 0;
  }
  let days: number;
  let limit: number;
  try {
    days = wholeNumber('days', values.days, REPORT_DAYS.default, REPORT_DAYS.max);
    limit = wholeNumber('limit', values.limit, REPORT_QUERIES.default, REPORT_QUERIES.max);
  } catch (error) {
    console.error(`${(error as Error).message}\n\n${usage}`);
    return 2;
  }
  const runtime = await openRuntime({ startLocalEngine: false, loggerName: 'hsds-search-report' });
  try {
    const report = {
      retention_days: runtime.config.SEARCH_LOG_RETENTION_DAYS,
      min_days: runtime.config.SEARCH_LOG_MIN_DAYS,
      ...(await readSearchReport(runtime.engine, { days, limit })),
    };
    console.log(values.json ? JSON.stringify(report, null, 2) : formatSearchReport(report));
    return 0;
  } finally {
    await runtime.engine.close();
  }
}
