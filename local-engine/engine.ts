/**
 * `npm run engine:start | engine:stop | engine:status | engine:java`: the local engine from the
 * command line. `--nodes N` (or ENGINE_NODES) starts a cluster of N nodes on ENGINE_PORT and the
 * ports after it; `--version V` (or ENGINE_VERSION) picks the OpenSearch line (2, 3, or a version).
 */
import { parseArgs } from 'node:util';
import {
  engineJava,
  engineStatus,
  installEngine,
  type LocalEngineOptions,
  resolveEngineVersion,
  startEngine,
  stopEngine,
} from './local-engine.ts';

try {
  const { positionals, values } = parseArgs({
    allowPositionals: true,
    options: { nodes: { type: 'string' }, version: { type: 'string' } },
  });
  const command = positionals[0];
  const options: LocalEngineOptions = {
    ...(values.nodes !== undefined ? { nodes: Number(values.nodes) } : {}),
    ...(values.version !== undefined ? { version: values.version } : {}),
  };
  if (command === 'start') {
    const started = Date.now();
    const status = await startEngine(options);
    const where = status.urls ? `${status.urls.join(', ')} (${status.urls.length} nodes)` : status.url;
    if (status.started) {
      console.log(
        `OpenSearch ${status.version} is up at ${where} (cluster ${status.health}, ${((Date.now() - started) / 1000).toFixed(1)} s)`,
      );
    } else {
      console.log(`OpenSearch ${status.version ?? ''} is already running at ${where}`);
    }
  } else if (command === 'install') {
    console.log(`engine artifacts in ${installEngine(options)}`);
  } else if (command === 'java') {
    // Which Java the version asked would run on; exits 1 naming what is missing when none fits.
    const java = engineJava(options);
    const version = resolveEngineVersion(options.version);
    console.log(`OpenSearch ${version.opensearch} runs on Java ${java.major}: ${java.java} (${java.source})`);
  } else if (command === 'stop') {
    console.log((await stopEngine(options)) ? 'OpenSearch stopped' : 'OpenSearch was not running');
  } else if (command === 'status') {
    const status = await engineStatus(options);
    const where = status.urls ? status.urls.join(', ') : status.url;
    console.log(
      status.running
        ? `OpenSearch ${status.version} running at ${where} (pid ${status.pid}, cluster ${status.health})`
        : `not running (would listen on ${where})`,
    );
    process.exitCode = status.running ? 0 : 3;
  } else {
    console.error(
      'usage: node local-engine/engine.ts install|start|stop|status|java [--nodes N] [--version V]',
    );
    process.exitCode = 2;
  }
} catch (error) {
  console.error(error instanceof Error ? error.message : error);
  process.exitCode = 1;
}
