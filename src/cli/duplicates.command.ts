/**
 * `hsds duplicates`: records two sources publish under different ids, with a score and the
 * evidence (as GET /admin/duplicates); `mark`, `unmark` and `marks` as /admin/duplicates/marks.
 */
import { parseArgs } from 'node:util';
import {
  DUPLICATE_TYPES,
  type DuplicatePair,
  type DuplicateType,
  findDuplicates,
  listDuplicateMarks,
  MarkError,
  markDuplicates,
  unmarkDuplicates,
} from '../duplicates/index.ts';
import { openRuntime } from './runtime.ts';

const usage = `usage: hsds duplicates [--type T] [--threshold N] [--limit N] [--json]
       hsds duplicates mark --type T --same KEEP OTHER | --distinct A B
       hsds duplicates unmark --type T A B
       hsds duplicates marks [--type T] [--json]

  Lists the services, organizations and locations (--type one of them) that two sources publish
  under different ids: pairs scored from 0 to 1 on name similarity, postcode, address line, phone
  digits, e-mail and website host, best first, with the evidence; pairs scoring --threshold (0.6)
  or more are listed, at most --limit (1000).
  mark --same KEEP OTHER   serve KEEP only: OTHER leaves lists and searches, and its {id} URL
                           answers 301 to KEEP's (services, organizations)
  mark --distinct A B      not duplicates: no longer listed
  unmark A B               undo a mark (a merged record is served again)
  Marks are kept in the engine apart from the records: imports and reindexes keep them.`;

const isType = (value: string | undefined): value is DuplicateType =>
  (DUPLICATE_TYPES as readonly string[]).includes(value ?? '');

function formatPair(pair: DuplicatePair): string {
  const [a, b] = pair.records;
  const lines = [
    `${pair.type} ${pair.score.toFixed(2)}  ${a?.id} (${a?.sources.join(', ')})  ${b?.id} (${b?.sources.join(', ')})`,
  ];
  for (const e of pair.evidence) {
    const sim = e.similarity === undefined ? '' : ` ${e.similarity.toFixed(2)}`;
    lines.push(
      `    ${e.field.padEnd(8)} ${e.outcome}${sim} (${e.weight >= 0 ? '+' : ''}${e.weight.toFixed(2)}): ${e.a.join(', ')} | ${e.b.join(', ')}`,
    );
  }
  return lines.join('\n');
}

export async function run(args: string[]): Promise<number> {
  const { values, positionals } = parseArgs({
    args,
    allowPositionals: true,
    options: {
      type: { type: 'string' },
      threshold: { type: 'string' },
      limit: { type: 'string' },
      same: { type: 'boolean', default: false },
      distinct: { type: 'boolean', default: false },
      json: { type: 'boolean', default: false },
      help: { type: 'boolean', default: false },
    },
  });
  if (values.help) {
    console.error(usage);
    return 0;
  }
  const [action, ...ids] = positionals;
  if (values.type !== undefined && !isType(values.type)) {
    console.error(`--type: one of ${DUPLICATE_TYPES.join(', ')}\n\n${usage}`);
    return 2;
  }
  const type = values.type as DuplicateType | undefined;
  const pair = (): [string, string] | undefined =>
    ids.length === 2 && ids[0] && ids[1] ? [ids[0], ids[1]] : undefined;
  if ((action === 'mark' || action === 'unmark') && (!type || !pair())) {
    console.error(`${action} needs --type and two ids\n\n${usage}`);
    return 2;
  }
  if (action === 'mark' && values.same === values.distinct) {
    console.error(`mark needs one of --same, --distinct\n\n${usage}`);
    return 2;
  }
  if (action !== undefined && !['mark', 'unmark', 'marks'].includes(action)) {
    console.error(`unknown duplicates action '${action}'\n\n${usage}`);
    return 2;
  }

  const runtime = await openRuntime({ startLocalEngine: true, loggerName: 'hsds-duplicates' });
  const { engine } = runtime;
  try {
    if (action === 'mark') {
      const [a, b] = pair()!;
      const mark = await markDuplicates(engine, {
        type: type!,
        ids: [a, b],
        decision: values.same ? 'same' : 'distinct',
        ...(values.same ? { keep: a } : {}),
        by: 'cli',
      });
      console.log(
        mark.decision === 'same'
          ? `marked: ${type} ${mark.merged} is served as ${mark.keep}`
          : `marked: ${type} ${a} and ${b} are distinct`,
      );
      return 0;
    }
    if (action === 'unmark') {
      const removed = await unmarkDuplicates(engine, type!, pair()!);
      console.log(removed ? `unmarked: ${removed.key} (was ${removed.decision})` : 'that pair has no mark');
      return removed ? 0 : 1;
    }
    if (action === 'marks') {
      const marks = await listDuplicateMarks(engine, type);
      if (values.json) console.log(JSON.stringify({ marks }, null, 2));
      else {
        for (const m of marks) {
          console.log(
            `${m.type} ${m.decision.padEnd(8)} ${m.ids.join(' ')}${m.keep ? `  kept ${m.keep}` : ''}  ${m.marked_at}`,
          );
        }
        console.log(`${marks.length} mark(s)`);
      }
      return 0;
    }
    const report = await findDuplicates(engine, {
      ...(type ? { types: [type] } : {}),
      ...(values.threshold ? { threshold: Number(values.threshold) } : {}),
      limit: values.limit ? Number(values.limit) : 1000,
    });
    if (values.json) {
      console.log(JSON.stringify(report, null, 2));
      return 0;
    }
    for (const pairFound of report.pairs) console.log(formatPair(pairFound));
    const counts = Object.entries(report.counts)
      .map(([t, c]) => `${t}: ${c.records} records, ${c.compared} pairs compared, ${c.listed} listed`)
      .join('; ');
    console.log(`${report.pairs.length} pair(s) at ${report.threshold} or more. ${counts}`);
    return 0;
  } catch (error) {
    if (error instanceof MarkError) {
      console.error(error.message);
      return error.status === 404 ? 1 : 2;
    }
    throw error;
  } finally {
    await engine.close();
  }
}
