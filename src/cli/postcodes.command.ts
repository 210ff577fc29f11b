import { statSync } from 'node:fs';
import { parseArgs } from 'node:util';
import cliProgress from 'cli-progress';
import { importPostcodeCsv } from '../ingest/index.ts';
import { openRuntime } from './runtime.ts';

const usage = 'usage: hsds postcodes import <csv> [--include-terminated] [--append]';

export async function run(args: string[]): Promise<number> {
  const { positionals, values } = parseArgs({
    args,
    allowPositionals: true,
    options: {
      'include-terminated': { type: 'boolean', default: false },
      append: { type: 'boolean', default: false },
      help: { type: 'boolean', default: false },
    },
  });
  const [sub, path] = positionals;
  if (values.help || sub !== 'import' || !path) {
    console.error(usage);
    return values.help ? 0 : 2;
  }
  const size = statSync(path).size;
  const runtime = await openRuntime({ startLocalEngine: true, loggerName: 'hsds-postcodes' });
  const bar = new cliProgress.SingleBar(
    { format: 'postcodes |{bar}| {percentage}% | {value}/{total} MB | eta {eta}s', etaBuffer: 50 },
    cliProgress.Presets.shades_classic,
  );
  const mb = (bytes: number) => Math.round(bytes / 1e5) / 10;
  bar.start(mb(size), 0);
  try {
    const summary = await importPostcodeCsv(runtime.engine, path, {
      includeTerminated: values['include-terminated'],
      append: values.append,
      onBytes: (bytes) => bar.update(mb(bytes)),
    });
    bar.update(mb(size));
    bar.stop();
    const skipped = Object.entries(summary.skipped)
      .map(([reason, n]) => `${reason} ${n}`)
      .join(', ');
    console.log(
      `Imported ${summary.imported} postcodes and ${summary.outcodes} outcode centroids from ${summary.rows} rows ` +
        `in ${summary.seconds.toFixed(1)} s into ${summary.index}.\nSkipped: ${skipped}.`,
    );
    return 0;
  } catch (error) {
    bar.stop();
    console.error(`postcode import failed; the served postcodes are unchanged: ${(error as Error).message}`);
    return 1;
  } finally {
    await runtime.engine.close();
  }
}
