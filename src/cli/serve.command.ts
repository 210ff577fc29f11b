import { getHeapStatistics } from 'node:v8';
import { serve } from '@hono/node-server';
import type { Logger } from 'pino';
import { stopEngine } from '../../local-engine/local-engine.ts';
import { createApp, createGeocoder, parseTokens, requestLogFields } from '../api/index.ts';
import { createDuplicates } from '../duplicates/index.ts';
import { createEngine } from '../engine/index.ts';
import {
  completeInterruptedWrites,
  createFeedValidation,
  createRecordWrites,
  sourceQuality,
} from '../ingest/index.ts';
import { createSearchRecorder } from '../search-report/search-recorder.ts';
import { openUnderstanding } from '../semantic/index.ts';
import { createWebhookAdmin, startWebhookDelivery } from '../webhooks/index.ts';
import { createImportJobs } from './import-jobs.ts';
import { createReindexJobs } from './reindex-jobs.ts';
import { openRuntime } from './runtime.ts';

/**
 * The record cache's bytes: RECORD_CACHE_MB, but never more than a quarter of the heap this
 * process may grow to (`--max-old-space-size`, else Node's default), so a large setting cannot
 * run it out of memory; a setting cut down is logged.
 */
function recordCacheBytes(megabytes: number, logger: Logger): number {
  const wanted = Math.round(megabytes * 1024 * 1024);
  const allowed = Math.floor(getHeapStatistics().heap_size_limit / 4);
  if (wanted <= allowed) return wanted;
  logger.warn(
    { RECORD_CACHE_MB: megabytes, allowed_mb: Math.floor(allowed / 1024 / 1024) },
    'RECORD_CACHE_MB is over a quarter of the heap limit (--max-old-space-size): the record cache keeps that quarter',
  );
  return allowed;
}

/** Whether HOST binds every interface (the default): then other machines can reach the API. */
const isWildcard = (host: string) => host === '0.0.0.0' || host === '::' || host === '[::]';

/**
 * The line a person reads when the API is up: where to open it, and who else can reach it. HOST
 * defaults to every interface (what a container needs), which a laptop user should know.
 */
export function readyLine(host: string, port: number): string {
  const shown = isWildcard(host) ? 'localhost' : host.includes(':') ? `[${host}]` : host;
  const url = `http://${shown}:${port}`;
  const reach = isWildcard(host)
    ? `listening on every network interface (HOST=${host}; HOST=127.0.0.1 keeps it to this machine)`
    : `listening on ${host} only (HOST)`;
  return `HSDS API ready at ${url}  (docs: ${url}/docs; ${reach})`;
}

/**
 * One line for a port the API cannot listen on, instead of Node's stack trace; undefined for an
 * error that is not about the address (that one is thrown as it is).
 */
export function listenFailure(error: unknown, host: string, port: number): string | undefined {
  const code = error instanceof Error && 'code' in error ? error.code : undefined;
  if (code === 'EADDRINUSE') {
    return `Cannot start the API: port ${port} on ${host} is already in use (another server, or this API already running). Stop it, or choose another port: PORT=${port === 65535 ? 3001 : port + 1}.`;
  }
  if (code === 'EACCES') {
    return `Cannot start the API: not allowed to listen on port ${port} on ${host} (ports below 1024 need privileges). Choose another: PORT=3000.`;
  }
  if (code === 'EADDRNOTAVAIL') {
    return `Cannot start the API: HOST=${host} is not an address of this machine. Use 0.0.0.0 (every interface) or 127.0.0.1 (this machine only).`;
  }
  return undefined;
}

export type ServeOptions = {
  /** Load the demo dataset when the read indices are empty (what `npm start` does). */
  demo: boolean;
};

