/**
 * The edges of HTTP a client meets before any search runs: methods a path does not take, bodies
 * too large or of the wrong type or empty, impossible dates, ids in upper case, search text
 * beyond its limit, and the `openapi_url` of GET / that no request may steer.
 */
import { once } from 'node:events';
import { request as httpRequest } from 'node:http';
import type { AddressInfo } from 'node:net';
import { serve } from '@hono/node-server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ServiceFull } from '../../src/hsds/index.ts';
import { generateDataset } from '../../src/synthetic/generate.ts';
import { expectProblem, getJson, type JsonObject } from '../support/api-requests.ts';
import { createTestApp, createTestEngine, dropTestIndices } from '../support/engine.ts';
import { seedReadIndices } from '../support/seed.ts';

const engine = createTestEngine('api-http-edges');
const MAX_BODY_BYTES = 2048;
const app = createTestApp(engine, { MAX_BODY_BYTES: String(MAX_BODY_BYTES) });
const dataset = generateDataset({ services: 12, seed: 'api-http-edges' });
const generated = [...dataset.services()] as ServiceFull[];
// Read indices built before ids were stored in lower case (src/index-mapping/ids.ts), from a
// publisher whose ids are upper case: this service is indexed under its upper-case id.
const upperCased = { ...generated[0]!, id: generated[0]!.id.toUpperCase() };
const services = [upperCased, ...generated.slice(1)];

beforeAll(async () => {
  await seedReadIndices(engine, {
    services,
    taxonomies: dataset.taxonomies,
    taxonomyTerms: dataset.taxonomyTerms,
    organizations: [...dataset.organizations()],
  });
});
afterAll(() => dropTestIndices(engine));

const json = (body: string, extra: Record<string, string> = {}): RequestInit => ({
  method: 'POST',
  headers: { 'content-type': 'application/json', ...extra },
  body,
});

describe('a method a path does not take', () => {
  it('is a 405 with Allow listing the methods it does take; unknown paths stay 404', async () => {
    for (const [method, path, allow] of [
      ['PUT', '/services', 'GET, HEAD, POST, OPTIONS'],
      ['DELETE', '/organizations', 'GET, HEAD, POST, OPTIONS'],
      // Records take writes too (the write API).
      ['POST', `/services/${generated[1]!.id}`, 'GET, HEAD, PUT, DELETE, OPTIONS'],
      ['PATCH', '/taxonomy_terms/not-even-a-uuid', 'GET, HEAD, PUT, DELETE, OPTIONS'],
      ['POST', '/', 'GET, HEAD, OPTIONS'],
    ] as const) {
      const res = await app.request(path, { method });
      expect({ method, path, status: res.status }).toEqual({ method, path, status: 405 });
      expect(res.headers.get('allow')).toBe(allow);
      expect(res.headers.get('content-type')).toContain('application/problem+json');
      expect(await res.json()).toMatchObject({ status: 405, title: 'Method not allowed' });
    }
    expect((await app.request('/no-such-thing', { method: 'PUT' })).status).toBe(404);
    expect((await app.request('/services/x/y')).status).toBe(404);
  });
});

describe('methods no fetch Request can carry a body with (TRACE), over real HTTP', () => {
  it('are a 405 like any other method the path does not take, never a 500', async () => {
    const server = serve({ fetch: app.fetch, port: 0, hostname: '127.0.0.1' });
    await once(server, 'listening');
    const { port } = server.address() as AddressInfo;
    try {
      // Schemathesis sent them with a JSON body of a declared length (a chunked TRACE body gets
      // Node's own 400 before the app sees it); the first path gets none.
      for (const [path, body] of [
        ['/services', ''],
        ['/taxonomy_terms', '{"search":""}'],
        ['/organizations', '{"search":"", "page": 1}'],
      ] as const) {
        const status = await new Promise<number>((resolve, reject) => {
          const headers = { 'content-type': 'application/json', 'content-length': String(body.length) };
          const req = httpRequest({ host: '127.0.0.1', port, path, method: 'TRACE', headers }, (res) => {
            res.resume();
            resolve(res.statusCode ?? 0);
          });
          req.on('error', reject);
          req.end(body);
        });
        expect({ path, status }).toEqual({ path, status: 405 });
      }
    } finally {
      await new Promise((r) => server.close(r));
    }
  });
});

