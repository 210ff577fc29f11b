/**
 * The command-line checks every `hsds` command passes (test/unit/cli/<command>.command.test.ts):
 * `--help` answers 0 with the usage, arguments it refuses answer 2 (the usage error, for every
 * command) saying why, and an option it does not take is refused by parseArgs as a usage error
 * (main.ts answers that with 2: src/cli/usage-error.ts). Each test file stubs the runtime
 * (`stubRuntime`), so that a case reaching past the command line fails instead of starting an engine.
 */
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { isUsageError } from '../../src/cli/usage-error.ts';

export type Command = { run: (args: string[]) => Promise<number> };

/** The runtime module with openRuntime refused: `vi.mock(runtime, async (original) => stubRuntime(await original()))`. */
export const stubRuntime = <T extends object>(original: T): T => ({
  ...original,
  openRuntime: async () => {
    throw new Error('the command got past its command line: it opened the runtime');
  },
});

/** What a command printed, while the current test runs. */
export const printed = { errors: [] as string[], logs: [] as string[] };

/**
 * The checks for `hsds <name>`, whose module `load` gives; `refused`: command lines it must refuse
 * (2) before opening anything; `readsOptions: false` for a command that takes no options and so
 * answers an unknown word itself, with its usage.
 */
export function commandLineTests(
  name: string,
  load: () => Promise<Command>,
  refused: string[][],
  options: { readsOptions?: boolean } = {},
) {
  // Loading a command loads the layers it uses (the whole ingest layer for import): once, with time
  // for a loaded machine, so that each case below times only the command line.
  beforeAll(async () => {
    await load();
  }, 120_000);
  beforeEach(() => {
    printed.errors = [];
    printed.logs = [];
    vi.spyOn(console, 'error').mockImplementation(
      (...parts: unknown[]) => void printed.errors.push(parts.join(' ')),
    );
    vi.spyOn(console, 'log').mockImplementation(
      (...parts: unknown[]) => void printed.logs.push(parts.join(' ')),
    );
  });
  afterEach(() => vi.restoreAllMocks());

  describe(`hsds ${name}: its command line`, () => {
    it('--help: 0, with its usage', async () => {
      const { run } = await load();
      expect(await run(['--help'])).toBe(0);
      expect(printed.errors.join('\n')).toContain(`usage: hsds ${name}`);
    });

    it.each(refused.map((args) => [args.join(' ') || '(nothing)', args] as const))(
      'refuses %s: 2, saying why',
      async (_, args) => {
        const { run } = await load();
        expect(await run([...args])).toBe(2);
        expect(printed.errors.join('\n')).not.toBe('');
      },
    );

    it('an option it does not take is a usage error', async () => {
      const { run } = await load();
      const refusal = await run(['--no-such-option']).then(
        (code) => code,
        (error: unknown) => error,
      );
      if (options.readsOptions === false) {
        expect(refusal).toBe(2);
        expect(printed.errors.join('\n')).toContain(`usage: hsds ${name}`);
      } else expect(isUsageError(refusal)).toBe(true);
    });
  });
}
