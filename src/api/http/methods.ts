/**
 * Which methods a path is served with, from the app's own routes: what a 405 puts in `Allow`.
 */
import type { App } from '../types.ts';

type Methods = { pattern: RegExp; methods: Set<string> }[];

const cache = new WeakMap<App, Methods>();

/** `/services/:id` (Hono's form of `/services/{id}`) as a pattern that matches one segment per param. */
const toPattern = (path: string) =>
  new RegExp(
    `^${path
      .split('/')
      .map((part) => (part.startsWith(':') ? '[^/]+' : part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')))
      .join('/')}$`,
  );

function methodsOf(app: App): Methods {
  const known = cache.get(app);
  if (known) return known;
  const byPath = new Map<string, Set<string>>();
  // Middleware is registered as ALL on `*`; only routes with a method name a resource.
  for (const route of app.routes) {
    if (route.method === 'ALL' || route.path.includes('*')) continue;
    const methods = byPath.get(route.path) ?? new Set<string>();
    methods.add(route.method);
    if (route.method === 'GET') methods.add('HEAD');
    byPath.set(route.path, methods);
  }
  const methods = [...byPath].map(([path, set]) => ({ pattern: toPattern(path), methods: set }));
  cache.set(app, methods);
  return methods;
}

/** The methods the path takes, in a stable order; empty when no route serves it. */
export function allowedMethods(app: App, path: string): string[] {
  const allowed = new Set<string>();
  for (const { pattern, methods } of methodsOf(app)) {
    if (pattern.test(path)) for (const m of methods) allowed.add(m);
  }
  if (allowed.size > 0) allowed.add('OPTIONS');
  const order = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'];
  return [...allowed].sort((a, b) => order.indexOf(a) - order.indexOf(b));
}
