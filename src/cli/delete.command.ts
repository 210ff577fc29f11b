/**
 * `hsds delete <type> <id>...`: deletes records from the store, with what each deletion takes
 * (src/ingest/records/deletion.ts), and publishes the deletion: gone from every read index and every
 * document that nested them, and in the change feed as tombstones.
 */
import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { isRecordType } from '../hsds/index.ts';
import { parseRecordKey } from '../index-mapping/ids.ts';
import {
  deleteRecords,
  deleteSource,
  formatPublishSummary,
  formatReindexSummary,
  isUrl,
} from '../ingest/index.ts';
import { openRuntime } from './runtime.ts';

const usage = `usage: hsds delete <type> <id> [<id>...] [--dry-run]
       hsds delete --source NAME [--dry-run]

  Deletes the records and publishes the deletion. What a deletion takes with it:
  - any record: the child records that nest under nothing else (a service's phones, schedules,
    service_at_locations, contacts, service areas...);
  - an organization: its services too, and its locations, programs, contacts...;
  - a location: the service_at_locations at it (their services stay);
  - a taxonomy: its terms; a taxonomy term: the attributes that link records to it.
  <type>     service, organization, location, service_at_location, taxonomy, taxonomy_term, ...
  --source   delete a source whole, as --sync would: every record it provided that no other source
             provides (NAME as imported with --source, else the file's path or the URL)
  --dry-run  list what would be deleted, change nothing`;

export async function run(args: string[]): Promise<number> {
  const { values, positionals } = parseArgs({
    args,
    allowPositionals: true,
    options: {
      'dry-run': { type: 'boolean', default: false },
      source: { type: 'string' },
      help: { type: 'boolean', default: false },
    },
  });
  if (values.source !== undefined && !values.help) {
    if (positionals.length > 0) {
      console.error(usage);
      return 2;
    }
    return runDeleteSource(values.source, values['dry-run']);
  }
  const [type, ...ids] = positionals;
  if (values.help || !type || ids.length === 0) {
    console.error(usage);
    return values.help ? 0 : 2;
  }
  if (!isRecordType(type)) {
    console.error(`${type}: not an HSDS record type\n\n${usage}`);
    return 2;
  }
  const runtime = await openRuntime({ startLocalEngine: true, loggerName: 'hsds-delete' });
  try {
    const result = await deleteRecords(
      runtime.engine,
      ids.map((id) => ({ type, id })),
      { dryRun: values['dry-run'] },
    );
    for (const ref of result.missing) console.error(`${ref.type} ${ref.id}: not in the records store`);
    const byType = new Map<string, number>();
    for (const key of result.keys) {
      const t = parseRecordKey(key).type;
      byType.set(t, (byType.get(t) ?? 0) + 1);
    }
    const what = [...byType].map(([t, n]) => `${n} ${t}`).join(', ');
    console.log(
      `${values['dry-run'] ? 'Would delete' : 'Deleted'} ${result.keys.size} records${what ? `: ${what}` : ''}`,
    );
    if (result.publish) console.log(formatPublishSummary(result.publish));
    if (result.reindex) console.log(formatReindexSummary(result.reindex));
    return result.missing.length > 0 ? 1 : 0;
  } finally {
    await runtime.engine.close();
  }
}

async function runDeleteSource(name: string, dryRun: boolean): Promise<number> {
  const runtime = await openRuntime({ startLocalEngine: true, loggerName: 'hsds-delete' });
  try {
    // A source imported without --source is named by its absolute path.
    const names = isUrl(name) || resolve(name) === name ? [name] : [name, resolve(name)];
    for (const candidate of names) {
      const result = await deleteSource(runtime.engine, candidate, { dryRun });
      if (result.documents === 0) continue;
      console.log(
        `${dryRun ? 'Would delete' : 'Deleted'} source ${candidate}: ${result.removed.size} records` +
          (result.kept > 0 ? ` (${result.kept} kept: another source provides them)` : ''),
      );
      if (result.publish) console.log(formatPublishSummary(result.publish));
      if (result.reindex) console.log(formatReindexSummary(result.reindex));
      return 0;
    }
    console.error(`${name}: no record in the store was provided by this source`);
    return 1;
  } finally {
    await runtime.engine.close();
  }
}
