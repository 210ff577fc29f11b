/** /organizations (and its POST twin) and /organizations/{id}, each with its services. */
import { z } from '@hono/zod-openapi';
import { getOrganizationWithServices, withServices } from '../../engine/organizations.ts';
import { organizationFullSchema } from '../../hsds/index.ts';
import { buildOrganizationSearch } from '../../index-mapping/organization-search.query.ts';
import type { RouteContext } from '../http/route-context.ts';
import { childTermsOf } from '../lists/child-terms.ts';
import { type OrganizationsParams, organizationsParams } from '../lists/endpoint-params.ts';
import { param, resolvePaging, withDeleted } from '../lists/list-params.ts';
import { listResponse, listRoutes, postedParams } from '../lists/list-route.ts';
import { recordResponse, recordRoute } from '../records/record-route.ts';
import { organizationItemSchema, organizationPageSchema } from '../records/response-schemas.ts';
import type { App, AppContext } from '../types.ts';

const organizationsRoutes = (ctx: RouteContext) =>
  listRoutes(ctx, {
    path: '/organizations',
    operationId: 'getPaginatedListOfOrganizations',
    summary: 'Paginated list of basic Organization information',
    description:
      'Organizations matching every given filter (AND), each with its direct fields; `full=true` gives them fully nested with their services (id, name, status); `full_service=true` fully nested with fully nested services; `format=ndjson` every match as a stream.',
    params: organizationsParams(ctx),
    pageSchema: organizationPageSchema,
    itemSchema: organizationItemSchema,
    responseDescription: 'Paginated list of basic Organization information.',
  });

const organizationRoute = (ctx: RouteContext) =>
  recordRoute(ctx, {
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
  });

async function listOrganizations(ctx: RouteContext, c: AppContext, p: OrganizationsParams) {
  const paging = resolvePaging(p, ctx.limits);
  const nested = p.full === true || p.full_service === true;
  const request = withDeleted(
    buildOrganizationSearch(
      {
        search: p.search,
        taxonomyTermId: p.taxonomy_term_id,
        taxonomyId: p.taxonomy_id,
        ...(await childTermsOf(c, p)),
      },
      nested ? 'full' : 'list',
    ),
    p.include_deleted,
  );
  if (!nested) return listResponse(c, organizationPageSchema, request, paging);
  const { engine } = c.get('deps');
  return listResponse(c, organizationPageSchema, request, paging, {
    enrich: (texts, budget) => withServices(engine, texts, p.full_service === true, budget),
    nests: p.full_service === true ? 'full services' : 'services',
  });
}

export function registerOrganizationRoutes(app: App, ctx: RouteContext) {
  const list = organizationsRoutes(ctx);
  app.openapi(list.get, (c) => listOrganizations(ctx, c, c.req.valid('query')));
  app.openapi(list.post, (c) => listOrganizations(ctx, c, postedParams(c)));

  app.openapi(organizationRoute(ctx), (c) => {
    const query = c.req.valid('query');
    return recordResponse(c, organizationFullSchema, { ...c.req.valid('param'), ...query }, async (id) =>
      JSON.stringify(
        await getOrganizationWithServices(c.get('deps').engine, id, query.full_service === true),
      ),
    );
  });
}
