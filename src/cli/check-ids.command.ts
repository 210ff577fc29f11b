/**
 * `hsds check-ids [--fix]`: the one-off check of a records store written before ids were stored in
 * lower case (src/ingest/maintenance/id-case.ts): lists the records whose id, or a reference to one, is in
 * upper or mixed case, and the ids stored in two cases; `--fix` stores them again in lower case.
 */
import { parseArgs } from 'node:util';
import { checkIdCase, fixIdCase, formatIdCaseReport } from '../ingest/index.ts';
import { openRuntime } from './runtime.ts';

const usage = `usage: hsds check-ids [--fix] [--json]

  Reads the whole records store and lists the records whose id, or a reference to another record,
  is not in lower case, and the ids stored in two cases (two records for one id). Every write path
  stores ids in lower case; a store written by an earlier version may hold others.
  --fix   store each of them again with lower-case ids and references (as an import would) and
          delete the record under the old case; of an id stored in two cases, the copy written
          last is kept. Published like an import.
  --json  print the findings as JSON
  Exits 1 when something was found (and not fixed), else 0.`;

export async function run(args: string[]): Promise<number> {
  const { values } = parseArgs({
    args,
    options: {
      fix: { type: 'boolean', default: false },
      json: { type: 'boolean', default: false },
      help: { type: 'boolean', default: false },
    },
  });
  if (values.help) {
    console.error(usage);
    return 0;
  }
  const runtime = await openRuntime({ startLocalEngine: true, loggerName: 'hsds-check-ids' });
  try {
    const report = values.fix ? await fixIdCase(runtime.engine) : await checkIdCase(runtime.engine);
    console.log(values.json ? JSON.stringify(report, null, 2) : formatIdCaseReport(report));
    return report.findings.length > 0 && !values.fix ? 1 : 0;
  } finally {
    await runtime.engine.close();
  }
}
