/** `hsds delete`: its command line (test/support/cli-commands.ts says what every command is held to). */
import { vi } from 'vitest';
import { commandLineTests, stubRuntime } from '../../support/cli-commands.ts';

vi.mock('../../../src/cli/runtime.ts', async (original) => stubRuntime(await original<object>()));

commandLineTests('delete', () => import('../../../src/cli/delete.command.ts'), [
  [],
  ['service'],
  ['spaceship', 'id-1'],
  ['--source', 'feed', 'service', 'id-1'],
]);
