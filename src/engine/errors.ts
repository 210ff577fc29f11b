/**
 * Engine errors, translated once (docs/style.md 12). Callers see these three types; engine error bodies
 * never reach clients.
 */
import { errors } from '@opensearch-project/opensearch';

/** The engine could not be reached or did not answer in time: the API answers 503. */
export class EngineUnavailableError extends Error {
  override readonly name = 'EngineUnavailableError';
  /**
   * Set when the gateway refused the call without sending it (circuit open, too many requests in
   * flight): when to try again, and no need to log it per request (the breaker logs its opening).
   */
  readonly shed: { retryAfterSeconds: number } | undefined;
  constructor(message: string, options?: { cause?: unknown; shed?: { retryAfterSeconds: number } }) {
    super(message, options);
    this.shed = options?.shed;
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
