/**
 * The PostgreSQL + PostGIS baseline (../shared/baseline-postgis, or BASELINE_DIR) driven by its own
 * scripts: setup.sh (packages from Debian, a private cluster), gen.mjs, load.mjs,
 * make-scenario.mjs and server.mjs. Nothing of the baseline is copied into the project: its files
 * are copied at run time into bench/.baseline/ (git-ignored), because the baseline keeps its
 * cluster, data and node_modules beside its scripts and its own folder may be read-only.
 */
import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';

export type BaselineSettings = {
  /** The baseline's own folder (its README describes it). */
  source: string;
  /** Where it runs: a copy of its scripts, its node_modules, its cluster (`.pg`). */
  workDir: string;
  pgPort: number;
};

export const defaultBaselineDir = (root: string) =>
  resolve(process.env.BASELINE_DIR ?? join(root, '..', 'shared', 'baseline-postgis'));

const SKIP = new Set(['node_modules', '.pg', 'data', '.gitignore']);

/** Copies the baseline's scripts to its working folder and installs its pinned dependencies once. */
export function prepareBaseline(settings: BaselineSettings, log: (line: string) => void): void {
  if (!existsSync(join(settings.source, 'load.mjs'))) {
    throw new Error(
      `no baseline at ${settings.source}: set BASELINE_DIR to a copy of baseline-postgis (see docs/benchmarks.md)`,
    );
  }
  mkdirSync(settings.workDir, { recursive: true });
  for (const name of readdirSync(settings.source)) {
    if (SKIP.has(name)) continue;
    cpSync(join(settings.source, name), join(settings.workDir, name), { recursive: true });
  }
  const lock = join(settings.workDir, 'package-lock.json');
  const installed = join(settings.workDir, 'node_modules', '.package-lock.json');
  if (!existsSync(installed) || statSync(installed).mtimeMs < statSync(lock).mtimeMs) {
    log(`baseline: npm ci in ${settings.workDir}`);
    execFileSync('npm', ['ci', '--no-audit', '--no-fund'], { cwd: settings.workDir, stdio: 'inherit' });
  }
}

const pgEnv = (settings: BaselineSettings, database: string) => ({
  ...process.env,
  PGHOST: '127.0.0.1',
  PGPORT: String(settings.pgPort),
  PGUSER: 'postgres',
  PGDATABASE: database,
  PGROOT: join(settings.workDir, '.pg'),
});

/** Starts the private cluster (installing PostgreSQL 15 + PostGIS from Debian if missing). */
export function startCluster(settings: BaselineSettings, log: (line: string) => void): void {
  log(`baseline: PostgreSQL on 127.0.0.1:${settings.pgPort} (${join(settings.workDir, '.pg')})`);
  execFileSync('bash', ['setup.sh'], {
    cwd: settings.workDir,
    env: pgEnv(settings, 'hsds'),
    stdio: ['ignore', 'inherit', 'inherit'],
  });
}

export function stopCluster(settings: BaselineSettings): void {
  execFileSync('bash', ['stop.sh'], {
    cwd: settings.workDir,
    env: pgEnv(settings, 'hsds'),
    stdio: ['ignore', 'inherit', 'inherit'],
  });
}

const psql = (settings: BaselineSettings, database: string, args: string[]) =>
  execFileSync(
    '/usr/lib/postgresql/15/bin/psql',
    [
      '-h',
      '127.0.0.1',
      '-p',
      String(settings.pgPort),
      '-U',
      'postgres',
      '-X',
      '-q',
      '-v',
      'ON_ERROR_STOP=1',
      '-d',
      database,
      ...args,
    ],
    { encoding: 'utf8', env: { ...process.env, PGOPTIONS: '-c client_min_messages=warning' } },
  );

/** One database per dataset, each with the baseline's schema, so both stay loaded between runs. */
export function ensureDatabase(settings: BaselineSettings, database: string): void {
  const exists = psql(settings, 'postgres', [
    '-tAc',
    `SELECT 1 FROM pg_database WHERE datname = '${database}'`,
  ]);
  if (exists.trim() !== '1') psql(settings, 'postgres', ['-c', `CREATE DATABASE ${database}`]);
  psql(settings, database, ['-f', join(settings.workDir, 'schema.sql')]);
  psql(settings, database, ['-f', join(settings.workDir, 'indexes.sql')]);
}

