/**
 * `hsds sources [--json]`: each source's quality and freshness (src/ingest/maintenance/source-quality.ts), as
 * GET /admin/sources answers it.
 */
import { parseArgs } from 'node:util';
import { formatSourceQuality, sourceQuality } from '../ingest/index.ts';
import { openRuntime } from './runtime.ts';

const usage = `usage: hsds sources [--json]

  For each source (--source NAME of its imports, else the path or URL): its last import (time,
  state, records kept, repaired, rejected), its records by type, its services by the age of
  last_modified and assured_date, and the share of its services with a phone, an e-mail, opening
  times, a located address and a service area.
  --json  print it as JSON`;

export async function run(args: string[]): Promise<number> {
  const { values } = parseArgs({
    args,
    options: { json: { type: 'boolean', default: false }, help: { type: 'boolean', default: false } },
  });
  if (values.help) {
    console.error(usage);
    return 0;
  }
  const runtime = await openRuntime({ startLocalEngine: true, loggerName: 'hsds-sources' });
  try {
    const sources = await sourceQuality(runtime.engine);
    console.log(values.json ? JSON.stringify({ sources }, null, 2) : formatSourceQuality(sources));
    return 0;
  } finally {
    await runtime.engine.close();
  }
}
