/**
 * `hsds serve` as a person runs it, a real process against the test engine: a port already taken
 * is one plain line and a non-zero exit, not Node's stack trace; the ready line says where the API
 * listens and who can reach it.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { createTestEngine, dropTestIndices } from '../support/engine.ts';

const engine = createTestEngine('serve-command');
const main = fileURLToPath(new URL('../../src/cli/main.ts', import.meta.url));

afterAll(() => dropTestIndices(engine));

type Run = { code: number | null; stderr: string };

/** Starts `serve`; resolves when it exits, or (with `until`) when stderr shows it, then stops it. */
function serve(env: Record<string, string>, until?: RegExp, cwd?: string): Promise<Run> {
  const child = spawn(process.execPath, [main, 'serve'], {
    ...(cwd ? { cwd } : {}),
    env: {
      ...process.env,
      OPENSEARCH_URL: engine.settings.url,
      INDEX_PREFIX: engine.settings.prefix,
      LOG_LEVEL: 'error',
      ...env,
    },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let stderr = '';
  child.stderr.on('data', (chunk: Buffer) => {
    stderr += chunk.toString();
    if (until?.test(stderr)) child.kill('SIGTERM');
  });
  return new Promise((resolve) => child.on('exit', (code) => resolve({ code, stderr })));
}

const listening = (server: Server) =>
  new Promise<number>((resolve) =>
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      resolve(typeof address === 'object' && address ? address.port : 0);
    }),
  );

describe('hsds serve', () => {
  it('explains a port already in use in one line and exits non-zero', async () => {
    const taken = createServer();
    const port = await listening(taken);
    try {
      const run = await serve({ PORT: String(port), HOST: '127.0.0.1' });
      expect(run.code).toBe(1);
      const lines = run.stderr.trim().split('\n');
      expect(lines.at(-1)).toBe(
        `Cannot start the API: port ${port} on 127.0.0.1 is already in use (another server, or this API already running). Stop it, or choose another port: PORT=${port + 1}.`,
      );
      expect(run.stderr).not.toMatch(/EADDRINUSE|node:events|\n\s+at /);
    } finally {
      taken.close();
    }
  }, 90_000);

  it('says where it listens, and stops cleanly on SIGTERM', async () => {
    const free = createServer();
    const port = await listening(free);
    await new Promise((resolve) => free.close(resolve));
    const run = await serve({ PORT: String(port), HOST: '127.0.0.1' }, /API ready/);
    expect(run.stderr).toContain(
      `HSDS API ready at http://127.0.0.1:${port}  (docs: http://127.0.0.1:${port}/docs; listening on 127.0.0.1 only (HOST))`,
    );
    expect(run.code).toBe(0);
  }, 90_000);

  it('reads a .env file in the directory it starts from; the environment wins over it', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'hsds-dotenv-'));
    try {
      writeFileSync(join(dir, '.env'), 'PORT=not-a-port\nMAX_PER_PAGE=lots\n');
      const run = await serve({ MAX_PER_PAGE: '100' }, undefined, dir);
      expect(run.code).not.toBe(0);
      expect(run.stderr).toContain('PORT');
      expect(run.stderr).not.toContain('MAX_PER_PAGE');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 90_000);
});
