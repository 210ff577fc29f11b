/**
 * `/admin`: the operator console, static files (src/console/page/) that call the admin and write
 * routes with the token the operator signs in with, like any other client. The page itself holds
 * no secret and needs none to load: only its calls carry the token, so these files are served
 * before (and apart from) the admin routes' token check, and stay out of the OpenAPI document.
 *
 * The page is `/admin` (no trailing slash), its files under `/admin/console/`, and every URL in it
 * is relative, so it works behind a proxy that mounts the API under a path. Same policy as
 * /explore: scripts, styles and calls to this server only, nothing inline, no CDN.
 */
import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { compress } from 'hono/compress';
import { etag } from 'hono/etag';
import { ApiProblem, problemResponse } from '../api/http/problem.ts';
import { fromPackage } from '../api/routes/explore.ts';
import type { App } from '../api/types.ts';

export const CONSOLE_PATH = '/admin';
const ASSETS = `${CONSOLE_PATH}/console/`;

type Asset = { file: string; type: string };
const JS = 'text/javascript; charset=utf-8';
const own = (name: string, type: string): Asset => ({
  file: fileURLToPath(new URL(`./page/${name}`, import.meta.url)),
  type,
});

const PAGE_MODULES = [
  'console.js',
  'api.js',
  'shell.js',
  'run.js',
  'imports.js',
  'sources.js',
  'format.js',
  'duplicates.js',
  'gaps.js',
  'records.js',
  'validate.js',
  'webhooks.js',
];

function assetTable(): Map<string, Asset> {
  return new Map([
    ...PAGE_MODULES.map((name): [string, Asset] => [name, own(name, JS)]),
    ['console.css', own('console.css', 'text/css; charset=utf-8')],
    ['vendor/lit-html.js', fromPackage('lit-html', 'lit-html.js', JS)],
  ]);
}

/** Scripts, styles, images and calls from this server only; no frame may hold the console. */
export const CONSOLE_POLICY = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data:",
  "connect-src 'self'",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
].join('; ');

export function registerConsole(app: App) {
  // Built on first request: createApp does no I/O (docs/style.md 1).
  let assets: Map<string, Asset> | undefined;
  const cache = new Map<string, Promise<Buffer>>();
  const read = (file: string) => {
    let body = cache.get(file);
    if (!body) {
      body = readFile(file);
      body.catch(() => cache.delete(file));
      cache.set(file, body);
    }
    return body;
  };
  const headers = {
    'content-security-policy': CONSOLE_POLICY,
    'x-content-type-options': 'nosniff',
    'x-frame-options': 'DENY',
    // The page's calls carry a token: no other site learns the console's address from a link.
    'referrer-policy': 'no-referrer',
    'cache-control': 'no-cache',
  };
  app.use(CONSOLE_PATH, etag(), compress());
  app.use(`${ASSETS}*`, etag(), compress());
  app.get(CONSOLE_PATH, async (c) =>
    c.body(new Uint8Array(await read(own('index.html', '').file)), 200, {
      ...headers,
      'content-type': 'text/html; charset=utf-8',
    }),
  );
  app.get(`${ASSETS}*`, async (c) => {
    assets ??= assetTable();
    const asset = assets.get(c.req.path.slice(ASSETS.length));
    if (!asset) return problemResponse(new ApiProblem(404, `no file ${c.req.path}`), c.req.path);
    return c.body(new Uint8Array(await read(asset.file)), 200, { ...headers, 'content-type': asset.type });
  });
}
