/**
 * The console at /admin: its page and files are served without a token (they hold no secret) under
 * a strict policy, only when an admin token is configured; the import-job routes it calls are
 * admin routes like the others: a token, problem+json refusals, and a place in the OpenAPI document.
 */
import { readdirSync } from 'node:fs';
import pino from 'pino';
import { describe, expect, it } from 'vitest';
import { createApp } from '../../../src/api/app.ts';
import { generateOpenApiDocument } from '../../../src/api/openapi/openapi-document.ts';
import { loadConfig } from '../../../src/config.ts';
import type { ImportFrom, ImportJob, ImportJobs } from '../../../src/console/index.ts';
import type { Engine } from '../../../src/engine/index.ts';
import type { GeocoderChain } from '../../../src/geo/geocoder.ts';

const TOKEN = 'console-unit-token-0123456789';
const auth = { authorization: `Bearer ${TOKEN}` };

const job: ImportJob = {
  id: 'import-1-abcd',
  state: 'running',
  source: 'demo',
  started_at: '2026-12-07T00:00:00.000Z',
  progress: {
    phase: 'reading',
    items: 0,
    records: 0,
    rejected: 0,
    services: 0,
    total_services: 0,
    percent: 0,
    rate_per_second: 0,
  },
};

function fakeImports(started: ImportFrom[]): ImportJobs {
  return {
    start: async (from) => {
      started.push(from);
      return { job };
    },
    get: (id) => (id === job.id ? job : undefined),
    list: () => [job],
    cancel: (id) => (id === job.id ? { ...job } : undefined),
    report: async () => undefined,
  };
}

// These routes never reach the engine or the geocoder.
const appWith = (env: Record<string, string>, imports?: ImportJobs) =>
  createApp({
    config: loadConfig({ LOG_LEVEL: 'silent', ...env }),
    engine: {} as Engine,
    geocoder: {} as GeocoderChain,
    logger: pino({ level: 'silent' }),
    ...(imports ? { imports } : {}),
  });

describe('/admin, the console', () => {
  const started: ImportFrom[] = [];
  const app = appWith({ ADMIN_TOKEN: TOKEN }, fakeImports(started));

  it('serves the page and its files without a token, under a policy with nothing inline', async () => {
    const response = await app.request('/admin');
    expect(response.status).toBe(200);
    const policy = response.headers.get('content-security-policy') ?? '';
    expect(policy).toContain("script-src 'self'");
    expect(policy).toContain("frame-ancestors 'none'");
    expect(policy).not.toContain('unsafe');
    const page = await response.text();
    const urls = [...page.matchAll(/(?:src|href)="([^"]*)"/g)].map((m) => m[1]!);
    for (const url of urls) expect(url, url).not.toMatch(/^(\/|https?:)/);
    expect(page.match(/<script(?![^>]*\ssrc=)[^>]*>/g)).toBeNull();
    // Every module of the page is in the table (a module left out breaks the whole page).
    const modules = readdirSync(new URL('../../../src/console/page/', import.meta.url)).filter((f) =>
      f.endsWith('.js'),
    );
    for (const file of [...modules, 'vendor/lit-html.js']) {
      const asset = await app.request(`/admin/console/${file}`);
      expect(asset.status, file).toBe(200);
      expect(asset.headers.get('content-type')).toContain('text/javascript');
    }
    // Only the files of its table: nothing a path can steer elsewhere.
    expect((await app.request('/admin/console/%2e%2e%2fconsole.routes.ts')).status).toBe(404);
  });

  it('does not exist without an admin token configured', async () => {
    expect((await appWith({}).request('/admin')).status).toBe(404);
  });

  it('keeps the admin routes behind the token', async () => {
    const refused = await app.request('/admin/imports');
    expect(refused.status).toBe(401);
    expect(refused.headers.get('content-type')).toContain('application/problem+json');
    const wrong = await app.request('/admin/imports', { headers: { authorization: 'Bearer wrong' } });
    expect(wrong.status).toBe(401);
    expect((await app.request('/admin/imports', { headers: auth })).status).toBe(200);
  });

  it('starts an import from a URL or a file, and names the field a kind of source needs', async () => {
    const post = (body: unknown) =>
      app.request('/admin/imports', {
        method: 'POST',
        headers: { ...auth, 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });
    const missing = await post({ from: 'url' });
    expect(missing.status).toBe(400);
    expect(((await missing.json()) as { errors: { parameter: string }[] }).errors[0]!.parameter).toBe('url');
    const badName = await post({ from: 'file', name: '../etc/passwd', content: '[]' });
    expect(badName.status).toBe(400);
    const ok = await post({ from: 'file', name: 'feed.json', content: '[]', source: 'mine' });
    expect(ok.status).toBe(202);
    expect(ok.headers.get('location')).toBe(`/admin/imports/${job.id}`);
    expect(started.at(-1)).toEqual({ from: 'file', name: 'feed.json', content: '[]', source: 'mine' });
  });

  it('answers an unknown job and a missing report with a problem', async () => {
    for (const path of ['/admin/imports/nope', `/admin/imports/${job.id}/report`]) {
      const response = await app.request(path, { headers: auth });
      expect(response.status, path).toBe(404);
      expect(response.headers.get('content-type')).toContain('application/problem+json');
    }
  });

  it('documents the import routes, and not the page', () => {
    const document = generateOpenApiDocument(loadConfig({ LOG_LEVEL: 'silent', ADMIN_TOKEN: TOKEN }));
    expect(Object.keys(document.paths ?? {})).toEqual(
      expect.arrayContaining(['/admin/imports', '/admin/imports/{id}', '/admin/imports/{id}/report']),
    );
    expect(document.paths?.['/admin']).toBeUndefined();
  });
});
