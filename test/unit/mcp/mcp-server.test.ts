/**
 * The tools' own logic, over the SDK's in-memory transport, with `request` answering as the routes
 * would: the query each tool sends, a relaxed search said to be one, a route's 400 as a tool error.
 * (test/integration/mcp.test.ts drives the same server over HTTP and stdio against the engine.)
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { describe, expect, it } from 'vitest';
import { createMcpServer } from '../../../src/mcp/index.ts';

type TextContent = { type: string; text: string };

async function connect(answer: (path: string) => { status?: number; body: unknown }) {
  const asked: string[] = [];
  const server = createMcpServer({
    baseUrl: 'https://directory.example.org',
    request: (path) => {
      asked.push(path);
      const { status = 200, body } = answer(path);
      return new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });
    },
  });
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await server.connect(serverSide);
  const client = new Client({ name: 'test', version: '1.0.0' });
  await client.connect(clientSide);
  return { client, asked };
}

const page = (contents: unknown[], extra: object = {}) => ({
  total_items: contents.length,
  total_pages: 1,
  page_number: 1,
  size: contents.length,
  first_page: true,
  last_page: true,
  empty: contents.length === 0,
  contents,
  ...extra,
});

describe('search_services', () => {
  it('asks /service_at_locations fully nested, with the arguments as its parameters', async () => {
    const { client, asked } = await connect(() => ({ body: page([]) }));
    await client.callTool({
      name: 'search_services',
      arguments: { text: 'food bank', postcode: 'AB10 1AB', proximity: 2000, free: true, open_now: true },
    });
    const url = new URL(asked[0]!, 'http://x');
    expect(url.pathname).toBe('/service_at_locations');
    expect(Object.fromEntries(url.searchParams)).toEqual({
      search: 'food bank',
      postcode: 'AB10 1AB',
      proximity: '2000',
      free: 'true',
      open_now: 'true',
      per_page: '10',
      full: 'true',
    });
  });

  it('says when the route widened a search that found nothing as typed', async () => {
    const item = { id: 'sal-1', service: { id: 'svc-1', name: 'Pantry' } };
    const { client } = await connect(() => ({ body: page([item], { relaxed: 'meaning' }) }));
    const result = await client.callTool({ name: 'search_services', arguments: { text: 'grub' } });
    expect((result.content as TextContent[])[0]!.text).toBe(
      '1 service found; page 1 of 1: Nothing matched the words as given; these are services close to what they mean.',
    );
    expect(result.structuredContent).toMatchObject({ relaxed: 'meaning', total_items: 1 });
  });

  it("hands a route's problem+json back as a tool error", async () => {
    const { client } = await connect(() => ({
      status: 400,
      body: {
        type: 'about:blank',
        title: 'Bad Request',
        status: 400,
        detail: 'proximity: requires postcode',
      },
    }));
    const result = await client.callTool({ name: 'search_services', arguments: { proximity: 500 } });
    expect(result.isError).toBe(true);
    expect((result.content as TextContent[])[0]!.text).toBe(
      'The directory refused these arguments (400): proximity: requires postcode',
    );
  });
});
