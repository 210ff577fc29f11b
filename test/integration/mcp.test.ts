/**
 * The MCP server (src/mcp), driven by the SDK's own client against the real engine: over
 * Streamable HTTP at /mcp on a loopback port (the app served as `hsds serve` serves it), and over
 * stdio (`node src/cli/main.ts mcp`, a real process). It lists its tools; a postcode search gets
 * the same services, in the same order, as /service_at_locations does for that postcode; each
 * result's text says only what the record says; a bad argument is the route's 400 as a tool error.
 */
import { fileURLToPath } from 'node:url';
import { serve } from '@hono/node-server';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import * as turf from '@turf/turf';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { App } from '../../src/api/types.ts';
import { getPage } from '../support/api-requests.ts';
import { createTestApp, createTestEngine, dropTestIndices } from '../support/engine.ts';
import { type FakePostcodesIo, startFakePostcodesIo } from '../support/fake-postcodes-io.ts';
import { seedReadIndices } from '../support/seed.ts';

const engine = createTestEngine('mcp');
const MCP_TOKEN = 'mcp-test-token-0123456789';
let fake: FakePostcodesIo;
let app: App;
let server: ReturnType<typeof serve>;
let baseUrl: string;

// AB10 1AB, as the ONSPD fixture places it (Union Street, Aberdeen).
const AB10_1AB = { lat: 57.149606, lon: -2.096916 };
const ORG = '0a000000-0000-4000-8000-000000000001';
const TAXONOMY = '0b000000-0000-4000-8000-000000000001';
const FOOD = '0c000000-0000-4000-8000-000000000001';
const uuid = (group: number, n: number) =>
  `${group.toString(16).padStart(8, '0')}-0000-4000-8000-${n.toString(16).padStart(12, '0')}`;

function offset(metres: number, bearing: number) {
  const [lon, lat] = turf.destination([AB10_1AB.lon, AB10_1AB.lat], metres / 1000, bearing).geometry
    .coordinates;
  return { lat: lat!, lon: lon! };
}

const term = {
  id: FOOD,
  name: 'Food banks',
  description: 'Free food parcels',
  taxonomy_id: TAXONOMY,
  code: 'FOOD',
};

/** A service with one location `metres` from AB10 1AB; `detailed` ones have an address, phone and hours. */
function service(n: number, name: string, metres: number, detailed: boolean, food = false) {
  const at = offset(metres, 90 * n);
  return {
    id: uuid(n, 1),
    name,
    description: `${name}: help for anyone who asks.`,
    status: 'active',
    organization_id: ORG,
    organization: { id: ORG, name: 'Aberdeen Help Trust', description: 'x' },
    last_modified: '2025-06-01T00:00:00.000Z',
    attributes: food
      ? [
          {
            id: uuid(n, 9),
            link_id: uuid(n, 1),
            link_entity: 'service',
            taxonomy_term_id: FOOD,
            taxonomy_term: term,
          },
        ]
      : [],
    phones: detailed ? [{ id: uuid(n, 5), number: `01224 00000${n}` }] : [],
    schedules: detailed
      ? [{ id: uuid(n, 6), freq: 'WEEKLY', byday: 'MO,WE', opens_at: '09:00', closes_at: '17:00' }]
      : [],
    service_at_locations: [
      {
        id: uuid(n, 3),
        location: {
          id: uuid(n, 2),
          location_type: 'physical',
          name: `${name} hall`,
          latitude: at.lat,
          longitude: at.lon,
          addresses: detailed
            ? [
                {
                  id: uuid(n, 4),
                  address_1: `${n} Union Street`,
                  city: 'Aberdeen',
                  state_province: 'Aberdeenshire',
                  postal_code: 'AB10 1AB',
                  country: 'GB',
                  address_type: 'physical',
                },
              ]
            : [],
        },
      },
    ],
  };
}

const services = [
  service(1, 'Union Street food bank', 400, true, true),
  service(2, 'Debt advice drop-in', 1_500, false),
  service(3, 'Community pantry', 3_000, true, true),
  service(4, 'Far away lunch club', 30_000, true, true),
];

