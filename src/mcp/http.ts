/**
 * `/mcp` over Streamable HTTP, stateless: each POST gets a server and a transport of its own and
 * a JSON answer. No session lives in the process, so any API process behind a load balancer can
 * answer any request, and nothing needs cleaning up when a client goes away.
 *
 * One POST may carry a JSON-RPC batch (protocol 2025-03-26 allows it, and the SDK takes up to
 * 100 messages whatever version a client names; 2025-06-18 and later clients never send one). Its
 * tool calls would all start at once, each a search the API runs: one anonymous request could
 * then hold every request the server lets into the engine and starve everyone else. So the calls
 * of one request read the API `MCP_READS_AT_ONCE` at a time, the others waiting their turn: a
 * batch costs what as many readers in a row would, and its answer comes when its last call does.
 */
import { WebStandardStreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js';
import { createMcpServer, type McpDeps } from './mcp-server.ts';

/** The reads one MCP request makes at once (a single call makes one). */
export const MCP_READS_AT_ONCE = 2;

/** `request`, run at most `limit` at a time, the rest in the order they came. */
export function oneRequestsReads(request: McpDeps['request'], limit: number): McpDeps['request'] {
  let running = 0;
  const waiting: (() => void)[] = [];
  return async (path) => {
    if (running >= limit) await new Promise<void>((resolve) => waiting.push(resolve));
    else running += 1;
    try {
      return await request(path);
    } finally {
      // The slot passes straight to the next waiting call, so `running` never dips between them.
      const next = waiting.shift();
      if (next) next();
      else running -= 1;
    }
  };
}

export async function answerMcpRequest(request: Request, deps: McpDeps): Promise<Response> {
  const server = createMcpServer({ ...deps, request: oneRequestsReads(deps.request, MCP_READS_AT_ONCE) });
  const transport = new WebStandardStreamableHTTPServerTransport({
    sessionIdGenerator: undefined,
    enableJsonResponse: true,
  });
  await server.connect(transport);
  try {
    return await transport.handleRequest(request);
  } finally {
    // The answer is whole (JSON, not a stream) by now.
    await server.close();
  }
}
