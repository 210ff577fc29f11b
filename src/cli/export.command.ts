/**
 * `hsds export --format datapackage|json|ndjson --out DIR`: the served directory written as an
 * HSDS 3.1 tabular data package or as nested JSON / NDJSON (src/ingest/export), which
 * `hsds import DIR` reads back.
 */
import { parseArgs } from 'node:util';
import { EXPORT_FORMATS, type ExportFormat, exportDirectory } from '../ingest/index.ts';
import { openRuntime } from './runtime.ts';

const usage = `usage: hsds export --format datapackage|json|ndjson --out DIR

  Writes every record the directory serves to DIR:
  datapackage  an HSDS 3.1 tabular data package: the official datapackage.json and one CSV a table
  json         nested HSDS JSON as the API serves it: services.json, organizations.json,
               taxonomies.json, taxonomy_terms.json
  ndjson       the same, one record a line (services.ndjson...)
  \`hsds import DIR\` reads any of them back.`;

export async function run(args: string[]): Promise<number> {
  const { values } = parseArgs({
    args,
    options: {
      format: { type: 'string', default: 'datapackage' },
      out: { type: 'string' },
      help: { type: 'boolean', default: false },
    },
  });
  if (values.help) {
    console.error(usage);
    return 0;
  }
  if (!values.out || !EXPORT_FORMATS.includes(values.format as ExportFormat)) {
    console.error(usage);
    return 2;
  }
  const runtime = await openRuntime({ startLocalEngine: true, loggerName: 'hsds-export' });
  try {
    const summary = await exportDirectory(runtime.engine, {
      format: values.format as ExportFormat,
      out: values.out,
    });
    const written = Object.entries(summary.files).filter(([, n]) => n > 0);
    console.log(
      `Exported ${Object.values(summary.records).reduce((a, b) => a + b, 0)} records as ${summary.format} to ${summary.out}:`,
    );
    for (const [file, n] of written) console.log(`  ${file.padEnd(34)}${String(n).padStart(8)}`);
    return 0;
  } finally {
    await runtime.engine.close();
  }
}
