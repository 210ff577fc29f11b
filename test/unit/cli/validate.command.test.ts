/**
 * `hsds validate`: the verdict in three words, each its own exit code, so a publisher's CI can
 * tell a feed valid as published from one an import must repair, and both from one it cannot import.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { EXIT_CODES, run } from '../../../src/cli/validate.command.ts';
import { commandLineTests } from '../../support/cli-commands.ts';

const realWorld = 'test/fixtures/real-world';

/** Runs the command, answering its exit code and what it printed. */
async function validate(...args: string[]) {
  const printed: string[] = [];
  vi.spyOn(console, 'log').mockImplementation((text: string) => void printed.push(text));
  const code = await run(args);
  return { code, text: printed.join('\n') };
}

afterEach(() => vi.restoreAllMocks());

describe('hsds validate', () => {
  it('gives each verdict its own exit code, 2 staying the usage error', () => {
    expect(EXIT_CODES).toEqual({ valid: 0, 'not-importable': 1, 'importable-with-repairs': 3 });
  });

  it('exits 0 for a feed valid as published', async () => {
    const { code, text } = await validate('test/fixtures/hsds/examples/service_full.json', '--strict');
    expect(text).toMatch(/^VALID AS PUBLISHED: /);
    expect(code).toBe(0);
  });

  it('exits 3 for an ORUK list every record of which needs a repair, saying how many and which', async () => {
    const { code, text } = await validate(`${realWorld}/oruk-list-items.json`);
    expect(text).toMatch(/^IMPORTABLE WITH REPAIRS: /);
    expect(text).toContain('5 of 5 records repaired (service 3, organization 2)');
    expect(code).toBe(3);
  });

  it('exits 1 for a feed an import would reject records of', async () => {
    const { code, text } = await validate(`${realWorld}/repeated-organization.json`);
    expect(text).toMatch(/^NOT IMPORTABLE: /);
    expect(code).toBe(1);
  });

  it('says the verdict in --json', async () => {
    const { code, text } = await validate(`${realWorld}/oruk-list-items.json`, '--json');
    expect(JSON.parse(text)).toMatchObject({
      verdict: 'importable-with-repairs',
      valid: false,
      importable: true,
    });
    expect(code).toBe(3);
  });
});

commandLineTests('validate', () => import('../../../src/cli/validate.command.ts'), [[]]);
