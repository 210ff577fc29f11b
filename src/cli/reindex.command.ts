/** `hsds reindex [--rollback]`: rebuild the read indices from hsds-records and swap aliases at once. */
import { parseArgs } from 'node:util';
import { acquireLease } from '../engine/control.ts';
import { rollbackAliases } from '../engine/indices.ts';
import { formatReindexSummary, reindexWithProgress } from '../ingest/index.ts';
import { openRuntime } from './runtime.ts';

const usage = `usage: hsds reindex [--quiet] [--rollback] [--allow-incomplete]

  Rebuilds services, service_at_locations, organizations, taxonomies and taxonomy_terms from the
  records store into new versioned indices and swaps every alias in one atomic request. Readers
  see the old data until the swap; a failed reindex changes nothing.
  One reindex runs at a time across every process sharing the engine; a second one is refused.
  A reindex refuses to publish while an import runs, or after one was killed or failed part-way.
  --rollback           serve the previous version again instead (the one the last swap replaced)
  --allow-incomplete   publish what the store holds even though an import did not finish`;

export async function run(args: string[]): Promise<number> {
  const { values } = parseArgs({
    args,
    options: {
      quiet: { type: 'boolean', default: false },
      rollback: { type: 'boolean', default: false },
      'allow-incomplete': { type: 'boolean', default: false },
      help: { type: 'boolean', default: false },
    },
  });
  if (values.help) {
    console.error(usage);
    return 0;
  }
  const runtime = await openRuntime({ startLocalEngine: true, loggerName: 'hsds-reindex' });
  const controller = new AbortController();
  const stop = () => controller.abort(new Error('interrupted'));
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
  try {
    if (values.rollback) {
      // Under the reindex lease: a build another process is about to swap in must not race it.
      const lease = await acquireLease(runtime.engine, 'reindex', { purpose: 'hsds reindex --rollback' });
      try {
        const served = await rollbackAliases(runtime.engine);
        console.log(`Rolled back: the aliases now serve ${Object.values(served).join(', ')}`);
      } finally {
        await lease.release();
      }
      return 0;
    }
    const report = await reindexWithProgress(runtime.engine, {
      progress: !values.quiet,
      signal: controller.signal,
      allowIncomplete: values['allow-incomplete'],
    });
    console.log(formatReindexSummary(report));
    return 0;
  } finally {
    process.off('SIGINT', stop);
    process.off('SIGTERM', stop);
    await runtime.engine.close();
  }
}
