/**
 * `hsds publish`: completes publishes that were interrupted (a killed import or delete leaves its
 * changes logged as pending in the control index) by publishing those changes to the read indices.
 */
import { parseArgs } from 'node:util';
import {
  completeInterruptedWrites,
  formatPublishSummary,
  publishChanges,
  serveTaxonomySynonyms,
} from '../ingest/index.ts';
import { openRuntime } from './runtime.ts';

const usage = `usage: hsds publish

  Publishes the changes that an interrupted import, sync or delete stored but did not publish
  (any later import or delete does the same on its way), and writes the audit entries of API
  writes that were interrupted before their audit (any later write does the same).`;

export async function run(args: string[]): Promise<number> {
  const { values } = parseArgs({ args, options: { help: { type: 'boolean', default: false } } });
  if (values.help) {
    console.error(usage);
    return 0;
  }
  const runtime = await openRuntime({ startLocalEngine: true, loggerName: 'hsds-publish' });
  try {
    const report = await publishChanges(runtime.engine, []);
    // And audits the writes a killed API process left unaudited (src/ingest/write/write.ts). A server
    // busy writing does it itself before its next write: then this one has nothing to add.
    await completeInterruptedWrites(runtime.engine).catch((error: unknown) =>
      console.error(
        `The audit of interrupted writes was left to the next write: ${error instanceof Error ? error.message : String(error)}`,
      ),
    );
    // What was left may hold changed taxonomy terms, and so changed synonyms.
    if (report.changed_records > 0) await serveTaxonomySynonyms(runtime.engine);
    console.log(report.changed_records === 0 ? 'Nothing was left to publish.' : formatPublishSummary(report));
    return 0;
  } finally {
    await runtime.engine.close();
  }
}
