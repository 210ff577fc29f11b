/** `hsds synonyms`: its command line (test/support/cli-commands.ts says what every command is held to). */
import { describe, expect, it, vi } from 'vitest';
import { commandLineTests, printed, stubRuntime } from '../../support/cli-commands.ts';

vi.mock('../../../src/cli/runtime.ts', async (original) => stubRuntime(await original<object>()));

commandLineTests('synonyms', () => import('../../../src/cli/synonyms.command.ts'), [[], ['rebuild']], {
  readsOptions: false,
});

describe('hsds synonyms check', () => {
  it('parses the configured vocabulary, without an engine', async () => {
    const { run } = await import('../../../src/cli/synonyms.command.ts');
    expect(await run(['check'])).toBe(0);
    expect(printed.logs.join('\n')).toMatch(/^\d+ vocabulary rules parse\.$/);
  });
});