export async function serveCommand(options: ServeOptions) {
  const runtime = await openRuntime({
    startLocalEngine: true,
    loggerName: 'hsds-api',
    // Every line written while a request runs carries its id, the engine gateway's too.
    logFields: requestLogFields,
  });
  const { config, logger } = runtime;
  if (options.demo) {
    const { loadDemoIfEmpty } = await import('./demo.ts');
    await loadDemoIfEmpty(runtime);
  }
  // Requests are served through a handle that fails fast: read timeouts, a circuit breaker and a
  // cap on requests in flight, so a sick engine costs clients a quick 503, not a pile-up. Admin
  // reindex jobs keep the runtime's handle (the CLI's longer timeouts and retries): a bulk write
  // is not a read, and a job must not be cut short by the readers' breaker.
  const engine = createEngine(
    {
      ...runtime.engine.settings,
      requestTimeoutMs: config.OPENSEARCH_READ_TIMEOUT_MS,
      guard: {
        failureThreshold: config.ENGINE_BREAKER_FAILURES,
        cooldownMs: config.ENGINE_BREAKER_COOLDOWN_MS,
        maxInFlight: config.ENGINE_MAX_IN_FLIGHT,
      },
      recordCache: {
        maxBytes: recordCacheBytes(config.RECORD_CACHE_MB, logger),
        maxStaleMs: config.RECORD_CACHE_MAX_STALE_MS,
      },
    },
    logger,
  );
  const geocoder = createGeocoder(config, engine, logger);
  // Admin reindex jobs exist when some token may start them (ADMIN_TOKEN, or API_TOKENS' admin scope).
  const jobs = parseTokens(config.API_TOKENS, config.ADMIN_TOKEN).some((t) => t.scopes.includes('admin'))
    ? createReindexJobs(runtime.engine)
    : undefined;
  // Import jobs (/admin/imports, the console's Run page) exist on the same terms.
  const imports = jobs
    ? createImportJobs(
        runtime.engine,
        config.DEFAULT_COUNTRY ? { defaultCountry: config.DEFAULT_COUNTRY } : {},
      )
    : undefined;
  const understanding = await openUnderstanding(config, engine, logger);
  // Search counts are written with the runtime's handle too: a write, kept apart from the readers' breaker.
  const searchLog =
    config.SEARCH_LOG_RETENTION_DAYS > 0
      ? createSearchRecorder(runtime.engine, {
          retentionDays: config.SEARCH_LOG_RETENTION_DAYS,
          minDays: config.SEARCH_LOG_MIN_DAYS,
          logger,
        })
      : undefined;
  // Change webhooks: every server runs a worker; the holder of the `webhooks` lease delivers. It
  // takes the runtime's handle (no readers' breaker): delivery is background work, like a write.
  const webhookDelivery = startWebhookDelivery(runtime.engine, {
    baseUrl: config.PUBLIC_BASE_URL ?? `http://localhost:${config.PORT}`,
    retryMs: config.WEBHOOK_RETRY_HOURS * 3_600_000,
    timeoutMs: config.WEBHOOK_TIMEOUT_MS,
    allowPrivate: config.WEBHOOK_ALLOW_PRIVATE_TARGETS,
    logger,
  });
  // Writes and marks are answered to a client who waits: their handle is the runtime's, but
  // gives up retrying a dead engine within OPENSEARCH_REQUEST_TIMEOUT_MS (an import retries for
  // half a minute). What a write acknowledged is in the engine's translog by then either way.
  const writing = createEngine(
    { ...runtime.engine.settings, retryWithinMs: config.OPENSEARCH_REQUEST_TIMEOUT_MS },
    logger,
  );
  const app = createApp({
    config,
    engine,
    geocoder,
    logger,
    ...(jobs ? { jobs } : {}),
    ...(imports ? { imports } : {}),
    ...(searchLog ? { searchLog } : {}),
    // Writes take the writers' handle: an import and a publish, not a read.
    writes: createRecordWrites(writing),
    validation: createFeedValidation({
      remote: runtime.config.VALIDATE_REMOTE,
      ...(runtime.config.DEFAULT_COUNTRY ? { defaultCountry: runtime.config.DEFAULT_COUNTRY } : {}),
    }),
    sources: () => sourceQuality(runtime.engine),
    // Marks publish what they change: the writers' handle, as writes.
    duplicates: createDuplicates(writing),
    ...(understanding ? { understanding } : {}),
    webhooks: createWebhookAdmin(runtime.engine, {
      allowPrivate: config.WEBHOOK_ALLOW_PRIVATE_TARGETS,
      maxTargets: config.WEBHOOK_MAX_TARGETS,
    }),
  });
  // A write a killed process left unaudited is audited now, not at the next write (src/ingest/write/write.ts).
  if (config.API_TOKENS || config.ADMIN_TOKEN) {
    completeInterruptedWrites(runtime.engine).catch((error: unknown) =>
      logger.warn({ err: error }, 'could not complete the audit of interrupted writes; the next write does'),
    );
  }
  let closing = false;
  // Everything started above, stopped in order: on a signal, and when the port cannot be had.
  const release = async () => {
    // The searches counted since the last write go to the engine first.
    await searchLog?.stop();
    await understanding?.close();
    // In-flight deliveries are cut short (delivered again by whoever delivers next) and the lease freed.
    await webhookDelivery.stop();
    await engine.close();
    await writing.close();
    await runtime.engine.close();
    // A local engine this process started goes down with it; one started by `engine:start` stays.
    if (runtime.startedLocalEngine) await stopEngine({ port: config.ENGINE_PORT });
  };

  const server = serve({ fetch: app.fetch, port: config.PORT, hostname: config.HOST }, (info) => {
    const url = `http://localhost:${info.port}`;
    logger.info(
      { url, host: config.HOST, engine: engine.settings.url, profile: config.HSDS_PROFILE },
      'API ready',
    );
    console.error(readyLine(config.HOST, info.port));
  });
  server.on('error', (error) => {
    const message = listenFailure(error, config.HOST, config.PORT);
    if (!message) throw error;
    logger.error({ err: error.message, port: config.PORT, host: config.HOST }, 'cannot listen');
    console.error(message);
    closing = true;
    void release().finally(() => process.exit(1));
  });

  const shutdown = (signal: string) => {
    if (closing) return;
    closing = true;
    logger.info({ signal }, 'shutting down');
    // Written now as well as below: open keep-alive connections may hold the close until the exit.
    void searchLog?.flush();
    server.close(async () => {
      await release();
      process.exit(0);
    });
    // Open keep-alive connections must not hold the process forever.
    setTimeout(() => process.exit(0), 10_000).unref();
  };
  process.on('SIGTERM', () => shutdown('SIGTERM'));
  process.on('SIGINT', () => shutdown('SIGINT'));
}
