/**
 * `/mcp` over Streamable HTTP, stateless: each POST gets a server and a transport of its own and
 * a JSON answer. No session lives in the process, so any API process behind a load balancer can
 * answer any request, and nothing needs cleaning up when a client goes away.
 */
import { WebStandardStreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js';
import { createMcpServer, type McpDeps } from './mcp-server.ts';

export async function answerMcpRequest(request: Request, deps: McpDeps): Promise<Response> {
  const server = createMcpServer(deps);
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
