import { z } from '@hono/zod-openapi';
import { getRecordText, streamRecordTexts } from '../../engine/search.ts';
import { serviceFullSchema } from '../../hsds/index.ts';
import { streamOrder } from '../../index-mapping/search.query.ts';
import { buildServiceSearch, type ServiceFilters } from '../../index-mapping/service-search.query.ts';
import type { App } from '../app.ts';
import { openDump } from '../dumps.ts';
import { param, resolvePaging, withDeleted } from '../list-params.ts';
import { listResponse, registerListEndpoint } from '../list-route.ts';
import { ndjsonResponse, wholePageResponse } from '../ndjson.ts';
import { jsonText, registerRecordEndpoint } from '../record-route.ts';
import { serviceItemSchema, servicePageSchema } from '../response-schemas.ts';
import type { RouteContext } from '../route-context.ts';
import { searchExtensions } from '../search-extensions.ts';

/** The UK profile's extra /services (and /service_at_locations) filters. */
export const ukServiceParams = () => ({
  minimum_age: param.minimumAge().optional(),
  maximum_age: param.maximumAge().optional(),
  day: param.day().optional(),
  start_time: param.startTime().optional(),
  end_time: param.endTime().optional(),
});

/** The search, paging and filter parameters that /services and /service_at_locations share. */
export const serviceListShape = (ctx: RouteContext) => ({
  search: param.search().optional(),
  page: param.page().optional(),
  per_page: param.perPage(ctx.limits).optional(),
  format: param.format().optional(),
  taxonomy_term_id: param.taxonomyTermId().optional(),
  taxonomy_id: param.taxonomyId().optional(),
  organization_id: param.organizationId().optional(),
  modified_after: param.modifiedAfter().optional(),
  facets: param.facets().optional(),
});

const servicesShape = (ctx: RouteContext) => ({
  ...serviceListShape(ctx),
  include_deleted: param.includeDeleted(true).optional(),
  minimal: param.minimal().optional(),
  full: param.full('service').optional(),
});

const servicesWithUkParams = (ctx: RouteContext) => z.object({ ...servicesShape(ctx), ...ukServiceParams() });

/** The UK parameters exist only under the UK profile; typed as always optional. */
export function servicesParams(ctx: RouteContext): ReturnType<typeof servicesWithUkParams> {
  if (ctx.profile === 'oruk') return servicesWithUkParams(ctx);
  return z.object(servicesShape(ctx)) as unknown as ReturnType<typeof servicesWithUkParams>;
}

type ServicesParams = z.output<ReturnType<typeof servicesParams>>;

/** Parameter names to builder fields; the UK ones are simply absent under plain HSDS. */
export function toServiceFilters(
  p: Omit<ServicesParams, 'minimal' | 'full' | 'page' | 'per_page' | 'format' | 'include_deleted' | 'facets'>,
): ServiceFilters {
  return {
    search: p.search,
    taxonomyTermId: p.taxonomy_term_id,
    taxonomyId: p.taxonomy_id,
    organizationId: p.organization_id,
    modifiedAfter: p.modified_after,
    minimumAge: p.minimum_age,
    maximumAge: p.maximum_age,
    schedule:
      p.day !== undefined || p.start_time !== undefined || p.end_time !== undefined
        ? { day: p.day, startTime: p.start_time, endTime: p.end_time }
        : undefined,
  };
}

export function registerServiceRoutes(app: App, ctx: RouteContext) {
  registerListEndpoint(app, ctx, {
    path: '/services',
    operationId: 'getPaginatedListOfServices',
    summary: 'Retrieves paginated listings of services that only have one-to-one fields in them.',
    description:
      "Services matching every given filter (filters combine with AND), each with its direct fields, its organization and its program; `full=true` gives fully nested services; `minimal=true` every matching service's id and last_modified in one response; `format=ndjson` every match as a stream.",
    params: servicesParams(ctx),
    pageSchema: servicePageSchema,
    itemSchema: serviceItemSchema,
    responseDescription: 'A paginated list of services that only have one-to-one fields in them.',
    handle: async (c, p) => {
      const paging = resolvePaging(p, ctx.limits);
      const filters = toServiceFilters(p);
      if (p.minimal) {
        const { engine, logger } = c.get('deps');
        const dump = openDump(c);
        const search = withDeleted(
          buildServiceSearch(filters, 'minimal'),
          p.include_deleted,
          p.modified_after,
        );
        const batches = streamRecordTexts(engine, streamOrder(search), {
          batchSize: 5000,
          ...dump.stream,
        });
        return paging.format === 'ndjson'
          ? ndjsonResponse(batches, dump, logger)
          : wholePageResponse(batches, dump, logger);
      }
      const shape = p.full ? 'full' : 'list';
      const request = buildServiceSearch(filters, shape);
      const extend = searchExtensions(c, request, p, (search) =>
        buildServiceSearch({ ...filters, search }, shape),
      );
      return listResponse(c, withDeleted(request, p.include_deleted, p.modified_after), paging, { extend });
    },
  });

  registerRecordEndpoint(app, ctx, {
    path: '/services/{id}',
    operationId: 'getFullyNestedServiceById',
    summary: 'Retrieves a fully nested service with all related data with id.',
    description: 'Retrieve fully nested service with all related data with id.',
    idDescription: 'The id of the service that the request is intended to retrieve.',
    idExample: 'ac148810-d857-441c-9679-408f346de14b',
    schema: serviceFullSchema,
    responseDescription:
      'A Service matching the {id}, with all related data according to the HSDS Specification for Service.',
    handle: async (c, id) => jsonText(c, await getRecordText(c.get('deps').engine, 'services', id)),
  });
}
