/**
 * /explore is served by the API as static files: the page, its own modules and the npm parts it
 * uses, with a Content-Security-Policy that allows this server and the configured tile origin
 * only. It is not an HSDS operation, so it stays out of the OpenAPI document.
 */
import pino from 'pino';
import { describe, expect, it } from 'vitest';
import { createApp } from '../../../src/api/app.ts';
import { generateOpenApiDocument } from '../../../src/api/openapi/openapi-document.ts';
import { explorePolicy, tileSource } from '../../../src/api/routes/explore.ts';
import { loadConfig } from '../../../src/config.ts';
import type { Engine } from '../../../src/engine/index.ts';
import type { GeocoderChain } from '../../../src/geo/geocoder.ts';

// The explore routes never reach the engine or the geocoder.
const appWith = (env: Record<string, string> = {}) =>
  createApp({
    config: loadConfig({ LOG_LEVEL: 'silent', ...env }),
    engine: {} as Engine,
    geocoder: {} as GeocoderChain,
    logger: pino({ level: 'silent' }),
  });

describe('/explore', () => {
  const app = appWith();

  it('serves the page with a policy that allows no inline script', async () => {
    const response = await app.request('/explore');
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('text/html; charset=utf-8');
    const policy = response.headers.get('content-security-policy') ?? '';
    expect(policy).toContain("script-src 'self'");
    expect(policy).not.toContain('unsafe-inline');
    const page = await response.text();
    // Every URL in the page is relative, so it works under a proxy's path prefix.
    const urls = [...page.matchAll(/(?:src|href)="([^"]*)"/g)].map((m) => m[1]);
    expect(urls.length).toBeGreaterThan(3);
    for (const url of urls) expect(url, url).not.toMatch(/^(\/|https?:)/);
    // No inline script: every <script> has a src.
    expect(page.match(/<script(?![^>]*\ssrc=)[^>]*>/g)).toBeNull();
  });

  it('serves its modules and the npm parts with their types, and refuses anything else', async () => {
    for (const [path, type] of [
      ['/explore/explore.js', 'text/javascript; charset=utf-8'],
      ['/explore/vendor/lit-html.js', 'text/javascript; charset=utf-8'],
      ['/explore/vendor/leaflet.js', 'text/javascript; charset=utf-8'],
      ['/explore/vendor/leaflet.css', 'text/css; charset=utf-8'],
    ] as const) {
      const response = await app.request(path);
      expect(response.status, path).toBe(200);
      expect(response.headers.get('content-type')).toBe(type);
      expect((await response.text()).length).toBeGreaterThan(100);
    }
    for (const path of [
      '/explore/../package.json',
      '/explore/vendor/../../src/config.ts',
      '/explore/nope.js',
    ]) {
      const response = await app.request(path);
      expect(response.status, path).toBe(404);
      expect(response.headers.get('content-type')).toBe('application/problem+json');
    }
  });

  it('compresses, and answers a repeat visit with 304', async () => {
    const first = await app.request('/explore/vendor/leaflet.js', { headers: { 'accept-encoding': 'gzip' } });
    expect(first.headers.get('content-encoding')).toBe('gzip');
    const tag = first.headers.get('etag');
    expect(tag).toBeTruthy();
    const again = await app.request('/explore/vendor/leaflet.js', {
      headers: { 'accept-encoding': 'gzip', 'if-none-match': tag ?? '' },
    });
    expect(again.status).toBe(304);
  });

  it('sends /explore/ to /explore, where the relative URLs resolve', async () => {
    const response = await app.request('/explore/');
    expect(response.status).toBe(301);
    expect(response.headers.get('location')).toBe('../explore');
  });

  it('tells the page the configured tiles, and none when turned off', async () => {
    expect(await (await app.request('/explore/settings.json')).json()).toEqual({
      tileUrl: 'https://tile.openstreetmap.org/{z}/{x}/{y}.png',
      tileAttribution: '© OpenStreetMap contributors',
    });
    const off = appWith({ EXPLORE_TILE_URL: 'none' });
    expect(
      ((await (await off.request('/explore/settings.json')).json()) as { tileUrl: unknown }).tileUrl,
    ).toBeNull();
    const policy = (await off.request('/explore')).headers.get('content-security-policy');
    expect(policy).toContain("img-src 'self' data:;");
  });

  it('allows images from the tile origin only', () => {
    expect(tileSource('https://{s}.tile.example.org/{z}/{x}/{y}.png')).toBe('https://*.tile.example.org');
    expect(tileSource('http://localhost:8080/tiles/{z}/{x}/{y}.png')).toBe('http://localhost:8080');
    const policy = explorePolicy(
      loadConfig({ EXPLORE_TILE_URL: 'https://tiles.example.org/{z}/{x}/{y}.png' }),
    );
    expect(policy).toContain("img-src 'self' data: https://tiles.example.org;");
    expect(policy).toContain("connect-src 'self'");
  });

  it('refuses a tile URL without its placeholders', () => {
    expect(() => loadConfig({ EXPLORE_TILE_URL: 'https://tiles.example.org/tile.png' })).toThrow(
      /EXPLORE_TILE_URL/,
    );
    expect(() => loadConfig({ EXPLORE_TILE_URL: 'ftp://x/{z}/{x}/{y}' })).toThrow(/EXPLORE_TILE_URL/);
  });

  it('is a 405 for other methods, and no operation of the OpenAPI document', async () => {
    const response = await app.request('/explore', { method: 'POST' });
    expect(response.status).toBe(405);
    const paths = Object.keys((generateOpenApiDocument() as { paths: Record<string, unknown> }).paths);
    expect(paths.filter((path) => path.startsWith('/explore'))).toEqual([]);
  });
});
