/** `hsds duplicates`: its command line (test/support/cli-commands.ts says what every command is held to). */
import { vi } from 'vitest';
import { commandLineTests, stubRuntime } from '../../support/cli-commands.ts';

vi.mock('../../../src/cli/runtime.ts', async (original) => stubRuntime(await original<object>()));

commandLineTests('duplicates', () => import('../../../src/cli/duplicates.command.ts'), [
  ['--type', 'spaceship'],
  ['mark', 'a', 'b', '--same'],
  ['mark', '--type', 'service', 'a', 'b'],
  ['unmark', '--type', 'service', 'a'],
  ['merge'],
]);
