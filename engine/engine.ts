/** `npm run engine:start | engine:stop | engine:status`: the local engine from the command line. */
import { engineStatus, installEngine, startEngine, stopEngine } from './local-engine.ts';

const command = process.argv[2];

try {
  if (command === 'start') {
    const started = Date.now();
    const status = await startEngine();
    if (status.started) {
      console.log(
        `OpenSearch is up at ${status.url} (cluster ${status.health}, ${((Date.now() - started) / 1000).toFixed(1)} s)`,
      );
    } else {
      console.log(`OpenSearch is already running at ${status.url}`);
    }
  } else if (command === 'install') {
    console.log(`engine artifacts in ${installEngine()}`);
  } else if (command === 'stop') {
    console.log((await stopEngine()) ? 'OpenSearch stopped' : 'OpenSearch was not running');
  } else if (command === 'status') {
    const status = await engineStatus();
    console.log(
      status.running
        ? `running at ${status.url} (pid ${status.pid}, cluster ${status.health})`
        : `not running (would listen on ${status.url})`,
    );
    process.exitCode = status.running ? 0 : 3;
  } else {
    console.error('usage: node engine/engine.ts install|start|stop|status');
    process.exitCode = 2;
  }
} catch (error) {
  console.error(error instanceof Error ? error.message : error);
  process.exitCode = 1;
}
