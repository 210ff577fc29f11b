/**
 * The gateway's handle: the only place that holds the OpenSearch client. Every module in
 * src/engine takes an `Engine` and calls the client through `engineCall`, which translates errors.
 *
 * A handle built with `guard` (the API server's) fails fast when the engine is sick: a circuit
 * breaker opens after consecutive timeouts or connection failures and refuses calls at once until
 * a probe finds the engine answering, and a cap on requests in flight refuses calls beyond it. Both
 * sit in the client's transport, so no call gets past them, whichever module makes it.
 */
import { Client, errors, Transport } from '@opensearch-project/opensearch';
import { AwsSigv4Signer } from '@opensearch-project/opensearch/aws';
import type {
  ApiError,
  ApiResponse,
  TransportRequestCallback,
  TransportRequestOptions,
  TransportRequestParams,
  TransportRequestPromise,
} from '@opensearch-project/opensearch/lib/Transport.js';
import type { Logger } from 'pino';
import { shippedVocabulary } from '../index-mapping/vocabulary-files.ts';
import {
  type CircuitBreaker,
  CircuitOpenError,
  createCircuitBreaker,
} from '../resilience/circuit-breaker.ts';
import { createSlots, type Slots } from '../resilience/slots.ts';
import { EngineUnavailableError, type Shed, translateEngineError } from './errors.ts';
import type { RecordCacheSettings } from './record-cache.ts';

export type EngineGuardSettings = {
  /** Consecutive timeouts or connection failures that open the circuit. */
  failureThreshold: number;
  /** How long the circuit stays open before the engine is probed again. */
  cooldownMs: number;
  /** Requests in flight to the engine beyond which calls are refused at once. */
  maxInFlight: number;
};

export type EngineSettings = {
  /** One URL, or the nodes of a cluster comma-separated (requests go round them). */
  url: string;
  /** PEM text of a certificate authority the engine's TLS certificate must chain to. */
  ca?: string | undefined;
  /** Sign every request with AWS SigV4 (Amazon OpenSearch Service / Serverless with IAM auth). */
  aws?: AwsSigning | undefined;
  username?: string | undefined;
  password?: string | undefined;
  requestTimeoutMs: number;
  insecureTls?: boolean;
  /** Every index and alias name starts with `${prefix}-`. Tests use one prefix per file. */
  prefix: string;
  /** Primary shards of a new index; unset: by the cluster's size (layout.ts). */
  shards?: number | undefined;
  /** Replicas of each shard; unset: by the cluster's size (layout.ts). */
  replicas?: number | undefined;
  /** Retries after a connection failure or timeout (default 1). Guarded handles retry only refused connections, once. */
  maxRetries?: number;
  /** Days deleted records stay in the change feed (TOMBSTONE_RETENTION_DAYS; default 30). */
  tombstoneRetentionDays?: number;
  /** Days entries of the write API's audit trail are kept (AUDIT_RETENTION_DAYS; default 365; 0: forever). */
  auditRetentionDays?: number;
  /**
   * How long, in all, a bulk request that failed for want of the engine is sent again (bulk.ts):
   * the API server's writes, which a client waits for, give up within it. Unset: up to six
   * retries with backoff (about half a minute), so an import rides out an engine restart.
   */
  retryWithinMs?: number | undefined;
  /** Fail fast (the API server); without it calls wait out their timeout and retries (the CLI). */
  guard?: EngineGuardSettings;
  /**
   * The search vocabulary's rules for new read indices (src/engine/vocabulary.ts), loaded once at
   * start by the composition root (src/cli/runtime.ts: the shipped rules and SYNONYMS_FILE) and
   * passed in; unset: the shipped ones, read once here when the handle is made.
   */
  synonyms?: readonly string[] | undefined;
  /** Keep records read by id in memory (record-cache.ts); unset: every lookup asks the engine. */
  recordCache?: RecordCacheSettings | undefined;
};

export type AwsSigning = {
  region: string;
  /** `es` for OpenSearch Service domains, `aoss` for OpenSearch Serverless. */
  service: 'es' | 'aoss';
  credentials: { accessKeyId: string; secretAccessKey: string; sessionToken?: string | undefined };
};