beforeAll(async () => {
  fake = await startFakePostcodesIo();
  const overrides = { GEOCODERS: 'postcodes-io', POSTCODES_IO_URL: fake.url, GEOCODER_FAILURE_TTL_MS: '0' };
  app = createTestApp(engine, { ...overrides, MCP_TOKEN });
  await seedReadIndices(engine, {
    services,
    taxonomies: [{ id: TAXONOMY, name: 'Needs', description: 'What people need' }],
    taxonomyTerms: [term],
  });
  await new Promise<void>((resolve) => {
    server = serve({ fetch: app.fetch, port: 0, hostname: '127.0.0.1' }, (info) => {
      baseUrl = `http://127.0.0.1:${info.port}`;
      resolve();
    });
  });
});
afterAll(async () => {
  await new Promise((resolve) => server?.close(resolve));
  await fake?.close();
  await dropTestIndices(engine);
});

async function httpClient(token: string | null = MCP_TOKEN): Promise<Client> {
  const client = new Client({ name: 'hsds-test', version: '1.0.0' });
  const headers: Record<string, string> = token ? { authorization: `Bearer ${token}` } : {};
  await client.connect(
    new StreamableHTTPClientTransport(new URL(`${baseUrl}/mcp`), { requestInit: { headers } }),
  );
  return client;
}

type Summary = { service_id: string; service_at_location_id: string; name: string; distance_m?: number };
type TextContent = { type: string; text: string };

describe('/mcp over Streamable HTTP', () => {
  it('lists the three read-only tools, each told when to use it', async () => {
    const client = await httpClient();
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name).sort()).toEqual([
      'get_service',
      'list_taxonomy_terms',
      'search_services',
    ]);
    for (const tool of tools) {
      expect(tool.description).toMatch(/Use it/);
      expect(tool.annotations?.readOnlyHint).toBe(true);
    }
    const search = tools.find((t) => t.name === 'search_services')!;
    expect(Object.keys(search.inputSchema.properties ?? {})).toEqual(
      expect.arrayContaining([
        'text',
        'postcode',
        'proximity',
        'taxonomy_term_id',
        'organization_id',
        'open_now',
      ]),
    );
    await client.close();
  });

  it('finds the same services for a postcode as /service_at_locations, nearest first', async () => {
    const page = await getPage(app, '/service_at_locations?postcode=AB10%201AB&proximity=10000', null);
    expect(page.contents.length).toBe(3);
    const client = await httpClient();
    const result = await client.callTool({
      name: 'search_services',
      arguments: { postcode: 'AB10 1AB', proximity: 10_000 },
    });
    expect(result.isError).toBeFalsy();
    const found = (result.structuredContent as { services: Summary[]; total_items: number }).services;
    expect(found.map((s) => s.service_at_location_id)).toEqual(page.contents.map((item) => item.id));
    expect(found.map((s) => s.name)).toEqual([
      'Union Street food bank',
      'Debt advice drop-in',
      'Community pantry',
    ]);
    expect(found[0]!.distance_m).toBe(Math.round(page.contents[0]!.distance as number));

    // The text of each: what the record says, and nothing it does not.
    const texts = (result.content as TextContent[]).map((c) => c.text);
    expect(texts[0]).toBe('3 services found; page 1 of 1:');
    expect(texts[1]).toBe(
      [
        '1. Union Street food bank (Aberdeen Help Trust)',
        'Location: Union Street food bank hall',
        'Address: 1 Union Street, Aberdeen, Aberdeenshire, AB10 1AB',
        'Phone: 01224 000001',
        'Opening times: Monday, Wednesday 09:00-17:00',
        'Distance: 400 m from AB10 1AB',
        `Record: http://localhost:3000/services/${uuid(1, 1)}`,
      ].join('\n'),
    );
    // No address, phone or hours in the record: no such lines.
    expect(texts[2]).toBe(
      [
        '2. Debt advice drop-in (Aberdeen Help Trust)',
        'Location: Debt advice drop-in hall',
        'Distance: 1.5 km from AB10 1AB',
        `Record: http://localhost:3000/services/${uuid(2, 1)}`,
      ].join('\n'),
    );
    await client.close();
  });

  it('filters by words and by taxonomy term as the list endpoint does', async () => {
    const client = await httpClient();
    const terms = await client.callTool({ name: 'list_taxonomy_terms', arguments: { text: 'food' } });
    const listed = (terms.structuredContent as { terms: { id: string; name: string }[] }).terms;
    expect(listed).toEqual([expect.objectContaining({ id: FOOD, name: 'Food banks', taxonomy: 'Needs' })]);
    expect((terms.content as TextContent[])[0]!.text).toContain(
      `Food banks [FOOD] (Needs): taxonomy_term_id ${FOOD}`,
    );

    const byTerm = await client.callTool({
      name: 'search_services',
      arguments: { postcode: 'AB10 1AB', taxonomy_term_id: FOOD, per_page: 2 },
    });
    const page = await getPage(
      app,
      `/service_at_locations?postcode=AB10%201AB&taxonomy_term_id=${FOOD}&per_page=2`,
      null,
    );
    const found = byTerm.structuredContent as {
      services: Summary[];
      total_items: number;
      total_pages: number;
    };
    expect(found.services.map((s) => s.service_at_location_id)).toEqual(page.contents.map((i) => i.id));
    expect(found.total_items).toBe(page.total_items);
    expect(found.total_pages).toBe(2);

    // Words go through the same search (vocabulary, relaxing): the same services as the route.
    // Without a postcode that route is /services, so services without a place are found too,
    // each once.
    const byWords = await client.callTool({ name: 'search_services', arguments: { text: 'pantry' } });
    const wordsPage = await getPage(app, '/services?search=pantry&per_page=10', null);
    const named = (byWords.structuredContent as { services: Summary[] }).services.map((s) => s.name);
    expect(named).toContain('Community pantry');
    expect(named).not.toContain('Debt advice drop-in');
    expect((byWords.structuredContent as { services: Summary[] }).services.map((s) => s.service_id)).toEqual(
      wordsPage.contents.map((i) => i.id),
    );
    await client.close();
  });

  it('gets one service, and turns a bad argument or a missing record into a tool error', async () => {
    const client = await httpClient();
    const one = await client.callTool({ name: 'get_service', arguments: { id: uuid(3, 1) } });
    expect(one.isError).toBeFalsy();
    const texts = (one.content as TextContent[]).map((c) => c.text);
    expect(texts[0]).toContain('Community pantry (Aberdeen Help Trust)');
    expect(texts[0]).toContain('Address: 3 Union Street, Aberdeen');
    expect(texts[1]).toBe('Description: Community pantry: help for anyone who asks.');
    expect((one.structuredContent as { service: { id: string } }).service.id).toBe(uuid(3, 1));

    const missing = await client.callTool({ name: 'get_service', arguments: { id: uuid(99, 1) } });
    expect(missing.isError).toBe(true);
    expect((missing.content as TextContent[])[0]!.text).toMatch(/^Not found/);

    // Not an id: refused before any request is made (the id is a path segment).
    const notAnId = await client.callTool({ name: 'get_service', arguments: { id: '..' } });
    expect(notAnId.isError).toBe(true);
    expect((notAnId.content as TextContent[])[0]!.text).toMatch(/must be a service id/);

    const bad = await client.callTool({
      name: 'search_services',
      arguments: { postcode: 'not a postcode!' },
    });
    expect(bad.isError).toBe(true);
    expect((bad.content as TextContent[])[0]!.text).toMatch(/refused these arguments \(400\): .*postcode/);
    const noPostcode = await client.callTool({ name: 'search_services', arguments: { proximity: 500 } });
    expect(noPostcode.isError).toBe(true);
    await client.close();
  });

  it('refuses a client without MCP_TOKEN when it is set', async () => {
    await expect(httpClient(null)).rejects.toThrow(/401/);
    await expect(httpClient('a-wrong-token-0123456789')).rejects.toThrow(/401/);
  });
});

