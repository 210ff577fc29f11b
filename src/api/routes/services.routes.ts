/**
 * /services (and its POST twin) and /services/{id}: the routes' descriptions, then their named
 * handlers, then their registration.
 */
import { readRecord, streamRecords } from '../../engine/search.ts';
import { serviceFullSchema } from '../../hsds/index.ts';
import { streamOrder } from '../../index-mapping/search.query.ts';
import { buildServiceSearch } from '../../index-mapping/service-search.query.ts';
import { asJsonAnswer } from '../http/json-answer.ts';
import type { RouteContext } from '../http/route-context.ts';
import { childTermsOf } from '../lists/child-terms.ts';
import { openDump } from '../lists/dumps.ts';
import { askedAt, type ServicesParams, servicesParams, toServiceFilters } from '../lists/endpoint-params.ts';
import { geocodeHeaders, type ResolvedGeo, resolveGeoQuery } from '../lists/geo-params.ts';
import { requirePostcodeForProximity, resolvePaging, withDeleted } from '../lists/list-params.ts';
import { listResponse, listRoutes, postedParams } from '../lists/list-route.ts';
import { meaningOf } from '../lists/meaning.ts';
import { ndjsonResponse, wholePageResponse } from '../lists/ndjson.ts';
import { nextOpenings } from '../lists/next-openings.ts';
import { relaxedSearches, searchExtensions } from '../lists/search-extensions.ts';
import { recordingSearch } from '../lists/search-recording.ts';
import { understandSearch } from '../lists/understood.ts';
import { noQuery, recordResponse, recordRoute } from '../records/record-route.ts';
import { serviceItemSchema, servicePageSchema } from '../records/response-schemas.ts';
import type { App, AppContext } from '../types.ts';

const servicesRoutes = (ctx: RouteContext) =>
  listRoutes(ctx, {
    path: '/services',
    operationId: 'getPaginatedListOfServices',
    summary: 'Retrieves paginated listings of services that only have one-to-one fields in them.',
    description:
      "Services matching every given filter (filters combine with AND), each with its direct fields, its organization and its program; `full=true` gives fully nested services; `minimal=true` every matching service's id and last_modified in one response; `format=ndjson` every match as a stream.",
    params: servicesParams(ctx),
    pageSchema: servicePageSchema,
    itemSchema: serviceItemSchema,
    responseDescription: 'A paginated list of services that only have one-to-one fields in them.',
  });

const serviceRoute = (ctx: RouteContext) =>
  recordRoute(ctx, {
    path: '/services/{id}',
    operationId: 'getFullyNestedServiceById',
    summary: 'Retrieves a fully nested service with all related data with id.',
    description: 'Retrieve fully nested service with all related data with id.',
    idDescription: 'The id of the service that the request is intended to retrieve.',
    idExample: 'ac148810-d857-441c-9679-408f346de14b',
    schema: serviceFullSchema,
    responseDescription:
      'A Service matching the {id}, with all related data according to the HSDS Specification for Service.',
    query: noQuery,
  });

/** Every matching service's id and last_modified, in one streamed page (or NDJSON). */
async function minimalServices(c: AppContext, p: ServicesParams, geo: ResolvedGeo | undefined) {
  const { engine, logger } = c.get('deps');
  const dump = openDump(c);
  const filters = {
    ...toServiceFilters(p, askedAt(c)),
    ...(await childTermsOf(c, p)),
    geo,
    ...(await understandSearch(c, p)),
  };
  const search = withDeleted(buildServiceSearch(filters, 'minimal'), p.include_deleted, p.modified_after);
  const batches = streamRecords(engine, streamOrder(search), dump.stream);
  return asJsonAnswer(
    servicePageSchema,
    await (p.format === 'ndjson'
      ? ndjsonResponse(batches, dump, logger)
      : wholePageResponse(batches, dump, logger)),
  );
}

async function listServices(ctx: RouteContext, c: AppContext, p: ServicesParams) {
  requirePostcodeForProximity(p);
  const geo = await resolveGeoQuery(c.get('deps'), p);
  const res = await (p.minimal ? minimalServices(c, p, geo) : pageOfServices(ctx, c, p, geo));
  // On the answer itself: a dump's stream is a Response of its own, which c.header() would miss.
  if (geo) for (const [name, value] of Object.entries(geocodeHeaders(geo))) res.headers.set(name, value);
  return res;
}

async function pageOfServices(
  ctx: RouteContext,
  c: AppContext,
  p: ServicesParams,
  geo: ResolvedGeo | undefined,
) {
  const asked = askedAt(c);
  const filters = {
    ...toServiceFilters(p, asked),
    ...(await childTermsOf(c, p)),
    geo,
    ...(await understandSearch(c, p)),
  };
  const shape = p.full ? 'full' : 'list';
  const request = buildServiceSearch(filters, shape);
  const extend = recordingSearch(
    c,
    p,
    searchExtensions(
      c,
      request,
      { ...p, crisis: filters.meaning?.crisis !== undefined, understood: filters.understood },
      (search) => buildServiceSearch({ ...filters, search, understood: undefined }, shape),
    ),
  );
  return listResponse(
    c,
    servicePageSchema,
    withDeleted(request, p.include_deleted, p.modified_after),
    resolvePaging(p, ctx.limits),
    {
      extend,
      relax: relaxedSearches(filters, (relax) => buildServiceSearch({ ...filters, relax }, shape)),
      ...(p.next_opening ? { enrich: nextOpenings('services', asked) } : {}),
    },
  );
}

export function registerServiceRoutes(app: App, ctx: RouteContext) {
  const list = servicesRoutes(ctx);
  app.openapi(list.get, (c) => listServices(ctx, c, c.req.valid('query')));
  app.openapi(list.post, (c) => listServices(ctx, c, postedParams(c)));

  app.openapi(serviceRoute(ctx), (c) =>
    recordResponse(c, serviceFullSchema, { ...c.req.valid('param'), ...c.req.valid('query') }, (id) =>
      readRecord(c.get('deps').engine, 'services', id),
    ),
  );
}
