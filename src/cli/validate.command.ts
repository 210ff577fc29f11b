/**
 * `hsds validate <file|folder|url>`: what an import of it would keep, repair and reject, without
 * writing anything (src/ingest/validate); for a remote HSDS API, a conformance summary of its
 * endpoints too. Needs no engine. The exit code is the verdict (EXIT_CODES), so a publisher's CI
 * can tell a feed that needs repairs from one that is valid as published; 2 is a usage error.
 */
import { writeFile } from 'node:fs/promises';
import { parseArgs } from 'node:util';
import { configSchema } from '../config.ts';
import { formatValidationReport, type ValidationReport, validateLocation } from '../ingest/index.ts';

/** One exit code per verdict; 2 stays the usage error, as for every command. */
export const EXIT_CODES: Record<ValidationReport['verdict'], number> = {
  valid: 0,
  'not-importable': 1,
  'importable-with-repairs': 3,
};

const usage = `usage: hsds validate <file|folder|url> [--strict] [--json] [--report FILE]

  Reads HSDS JSON or NDJSON (a file or a folder), a tabular data package, or a remote HSDS API, as
  an import would, and says per record type what an import would keep (of which repaired) and
  reject, with each issue (source, record, field path, value found, reason). Writes nothing and
  needs no engine. For a URL, also checks the API's endpoints against the HSDS 3.1 API reference.
  --strict        validate as published: no repairs (what a publisher should check)
  --json          print the whole answer as JSON
  --report FILE   write the whole answer as JSON to FILE
  --max-issues N  issues listed in the answer (all are counted; default 1000)
  The verdict, and the exit code:
    0  valid as published: every record kept as it is (and for a URL every required endpoint conforms)
    3  importable with repairs: every record kept, some only after a repair (how many, which, why)
    1  not importable: records would be rejected, an error, or a required endpoint does not conform
    2  usage error`;

export async function run(args: string[]): Promise<number> {
  const { values, positionals } = parseArgs({
    args,
    allowPositionals: true,
    options: {
      strict: { type: 'boolean', default: false },
      json: { type: 'boolean', default: false },
      report: { type: 'string' },
      'max-issues': { type: 'string' },
      help: { type: 'boolean', default: false },
    },
  });
  if (values.help) {
    console.error(usage);
    return 0;
  }
  const [location] = positionals;
  const maxIssues = values['max-issues'] === undefined ? undefined : Number(values['max-issues']);
  if (!location || positionals.length > 1 || (maxIssues !== undefined && !(maxIssues >= 0))) {
    console.error(usage);
    return 2;
  }
  // The operator's own command: any address it can reach, its own network included.
  // Needs no engine, so not the whole configuration: only what an import would assume.
  const defaultCountry = configSchema.shape.DEFAULT_COUNTRY.safeParse(process.env.DEFAULT_COUNTRY).data;
  const report = await validateLocation(location, {
    strict: values.strict,
    ...(defaultCountry ? { defaultCountry } : {}),
    remote: 'any',
    ...(maxIssues !== undefined ? { maxIssues } : {}),
  });
  if (values.report) await writeFile(values.report, `${JSON.stringify(report, null, 2)}\n`);
  console.log(values.json ? JSON.stringify(report, null, 2) : formatValidationReport(report));
  return EXIT_CODES[report.verdict];
}
