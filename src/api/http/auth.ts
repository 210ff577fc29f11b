/**
 * Bearer tokens for writes and admin routes. Reads stay open (the ORUK convention).
 *
 * Tokens are configured hashed (API_TOKENS: `name:scope+scope:sha256hex`, one per publisher
 * system), never in clear: a request's token is hashed and compared with each configured hash in
 * constant time. A token has scopes: `write` (PUT and DELETE of records) and `admin` (the admin
 * routes). ADMIN_TOKEN, the older clear-text admin token, still works, with both scopes, and is
 * named `admin`.
 *
 * 401 without a token or with an unknown one, 403 with a token that lacks the scope: problem+json
 * with `WWW-Authenticate` (RFC 6750).
 */
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import type { MiddlewareHandler } from 'hono';
import type { ApiToken, AppEnv, Scope } from '../types.ts';
import { ApiProblem, problemContent, problemResponse } from './problem.ts';

export type { ApiToken, Scope };

export const SCOPES: readonly Scope[] = ['write', 'admin'];

/** How an admin route's OpenAPI document names its security (the `adminToken` bearer scheme). */
export const ADMIN_SECURITY = [{ adminToken: [] }];

/** An admin route's refusals (requireScope('admin')), for its OpenAPI document's responses. */
export const adminAuthResponses = {
  401: problemContent('No or wrong bearer token.'),
  403: problemContent('The token lacks the admin scope.'),
};

const sha256 = (text: string) => createHash('sha256').update(text).digest();

/** The tokens API_TOKENS (and ADMIN_TOKEN) configure; throws naming a malformed entry. */
export function parseTokens(apiTokens: string, adminToken?: string): ApiToken[] {
  const tokens: ApiToken[] = [];
  for (const entry of apiTokens.split(/[,\n]/).map((e) => e.trim())) {
    if (!entry) continue;
    const match = /^([\w.@-]{1,64}):([a-z+]+):([0-9a-f]{64})$/i.exec(entry);
    if (!match) {
      throw new Error(
        `API_TOKENS: "${entry.slice(0, 20)}..." is not name:scopes:sha256hex (e.g. crm:write:<64 hex digits>)`,
      );
    }
    const scopes = match[2]!.toLowerCase().split('+');
    const unknown = scopes.filter((s) => !(SCOPES as readonly string[]).includes(s));
    if (unknown.length > 0) throw new Error(`API_TOKENS: ${match[1]}: unknown scope ${unknown.join(', ')}`);
    if (tokens.some((t) => t.name === match[1])) throw new Error(`API_TOKENS: ${match[1]} is named twice`);
    tokens.push({ name: match[1]!, scopes: scopes as Scope[], hash: Buffer.from(match[3]!, 'hex') });
  }
  if (adminToken) tokens.push({ name: 'admin', scopes: ['write', 'admin'], hash: sha256(adminToken) });
  return tokens;
}

/** A new random token and the API_TOKENS entry that configures it (`hsds token`). */
export function newToken(name: string, scopes: readonly Scope[]): { token: string; entry: string } {
  const token = randomBytes(32).toString('base64url');
  return { token, entry: `${name}:${scopes.join('+')}:${sha256(token).toString('hex')}` };
}

/** The configured token a request's Authorization header carries, if any. */
export function tokenOf(header: string | undefined, tokens: readonly ApiToken[]): ApiToken | undefined {
  const match = /^Bearer\s+(\S+)\s*$/i.exec(header ?? '');
  if (!match) return undefined;
  const hash = sha256(match[1]!);
  let found: ApiToken | undefined;
  // Every configured hash is compared, so the time taken does not say which one matched.
  for (const token of tokens) if (timingSafeEqual(hash, token.hash) && !found) found = token;
  return found;
}

/** Refuses a request without a token of `scope`; the token is then `c.get('token')`. */
export function requireScope(scope: Scope, tokens: () => readonly ApiToken[]): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    const header = c.req.header('authorization');
    const token = tokenOf(header, tokens());
    if (!token) {
      const reason = header ? 'the bearer token is not valid' : 'a bearer token is required';
      const challenge = header
        ? `Bearer realm="hsds", error="invalid_token", scope="${scope}"`
        : `Bearer realm="hsds", scope="${scope}"`;
      return problemResponse(
        new ApiProblem(401, reason, { errors: [{ parameter: 'Authorization', in: 'header', reason }] }),
        c.req.path,
        { 'www-authenticate': challenge },
      );
    }
    if (!token.scopes.includes(scope)) {
      const reason = `the token ${token.name} lacks the ${scope} scope`;
      return problemResponse(
        new ApiProblem(403, reason, { errors: [{ parameter: 'Authorization', in: 'header', reason }] }),
        c.req.path,
        { 'www-authenticate': `Bearer realm="hsds", error="insufficient_scope", scope="${scope}"` },
      );
    }
    c.set('token', token);
    await next();
  };
}
