/**
 * What stands before every write route (write.routes.ts): a bearer token of the `write`
 * scope (auth.ts), then the rate limit per token. Reads on the same paths pass both untouched.
 */
import type { MiddlewareHandler } from 'hono';
import { rateLimiter } from 'hono-rate-limiter';
import { requireScope } from '../http/auth.ts';
import { ApiProblem, problemAnswer } from '../http/problem.ts';
import type { ApiToken, AppContext, AppEnv } from '../types.ts';

const isWrite = (c: AppContext) => c.req.method === 'PUT' || c.req.method === 'DELETE';

/**
 * The two middlewares of the write routes, made once and used on every one of them: `authenticate`
 * sets the token, `limitRate` counts its writes.
 */
export function writeGuards(tokens: readonly ApiToken[]): {
  authenticate: MiddlewareHandler<AppEnv>;
  limitRate: MiddlewareHandler<AppEnv>;
} {
  const authenticate: MiddlewareHandler<AppEnv> = async (c, next) => {
    if (!isWrite(c)) return next();
    return requireScope('write', () => tokens)(c, next);
  };
  // One limiter (one store) for every write route: WRITE_RATE_LIMIT counts a token's writes of
  // every resource type together.
  const limitRate = rateLimiter<AppEnv>({
    windowMs: 60_000,
    limit: (c) => c.get('deps').config.WRITE_RATE_LIMIT,
    standardHeaders: 'draft-7',
    skip: (c) => !isWrite(c),
    keyGenerator: (c) => c.get('token')?.name ?? 'anonymous',
    handler: (c) =>
      problemAnswer(
        c,
        new ApiProblem(
          429,
          `the token ${c.get('token')?.name} made more than ${c.get('deps').config.WRITE_RATE_LIMIT} writes this minute`,
        ),
        c.req.path,
        { 'retry-after': String(Math.ceil(60 - ((Date.now() / 1000) % 60))) },
      ),
  });
  return { authenticate, limitRate };
}
