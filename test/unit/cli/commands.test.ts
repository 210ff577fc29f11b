/**
 * Every `hsds` command reads its command line before it opens anything: `--help` answers 0 with
 * the usage, arguments it refuses answer 2 (the usage error, for every command) saying why,
 * and an option it does not take is refused by parseArgs as a usage error (main.ts answers that
 * with 2: usage-error.ts). Run in-process, with the runtime stubbed so that a case reaching past
 * the command line fails here instead of starting an engine.
 */
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { isUsageError } from '../../../src/cli/usage-error.ts';

vi.mock('../../../src/cli/runtime.ts', async (importOriginal) => ({
  ...(await importOriginal<typeof import('../../../src/cli/runtime.ts')>()),
  openRuntime: async () => {
    throw new Error('the command got past its command line: it opened the runtime');
  },
}));

type Command = { run: (args: string[]) => Promise<number> };

/** Each command's module, and command lines it must refuse before opening the runtime. */
const COMMANDS: Record<string, { load: () => Promise<Command>; refused: string[][] }> = {
  import: {
    load: () => import('../../../src/cli/import.command.ts'),
    refused: [
      [],
      ['a.json', 'b.json'],
      ['feed.json', '--since', 'last'],
      ['https://x.example/', '--since', 'soon'],
    ],
  },
  validate: { load: () => import('../../../src/cli/validate.command.ts'), refused: [[]] },
  export: {
    load: () => import('../../../src/cli/export.command.ts'),
    refused: [[], ['--out', 'dir', '--format', 'xml']],
  },
  delete: {
    load: () => import('../../../src/cli/delete.command.ts'),
    refused: [[], ['service'], ['spaceship', 'id-1'], ['--source', 'feed', 'service', 'id-1']],
  },
  publish: { load: () => import('../../../src/cli/publish.command.ts'), refused: [] },
  'check-ids': { load: () => import('../../../src/cli/check-ids.command.ts'), refused: [] },
  sources: { load: () => import('../../../src/cli/sources.command.ts'), refused: [] },
  duplicates: {
    load: () => import('../../../src/cli/duplicates.command.ts'),
    refused: [
      ['--type', 'spaceship'],
      ['mark', 'a', 'b', '--same'],
      ['mark', '--type', 'service', 'a', 'b'],
      ['unmark', '--type', 'service', 'a'],
      ['merge'],
    ],
  },
  reindex: { load: () => import('../../../src/cli/reindex.command.ts'), refused: [] },
  generate: {
    load: () => import('../../../src/cli/generate.command.ts'),
    refused: [
      [],
      ['--services', 'many', '--out', 'dir'],
      ['--services', '3', '--out', 'dir', '--places', 'fr'],
    ],
  },
  postcodes: {
    load: () => import('../../../src/cli/postcodes.command.ts'),
    refused: [[], ['import'], ['export', 'postcodes.csv']],
  },
  synonyms: { load: () => import('../../../src/cli/synonyms.command.ts'), refused: [[], ['rebuild']] },
  'search-report': {
    load: () => import('../../../src/cli/search-report.command.ts'),
    refused: [
      ['--days', 'seven'],
      ['--days', '0'],
      ['--limit', '100000'],
    ],
  },
  token: {
    load: () => import('../../../src/cli/token.command.ts'),
    refused: [[], ['two words'], ['ci', '--scope', 'root']],
  },
  mcp: { load: () => import('../../../src/cli/mcp.command.ts'), refused: [] },
};

// Loading a command loads the layers it uses (the whole ingest layer for import): once, here, with
// time for a loaded machine, so that each case below times only the command line.
beforeAll(async () => {
  await Promise.all(Object.values(COMMANDS).map(({ load }) => load()));
}, 120_000);

let errors: string[];
let logs: string[];
beforeEach(() => {
  errors = [];
  logs = [];
  vi.spyOn(console, 'error').mockImplementation((...parts: unknown[]) => void errors.push(parts.join(' ')));
  vi.spyOn(console, 'log').mockImplementation((...parts: unknown[]) => void logs.push(parts.join(' ')));
});
afterEach(() => vi.restoreAllMocks());

describe.each(Object.entries(COMMANDS))('hsds %s', (name, { load, refused }) => {
  it('--help: 0, with its usage', async () => {
    const { run } = await load();
    expect(await run(['--help'])).toBe(0);
    expect(errors.join('\n')).toContain(`usage: hsds ${name}`);
  });

  it.each(refused.map((args) => [args.join(' ') || '(nothing)', args] as const))(
    'refuses %s: 2, saying why',
    async (_, args) => {
      const { run } = await load();
      expect(await run([...args])).toBe(2);
      expect(errors.join('\n')).not.toBe('');
    },
  );

  it('an option it does not take is a usage error', async () => {
    const { run } = await load();
    const refusal = await run(['--no-such-option']).then(
      () => undefined,
      (error: unknown) => error,
    );
    // synonyms reads no options: it answers the unknown word itself, as a usage error too.
    if (name === 'synonyms') {
      expect(refusal).toBeUndefined();
      expect(errors.join('\n')).toMatch(/usage: hsds synonyms/);
    } else expect(isUsageError(refusal)).toBe(true);
  });
});

describe('commands that need no engine', () => {
  it('token <name>: prints a token and the API_TOKENS entry that enables it', async () => {
    const { run } = await import('../../../src/cli/token.command.ts');
    expect(await run(['ci-bot', '--scope', 'write,admin'])).toBe(0);
    const [token, entry] = logs;
    expect(token).toMatch(/^token \(shown once\): \S{20,}$/);
    expect(entry).toMatch(/^API_TOKENS entry: +ci-bot:write\+admin:[0-9a-f]{64}$/);
  });

  it('synonyms check: parses the configured vocabulary', async () => {
    const { run } = await import('../../../src/cli/synonyms.command.ts');
    expect(await run(['check'])).toBe(0);
    expect(logs.join('\n')).toMatch(/^\d+ vocabulary rules parse\.$/);
  });
});

describe('usage errors', () => {
  it("are parseArgs's own refusals, not other errors", () => {
    const unknown = Object.assign(new TypeError("Unknown option '--x'"), {
      code: 'ERR_PARSE_ARGS_UNKNOWN_OPTION',
    });
    expect(isUsageError(unknown)).toBe(true);
    expect(isUsageError(new Error('ECONNREFUSED'))).toBe(false);
    expect(isUsageError('ERR_PARSE_ARGS_UNKNOWN_OPTION')).toBe(false);
  });
});