export function countServices(settings: BaselineSettings, database: string): number {
  return Number(psql(settings, database, ['-tAc', 'SELECT count(*) FROM services']).trim());
}

/**
 * Queries the baseline's database is still running (other than this one's): requests a run sent
 * that outlived it, still holding the server's connections and the machine's cores.
 */
export function activeQueries(settings: BaselineSettings, database: string): number {
  return Number(
    psql(settings, database, [
      '-tAc',
      "SELECT count(*) FROM pg_stat_activity WHERE datname = current_database() AND state = 'active' AND pid <> pg_backend_pid()",
    ]).trim(),
  );
}

/** Runs one of the baseline's scripts; its stdout is returned, its stderr shown. */
function runScript(settings: BaselineSettings, database: string, args: string[]): Promise<string> {
  return new Promise((resolvePromise, reject) => {
    const child = spawn(process.execPath, args, {
      cwd: settings.workDir,
      env: pgEnv(settings, database),
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    let out = '';
    child.stdout.on('data', (chunk: Buffer) => {
      out += chunk.toString('utf8');
    });
    child.once('error', reject);
    child.once('exit', (code) =>
      code === 0
        ? resolvePromise(out)
        : reject(new Error(`baseline ${args.join(' ')} exited with ${code}:\n${out}`)),
    );
  });
}

/** gen.mjs: the baseline's own generator (UK postcode centroids). */
export async function generateBaselineFile(
  settings: BaselineSettings,
  options: { services: number; seed: number; out: string; postcodes: string },
): Promise<void> {
  await runScript(settings, 'hsds', [
    'gen.mjs',
    '--services',
    String(options.services),
    '--seed',
    String(options.seed),
    '--out',
    options.out,
    '--postcodes',
    options.postcodes,
  ]);
}

export type BaselineLoad = { seconds: number; services: number; summary: Record<string, unknown> };

/** load.mjs into emptied tables (indexes dropped and rebuilt, VACUUM ANALYZE), timed end to end. */
export async function loadBaseline(
  settings: BaselineSettings,
  database: string,
  file: string,
): Promise<BaselineLoad> {
  const started = performance.now();
  const out = await runScript(settings, database, ['load.mjs', file, '--truncate']);
  const seconds = (performance.now() - started) / 1000;
  const last = out
    .trim()
    .split('\n')
    .reverse()
    .find((line) => line.startsWith('{'));
  const summary = (last ? JSON.parse(last) : {}) as Record<string, unknown>;
  const services = Number(summary.loaded_services ?? 0);
  return { seconds, services, summary };
}

export type BaselineScenario = { name: string; note?: string; paths: string[] };

/** make-scenario.mjs: search words, a taxonomy, ids and points picked from the loaded data. */
export async function makeBaselineScenarios(
  settings: BaselineSettings,
  database: string,
  out: string,
): Promise<BaselineScenario[]> {
  await runScript(settings, database, ['make-scenario.mjs', '--out', out]);
  return JSON.parse(readFileSync(out, 'utf8')) as BaselineScenario[];
}

/** server.mjs on `port`, answering once /health does. */
export async function startBaselineServer(
  settings: BaselineSettings,
  database: string,
  port: number,
): Promise<{ url: string; child: ChildProcess }> {
  const child = spawn(process.execPath, ['server.mjs'], {
    cwd: settings.workDir,
    env: { ...pgEnv(settings, database), PORT: String(port) },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const url = `http://127.0.0.1:${port}`;
  await waitHealthy(url, child, 'the baseline server');
  return { url, child };
}

export async function waitHealthy(url: string, child: ChildProcess, what: string): Promise<void> {
  const deadline = Date.now() + 90_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`${what} exited with code ${child.exitCode}`);
    try {
      if ((await fetch(`${url}/health`)).ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 250));
  }
  child.kill('SIGTERM');
  throw new Error(`${what} did not answer /health within 90 s`);
}

export function stopChild(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolvePromise) => {
    const timer = setTimeout(() => child.kill('SIGKILL'), 15_000);
    child.once('exit', () => {
      clearTimeout(timer);
      resolvePromise();
    });
    child.kill('SIGTERM');
  });
}
