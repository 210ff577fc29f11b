/**
 * `/explore`: a signposting page for people, served as static files (src/explore/) that call the
 * public API like any other client. It is not part of HSDS: plain Hono routes, so it stays out of
 * the OpenAPI document (and out of what schemathesis tests).
 *
 * The browser parts come from npm (Leaflet, lit-html) and are served from node_modules as
 * published, through a fixed table of files: no build step, nothing to do after `npm ci`, and no
 * path a request can steer outside the table. Files are read once, on first request.
 *
 * The page is served at `/explore` without a trailing slash, and every URL in it is relative
 * (`explore/explore.js`, `service_at_locations?...`), so it works unchanged behind a proxy that
 * mounts the API under a path.
 */
import { readFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { compress } from 'hono/compress';
import { etag } from 'hono/etag';
import type { Config } from '../../config.ts';
import { ApiProblem, problemResponse } from '../http/problem.ts';
import type { App } from '../types.ts';

export const EXPLORE_PATH = '/explore';

type Asset = { file: string; type: string };

const JS = 'text/javascript; charset=utf-8';
const CSS = 'text/css; charset=utf-8';
const own = (name: string, type: string): Asset => ({
  file: fileURLToPath(new URL(`../../explore/${name}`, import.meta.url)),
  type,
});
/**
 * A file of an installed package, by its path in the package. Found from the package's entry
 * point, not through its `exports`: lit-html exports its browser build only under the `browser`
 * condition, which Node does not resolve.
 */
export function fromPackage(name: string, path: string, type: string): Asset {
  let dir = dirname(fileURLToPath(import.meta.resolve(name)));
  while (!isPackageRoot(dir, name)) {
    const parent = dirname(dir);
    if (parent === dir) throw new Error(`package ${name} not found`);
    dir = parent;
  }
  return { file: join(dir, path), type };
}

function isPackageRoot(dir: string, name: string): boolean {
  try {
    return JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')).name === name;
  } catch {
    return false;
  }
}

/** Everything under /explore/, by its path there. */
function assetTable(): Map<string, Asset> {
  return new Map([
    ['explore.js', own('explore.js', JS)],
    ['search.js', own('search.js', JS)],
    ['record.js', own('record.js', JS)],
    ['map.js', own('map.js', JS)],
    ['format.js', own('format.js', JS)],
    ['explore.css', own('explore.css', CSS)],
    ['api.js', own('api.js', JS)],
    ['vendor/lit-html.js', fromPackage('lit-html', 'lit-html.js', JS)],
    ['vendor/leaflet.js', fromPackage('leaflet', 'dist/leaflet.js', JS)],
    ['vendor/leaflet.css', fromPackage('leaflet', 'dist/leaflet.css', CSS)],
  ]);
}

/** Where a tile URL template fetches from, as a CSP source: `{s}` subdomains become `*`. */
export function tileSource(template: string): string {
  const url = new URL(template.replaceAll('{s}', 'tile-subdomain').replace(/\{[a-z]+\}/g, '0'));
  return `${url.protocol}//${url.host.replace('tile-subdomain', '*')}`;
}

/**
 * The page loads scripts, styles and data from this server only; images too, and the base map's
 * tiles from their configured origin. No inline script or style is needed (Leaflet positions its
 * panes through the CSSOM, which style-src does not govern).
 */
export function explorePolicy(config: Config): string {
  const tiles = config.EXPLORE_TILE_URL ? ` ${tileSource(config.EXPLORE_TILE_URL)}` : '';
  return [
    "default-src 'none'",
    "script-src 'self'",
    "style-src 'self'",
    `img-src 'self' data:${tiles}`,
    "connect-src 'self'",
    "base-uri 'none'",
    "form-action 'self'",
  ].join('; ');
}

export function registerExplore(app: App, config: Config) {
  // Built on first request: createApp does no I/O (docs/style.md 1).
  let assets: Map<string, Asset> | undefined;
  const cache = new Map<string, Promise<Buffer>>();
  const read = (file: string) => {
    let body = cache.get(file);
    if (!body) {
      body = readFile(file);
      // A failed read (a file missing from a broken install) is tried again next time.
      body.catch(() => cache.delete(file));
      cache.set(file, body);
    }
    return body;
  };
  const headers = {
    'content-security-policy': explorePolicy(config),
    'x-content-type-options': 'nosniff',
    'referrer-policy': 'same-origin',
    // Revalidated on each load (an ETag makes that a 304): a server upgrade is seen at once.
    'cache-control': 'no-cache',
  };
  const settings = JSON.stringify({
    tileUrl: config.EXPLORE_TILE_URL,
    tileAttribution: config.EXPLORE_TILE_ATTRIBUTION,
  });

  app.use(EXPLORE_PATH, etag(), compress());
  app.use(`${EXPLORE_PATH}/*`, etag(), compress());
  app.get(EXPLORE_PATH, async (c) =>
    c.body(new Uint8Array(await read(own('index.html', '').file)), 200, {
      ...headers,
      'content-type': 'text/html; charset=utf-8',
    }),
  );
  app.get(`${EXPLORE_PATH}/*`, async (c) => {
    const name = c.req.path.slice(EXPLORE_PATH.length + 1);
    // `/explore/` would resolve the page's relative URLs one level too deep.
    if (name === '') return c.redirect('../explore', 301);
    if (name === 'settings.json') {
      return c.body(settings, 200, { ...headers, 'content-type': 'application/json' });
    }
    assets ??= assetTable();
    const asset = assets.get(name);
    if (!asset) {
      return problemResponse(new ApiProblem(404, `no file ${c.req.path}`), c.req.path);
    }
    return c.body(new Uint8Array(await read(asset.file)), 200, { ...headers, 'content-type': asset.type });
  });
}