describe('request bodies on the POST twins', () => {
  it('beyond MAX_BODY_BYTES are a 413 naming the body, whether declared or streamed, read no further', async () => {
    const body = `search=${'a'.repeat(MAX_BODY_BYTES)}`;
    const declared = await expectProblem(app, '/services', 413, '(body)', {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', 'content-length': String(body.length) },
      body,
    });
    expect(declared).toMatchObject({
      type: 'https://hsds-directory.dev/problems/content-too-large',
      title: 'Content too large',
    });
    expect(JSON.stringify(declared)).toContain(String(MAX_BODY_BYTES));

    // No Content-Length: counted as it streams, and refused before the stream ends.
    let pulled = 0;
    const endless = new ReadableStream<Uint8Array>({
      pull(controller) {
        pulled++;
        controller.enqueue(new TextEncoder().encode('a'.repeat(1024)));
      },
    });
    const res = await app.request('/services', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: endless,
      duplex: 'half',
    } as RequestInit);
    expect(res.status).toBe(413);
    expect(pulled).toBeLessThan(10);
  });

  it('within the limit are read as before', async () => {
    const search = generated[2]!.name;
    const want = await getJson(app, `/services?search=${encodeURIComponent(search)}&per_page=3`);
    const padded = `${JSON.stringify({ search, per_page: 3 })}${' '.repeat(MAX_BODY_BYTES - 100)}`;
    const got = await getJson(app, '/services', json(padded));
    expect(got.status).toBe(200);
    expect(got.body).toEqual(want.body);
  });

  it('of a media type other than JSON or a form are a 415 naming the body', async () => {
    const problem = await expectProblem(app, '/services', 415, '(body)', {
      method: 'POST',
      headers: { 'content-type': 'text/plain' },
      body: 'search=food',
    });
    expect(problem).toMatchObject({ title: 'Unsupported media type' });
    await expectProblem(app, '/organizations', 415, '(body)', {
      method: 'POST',
      headers: { 'content-type': 'application/xml' },
      body: '<search>food</search>',
    });
  });

  it('that are empty mean no parameters, with or without Content-Length, declared JSON or not', async () => {
    const want = (await getJson(app, '/services?per_page=50')).body;
    for (const init of [
      json(''),
      json('', { 'content-length': '0' }),
      json('  \n'),
      { method: 'POST', headers: { 'content-type': 'application/json' } },
      { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: '' },
      { method: 'POST' },
    ]) {
      const got = await getJson(app, '/services', init);
      expect(got.status).toBe(200);
      expect(got.body).toEqual(want);
    }
    // Not empty, and not JSON: still a 400.
    await expectProblem(app, '/services', 400, '(body)', json('{"per_page": '));
  });
});

describe('modified_after', () => {
  it('refuses a day that does not exist instead of rolling it over', async () => {
    for (const value of [
      '2024-02-30',
      '2023-02-29',
      '2024-04-31',
      '2024-13-01',
      '2024-00-10',
      '2024-02-30T10:00:00Z',
    ]) {
      const problem = await expectProblem(app, `/services?modified_after=${value}`, 400, 'modified_after');
      expect(problem).toMatchObject({ errors: [{ in: 'query' }] });
    }
    await expectProblem(app, '/services', 400, 'modified_after', json('{"modified_after":"2025-06-31"}'));
    for (const value of ['2024-02-29', '2024-12-31', '2024-01-31T23:59:59Z']) {
      expect((await app.request(`/services?modified_after=${value}`)).status).toBe(200);
    }
  });
});

