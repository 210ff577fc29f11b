import { parseArgs } from 'node:util';
import { describe, expect, it } from 'vitest';
import { isUsageError, USAGE_EXIT_CODE } from '../../../src/cli/usage-error.ts';

const refusalOf = (args: string[]) => {
  try {
    parseArgs({ args, options: { out: { type: 'string' } } });
  } catch (error) {
    return error;
  }
  return undefined;
};

describe('usage errors', () => {
  it("are parseArgs's own refusals: an unknown option, an option without its value, a stray word", () => {
    expect(isUsageError(refusalOf(['--bogus']))).toBe(true);
    expect(isUsageError(refusalOf(['--out']))).toBe(true);
    expect(isUsageError(refusalOf(['word']))).toBe(true);
    expect(USAGE_EXIT_CODE).toBe(2);
  });

  it('and no other error', () => {
    expect(isUsageError(new Error('connect ECONNREFUSED 127.0.0.1:9200'))).toBe(false);
    expect(isUsageError(Object.assign(new Error('no such file'), { code: 'ENOENT' }))).toBe(false);
    expect(isUsageError('ERR_PARSE_ARGS_UNKNOWN_OPTION')).toBe(false);
    expect(isUsageError(undefined)).toBe(false);
  });
});
