/**
 * `hsds` itself (src/cli/main.ts), as a user runs it, in a child process: help, an unknown
 * command, and an unknown option, which is a usage error (2) for every command, serve included.
 * No case reaches an engine: each ends on the command line.
 */
import { spawn } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..', '..');
const main = join(root, 'src', 'cli', 'main.ts');

/** Runs `hsds ...args`; its exit code and what it wrote. */
function hsds(...args: string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [main, ...args], {
      cwd: root,
      // No engine to find, should a case go further than it should: it fails fast instead.
      env: { ...process.env, OPENSEARCH_URL: 'http://127.0.0.1:9', NO_COLOR: '1' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk) => {
      stdout += chunk;
    });
    child.stderr.on('data', (chunk) => {
      stderr += chunk;
    });
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

describe('hsds', () => {
  it('answers help, unknown commands and unknown options with their exit codes', async () => {
    const [help, serveHelp, unknownCommand, unknownOption, serveOption] = await Promise.all([
      hsds('--help'),
      hsds('serve', '--help'),
      hsds('frobnicate'),
      hsds('validate', '--bogus', 'feed.json'),
      hsds('serve', '--bogus'),
    ]);
    expect(help.code).toBe(0);
    expect(help.stdout).toMatch(/^usage: hsds <command>/);
    expect(serveHelp.code).toBe(0);
    expect(serveHelp.stdout).toContain('serve [--demo]');
    expect(unknownCommand.code).toBe(2);
    expect(unknownCommand.stderr).toContain("unknown command 'frobnicate'");
    expect(unknownOption.code).toBe(2);
    expect(unknownOption.stderr).toContain("Unknown option '--bogus'");
    expect(unknownOption.stderr).toContain('hsds validate --help');
    expect(serveOption.code).toBe(2);
  }, 60_000);
});
