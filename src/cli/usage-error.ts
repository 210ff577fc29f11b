/**
 * What a command line the commands cannot read is: a usage error, exit code 2, whichever command
 * it was given to. Each command answers 2 itself for arguments it reads and refuses (a missing
 * path, an unknown record type); an option it does not take, or one left without its value, is
 * refused earlier, by node:util's parseArgs, which throws. main.ts answers that with 2 too, so a
 * script cannot take `hsds validate --bogus feed.json` (exit 1 used to mean "not importable") for
 * a verdict on the feed.
 */

/** parseArgs's own refusals (ERR_PARSE_ARGS_UNKNOWN_OPTION, ..._INVALID_OPTION_VALUE, ..._UNEXPECTED_POSITIONAL). */
export function isUsageError(error: unknown): boolean {
  const code = error instanceof Error ? (error as Error & { code?: unknown }).code : undefined;
  return typeof code === 'string' && code.startsWith('ERR_PARSE_ARGS_');
}

/** The exit code of a usage error, for every command. */
export const USAGE_EXIT_CODE = 2;
