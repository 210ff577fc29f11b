/**
 * `npm run bench:realdata [-- --feed miami --feed dc] [--open-at 2026-12-09T12:00]`
 *
 * What real directories keep through an import (issue 50): each real feed present is imported
 * under its own index prefix by the import an operator runs (`importAndReindex`, as `hsds
 * import`), and every kind of fact people use (services, organizations, locations, addresses,
 * schedules and those with an opening time, phones, languages, taxonomy links, contacts, service
 * areas, eligibility, ages, URLs, extensions, the publisher's modified dates) is counted twice by the same rules
 * (lib/realdata-facts.ts): in the source as the publisher meant it, read straight from its files
 * (csv-parse, JSON.parse; none of the import's leniency), and in the records store afterwards.
 * Printed per feed: kind | source | kept | repaired | dropped | kept %, with the import report's
 * reasons for what was dropped; the placeholder organizations the import made up; the share of
 * services that `open_at` a weekday noon finds (the API built in-process, the feed's time zone as
 * DIRECTORY_TIMEZONE; the next Wednesday unless --open-at); what `language=` finds for the
 * feed's most common language against the services the source says speak it; and the text
 * values with mojibake (UTF-8 read as CP437/CP1252) in the source and in the store.
 *
 * The feeds, under BENCH_REALDATA_DIR (default bench/.data/realdata, git-ignored). Their licence
 * is unknown: fetch them for development only and NEVER commit them (nor copy them into test/;
 * tests use small fixtures of their own). A feed absent is skipped with a message, so CI, which
 * has none, runs this and exits 0.
 *   miami/        openreferral/open211-miami-data-api @25487cb:
 *                 lib/datapackage/datapackage-1566177582.zip, unzipped (datapackage.json + data/*.csv)
 *   orservices/   sarapis/orservices @ee3d8dc: public/HSDS/data/datapackage/*.csv (DC; no descriptor)
 *   oruk/bristol.json, oruk/north-lincolnshire.json
 *                 AaronJY/fh-or-tester @98f87f2: data/Bristol Council.json and
 *                 data/North Lincolnshire Council.json, each page's items concatenated in one array
 *   brevard/organization_*.json
 *                 stevensblueprint/hsds-transformer @aedea97: output/organization_*.json
 *
 * Engine: OPENSEARCH_URL, else the local engine on ENGINE_PORT (default 9200), started if needed.
 * Prefixes `${BENCH_PREFIX:-bench-realdata}-<feed>`, dropped at the end unless BENCH_KEEP=1.
 * Results: printed, and written as JSON to bench/results/ with each import's report (git-ignored).
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { basename, join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { parse } from 'csv-parse/sync';
import pino from 'pino';
import { createApp } from '../src/api/app.ts';
import { createGeocoder } from '../src/api/lists/geocoding.ts';
import { readAllRecords } from '../src/engine/records.ts';
import type { ImportSummary } from '../src/ingest/import/import-report.ts';
import { PLACEHOLDER_ORGANIZATION_NAME } from '../src/ingest/import/placeholder-organizations.ts';
import { importAndReindex } from '../src/ingest/publish/pipeline.ts';
import { dropIndices, openBenchEngine, serverEngine } from './lib/bench-engine.ts';
import {
  countNestedFacts,
  countStoredFacts,
  countTabularFacts,
  FACT_KINDS,
  type FactKind,
  type FactTally,
  RECORD_TYPE_OF,
  type StoredTally,
} from './lib/realdata-facts.ts';
import { formatTable, writeResults } from './lib/results.ts';

const { values } = parseArgs({
  options: {
    /** Only these feeds (by name: miami, dc, bristol, north-lincolnshire, brevard). */
    feed: { type: 'string', multiple: true },
    /** The instant `open_at` is asked, local to each feed (default: the next Wednesday, 12:00). */
    'open-at': { type: 'string' },
  },
});

type Feed = {
  name: string;
  /** What is imported: a folder or a file under the data folder. */
  path: string;
  format: 'tabular' | 'nested';
  /** The files of a nested feed (default: the path itself). */
  files?: (dir: string) => string[];
  timezone: string;
};

