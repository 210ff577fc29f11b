/**
 * `postcode` and `proximity` on /service_at_locations: a postcode becomes a centroid through the
 * geocoder chain (AppDeps.geocoder), and the centroid becomes the geographic part of the search
 * (src/index-mapping/geo.query.ts). Every way this can fail is a problem that says why, never an
 * empty page that hides the reason:
 * - malformed postcode, or proximity without a postcode: 400 `invalid-parameter` naming it;
 * - well-formed but unknown to every geocoder: 400 `unknown-postcode` naming `postcode`. Not 404:
 *   the collection exists and the request is what is wrong; a 404 on a list URL reads to clients,
 *   caches and monitoring as a wrong address. The problem type tells malformed from unknown;
 * - no geocoder could answer (unreachable, timed out): 503 `geocoder-unavailable`, with the reason.
 *
 * A full postcode that no geocoder knows but whose outcode is known is answered from the outcode's
 * centroid (new postcodes appear between ONSPD releases): the response says so in the
 * `Postcode-Precision` and `Postcode-Matched` headers (see geocodeHeaders).
 */
import { type Centroid, GeocoderUnavailableError } from '../../geo/geocoder.ts';
import { parsePostalCode } from '../../geo/postal-code.ts';
import { POSTCODE_INDEX_GEOCODER } from '../../geo/postcode-index.geocoder.ts';
import type { GeoQuery } from '../../index-mapping/geo.query.ts';
import { ApiProblem, invalidParameter } from '../http/problem.ts';
import type { AppDeps } from '../types.ts';

export type GeoParams = { postcode?: string | undefined; proximity?: number | undefined };

/** The geographic part of a search, with the centroid it was measured from. */
export type ResolvedGeo = GeoQuery & { centroid: Centroid };

/**
 * What a client may be told about a geocoder that failed. The postcode index lives in the search
 * engine, so its failures carry engine addresses and internals: those are logged, and the client
 * hears only which geocoder failed. Other geocoders' reasons (an HTTP status, a timeout) are theirs.
 */
function publicReasons(error: GeocoderUnavailableError, names: readonly string[]): string {
  const reason = error.geocoder === 'chain' ? error.reason : `${error.geocoder}: ${error.reason}`;
  // The chain joins its failures as "name: reason; name: reason".
  const escaped = names.map((name) => name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'));
  const starts = [...reason.matchAll(new RegExp(`(?:^|; )(${escaped.join('|')}): `, 'g'))];
  if (starts.length === 0) return 'a geocoder did not answer';
  return starts
    .map((match, index) => {
      const name = match[1]!;
      if (name === POSTCODE_INDEX_GEOCODER) return `${name}: the postcode index did not answer`;
      const from = match.index + match[0].length;
      const to = starts[index + 1]?.index ?? reason.length;
      return `${name}: ${reason.slice(from, to)}`;
    })
    .join('; ');
}

/**
 * Geocodes `postcode` and returns the point to search from, with `proximity` in metres; undefined
 * without a postcode. Throws ApiProblem (400 or 503) as described above.
 */
export async function resolveGeoQuery(
  deps: Pick<AppDeps, 'geocoder' | 'logger'>,
  params: GeoParams,
): Promise<ResolvedGeo | undefined> {
  if (params.postcode === undefined) {
    if (params.proximity !== undefined) {
      throw invalidParameter('proximity', 'requires postcode: the distance is measured from its centroid');
    }
    return undefined;
  }
  const parsed = parsePostalCode(params.postcode);
  if (!parsed.ok) throw invalidParameter('postcode', parsed.reason);
  const code = parsed.value;

  let centroid: Centroid | null;
  try {
    centroid = await deps.geocoder.geocode(code);
  } catch (error) {
    if (!(error instanceof GeocoderUnavailableError)) throw error;
    deps.logger.warn({ postcode: code.normalised, err: error.message }, 'no geocoder could answer');
    throw new ApiProblem(
      503,
      `postcode: no geocoder could place "${code.normalised}" just now (${publicReasons(error, deps.geocoder.order)}); try again shortly`,
      { type: 'geocoder-unavailable', title: 'Geocoder unavailable' },
    );
  }
  if (!centroid) {
    const reason = `"${code.normalised}" is a well-formed postal code, but no geocoder on this server knows it (asked: ${deps.geocoder.order.join(', ')})`;
    throw new ApiProblem(400, `postcode: ${reason}`, {
      errors: [{ parameter: 'postcode', in: 'query', reason }],
      type: 'unknown-postcode',
      title: 'Unknown postcode',
    });
  }
  return {
    point: { lat: centroid.lat, lon: centroid.lon },
    proximityMetres: params.proximity,
    centroid,
  };
}

/**
 * Response headers that say which centroid a postcode search used: `Postcode-Precision` is
 * `postcode`, `outcode` (a full postcode answered by its outcode's centroid, or an outcode asked
 * for) or `zip`; `Postcode-Matched` the code whose centroid it is; `Postcode-Centroid` "lat,lon".
 */
export function geocodeHeaders(geo: ResolvedGeo): Record<string, string> {
  return {
    'Postcode-Precision': geo.centroid.precision,
    'Postcode-Matched': geo.centroid.matched,
    'Postcode-Centroid': `${geo.centroid.lat},${geo.centroid.lon}`,
  };
}

/** Headers a browser may read on a cross-origin postcode search. */
export const GEOCODE_HEADER_NAMES = ['Postcode-Precision', 'Postcode-Matched', 'Postcode-Centroid'] as const;
