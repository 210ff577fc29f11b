import type { Config } from '../../config.ts';

/** A list's page size: what `per_page` defaults to and allows. */
export type ListLimits = { defaultPerPage: number; maxPerPage: number };

/**
 * What shapes the routes themselves (parameters, limits, tags): read once from the configuration
 * when the app is built, so the OpenAPI document describes exactly what this server accepts.
 */
export type RouteContext = {
  limits: ListLimits;
  profile: Config['HSDS_PROFILE'];
};

export function routeContext(config: Config): RouteContext {
  return {
    limits: {
      maxPerPage: config.MAX_PER_PAGE,
      defaultPerPage: Math.min(config.DEFAULT_PER_PAGE, config.MAX_PER_PAGE),
    },
    profile: config.HSDS_PROFILE,
  };
}

/**
 * The specification's requirement tag of an operation. HSDS requires GET /, /services and
 * /services/{id}; the UK profile also requires /taxonomies(/{id}) and /service_at_locations(/{id}).
 * Every POST twin is optional.
 */
export function requirementTag(
  ctx: RouteContext,
  method: 'get' | 'post',
  path: string,
): 'required' | 'optional' {
  if (method === 'post') return 'optional';
  const required =
    ctx.profile === 'oruk'
      ? [
          '/services',
          '/services/{id}',
          '/taxonomies',
          '/taxonomies/{id}',
          '/service_at_locations',
          '/service_at_locations/{id}',
        ]
      : ['/services', '/services/{id}'];
  return required.includes(path) ? 'required' : 'optional';
}