/** The settings a handle runs with: the vocabulary resolved once, so no reader of it looks it up. */
export type ResolvedEngineSettings = EngineSettings & { readonly synonyms: readonly string[] };

export type Engine = {
  readonly client: Client;
  readonly settings: ResolvedEngineSettings;
  readonly logger: Logger;
  /** The physical or alias name of one of our indices: `${prefix}-${name}`. */
  name(name: string): string;
  /** The breaker and the in-flight cap of a guarded handle. */
  readonly guard: { breaker: CircuitBreaker; inFlight: Slots } | undefined;
  close(): Promise<void>;
};

// Marks the breaker's own probe, which must go through while the circuit is open.
const PROBE = Object.freeze({ probe: true });

/** What says the engine is sick rather than that it refused one request. */
const isEngineFailure = (error: unknown) =>
  error instanceof errors.TimeoutError ||
  error instanceof errors.ConnectionError ||
  error instanceof errors.NoLivingConnectionsError;

type RequestCallback = (err: ApiError, result: ApiResponse) => void;

/** A transport request made with a callback, as the promise (with `abort`) the client expects without one. */
function asPromise(
  send: (done: RequestCallback) => TransportRequestCallback,
): TransportRequestPromise<ApiResponse> {
  let handle: TransportRequestCallback | undefined;
  const promise = new Promise<ApiResponse>((resolve, reject) => {
    handle = send((err, result) => (err ? reject(err) : resolve(result)));
  }) as TransportRequestPromise<ApiResponse>;
  promise.abort = () => handle?.abort();
  return promise;
}

/** A request in callback form, as a transport sends it on: params, options and callback all given. */
type SendRequest = (
  params: TransportRequestParams,
  options: TransportRequestOptions,
  callback: RequestCallback,
) => TransportRequestCallback;

/**
 * A transport on `Base` whose every request goes through `handle`, in callback form (a request
 * made without a callback is bridged to the promise the client expects), with `send` to pass it on.
 */
function transportThrough(
  Base: typeof Transport,
  handle: (
    send: SendRequest,
    params: TransportRequestParams,
    options: TransportRequestOptions,
    callback: RequestCallback,
  ) => TransportRequestCallback,
): typeof Transport {
  return class extends Base {
    override request(
      params: TransportRequestParams,
      options?: TransportRequestOptions,
    ): TransportRequestPromise<ApiResponse>;
    override request(
      params: TransportRequestParams,
      options?: TransportRequestOptions,
      callback?: RequestCallback,
    ): TransportRequestCallback;
    override request(
      params: TransportRequestParams,
      optionsOrCallback?: TransportRequestOptions | RequestCallback,
      maybeCallback?: RequestCallback,
    ): TransportRequestPromise<ApiResponse> | TransportRequestCallback {
      const options = typeof optionsOrCallback === 'function' ? {} : (optionsOrCallback ?? {});
      const callback = typeof optionsOrCallback === 'function' ? optionsOrCallback : maybeCallback;
      if (!callback) return asPromise((done) => this.request(params, options, done));
      return handle((p, o, done) => super.request(p, o, done), params, options, callback);
    }
  };
}

const emptyResult = (): ApiResponse =>
  ({ body: null, statusCode: null, headers: null, warnings: null, meta: {} }) as unknown as ApiResponse;

/**
 * The client's transport with the breaker and the in-flight cap in front. Refusals are
 * EngineUnavailableError with `shed` set (engineCall passes them through), so the API answers 503
 * with Retry-After. A refused connection is retried once (a keep-alive socket the engine closed);
 * a timeout never is: the read timeout is the whole wait.
 */
