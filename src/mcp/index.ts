/**
 * The MCP server's public surface: the API mounts it at /mcp (src/api/routes/mcp.routes.ts), the
 * CLI serves it over stdio (`hsds mcp`). It reads the directory through the API's own routes only.
 */
export { answerMcpRequest } from './http.ts';
export { createMcpServer, type McpDeps } from './mcp-server.ts';
