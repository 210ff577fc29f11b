/** `hsds token`: its command line (test/support/cli-commands.ts says what every command is held to). */
import { describe, expect, it, vi } from 'vitest';
import { commandLineTests, printed, stubRuntime } from '../../support/cli-commands.ts';

vi.mock('../../../src/cli/runtime.ts', async (original) => stubRuntime(await original<object>()));

commandLineTests('token', () => import('../../../src/cli/token.command.ts'), [
  [],
  ['two words'],
  ['ci', '--scope', 'root'],
]);

describe('hsds token <name>', () => {
  it('prints a token and the API_TOKENS entry that enables it', async () => {
    const { run } = await import('../../../src/cli/token.command.ts');
    expect(await run(['ci-bot', '--scope', 'write,admin'])).toBe(0);
    const [token, entry] = printed.logs;
    expect(token).toMatch(/^token \(shown once\): \S{20,}$/);
    expect(entry).toMatch(/^API_TOKENS entry: +ci-bot:write\+admin:[0-9a-f]{64}$/);
  });
});