const FEEDS: Feed[] = [
  { name: 'miami', path: 'miami', format: 'tabular', timezone: 'America/New_York' },
  { name: 'dc', path: 'orservices', format: 'tabular', timezone: 'America/New_York' },
  { name: 'bristol', path: 'oruk/bristol.json', format: 'nested', timezone: 'Europe/London' },
  {
    name: 'north-lincolnshire',
    path: 'oruk/north-lincolnshire.json',
    format: 'nested',
    timezone: 'Europe/London',
  },
  {
    name: 'brevard',
    path: 'brevard',
    format: 'nested',
    files: (dir) =>
      readdirSync(dir)
        .filter((f) => /^organization_.*\.json$/.test(f))
        .map((f) => join(dir, f)),
    timezone: 'America/New_York',
  },
];

const DATA_DIR = resolve(
  process.env.BENCH_REALDATA_DIR ?? new URL('.data/realdata/', import.meta.url).pathname,
);
const PREFIX = process.env.BENCH_PREFIX ?? 'bench-realdata';
const log = (line: string) => console.error(line);

/** Every CSV of a tabular feed (beside it or in `data/`), by table name, as the publisher wrote it. */
function readTables(dir: string): Record<string, Record<string, string>[]> {
  const tables: Record<string, Record<string, string>[]> = {};
  const visit = (folder: string) => {
    for (const entry of readdirSync(folder)) {
      const path = join(folder, entry);
      if (statSync(path).isDirectory()) visit(path);
      else if (entry.endsWith('.csv')) {
        const options = {
          columns: true,
          bom: true,
          skip_empty_lines: true,
          relax_column_count: true,
        } as const;
        const input = readFileSync(path);
        let rows: Record<string, string>[];
        try {
          rows = parse(input, options);
        } catch {
          rows = parse(input, { ...options, relax_quotes: true });
        }
        tables[basename(entry, '.csv')] = rows;
      }
    }
  };
  visit(dir);
  return tables;
}

function countSource(feed: Feed, location: string): FactTally {
  if (feed.format === 'tabular') return countTabularFacts(readTables(location));
  const files = feed.files ? feed.files(location) : [location];
  return countNestedFacts(files.map((file) => JSON.parse(readFileSync(file, 'utf8')) as unknown));
}

/** The next Wednesday (after today), 12:00, written without an offset: local to the feed. */
function weekdayNoon(): string {
  if (values['open-at']) return values['open-at'];
  const day = new Date();
  day.setUTCDate(day.getUTCDate() + ((3 - day.getUTCDay() + 7) % 7 || 7));
  return `${day.toISOString().slice(0, 10)}T12:00:00`;
}

/** The import report's reasons that stand for losses of a kind of fact, most frequent first. */
function dropReasons(kind: FactKind, summary: ImportSummary): [string, number][] {
  const type = RECORD_TYPE_OF[kind];
  const fields: Partial<Record<FactKind, RegExp>> = {
    'opening times': /\.(opens_at|closes_at|valid_from|valid_to|dtstart|until|byday|freq)$/,
    eligibility: /\.eligibility_description$/,
    ages: /\.(minimum_age|maximum_age)$/,
    urls: /\.(url|website)$/,
    extensions: /\.(x-|pc_)/,
    'modified dates': /\.(last_modified|pc_metadata)$/,
  };
  const losing =
    /^(invalid|duplicate|skipped-with-parent|dangling-reference|dropped-field|unreadable|unknown-table): /;
  const reasons = Object.entries(summary.by_reason).filter(([reason]) => losing.test(reason));
  const own = reasons.filter(([reason]) => {
    const [, what = ''] = reason.split(': ');
    const field = fields[kind];
    if (field) return field.test(what);
    // A field dropped from a record that is kept is no loss of the record.
    return !reason.startsWith('dropped-field: ') && (what === type || what.startsWith(`${type}.`));
  });
  // A field is lost with its record (a service's eligibility with the service), and records
  // with the record they nest in: those are reported under that record.
  const ofRecord = reasons.filter(([reason]) => {
    const [, what = ''] = reason.split(': ');
    return !reason.startsWith('dropped-field: ') && (what === type || what.startsWith(`${type}.`));
  });
  const chosen =
    own.length > 0
      ? own
      : ofRecord.length > 0 && fields[kind]
        ? ofRecord
        : reasons.filter(([reason]) => reason.startsWith('skipped-with-parent: '));
  return chosen.sort((a, b) => b[1] - a[1]);
}

