/**
 * The fault suite's handles on real processes: the engine of test/faults/global-setup.ts (kill,
 * freeze, restart), the API as `npx hsds serve` would run it, and the CLI. Nothing here is a fake:
 * every fault is a signal sent to a real process.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, inject } from 'vitest';
import { engineStatus, startEngine } from '../../local-engine/local-engine.ts';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const main = join(root, 'src', 'cli', 'main.ts');

export const enginePort = () => inject('faultEnginePort');
export const engineUrl = () => `http://127.0.0.1:${enginePort()}`;

export function uniquePrefix(tag: string): string {
  return `f-${tag}-${randomBytes(3).toString('hex')}`;
}

/** The engine's JVM process id. */
export async function enginePid(): Promise<number> {
  const status = await engineStatus({ port: enginePort() });
  if (status.pid === undefined) throw new Error('the fault engine is not running');
  return status.pid;
}

/** Sends a signal to the engine's JVM (SIGKILL: a crash; SIGSTOP / SIGCONT: a freeze). */
export async function signalEngine(signal: NodeJS.Signals): Promise<number> {
  const pid = await enginePid();
  process.kill(pid, signal);
  return pid;
}

const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

/** SIGKILLs the engine and waits until its process is gone. */
export async function crashEngine(): Promise<void> {
  const pid = await signalEngine('SIGKILL');
  while (alive(pid)) await sleep(50);
}

/** Starts the engine again on the same data folder; resolves once the cluster is yellow. */
export async function restartEngine(): Promise<void> {
  await startEngine({ port: enginePort(), heap: process.env.ENGINE_HEAP ?? '1g' });
}

/** Waits until every shard of the indices under `prefix` is recovered (after a restart). */
export async function waitForRecovery(prefix: string, timeoutMs = 120_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    const res = await fetch(
      `${engineUrl()}/_cluster/health/${prefix}-*?wait_for_status=yellow&timeout=5s&expand_wildcards=all`,
    ).catch(() => undefined);
    if (res?.ok) {
      const body = (await res.json()) as { status: string; timed_out: boolean };
      if (!body.timed_out && body.status !== 'red') return;
    }
    await sleep(500);
  }
  throw new Error(`indices ${prefix}-* did not recover in ${timeoutMs} ms`);
}

export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => resolve(typeof address === 'object' && address ? address.port : 0));
    });
  });
}

export type CliResult = { code: number | null; stdout: string; stderr: string };

/** The environment every process of a test gets: the fault engine and the test's index prefix. */
export function baseEnv(prefix: string, extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  return {
    ...process.env,
    OPENSEARCH_URL: engineUrl(),
    INDEX_PREFIX: prefix,
    LOG_LEVEL: process.env.FAULT_LOG_LEVEL ?? 'warn',
    ...extra,
  };
}

/** Starts `hsds <args>`; the caller may kill it midway. */
export function startCli(
  args: string[],
  env: NodeJS.ProcessEnv,
): { child: ChildProcess; result: Promise<CliResult> } {
  const child = spawn(process.execPath, ['--max-semi-space-size=8', main, ...args], {
    cwd: root,
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout?.on('data', (chunk: Buffer) => {
    stdout += chunk.toString();
  });
  child.stderr?.on('data', (chunk: Buffer) => {
    stderr += chunk.toString();
  });
  const result = new Promise<CliResult>((resolve) => {
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
  return { child, result };
}

/** Runs `hsds <args>` to its end. */
export function runCli(args: string[], env: NodeJS.ProcessEnv): Promise<CliResult> {
  return startCli(args, env).result;
}

export type ApiProcess = {
  url: string;
  child: ChildProcess;
  /** Everything the process wrote to stderr and stdout so far (its log lines). */
  output: () => string;
  /** Resident memory of the API process, in bytes (from /proc). */
  rss: () => number;
  stop: () => Promise<void>;
};

/** Starts the API (`hsds serve`) on a free port against the fault engine; resolves once it answers. */
export async function startApi(env: NodeJS.ProcessEnv, nodeFlags: string[] = []): Promise<ApiProcess> {
  const port = await freePort();
  const child = spawn(
    process.execPath,
    ['--max-semi-space-size=8', '--max-old-space-size=256', ...nodeFlags, main, 'serve'],
    { cwd: root, env: { ...env, PORT: String(port), HOST: '127.0.0.1' }, stdio: ['ignore', 'pipe', 'pipe'] },
  );
  let output = '';
  child.stdout?.on('data', (chunk: Buffer) => {
    output += chunk.toString();
  });
  child.stderr?.on('data', (chunk: Buffer) => {
    output += chunk.toString();
  });
  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 60_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`the API exited with ${child.exitCode}:\n${output}`);
    if (Date.now() > deadline) {
      child.kill('SIGKILL');
      throw new Error(`the API did not answer within 60 s:\n${output}`);
    }
    const res = await fetch(`${url}/`, { signal: AbortSignal.timeout(2000) }).catch(() => undefined);
    if (res) {
      await res.body?.cancel();
      break;
    }
    await sleep(200);
  }
  return {
    url,
    child,
    output: () => output,
    rss: () => {
      const status = readFileSync(`/proc/${child.pid}/status`, 'utf8');
      const kb = Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0);
      return kb * 1024;
    },
    stop: async () => {
      if (child.exitCode !== null) return;
      const exited = new Promise((r) => child.once('exit', r));
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), 15_000);
      await exited;
      clearTimeout(timer);
    },
  };
}

/** Writes a synthetic dataset of `services` services (the generator's fixed seed). */
export async function generateDataset(dir: string, services: number, seed = 7): Promise<void> {
  const result = await runCli(
    ['generate', '--services', String(services), '--seed', String(seed), '--out', dir, '--quiet'],
    process.env,
  );
  if (result.code !== 0) throw new Error(`generate failed: ${result.stderr}`);
}

/**
 * A synthetic dataset for the test file: written to a temporary folder before its tests, removed
 * after. Returns the folder's path, readable once the file's tests run.
 */
export function useDataset(services: number): () => string {
  let dir: string | undefined;
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'hsds-faults-'));
    await generateDataset(dir, services);
  });
  afterAll(async () => {
    if (dir) await rm(dir, { recursive: true, force: true });
  });
  return () => {
    if (!dir) throw new Error('the dataset is written in beforeAll');
    return dir;
  };
}

/**
 * A directory of `services` synthetic services, imported and published under the returned prefix
 * before the file's tests, its indices dropped after.
 */
export function usePublishedDirectory(tag: string, services: number): string {
  const prefix = uniquePrefix(tag);
  const dataset = useDataset(services);
  beforeAll(async () => {
    const imported = await runCli(['import', dataset(), '--quiet'], baseEnv(prefix));
    if (imported.code !== 0) throw new Error(`the import failed:\n${imported.stderr}`);
  });
  afterAll(async () => {
    await dropIndices(prefix);
  });
  return prefix;
}

/** Every service id the API serves, read through a `minimal=true` dump. */
export async function servedServiceIds(apiUrl: string): Promise<string[]> {
  const res = await fetch(`${apiUrl}/services?minimal=true&format=ndjson`);
  if (res.status !== 200) throw new Error(`minimal dump answered ${res.status}: ${await res.text()}`);
  const text = await res.text();
  return text
    .split('\n')
    .filter(Boolean)
    .map((line) => (JSON.parse(line) as { id: string }).id);
}

/** Deletes every index under the prefix. */
export async function dropIndices(prefix: string): Promise<void> {
  await fetch(`${engineUrl()}/${prefix}-*?expand_wildcards=all`, { method: 'DELETE' }).catch(() => {});
}
