import { z } from '@hono/zod-openapi';
import type { Engine } from '../../engine/index.ts';
import { collectRecords, getRecord, type JsonRecord } from '../../engine/search.ts';
import { organizationFullSchema } from '../../hsds/index.ts';
import { buildOrganizationSearch } from '../../index-mapping/organization-search.query.ts';
import { buildOrganizationServicesSearch } from '../../index-mapping/service-search.query.ts';
import type { App } from '../app.ts';
import { param, resolvePaging, withDeleted } from '../list-params.ts';
import { listResponse, registerListEndpoint } from '../list-route.ts';
import { registerRecordEndpoint } from '../record-route.ts';
import { organizationItemSchema, organizationPageSchema } from '../response-schemas.ts';
import type { RouteContext } from '../route-context.ts';

export const organizationsParams = (ctx: RouteContext) =>
  z.object({
    search: param.search().optional(),
    page: param.page().optional(),
    per_page: param.perPage(ctx.limits).optional(),
    format: param.format().optional(),
    full_service: param.fullService().optional(),
    full: param.full('organization').optional(),
    taxonomy_term_id: param.taxonomyTermId().optional(),
    taxonomy_id: param.taxonomyId().optional(),
    include_deleted: param.includeDeleted(false).optional(),
  });

/**
 * Organizations' `services`, read from the services index (one search for a whole page of
 * organizations): fully nested with `full_service`, else id, name and status, the fields the
 * HSDS organization schema requires of each.
 */
async function withServices(
  engine: Engine,
  organizations: JsonRecord[],
  full: boolean,
): Promise<JsonRecord[]> {
  const ids = organizations.map((o) => o.id).filter((id): id is string => typeof id === 'string');
  if (ids.length === 0) return organizations;
  const services = await collectRecords(engine, buildOrganizationServicesSearch(ids, full));
  const byOrganization = new Map<string, JsonRecord[]>();
  for (const service of services) {
    const owner = service.organization_id;
    if (typeof owner !== 'string') continue;
    if (!full) delete service.organization_id;
    const list = byOrganization.get(owner);
    if (list) list.push(service);
    else byOrganization.set(owner, [service]);
  }
  // A tombstone (include_deleted) stays as it is.
  return organizations.map((o) =>
    o.deleted === true ? o : { ...o, services: byOrganization.get(o.id as string) ?? [] },
  );
}

export function registerOrganizationRoutes(app: App, ctx: RouteContext) {
  registerListEndpoint(app, ctx, {
    path: '/organizations',
    operationId: 'getPaginatedListOfOrganizations',
    summary: 'Paginated list of basic Organization information',
    description:
      'Organizations matching every given filter (AND), each with its direct fields; `full=true` gives them fully nested with their services (id, name, status); `full_service=true` fully nested with fully nested services; `format=ndjson` every match as a stream.',
    params: organizationsParams(ctx),
    pageSchema: organizationPageSchema,
    itemSchema: organizationItemSchema,
    responseDescription: 'Paginated list of basic Organization information.',
    handle: async (c, p) => {
      const paging = resolvePaging(p, ctx.limits);
      const nested = p.full === true || p.full_service === true;
      const request = withDeleted(
        buildOrganizationSearch(
          { search: p.search, taxonomyTermId: p.taxonomy_term_id, taxonomyId: p.taxonomy_id },
          nested ? 'full' : 'list',
        ),
        p.include_deleted,
      );
      if (!nested) return listResponse(c, request, paging);
      const { engine } = c.get('deps');
      return listResponse(c, request, paging, {
        enrich: (records) => withServices(engine, records, p.full_service === true),
        // Each batch carries its organizations' services: smaller batches keep memory flat.
        batchSize: 100,
      });
    },
  });

  registerRecordEndpoint(app, ctx, {
    path: '/organizations/{id}',
    operationId: 'getOrganizationById',
    summary:
      'Fully nested organization with service array that contains simple information which could only contain the service.id.',
    description:
      "Fully nested organization. Its `services` hold each service's id, name and status (the fields the HSDS organization schema requires), or, with `full_service=true`, the fully nested services.",
    idDescription: 'The id of the organization that the request is intended to retrieve.',
    idExample: 'd9d5e0f5-d3ce-4f73-9a2f-4dd0ecc6c610',
    schema: organizationFullSchema,
    responseDescription:
      'Fully nested organization with service array that contains simple information which could only contain the service.id.',
    query: z.object({ full_service: param.fullService().optional() }),
    handle: async (c, id, query) => {
      const { engine } = c.get('deps');
      const full = query.full_service === true;
      const [organization, services] = await Promise.all([
        getRecord(engine, 'organizations', id),
        collectRecords(engine, buildOrganizationServicesSearch([id], full)),
      ]);
      if (!full) for (const service of services) delete service.organization_id;
      return c.json({ ...organization, services }, 200);
    },
  });
}
