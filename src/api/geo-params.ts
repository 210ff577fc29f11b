/**
 * The seam for `postcode` and `proximity` on /service_at_locations. The parameters are declared and
 * validated (list-params.ts), and the query side is built (src/index-mapping/geo.query.ts:
 * coverage, distance filter, distance sort, from a point). What remains is turning a postcode into
 * that point, which belongs with the geocoders (src/geo) and their place in AppDeps.
 *
 * TODO(geo): resolve `postcode` through the geocoder chain: an invalid postcode is a 400 naming
 * `postcode`; a well-formed but unknown one a 400 saying so (never a silently empty page); a
 * geocoder that cannot answer a 503. Return `{ point, proximityMetres }`.
 */
import type { GeoQuery } from '../index-mapping/geo.query.ts';
import type { AppDeps } from './deps.ts';
import { invalidParameter } from './problem.ts';

export type GeoParams = { postcode?: string | undefined; proximity?: number | undefined };

export async function resolveGeoQuery(_deps: AppDeps, params: GeoParams): Promise<GeoQuery | undefined> {
  if (params.postcode === undefined) return undefined;
  throw invalidParameter('postcode', 'postcode search is not available on this server yet');
}
