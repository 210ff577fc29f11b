import { serve } from '@hono/node-server';
import { stopEngine } from '../../engine/local-engine.ts';
import { createApp } from '../api/app.ts';
import { createGeocoder } from '../api/geocoding.ts';
import { createReindexJobs } from '../ingest/reindex-jobs.ts';
import { openRuntime } from './runtime.ts';

export type ServeOptions = {
  /** Load the demo dataset when the read indices are empty (what `npm start` does). */
  demo: boolean;
};

export async function serveCommand(options: ServeOptions) {
  const runtime = await openRuntime({ startLocalEngine: true, loggerName: 'hsds-api' });
  const { config, logger, engine } = runtime;
  if (options.demo) {
    const { loadDemoIfEmpty } = await import('./demo.ts');
    await loadDemoIfEmpty(runtime);
  }
  const geocoder = createGeocoder(config, engine);
  const jobs = config.ADMIN_TOKEN ? createReindexJobs(engine) : undefined;
  const app = createApp({
    config,
    engine,
    geocoder,
    logger,
    now: () => new Date(),
    ...(jobs ? { jobs } : {}),
  });
  const server = serve({ fetch: app.fetch, port: config.PORT, hostname: config.HOST }, (info) => {
    const url = `http://localhost:${info.port}`;
    logger.info({ url, engine: engine.settings.url, profile: config.HSDS_PROFILE }, 'API ready');
    console.error(`HSDS API ready at ${url}  (docs: ${url}/docs)`);
  });

  let closing = false;
  const shutdown = (signal: string) => {
    if (closing) return;
    closing = true;
    logger.info({ signal }, 'shutting down');
    server.close(async () => {
      await engine.close();
      // A local engine this process started goes down with it; one started by `engine:start` stays.
      if (runtime.startedLocalEngine) await stopEngine({ port: config.ENGINE_PORT });
      process.exit(0);
    });
    // Open keep-alive connections must not hold the process forever.
    setTimeout(() => process.exit(0), 10_000).unref();
  };
  process.on('SIGTERM', () => shutdown('SIGTERM'));
  process.on('SIGINT', () => shutdown('SIGINT'));
}
