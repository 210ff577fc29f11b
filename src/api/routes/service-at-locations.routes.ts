/** /service_at_locations (and its POST twin), with postcode coverage and proximity, and /service_at_locations/{id}. */
import { readRecord } from '../../engine/search.ts';
import { serviceAtLocationFullSchema } from '../../hsds/index.ts';
import { buildServiceAtLocationSearch } from '../../index-mapping/service-at-location-search.query.ts';
import type { RouteContext } from '../http/route-context.ts';
import { childTermsOf } from '../lists/child-terms.ts';
import {
  askedAt,
  type ServiceAtLocationsParams,
  serviceAtLocationsParams,
  toServiceFilters,
} from '../lists/endpoint-params.ts';
import { geocodeHeaders, resolveGeoQuery } from '../lists/geo-params.ts';
import { requirePostcodeForProximity, resolvePaging } from '../lists/list-params.ts';
import { listResponse, listRoutes, postedParams } from '../lists/list-route.ts';
import { meaningOf } from '../lists/meaning.ts';
import { nextOpenings } from '../lists/next-openings.ts';
import { relaxedSearches, searchExtensions } from '../lists/search-extensions.ts';
import { recordingSearch } from '../lists/search-recording.ts';
import { understandSearch } from '../lists/understood.ts';
import { noQuery, recordResponse, recordRoute } from '../records/record-route.ts';
import { serviceAtLocationItemSchema, serviceAtLocationPageSchema } from '../records/response-schemas.ts';
import type { App, AppContext } from '../types.ts';

const serviceAtLocationsRoutes = (ctx: RouteContext) =>
  listRoutes(ctx, {
    path: '/service_at_locations',
    operationId: 'getPaginatedListOfServiceAtLocation',
    summary: 'Retrieve paginated listings of service_at_location that only have one-to-one fields in them.',
    description:
      'Service-at-locations matching every given filter (AND), each with its direct fields, its location and its service (direct fields, with organization and program); `full=true` gives them fully nested; `format=ndjson` every match as a stream. With `postcode`, results are those whose service area covers the postcode (or that have no service area), sorted by distance, nearest first; `proximity` limits the distance. With `postcode`, each item carries `distance`: metres from the centroid of the postcode to its location (an extension field; absent for a location without coordinates), and the `Postcode-Precision`, `Postcode-Matched` and `Postcode-Centroid` headers say which centroid was used (`outcode` when a full postcode no geocoder knows was placed by its outcode).',
    params: serviceAtLocationsParams(ctx),
    pageSchema: serviceAtLocationPageSchema,
    itemSchema: serviceAtLocationItemSchema,
    responseDescription:
      'Retrieve paginated listings of service_at_location that only have one-to-one fields in them.',
  });

const serviceAtLocationRoute = (ctx: RouteContext) =>
  recordRoute(ctx, {
    path: '/service_at_locations/{id}',
    operationId: 'getServiceAtLocationWithNestedDataById',
    summary: 'Retrieve fully nested service_at_location with all related data with specified id.',
    description:
      'Retrieve fully nested service_at_location with all related data with specified id: its location and its service, fully nested. (Some revisions of the specification declare the service schema here; a service_at_location is what this returns.)',
    idDescription: 'The id of the service_at_location that the request is intended to retrieve.',
    idExample: 'e94c9f38-1e8f-4564-91d4-d53501ab1765',
    schema: serviceAtLocationFullSchema,
    responseDescription: 'Retrieve fully nested service_at_location with all related data with specified id.',
    query: noQuery,
  });

async function listServiceAtLocations(ctx: RouteContext, c: AppContext, p: ServiceAtLocationsParams) {
  const paging = resolvePaging(p, ctx.limits);
  requirePostcodeForProximity(p);
  const geo = await resolveGeoQuery(c.get('deps'), p);
  const asked = askedAt(c);
  const filters = {
    ...toServiceFilters(p, asked),
    ...(await childTermsOf(c, p)),
    geo,
    ...(await understandSearch(c, p)),
  };
  const shape = p.full ? 'full' : 'list';
  const request = buildServiceAtLocationSearch(filters, shape);
  const extend = recordingSearch(
    c,
    p,
    searchExtensions(
      c,
      request,
      { ...p, crisis: filters.meaning?.crisis !== undefined, understood: filters.understood },
      (search) => buildServiceAtLocationSearch({ ...filters, search, understood: undefined }, shape),
    ),
  );
  const relax = relaxedSearches(filters, (how) =>
    buildServiceAtLocationSearch({ ...filters, relax: how }, shape),
  );
  const res = await listResponse(c, serviceAtLocationPageSchema, request, paging, {
    extend,
    relax,
    ...(p.next_opening ? { enrich: nextOpenings('service_at_locations', asked) } : {}),
  });
  // On the answer itself: a dump's stream is a Response of its own, which c.header() would miss.
  if (geo) for (const [name, value] of Object.entries(geocodeHeaders(geo))) res.headers.set(name, value);
  return res;
}

export function registerServiceAtLocationRoutes(app: App, ctx: RouteContext) {
  const list = serviceAtLocationsRoutes(ctx);
  app.openapi(list.get, (c) => listServiceAtLocations(ctx, c, c.req.valid('query')));
  app.openapi(list.post, (c) => listServiceAtLocations(ctx, c, postedParams(c)));

  app.openapi(serviceAtLocationRoute(ctx), (c) =>
    recordResponse(
      c,
      serviceAtLocationFullSchema,
      { ...c.req.valid('param'), ...c.req.valid('query') },
      (id) => readRecord(c.get('deps').engine, 'service_at_locations', id),
    ),
  );
}