describe('ids in another case', () => {
  it('find the record: an upper-case link to a lower-case id, and a lower-case link to an upper-case one', async () => {
    const lower = generated[3]!;
    const got = await getJson(app, `/services/${lower.id.toUpperCase()}`);
    expect(got.status).toBe(200);
    expect(got.body.id).toBe(lower.id);

    const stored = await getJson(app, `/services/${upperCased.id.toLowerCase()}`);
    expect(stored.status).toBe(200);
    expect(stored.body.id).toBe(upperCased.id);

    const organization = lower.organization!;
    const org = await getJson<JsonObject & { services: JsonObject[] }>(
      app,
      `/organizations/${organization.id.toUpperCase()}`,
    );
    expect(org.status).toBe(200);
    expect(org.body.services.map((s) => s.id)).toContain(lower.id);

    const term = dataset.taxonomyTerms[0]!;
    expect((await app.request(`/taxonomy_terms/${term.id.toUpperCase()}`)).status).toBe(200);
    await expectProblem(app, '/services/00000000-0000-4000-8000-00000000ABCD', 404);
  });

  it('filter as the id in its stored case does', async () => {
    const organizationId = generated[3]!.organization!.id;
    const termId = generated[3]!.attributes!.find((a) => a.taxonomy_term_id)!.taxonomy_term_id!;
    for (const [name, id] of [
      ['organization_id', organizationId],
      ['taxonomy_term_id', termId],
    ] as const) {
      const want = await getJson<{ total_items: number }>(app, `/services?${name}=${id}&per_page=50`);
      expect(want.body.total_items).toBeGreaterThan(0);
      const got = await getJson(app, `/services?${name}=${id.toUpperCase()}&per_page=50`);
      expect(got.body).toEqual(want.body);
    }
  });
});

describe('search text', () => {
  it('beyond 500 characters is a 400 naming search with the limit; a 500-letter word is searched', async () => {
    const problem = await expectProblem(app, `/services?search=${'food '.repeat(101)}`, 400, 'search');
    expect(JSON.stringify(problem.errors)).toContain('500');
    await expectProblem(app, '/services', 400, 'search', json(JSON.stringify({ search: 'x'.repeat(501) })));
    const long = await getJson<{ total_items: number }>(app, `/services?search=${'x'.repeat(500)}`);
    expect(long.status).toBe(200);
    expect(long.body.total_items).toBe(0);
  });
});

describe('openapi_url in GET /', () => {
  const rootOf = async (
    overrides: Record<string, string>,
    headers: Record<string, string> = {},
    peer?: string,
  ) => {
    const env = peer
      ? { incoming: { socket: { remoteAddress: peer, remotePort: 1, remoteFamily: 'IPv4' } } }
      : {};
    const res = await createTestApp(engine, overrides).request('http://api.test/', { headers }, env);
    expect(res.status).toBe(200);
    return ((await res.json()) as { openapi_url: string }).openapi_url;
  };
  const hostile = { host: 'evil.example', 'x-forwarded-host': 'evil.example', 'x-forwarded-proto': 'https' };

  it('never reflects Host or X-Forwarded-* from an untrusted client, in either profile', async () => {
    for (const profile of ['hsds', 'oruk']) {
      expect(await rootOf({ HSDS_PROFILE: profile, PORT: '8080' }, hostile, '203.0.113.9')).toBe(
        'http://localhost:8080/openapi.json',
      );
      expect(await rootOf({ HSDS_PROFILE: profile }, hostile)).toBe('http://localhost:3000/openapi.json');
      expect(
        await rootOf(
          { HSDS_PROFILE: profile, PUBLIC_BASE_URL: 'https://directory.example.org/api/' },
          hostile,
        ),
      ).toBe('https://directory.example.org/api/openapi.json');
    }
  });

  it('takes X-Forwarded-Proto and -Host from a trusted proxy only, unless PUBLIC_BASE_URL is set', async () => {
    const forwarded = {
      'x-forwarded-host': 'directory.example.org, evil.example',
      'x-forwarded-proto': 'https',
    };
    const trusted = { TRUSTED_PROXIES: '10.0.0.0/8, 192.0.2.1' };
    expect(await rootOf(trusted, forwarded, '10.1.2.3')).toBe('https://directory.example.org/openapi.json');
    expect(await rootOf(trusted, forwarded, '::ffff:192.0.2.1')).toBe(
      'https://directory.example.org/openapi.json',
    );
    expect(await rootOf(trusted, forwarded, '192.0.2.2')).toBe('http://localhost:3000/openapi.json');
    expect(await rootOf(trusted, { 'x-forwarded-host': 'evil.example/path?' }, '10.1.2.3')).toBe(
      'http://localhost:3000/openapi.json',
    );
    expect(
      await rootOf({ ...trusted, PUBLIC_BASE_URL: 'https://api.example.org' }, forwarded, '10.1.2.3'),
    ).toBe('https://api.example.org/openapi.json');
  });
});