function guardedTransport(
  guard: { breaker: CircuitBreaker; inFlight: Slots },
  Base: typeof Transport,
  requestTimeoutMs: number,
): typeof Transport {
  const refuse = (message: string, why: Shed['why'], retryAfterMs: number) =>
    new EngineUnavailableError(message, {
      shed: { why, retryAfterSeconds: Math.max(1, Math.ceil(retryAfterMs / 1000)) },
    });

  return transportThrough(Base, (sendOn, params, options, callback) => {
    if (options.context === PROBE) return sendOn(params, { ...options, maxRetries: 0 }, callback);

    try {
      guard.breaker.admit();
    } catch (error) {
      const refusal =
        error instanceof CircuitOpenError
          ? refuse(
              `the engine is failing; calls are refused for now (${error.message})`,
              'engine-failing',
              error.retryAfterMs,
            )
          : error;
      process.nextTick(callback, refusal as ApiError, emptyResult());
      return { abort: () => {} };
    }
    const release = guard.inFlight.tryAcquire();
    if (!release) {
      // Says nothing about the engine's health either way, so the breaker is not told.
      const refusal = refuse(
        `too many requests in flight to the engine (${guard.inFlight.limit})`,
        'busy',
        1000,
      );
      process.nextTick(callback, refusal as ApiError, emptyResult());
      return { abort: () => {} };
    }
    let current: TransportRequestCallback | undefined;
    let retried = false;
    const send = () => {
      current = sendOn(params, { ...options, maxRetries: 0 }, (err, result) => {
        if (err && isEngineFailure(err) && !(err instanceof errors.TimeoutError) && !retried) {
          retried = true;
          send();
          return;
        }
        release();
        // A request given less time than the engine's read timeout (a look-up a search does
        // without when it is slow: held-words.ts, 300 ms) says nothing about the engine's health
        // when it runs out: on a busy machine five such in a row opened the breaker and turned
        // every search into a 503 for seconds (issue 53, fresh searches at 16 connections).
        const ownBudget =
          typeof options.requestTimeout === 'number' && options.requestTimeout < requestTimeoutMs;
        if (err instanceof errors.TimeoutError && ownBudget) {
          // Neither a failure nor a success.
        } else if (err && isEngineFailure(err)) guard.breaker.recordFailure(err.message);
        else if (!(err instanceof errors.RequestAbortedError)) guard.breaker.recordSuccess();
        callback(err, result);
      });
    };
    send();
    return { abort: () => current?.abort() };
  });
}

const SEARCH_PATH = /(^|\/)_search$/;
const COUNT_PATH = /(^|\/)_count$/;

type ShardsHeader = { _shards?: { failed?: number; failures?: unknown[] } };

/** A count some shards did not answer: an error carrying their failures (errors.ts reads their causes). */
function partialCount(result: ApiResponse): ApiError | undefined {
  const shards = (result?.body as ShardsHeader | null)?._shards;
  if (!shards?.failed) return undefined;
  return new errors.ResponseError({
    ...result,
    statusCode: 503,
    body: {
      error: {
        type: 'partial_count',
        reason: `${shards.failed} shard(s) did not answer the count`,
        failed_shards: shards.failures ?? [],
      },
    },
  } as ApiResponse) as ApiError;
}

/**
 * The client's transport, asking every search and count for all of its shards. By default the
 * engine answers 200 with what the shards it reached hold when one fails (a node lost between the
 * query and the fetch phase), so a page could silently lack services and a scan of the records
 * store (a publish, a sync import) could silently lack records. A search is sent with
 * `allow_partial_search_results=false` and then fails instead; a count (which takes no such
 * parameter) that some shards did not answer is made a failure here. Either failure says the node
 * was lost (errors.ts, NODE_LOST): the read is sent again or answered 503. OpenSearch Serverless
 * takes no such parameter and is left as it is.
 */
function wholeSearchTransport(Base: typeof Transport): typeof Transport {
  return transportThrough(Base, (send, params, options, callback) => {
    const querystring = params.querystring;
    if (SEARCH_PATH.test(params.path) && (querystring === undefined || typeof querystring === 'object')) {
      params = { ...params, querystring: { allow_partial_search_results: false, ...querystring } };
    }
    if (!COUNT_PATH.test(params.path)) return send(params, options, callback);
    return send(params, options, (err, result) => callback(err ?? partialCount(result) ?? null, result));
  });
}

