/**
 * `hsds import <file|dir|url> [--source NAME] [--sync] [--since TIME|last] [--no-reindex] [--strict]
 * [--report FILE]`: import HSDS JSON, a tabular data package or a remote HSDS API into the records
 * store, then publish what changed (or rebuild the read indices on a first load). The import's
 * summary is printed before publishing starts, so a failing publish cannot hide it; a one-line
 * verdict ends the run, its exit code the same verdict (import-verdict.ts), as `hsds validate` does.
 */
import { parseArgs } from 'node:util';
import { lastCompleteImport } from '../engine/control.ts';
import {
  formatImportSummary,
  formatPublishSummary,
  formatReindexSummary,
  importAndReindex,
  isUrl,
} from '../ingest/index.ts';
import { formatImportVerdict, IMPORT_EXIT_CODES, importVerdict } from './import-verdict.ts';
import { openRuntime } from './runtime.ts';

const usage = `usage: hsds import <file|dir|url> [--source NAME] [--sync] [--since TIME|last]
                   [--no-reindex] [--strict] [--report FILE] [--quiet]

  <file|dir>   HSDS JSON (array, NDJSON or Page of nested services; organizations with services;
               taxonomies.json, taxonomy_terms.json), or a tabular data package (datapackage.json
               and one CSV per table)
  <url>        the base URL of a remote HSDS API: every service, taxonomies and terms are harvested
  --source NAME  the feed's name (default: the file's absolute path, or the URL); --sync and
                 --since last go by it
  --sync         delete what this source provided before and no longer does (unless another
                 source still provides it); skipped when the source brings no valid record
  --since TIME   harvest only what changed since TIME (ISO 8601), with deletions, from a server that
                 offers include_deleted (this one does); \`last\`: since the last complete import of
                 this source. Against a server without it, a full harvest with --sync.
  --no-reindex   leave the read indices as they are (run \`hsds publish\` or \`hsds reindex\` later)
  --strict       validate records as published: no repairs, an invalid optional field rejects
                 its record (for publishers checking their own feed)
  --report FILE  where the full JSON report goes (default reports/import-<time>.json)
  --quiet        no progress bars
  It ends with a one-line verdict, and the exit code says the same:
    0  imported as published, or imported with repairs: every record kept (the report says which repairs)
    3  imported, some records rejected: the good records are kept and published; the report says
       which were rejected and why
    1  not imported: the source had items and none could be kept, or the import or publish failed
    2  usage error`;

export async function run(args: string[]): Promise<number> {
  const { values, positionals } = parseArgs({
    args,
    allowPositionals: true,
    options: {
      'no-reindex': { type: 'boolean', default: false },
      strict: { type: 'boolean', default: false },
      sync: { type: 'boolean', default: false },
      source: { type: 'string' },
      since: { type: 'string' },
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
  if (values.since !== undefined && !isUrl(location)) {
    console.error('--since applies to a remote HSDS API (a URL) only');
    return 2;
  }
  if (values.since !== undefined && values.since !== 'last' && Number.isNaN(Date.parse(values.since))) {
    console.error(`--since ${values.since}: not a date-time (ISO 8601) nor "last"`);
    return 2;
  }
  const reportFile =
    values.report ?? `reports/import-${new Date().toISOString().replace(/[:.]/g, '-').slice(0, 19)}.json`;
  const runtime = await openRuntime({ startLocalEngine: true, loggerName: 'hsds-import' });
  const controller = new AbortController();
  const stop = () => controller.abort(new Error('interrupted'));
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
  try {
    let since = values.since;
    if (since === 'last') {
      const last = await lastCompleteImport(runtime.engine, values.source ?? location);
      since = last?.started_at;
      console.log(
        since
          ? `Harvesting what changed since ${since} (the last complete import of this source)`
          : 'No complete import of this source yet: harvesting everything',
      );
    }
    const result = await importAndReindex(runtime.engine, location, {
      reportFile,
      reindex: !values['no-reindex'],
      strict: values.strict,
      sync: values.sync,
      ...(runtime.config.DEFAULT_COUNTRY ? { defaultCountry: runtime.config.DEFAULT_COUNTRY } : {}),
      ...(values.source ? { sourceName: values.source } : {}),
      ...(since ? { harvest: { since } } : {}),
      progress: !values.quiet,
      signal: controller.signal,
      onImported: (imported) => {
        console.log(formatImportSummary(imported.summary, imported.firstIssues, imported.reportFile));
        if (!values['no-reindex']) console.log('\nPublishing...');
      },
    });
    if (result.publish) console.log(`\n${formatPublishSummary(result.publish)}`);
    else if (result.reindex) console.log(`\n${formatReindexSummary(result.reindex)}`);
    else
      console.log(
        '\nNot published (--no-reindex); run `hsds publish` or `hsds reindex` to publish the import.',
      );
    const { summary } = result.import;
    console.log(`\n${formatImportVerdict(summary, result.import.reportFile)}`);
    return IMPORT_EXIT_CODES[importVerdict(summary)];
  } finally {
    process.off('SIGINT', stop);
    process.off('SIGTERM', stop);
    await runtime.engine.close();
    if (runtime.startedLocalEngine)
      console.error('The local engine keeps running; stop it with `npm run engine:stop`.');
  }
}
