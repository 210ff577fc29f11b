/** `hsds import`: its command line (test/support/cli-commands.ts says what every command is held to). */
import { vi } from 'vitest';
import { commandLineTests, stubRuntime } from '../../support/cli-commands.ts';

vi.mock('../../../src/cli/runtime.ts', async (original) => stubRuntime(await original<object>()));

commandLineTests('import', () => import('../../../src/cli/import.command.ts'), [
  [],
  ['a.json', 'b.json'],
  ['feed.json', '--since', 'last'],
  ['https://x.example/', '--since', 'soon'],
]);
