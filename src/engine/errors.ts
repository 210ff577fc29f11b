/**
 * Engine errors, translated once (docs/style.md 12). Callers see these three types; engine error bodies
 * never reach clients.
 */
import { errors } from '@opensearch-project/opensearch';

/** Why the gateway refused a call without sending it, and when to try again. */
export type Shed = { why: 'engine-failing' | 'busy'; retryAfterSeconds: number };

/** The engine could not be reached or did not answer in time: the API answers 503. */
export class EngineUnavailableError extends Error {
  override readonly name = 'EngineUnavailableError';
  /**
   * Set when the gateway refused the call without sending it: when to try again, and no need to
   * log it per request (the breaker logs its opening). `why` says whose limit it was: the engine
   * failing (`engine-failing`, the circuit is open) or this process's own cap on requests in
   * flight (`busy`), which says nothing about the engine and is answered as this server busy.
   */
  readonly shed: Shed | undefined;
  /**
   * Set when the engine answered that a node or a shard copy went away mid-request (a node killed
   * or restarted, a shard moving): a read sent again a moment later is answered by another copy.
   */
  readonly nodeLost: boolean;
  constructor(message: string, options?: { cause?: unknown; shed?: Shed; nodeLost?: boolean }) {
    super(message, options);
    this.shed = options?.shed;
    this.nodeLost = options?.nodeLost ?? false;
  }
}

/** The document or index does not exist: the API answers 404. */
export class EngineNotFoundError extends Error {
  override readonly name = 'EngineNotFoundError';
}

/** The engine refused our own request (a bug on our side, or a conflict): logged, 500. */
export class EngineRequestError extends Error {
  override readonly name = 'EngineRequestError';
  readonly statusCode: number;
  readonly reason: string;
  constructor(operation: string, statusCode: number, reason: string) {
    super(`${operation}: the engine answered ${statusCode}: ${reason}`);
    this.statusCode = statusCode;
    this.reason = reason;
  }
}

/** The engine refused to create an index (or template) because one of that name is already there. */
export const isAlreadyExists = (error: unknown): boolean =>
  error instanceof EngineRequestError && error.reason.includes('resource_already_exists');

function reasonOf(body: unknown): string {
  if (body && typeof body === 'object' && 'error' in body) {
    const error = (body as { error: unknown }).error;
    if (typeof error === 'string') return error;
    if (error && typeof error === 'object') {
      const e = error as { type?: string; reason?: string; root_cause?: { reason?: string }[] };
      return [e.type, e.reason ?? e.root_cause?.[0]?.reason].filter(Boolean).join(': ');
    }
  }
  return 'unknown error';
}

/**
 * Error types that say a node or a shard copy went away while the request was served, not that
 * the request was wrong. The engine answers them with 500 (a transport exception's default status),
 * or 404 for a point in time whose context lived on the lost node. Measured on a local three-node
 * cluster (16 clients, a node SIGKILLed three times): about 1 search in 1,600 failed its fetch
 * phase with node_disconnected_exception, as a partial page or, when only that shard held hits,
 * as a 500 "all shards failed".
 */
const NODE_LOST = new Set([
  'node_disconnected_exception',
  'node_not_connected_exception',
  'node_closed_exception',
  'connect_transport_exception',
  'send_request_transport_exception',
  'receive_timeout_transport_exception',
  'no_shard_available_action_exception',
  'unavailable_shards_exception',
  'primary_missing_action_exception',
  'shard_not_found_exception',
  'illegal_index_shard_state_exception',
  'index_shard_closed_exception',
  'search_context_missing_exception',
]);

/** Every `type` in an engine error body: the error, its causes, root causes and shard failures. */
function errorTypes(value: unknown, out: string[] = [], depth = 0): string[] {
  if (depth > 6 || !value || typeof value !== 'object') return out;
  if (Array.isArray(value)) {
    for (const item of value.slice(0, 20)) errorTypes(item, out, depth + 1);
    return out;
  }
  const node = value as Record<string, unknown>;
  if (typeof node.type === 'string') out.push(node.type);
  for (const key of ['error', 'caused_by', 'root_cause', 'failed_shards', 'reason', 'failures'])
    if (key in node) errorTypes(node[key], out, depth + 1);
  return out;
}

/** The first cause in an engine error body that says a node or shard copy was lost (NODE_LOST). */
const nodeLostCause = (body: unknown): string | undefined =>
  errorTypes(body).find((type) => NODE_LOST.has(type));

/** Maps a client error to one of ours; anything unexpected passes through unchanged. */
export function translateEngineError(operation: string, error: unknown): Error {
  if (
    error instanceof errors.ConnectionError ||
    error instanceof errors.TimeoutError ||
    error instanceof errors.NoLivingConnectionsError
  ) {
    return new EngineUnavailableError(`${operation}: the engine is unreachable (${error.message})`, {
      cause: error,
    });
  }
  if (error instanceof errors.ResponseError) {
    const status = error.statusCode;
    const lost = status === 400 ? undefined : nodeLostCause(error.body);
    if (lost) {
      return new EngineUnavailableError(
        `${operation}: a node or shard copy was lost (${lost}; the engine answered ${status}: ${reasonOf(error.body)})`,
        { cause: error, nodeLost: true },
      );
    }
    if (status === 404) return new EngineNotFoundError(`${operation}: not found`, { cause: error });
    // 429 and 503 mean an overloaded or recovering cluster: the client may retry later.
    if (status === 429 || status === 503 || status === 502 || status === 504) {
      return new EngineUnavailableError(`${operation}: the engine is busy or recovering (${status})`, {
        cause: error,
      });
    }
    return new EngineRequestError(operation, status, reasonOf(error.body));
  }
  return error instanceof Error ? error : new Error(String(error));
}
