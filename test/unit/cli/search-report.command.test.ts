/** `hsds search-report`: its command line (test/support/cli-commands.ts says what every command is held to). */
import { vi } from 'vitest';
import { commandLineTests, stubRuntime } from '../../support/cli-commands.ts';

vi.mock('../../../src/cli/runtime.ts', async (original) => stubRuntime(await original<object>()));

commandLineTests('search-report', () => import('../../../src/cli/search-report.command.ts'), [
  ['--days', 'seven'],
  ['--days', '0'],
  ['--limit', '100000'],
]);
