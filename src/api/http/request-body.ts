/**
 * Request bodies are read here, once, before any route parses them, and never beyond a limit.
 *
 * - A declared `Content-Length` over the limit is refused at once, unread; a chunked body is
 *   counted as it streams and refused as soon as it passes the limit, so at most the limit is
 *   ever held. What the client still sends after the 413 is @hono/node-server's to discard: it
 *   reads on for at most 500 ms or 64 MB, into nothing, then closes the socket. That linger is
 *   what lets a client that is still writing read the 413 at all: a socket closed at once with
 *   unread data answers with a reset, and the client sees EPIPE instead of the answer (measured:
 *   with `Connection: close` the fault suite's senders got EPIPE). hono/body-limit counts the
 *   same way but answers text, not problem+json, and would buffer a body just to count it again.
 * - Within the limit the body is buffered, so validators and handlers read memory, not the socket.
 * - An empty body declared as JSON means "no parameters" (`{}`), as a missing body does: clients
 *   that always send `Content-Type: application/json` must not get a 400 for sending nothing.
 */
import type { Context, MiddlewareHandler } from 'hono';
import type { AppEnv } from '../types.ts';
import { ApiProblem, problemResponse } from './problem.ts';

/** The limit of a request: the configured default, or a larger one a route declares (a future write API). */
export type BodyLimitOf = (c: Context<AppEnv>) => number;

const isJson = (contentType: string | undefined) =>
  contentType !== undefined && /^application\/([\w.-]+\+)?json\s*(;|$)/i.test(contentType.trim());

const tooLarge = (c: Context<AppEnv>, maxBytes: number, what: string) =>
  problemResponse(
    new ApiProblem(413, `the request body ${what}; this endpoint accepts at most ${maxBytes} bytes`, {
      errors: [{ parameter: '(body)', in: 'body', reason: `must be at most ${maxBytes} bytes` }],
    }),
    c.req.path,
  );

const BODY_METHODS = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

export function boundedBody(limitOf: BodyLimitOf): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    const raw = c.req.raw;
    // Only these methods carry a body here; the fetch Request cannot be rebuilt with one for the
    // others (TRACE, OPTIONS...), which the router answers with 405 or 404 as they are.
    if (!BODY_METHODS.has(raw.method)) return next();
    const contentType = c.req.header('content-type');
    if (!raw.body) {
      if (isJson(contentType)) {
        c.req.raw = new Request(raw, { body: '{}' });
      }
      return next();
    }
    const maxBytes = limitOf(c);
    const declared = c.req.header('content-length');
    if (declared !== undefined && !c.req.header('transfer-encoding') && Number(declared) > maxBytes) {
      return tooLarge(c, maxBytes, `declares ${declared} bytes`);
    }
    const chunks: Uint8Array[] = [];
    let size = 0;
    const reader = raw.body.getReader();
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      size += value.byteLength;
      if (size > maxBytes) {
        // Stop reading here; the server discards the rest, bounded (see above).
        reader.releaseLock();
        return tooLarge(c, maxBytes, `passed ${maxBytes} bytes`);
      }
      chunks.push(value);
    }
    const body = Buffer.concat(chunks, size);
    const empty = body.toString('utf8').trim() === '';
    c.req.raw = new Request(raw, { body: isJson(contentType) && empty ? '{}' : body });
    return next();
  };
}