describe('hsds mcp over stdio', () => {
  it('serves the same tools from a process of its own', async () => {
    const root = fileURLToPath(new URL('../../', import.meta.url));
    const env: Record<string, string> = {
      PATH: process.env.PATH ?? '',
      OPENSEARCH_URL: inject('engineUrl'),
      INDEX_PREFIX: engine.settings.prefix,
      GEOCODERS: 'postcodes-io',
      POSTCODES_IO_URL: fake.url,
      LOG_LEVEL: 'warn',
      PUBLIC_BASE_URL: 'https://directory.example.org',
    };
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: ['src/cli/main.ts', 'mcp'],
      cwd: root,
      env,
      stderr: 'pipe',
    });
    const client = new Client({ name: 'hsds-test', version: '1.0.0' });
    await client.connect(transport);
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name).sort()).toEqual([
      'get_service',
      'list_taxonomy_terms',
      'search_services',
    ]);
    const result = await client.callTool({
      name: 'search_services',
      arguments: { postcode: 'AB10 1AB', proximity: 10_000 },
    });
    const found = (result.structuredContent as { services: Summary[] }).services;
    expect(found.map((s) => s.name)).toEqual([
      'Union Street food bank',
      'Debt advice drop-in',
      'Community pantry',
    ]);
    expect(found[0]).toMatchObject({ url: `https://directory.example.org/services/${uuid(1, 1)}` });
    await client.close();
  }, 60_000);
});