/** Repairs the report counts for a kind: the record type's repaired records, or its field's repairs. */
function repairs(kind: FactKind, summary: ImportSummary): number {
  const fields: Partial<Record<FactKind, RegExp>> = {
    'opening times': /^repaired: schedule\.(opens_at|closes_at)$/,
    eligibility: /^repaired: service\.eligibility_description$/,
    ages: /^repaired: service\.(minimum_age|maximum_age)$/,
    urls: /^repaired: \w+\.(url|website)$/,
    extensions: /^repaired: \w+\.(x-|pc_)/,
    'modified dates': /^repaired: service\.last_modified$/,
  };
  const field = fields[kind];
  if (!field) return summary.by_type[RECORD_TYPE_OF[kind]]?.repaired ?? 0;
  return Object.entries(summary.by_reason)
    .filter(([reason]) => field.test(reason.split(': ').slice(0, 2).join(': ')))
    .reduce((sum, [, n]) => sum + n, 0);
}

const percent = (part: number, whole: number) =>
  whole === 0 ? '-' : `${((part / whole) * 100).toFixed(1)}%`;
const shorten = (reason: string) => (reason.length > 90 ? `${reason.slice(0, 87)}...` : reason);

type FeedResult = {
  feed: string;
  source: FactTally;
  stored: StoredTally;
  rows: {
    kind: FactKind;
    source: number;
    kept: number;
    repaired: number;
    dropped: number;
    reasons: [string, number][];
  }[];
  open_at: { at: string; timezone: string; found: number; served: number };
  language?: { name: string; found: number; source: number };
  import_ms: number;
  report: ImportSummary;
};

async function measure(url: string, feed: Feed, location: string): Promise<FeedResult> {
  const source = countSource(feed, location);
  const { config, engine } = serverEngine(url, `${PREFIX}-${feed.name}`);
  await dropIndices(engine);
  const started = performance.now();
  const done = await importAndReindex(engine, location, {
    sourceName: `realdata-${feed.name}`,
    reportFile: join(new URL('results/', import.meta.url).pathname, `realdata-${feed.name}-report.json`),
  });
  const importMs = performance.now() - started;
  const summary = done.import.summary;
  const stored = countStoredFacts(
    (await readAllRecords(engine)).values(),
    (organization) => organization.name === PLACEHOLDER_ORGANIZATION_NAME,
    Date.parse(summary.started_at),
  );

  const rows = FACT_KINDS.map((kind) => {
    const sourceCount = source.facts[kind];
    const kept = stored.facts[kind];
    return {
      kind,
      source: sourceCount,
      kept,
      repaired: repairs(kind, summary),
      dropped: Math.max(0, sourceCount - kept),
      reasons: sourceCount > kept ? dropReasons(kind, summary) : [],
    };
  });

  // The API as a server runs it, in the feed's time zone.
  const app = createApp({
    config: { ...config, DIRECTORY_TIMEZONE: feed.timezone },
    engine,
    geocoder: createGeocoder(config, engine),
    logger: pino({ level: 'silent' }),
  });
  const total = async (query: string) => {
    const response = await app.request(`/services?per_page=1&${query}`);
    if (!response.ok) throw new Error(`/services?${query}: ${response.status} ${await response.text()}`);
    return ((await response.json()) as { total_items: number }).total_items;
  };
  const at = weekdayNoon();
  const served = await total('');
  const open = await total(`open_at=${encodeURIComponent(at)}`);
  const [language, speakers] = Object.entries(source.servicesByLanguage).sort((a, b) => b[1] - a[1])[0] ?? [];
  const result: FeedResult = {
    feed: feed.name,
    source,
    stored,
    rows,
    open_at: { at, timezone: feed.timezone, found: open, served },
    import_ms: importMs,
    report: summary,
  };
  if (language) {
    result.language = {
      name: language,
      found: await total(`language=${encodeURIComponent(language)}`),
      source: speakers!,
    };
  }
  if (process.env.BENCH_KEEP !== '1') await dropIndices(engine);
  await engine.close();
  return result;
}