export function createEngine(settings: EngineSettings, logger: Logger): Engine {
  let client: Client | undefined;
  const guard = settings.guard
    ? {
        breaker: createCircuitBreaker({
          name: 'engine',
          failureThreshold: settings.guard.failureThreshold,
          cooldownMs: settings.guard.cooldownMs,
          probe: async () => {
            await client?.transport.request(
              { method: 'GET', path: '/' },
              { requestTimeout: Math.min(settings.requestTimeoutMs, 2000), context: PROBE },
            );
          },
          onStateChange: ({ state, reason }) => {
            if (state === 'open') {
              logger.error(
                { engine: settings.url, reason, retryInMs: settings.guard?.cooldownMs },
                'engine circuit breaker open: the engine is failing, requests get 503 until it answers again',
              );
            } else {
              logger.info(
                { engine: settings.url },
                'engine circuit breaker closed: the engine answers again',
              );
            }
          },
        }),
        inFlight: createSlots(settings.guard.maxInFlight),
      }
    : undefined;
  const nodes = settings.url.split(',');
  const aws = settings.aws;
  // The signer's connection signs each request; its transport holds the credentials.
  const signer = aws
    ? AwsSigv4Signer({
        region: aws.region,
        service: aws.service,
        getCredentials: async () => aws.credentials,
      })
    : undefined;
  const SignedTransport = (signer?.Transport ?? Transport) as typeof Transport;
  const BaseTransport = aws?.service === 'aoss' ? SignedTransport : wholeSearchTransport(SignedTransport);
  client = new Client({
    node: nodes.length > 1 ? nodes : settings.url,
    ...(settings.username
      ? { auth: { username: settings.username, password: settings.password ?? '' } }
      : {}),
    requestTimeout: settings.requestTimeoutMs,
    // Retries belong to callers that know whether a request is safe to repeat.
    maxRetries: settings.maxRetries ?? 1,
    ...(signer ? { Connection: signer.Connection } : {}),
    Transport: guard ? guardedTransport(guard, BaseTransport, settings.requestTimeoutMs) : BaseTransport,
    // With one node, a connection marked dead must be tried again at once when the engine comes back
    // (the pool falls back to dead connections when none is alive). With several, a dead node is
    // left alone while others answer and pinged back into use after a minute.
    resurrectStrategy: nodes.length > 1 ? 'ping' : 'none',
    compression: 'gzip',
    ...(settings.insecureTls || settings.ca
      ? {
          ssl: {
            ...(settings.insecureTls ? { rejectUnauthorized: false } : {}),
            ...(settings.ca ? { ca: settings.ca } : {}),
          },
        }
      : {}),
  });
  return {
    client,
    settings: { ...settings, synonyms: settings.synonyms ?? shippedVocabulary() },
    logger,
    name: (name) => `${settings.prefix}-${name}`,
    guard,
    close: async () => {
      guard?.breaker.dispose();
      await client.close();
    },
  };
}

/**
 * Request options for work whose time grows with the data rather than a lookup: a refresh or a
 * flush after a bulk load (a minute and more at 300,000 services on a busy machine, where the
 * default 10 s cut an import off at the end), waiting for replicas to be allocated.
 */
export const maintenanceRequest = (engine: Engine, atLeastMs = 600_000) => ({
  requestTimeout: Math.max(engine.settings.requestTimeoutMs, atLeastMs),
});

/**
 * Runs a read that is safe to repeat (a search, a get) and, when a node or shard copy was lost under
 * it, sends it once more a moment later: by then the engine has marked the node gone and answers
 * from another copy. Anything else, and a second loss, is the caller's (the API answers 503).
 */
export async function readAgainIfNodeLost<T>(engine: Engine, read: () => Promise<T>): Promise<T> {
  try {
    return await read();
  } catch (error) {
    if (!(error instanceof EngineUnavailableError && error.nodeLost)) throw error;
    engine.logger.warn(
      { err: error.message },
      'a node or shard copy was lost under a read: sending it again',
    );
    await new Promise((resolve) => setTimeout(resolve, 100));
    return read();
  }
}

/** Runs one client call, translating its errors (see errors.ts). */
export async function engineCall<T>(operation: string, fn: () => Promise<T>): Promise<T> {
  try {
    return await fn();
  } catch (error) {
    throw translateEngineError(operation, error);
  }
}
