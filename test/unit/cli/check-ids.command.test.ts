/** `hsds check-ids`: its command line (test/support/cli-commands.ts says what every command is held to). */
import { vi } from 'vitest';
import { commandLineTests, stubRuntime } from '../../support/cli-commands.ts';

vi.mock('../../../src/cli/runtime.ts', async (original) => stubRuntime(await original<object>()));

commandLineTests('check-ids', () => import('../../../src/cli/check-ids.command.ts'), []);
