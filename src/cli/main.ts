/**
 * `npx hsds <command>`: serve, import, reindex, generate, postcodes import.
 */
import { parseArgs } from 'node:util';
import { loadDotEnv } from './dotenv.ts';
import { isUsageError, USAGE_EXIT_CODE } from './usage-error.ts';

const usage = `usage: hsds <command> [options]

commands:
  serve [--demo]                         serve the API (--demo loads demo data into empty indices)
  import <file|dir|url> [--sync]        import HSDS JSON, a tabular data package or a remote HSDS API,
                                         and publish what changed, ending with a verdict (exit 3 when
                                         records were rejected; --help for --source, --since...)
  validate <file|dir|url> [--strict]     what an import would keep, repair and reject, writing nothing;
                                         for a URL, the API's conformance too (exit 1 when not valid)
  export --format F --out DIR            write the served directory as an HSDS 3.1 tabular data package
                                         (datapackage), nested JSON (json) or NDJSON (ndjson)
  delete <type> <id>... | --source NAME  delete records (with what hangs off them), or a source whole,
                                         and publish that
  publish                                finish publishing what an interrupted import or delete stored
  sources [--json]                       each source's last import, records, freshness and completeness
  duplicates [--type T] [--json]         records two sources publish under different ids, with the evidence;
                                         duplicates mark|unmark|marks: serve a pair once, or call it distinct
  check-ids [--fix]                      list stored records whose ids are not in lower case (a store
                                         written by an earlier version); --fix stores them in lower case
  reindex [--rollback]                   rebuild the read indices from hsds-records, swap aliases atomically
                                         (--rollback: point the aliases back at the previous version)
  generate --services N --seed S --out DIR   write a synthetic HSDS dataset
  postcodes import <csv> [--include-terminated]   load ONSPD / NSPL / Code-Point Open postcodes
  token <name> [--scope write,admin]     a new write API token and its (hashed) API_TOKENS entry
  synonyms reload|check                  put the search vocabulary (shipped + SYNONYMS_FILE) into the
                                         served indices without a reindex; or just parse it
  search-report [--days N] [--limit N] [--json]   what people searched for: top queries, those that
                                         found nothing, relaxed ones, per day (no personal data)
  mcp                                    serve the directory's MCP tools to an assistant over stdio
`;

const [command, ...rest] = process.argv.slice(2);

async function main(): Promise<number> {
  // Before any configuration is read (src/config.ts, once, by each command).
  loadDotEnv();
  switch (command) {
    case 'serve': {
      const { values } = parseArgs({
        args: rest,
        options: { demo: { type: 'boolean', default: false }, help: { type: 'boolean', default: false } },
      });
      if (values.help) {
        console.log(usage);
        return 0;
      }
      const { serveCommand } = await import('./serve.command.ts');
      await serveCommand({ demo: values.demo });
      return -1; // keeps running
    }
    case undefined:
    case 'help':
    case '--help':
      console.log(usage);
      return 0;
    default: {
      const commands: Record<string, () => Promise<{ run: (args: string[]) => Promise<number> }>> = {
        import: () => import('./import.command.ts'),
        validate: () => import('./validate.command.ts'),
        export: () => import('./export.command.ts'),
        delete: () => import('./delete.command.ts'),
        publish: () => import('./publish.command.ts'),
        'check-ids': () => import('./check-ids.command.ts'),
        sources: () => import('./sources.command.ts'),
        duplicates: () => import('./duplicates.command.ts'),
        reindex: () => import('./reindex.command.ts'),
        generate: () => import('./generate.command.ts'),
        postcodes: () => import('./postcodes.command.ts'),
        synonyms: () => import('./synonyms.command.ts'),
        'search-report': () => import('./search-report.command.ts'),
        token: () => import('./token.command.ts'),
        mcp: () => import('./mcp.command.ts'),
      };
      const load = commands[command];
      if (!load) {
        console.error(`unknown command '${command}'\n\n${usage}`);
        return 2;
      }
      return (await load()).run(rest);
    }
  }
}

try {
  const code = await main();
  if (code >= 0) process.exitCode = code;
} catch (error) {
  console.error(error instanceof Error ? error.message : error);
  if (isUsageError(error)) console.error(`\n(hsds ${command ?? ''} --help for its options)`);
  process.exitCode = isUsageError(error) ? USAGE_EXIT_CODE : 1;
}
