/**
 * `hsds mcp`: the directory's MCP server over stdio, for an assistant on this machine (Claude
 * Desktop and the like start it as a subprocess). It builds the read side of the API in process
 * and answers the tools through it, as `/mcp` does over HTTP: same filters, same geocoding, same
 * search by meaning. Stdout is the protocol's, so the log goes to stderr.
 */
import { parseArgs } from 'node:util';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { createApp, createGeocoder } from '../api/index.ts';
import { createMcpServer } from '../mcp/index.ts';
import { openUnderstanding } from '../semantic/index.ts';
import { openRuntime } from './runtime.ts';

const usage = `usage: hsds mcp

  Serves the directory's MCP tools (search_services, get_service, list_taxonomy_terms) over
  stdin/stdout, reading the engine at OPENSEARCH_URL (started locally when unset). Record URLs
  use PUBLIC_BASE_URL, else http://localhost:PORT.`;

export async function run(args: string[]): Promise<number> {
  const { values } = parseArgs({ args, options: { help: { type: 'boolean', default: false } } });
  if (values.help) {
    console.error(usage);
    return 0;
  }
  const runtime = await openRuntime({ startLocalEngine: true, loggerName: 'hsds-mcp', logTo: 'stderr' });
  const { config, logger, engine } = runtime;
  const understanding = await openUnderstanding(config, engine, logger);
  const app = createApp({
    config,
    engine,
    geocoder: createGeocoder(config, engine, logger),
    logger,
    ...(understanding ? { understanding } : {}),
  });
  const server = createMcpServer({
    request: (path) => app.request(path),
    baseUrl: (config.PUBLIC_BASE_URL ?? `http://localhost:${config.PORT}`).replace(/\/+$/, ''),
  });
  const transport = new StdioServerTransport();
  const closed = new Promise<void>((resolve) => {
    server.server.onclose = resolve;
  });
  await server.connect(transport);
  // The client closing its end of stdin is the end of the session.
  process.stdin.once('end', () => void server.close());
  process.once('SIGTERM', () => void server.close());
  process.once('SIGINT', () => void server.close());
  await closed;
  await understanding?.close();
  await engine.close();
  return 0;
}