function print(result: FeedResult): void {
  const table: (string | number)[][] = [['kind', 'source', 'kept', 'repaired', 'dropped', 'kept %']];
  for (const row of result.rows) {
    table.push([row.kind, row.source, row.kept, row.repaired, row.dropped, percent(row.kept, row.source)]);
  }
  console.log(`\n== ${result.feed} (imported and published in ${(result.import_ms / 1000).toFixed(1)} s)\n`);
  console.log(formatTable(table));
  const dropped = result.rows.filter((row) => row.dropped > 0);
  if (dropped.length > 0) {
    console.log('\nwhy dropped (the import report, by reason):');
    for (const row of dropped) {
      const reasons = row.reasons.slice(0, 3).map(([reason, n]) => `${n} x ${shorten(reason)}`);
      console.log(`  ${row.kind}: ${reasons.length ? reasons.join('; ') : 'no reason in the report'}`);
    }
  }
  if (result.source.timesInTextOnly > 0) {
    console.log(
      `\nof the source's opening times, ${result.source.timesInTextOnly} are written only in free text (original_text, description)`,
    );
  }
  const unattached = Object.entries(result.source.unattached);
  if (unattached.length > 0) {
    console.log(
      `\nsource rows attached to nothing the feed has (not counted): ${unattached.map(([kind, n]) => `${kind} ${n}`).join(', ')}`,
    );
  }
  const o = result.open_at;
  const short = result.rows.filter((row) => row.source > 0 && row.kept < row.source * 0.99);
  console.log(
    `\n${short.length === 0 ? 'PASS' : 'MISS'}  every kind of fact >= 99% kept${short.length ? `: not ${short.map((row) => row.kind).join(', ')}` : ''}`,
  );
  console.log(`texts with mojibake: source ${result.source.mojibake}, stored ${result.stored.mojibake}`);
  console.log(
    `placeholder organizations: ${result.stored.placeholderOrganizations} (${result.stored.servicesUnderPlaceholders} services under them)`,
  );
  console.log(
    `open_at ${o.at} (${o.timezone}): ${o.found} of ${o.served} services (${percent(o.found, o.served)})`,
  );
  if (result.language) {
    const l = result.language;
    console.log(`language=${l.name}: ${l.found} services; the source has ${l.source}`);
  }
}

const present = FEEDS.filter((feed) => {
  if (values.feed && !values.feed.includes(feed.name)) return false;
  const location = join(DATA_DIR, feed.path);
  const there = existsSync(location) && (!feed.files || feed.files(location).length > 0);
  if (!there) log(`${feed.name}: ${location} is absent, skipped`);
  return there;
});
if (present.length === 0) {
  log(`no real feed under ${DATA_DIR} (BENCH_REALDATA_DIR): nothing to measure`);
} else {
  const engine = await openBenchEngine(log);
  try {
    const results: FeedResult[] = [];
    for (const feed of present) {
      log(`${feed.name}: counting the source, importing...`);
      const result = await measure(engine.url, feed, join(DATA_DIR, feed.path));
      print(result);
      results.push(result);
    }
    // One line a feed, to compare runs at a glance: the kinds below 99% and the least kept.
    const summary: (string | number)[][] = [['feed', 'kinds < 99% kept', 'least kept', 'open_at finds']];
    for (const result of results) {
      const rows = result.rows.filter((row) => row.source > 0);
      const least = rows.reduce<(typeof rows)[number] | undefined>(
        (worst, row) => (!worst || row.kept / row.source < worst.kept / worst.source ? row : worst),
        undefined,
      );
      summary.push([
        result.feed,
        rows.filter((row) => row.kept < row.source * 0.99).length,
        least ? `${least.kind} ${percent(least.kept, least.source)}` : '-',
        percent(result.open_at.found, result.open_at.served),
      ]);
    }
    console.log(`\n== all feeds\n\n${formatTable(summary)}`);
    const file = writeResults(
      'realdata',
      results.map(({ report, ...rest }) => ({
        ...rest,
        by_reason: report.by_reason,
        by_type: report.by_type,
      })),
    );
    console.log(`\nresults: ${file}`);
  } finally {
    await engine.stop();
  }
}
