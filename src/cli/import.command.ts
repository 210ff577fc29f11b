/**
 * `hsds import <file|dir|url> [--no-reindex] [--strict] [--report FILE]`: import HSDS JSON, a
 * tabular data package or a remote HSDS API into the records store, then rebuild the read indices.
 * The import's summary is printed before the reindex starts, so a failing reindex cannot hide it.
 */
import { parseArgs } from 'node:util';
import { formatImportSummary } from '../ingest/import-report.ts';
import { importAndReindex } from '../ingest/pipeline.ts';
import { formatReindexSummary } from '../ingest/reindex-summary.ts';
import { openRuntime } from './runtime.ts';

const usage = `usage: hsds import <file|dir|url> [--no-reindex] [--strict] [--report FILE] [--quiet]

  <file|dir>   HSDS JSON (array, NDJSON or Page of nested services; organizations with services;
               taxonomies.json, taxonomy_terms.json), or a tabular data package (datapackage.json
               and one CSV per table)
  <url>        the base URL of a remote HSDS API: every service, taxonomies and terms are harvested
  --no-reindex   leave the read indices as they are (run \`hsds reindex\` later)
  --strict       validate records as published: no repairs, an invalid optional field rejects
                 its record (for publishers checking their own feed)
  --report FILE  where the full JSON report goes (default reports/import-<time>.json)
  --quiet        no progress bars`;

export async function run(args: string[]): Promise<number> {
  const { values, positionals } = parseArgs({
    args,
    allowPositionals: true,
    options: {
      'no-reindex': { type: 'boolean', default: false },
      strict: { type: 'boolean', default: false },
      report: { type: 'string' },
      quiet: { type: 'boolean', default: false },
      help: { type: 'boolean', default: false },
    },
  });
  const [location] = positionals;
  if (values.help || !location || positionals.length > 1) {
    console.error(usage);
    return values.help ? 0 : 2;
  }
  const reportFile =
    values.report ?? `reports/import-${new Date().toISOString().replace(/[:.]/g, '-').slice(0, 19)}.json`;
  const runtime = await openRuntime({ startLocalEngine: true, loggerName: 'hsds-import' });
  const controller = new AbortController();
  const stop = () => controller.abort(new Error('interrupted'));
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
  try {
    const result = await importAndReindex(runtime.engine, location, {
      reportFile,
      reindex: !values['no-reindex'],
      strict: values.strict,
      progress: !values.quiet,
      signal: controller.signal,
      onImported: (imported) => {
        console.log(formatImportSummary(imported.summary, imported.firstIssues, imported.reportFile));
        if (!values['no-reindex']) console.log('\nRebuilding the read indices...');
      },
    });
    if (result.reindex) console.log(`\n${formatReindexSummary(result.reindex)}`);
    else console.log('\nRead indices not rebuilt (--no-reindex); run `hsds reindex` to publish the import.');
    return result.import.summary.records === 0 && result.import.summary.items > 0 ? 1 : 0;
  } finally {
    process.off('SIGINT', stop);
    process.off('SIGTERM', stop);
    await runtime.engine.close();
    if (runtime.startedLocalEngine)
      console.error('The local engine keeps running; stop it with `npm run engine:stop`.');
  }
}
