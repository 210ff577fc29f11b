/**
 * Request ids: every request gets one, taken from its `X-Request-Id` when that is a plain token
 * (a proxy's or a client's, so one id follows a request across systems), else a new UUID. It is
 * sent back in `X-Request-Id`, carried by every problem+json answer (`request_id`, problem.ts), and
 * by every log line written while the request runs: the request's own line, and through
 * `requestLogFields` (a pino mixin, src/cli/serve.command.ts) any other, the engine gateway's included.
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import { randomUUID } from 'node:crypto';
import type { MiddlewareHandler } from 'hono';

export const REQUEST_ID_HEADER = 'X-Request-Id';

const scope = new AsyncLocalStorage<string>();

/** Visible ASCII only, and short: an id is written into log lines and headers as it came. */
const ACCEPTED = /^[\x21-\x7e]{1,128}$/;

/** The id a request is known by: the header's when acceptable, else a new one. */
export const requestIdOf = (header: string | undefined): string =>
  header !== undefined && ACCEPTED.test(header) ? header : randomUUID();

/** The id of the request being served, when called while one is. */
export const currentRequestId = (): string | undefined => scope.getStore();

/** The fields a log line written during a request carries (a pino `mixin`). */
export const requestLogFields = (): { request_id?: string } => {
  const id = scope.getStore();
  return id === undefined ? {} : { request_id: id };
};

/** Gives the request its id (context `requestId`), runs it in that id's scope, answers with the id. */
export function requestIds(): MiddlewareHandler<{ Variables: { requestId: string } }> {
  return async (c, next) => {
    const id = requestIdOf(c.req.header(REQUEST_ID_HEADER));
    c.set('requestId', id);
    await scope.run(id, next);
    c.res.headers.set(REQUEST_ID_HEADER, id);
  };
}
