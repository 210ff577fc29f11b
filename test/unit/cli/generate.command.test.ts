/** `hsds generate`: its command line (test/support/cli-commands.ts says what every command is held to). */
import { vi } from 'vitest';
import { commandLineTests, stubRuntime } from '../../support/cli-commands.ts';

vi.mock('../../../src/cli/runtime.ts', async (original) => stubRuntime(await original<object>()));

commandLineTests('generate', () => import('../../../src/cli/generate.command.ts'), [
  [],
  ['--services', 'many', '--out', 'dir'],
  ['--services', '3', '--out', 'dir', '--places', 'fr'],
]);
