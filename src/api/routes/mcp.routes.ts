/**
 * POST /mcp: the directory's MCP server (src/mcp) over Streamable HTTP, for assistants. Its tools
 * read through this same app (`app.request`), so they answer exactly as the list endpoints do.
 * Reads are public, so /mcp is too, unless MCP_TOKEN is set: then it takes that bearer token
 * (an operator who wants to know which assistants use it, or to keep it off the open web).
 * A plain route, outside the OpenAPI document: MCP describes its own tools (tools/list).
 */
import { createHash } from 'node:crypto';
import { answerMcpRequest } from '../../mcp/index.ts';
import { tokenOf } from '../http/auth.ts';
import { ApiProblem, problemResponse } from '../http/problem.ts';
import { publicBaseUrl } from '../http/public-url.ts';
import type { App } from '../types.ts';

export function registerMcpRoute(app: App, token: string | undefined) {
  const tokens = token
    ? [{ name: 'mcp', scopes: [], hash: createHash('sha256').update(token).digest() }]
    : undefined;
  app.all('/mcp', async (c) => {
    if (tokens && !tokenOf(c.req.header('authorization'), tokens)) {
      const reason = c.req.header('authorization')
        ? 'the bearer token is not valid'
        : 'a bearer token is required';
      return problemResponse(
        new ApiProblem(401, reason, { errors: [{ parameter: 'Authorization', in: 'header', reason }] }),
        c.req.path,
        { 'www-authenticate': 'Bearer realm="hsds-mcp"' },
      );
    }
    const baseUrl = publicBaseUrl(c, c.get('deps').config);
    return answerMcpRequest(c.req.raw, { request: (path) => app.request(path), baseUrl });
  });
}
