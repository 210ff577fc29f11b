import { z } from '@hono/zod-openapi';
import { getRecordText } from '../../engine/search.ts';
import { serviceAtLocationFullSchema } from '../../hsds/index.ts';
import { buildServiceAtLocationSearch } from '../../index-mapping/service-at-location-search.query.ts';
import type { App } from '../app.ts';
import { geocodeHeaders, resolveGeoQuery } from '../geo-params.ts';
import { param, requirePostcodeForProximity, resolvePaging } from '../list-params.ts';
import { type Enrich, listResponse, registerListEndpoint } from '../list-route.ts';
import { jsonText, registerRecordEndpoint } from '../record-route.ts';
import { serviceAtLocationItemSchema, serviceAtLocationPageSchema } from '../response-schemas.ts';
import type { RouteContext } from '../route-context.ts';
import { searchExtensions } from '../search-extensions.ts';
import { serviceListShape, toServiceFilters, ukServiceParams } from './services.routes.ts';

const serviceAtLocationsShape = (ctx: RouteContext) => ({
  ...serviceListShape(ctx),
  full: param.full('service_at_location').optional(),
  postcode: param.postcode().optional(),
  proximity: param.proximity().optional(),
});

const withUkParams = (ctx: RouteContext) =>
  z.object({ ...serviceAtLocationsShape(ctx), ...ukServiceParams() });

export function serviceAtLocationsParams(ctx: RouteContext): ReturnType<typeof withUkParams> {
  if (ctx.profile === 'oruk') return withUkParams(ctx);
  return z.object(serviceAtLocationsShape(ctx)) as unknown as ReturnType<typeof withUkParams>;
}

/** `distance` (metres from the postcode's centroid, the engine's sort value) to the decimetre. */
const roundDistances: Enrich = async (records) =>
  records.map((record) =>
    typeof record.distance === 'number'
      ? { ...record, distance: Math.round(record.distance * 10) / 10 }
      : record,
  );

export function registerServiceAtLocationRoutes(app: App, ctx: RouteContext) {
  registerListEndpoint(app, ctx, {
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
    handle: async (c, p) => {
      const paging = resolvePaging(p, ctx.limits);
      requirePostcodeForProximity(p);
      const geo = await resolveGeoQuery(c.get('deps'), p);
      const filters = { ...toServiceFilters(p), geo };
      const shape = p.full ? 'full' : 'list';
      const request = buildServiceAtLocationSearch(filters, shape);
      const extend = searchExtensions(c, request, p, (search) =>
        buildServiceAtLocationSearch({ ...filters, search }, shape),
      );
      if (!geo) return listResponse(c, request, paging, { extend });
      for (const [name, value] of Object.entries(geocodeHeaders(geo))) c.header(name, value);
      return listResponse(c, request, paging, { enrich: roundDistances, extend });
    },
  });

  registerRecordEndpoint(app, ctx, {
    path: '/service_at_locations/{id}',
    operationId: 'getServiceAtLocationWithNestedDataById',
    summary: 'Retrieve fully nested service_at_location with all related data with specified id.',
    description:
      'Retrieve fully nested service_at_location with all related data with specified id: its location and its service, fully nested. (Some revisions of the specification declare the service schema here; a service_at_location is what this returns.)',
    idDescription: 'The id of the service_at_location that the request is intended to retrieve.',
    idExample: 'e94c9f38-1e8f-4564-91d4-d53501ab1765',
    schema: serviceAtLocationFullSchema,
    responseDescription: 'Retrieve fully nested service_at_location with all related data with specified id.',
    handle: async (c, id) =>
      jsonText(c, await getRecordText(c.get('deps').engine, 'service_at_locations', id)),
  });
}
