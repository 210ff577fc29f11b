/**
 * `hsds publish`: completes publishes that were interrupted (a killed import or delete leaves its
 * changes logged as pending in the control index) by publishing those changes to the read indices.
 */
import { parseArgs } from 'node:util';
import { formatPublishSummary, publishChanges, serveTaxonomySynonyms } from '../ingest/index.ts';
import { openRuntime } from './runtime.ts';

const usage = `usage: hsds publish

  Publishes the changes that an interrupted import, sync or delete stored but did not publish
  (any later import or delete does the same on its way).`;

export async function run(args: string[]): Promise<number> {
  const { values } = parseArgs({ args, options: { help: { type: 'boolean', default: false } } });
  if (values.help) {
    console.error(usage);
    return 0;
  }
  const runtime = await openRuntime({ startLocalEngine: true, loggerName: 'hsds-publish' });
  try {
    const report = await publishChanges(runtime.engine, []);
    // What was left may hold changed taxonomy terms, and so changed synonyms.
    if (report.changed_records > 0) await serveTaxonomySynonyms(runtime.engine);
    console.log(report.changed_records === 0 ? 'Nothing was left to publish.' : formatPublishSummary(report));
    return 0;
  } finally {
    await runtime.engine.close();
  }
}
