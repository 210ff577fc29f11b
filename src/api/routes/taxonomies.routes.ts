import { z } from '@hono/zod-openapi';
import { getRecordText } from '../../engine/search.ts';
import { taxonomyFullSchema, taxonomyTermFullSchema } from '../../hsds/index.ts';
import { buildTaxonomySearch, buildTaxonomyTermSearch } from '../../index-mapping/taxonomy-search.query.ts';
import type { App } from '../app.ts';
import { param, resolvePaging, withDeleted } from '../list-params.ts';
import { listResponse, registerListEndpoint } from '../list-route.ts';
import { jsonText, registerRecordEndpoint } from '../record-route.ts';
import {
  taxonomyItemSchema,
  taxonomyPageSchema,
  taxonomyTermItemSchema,
  taxonomyTermPageSchema,
} from '../response-schemas.ts';
import type { RouteContext } from '../route-context.ts';

export const taxonomiesParams = (ctx: RouteContext) =>
  z.object({
    search: param.search().optional(),
    page: param.page().optional(),
    per_page: param.perPage(ctx.limits).optional(),
    format: param.format().optional(),
    include_deleted: param.includeDeleted(false).optional(),
  });

export const taxonomyTermsParams = (ctx: RouteContext) =>
  z.object({
    search: param.search().optional(),
    page: param.page().optional(),
    per_page: param.perPage(ctx.limits).optional(),
    format: param.format().optional(),
    taxonomy_id: param.taxonomyId().optional(),
    top_only: param.topOnly().optional(),
    parent_id: param.parentId().optional(),
    include_deleted: param.includeDeleted(false).optional(),
  });

export function registerTaxonomyRoutes(app: App, ctx: RouteContext) {
  registerListEndpoint(app, ctx, {
    path: '/taxonomies',
    operationId: 'getPaginatedListOfTaxonomies',
    summary: 'Paginated listing of taxonomies.',
    description:
      'Taxonomies, optionally searched by name and description; `format=ndjson` every match as a stream.',
    params: taxonomiesParams(ctx),
    pageSchema: taxonomyPageSchema,
    itemSchema: taxonomyItemSchema,
    responseDescription: 'Paginated listing of taxonomies.',
    handle: async (c, p) =>
      listResponse(
        c,
        withDeleted(buildTaxonomySearch({ search: p.search }), p.include_deleted),
        resolvePaging(p, ctx.limits),
      ),
  });

  registerRecordEndpoint(app, ctx, {
    path: '/taxonomies/{id}',
    operationId: 'getTaxonomyById',
    summary: 'Retrieves full information on a taxonomy by {id}.',
    description: 'Full information on taxonomy.',
    idDescription: 'The id of the taxonomy that the request is intended to retrieve.',
    idExample: '5c4d79d7-cc55-470e-9f1f-8cad074e4892',
    schema: taxonomyFullSchema,
    responseDescription: 'Full information on taxonomy.',
    handle: async (c, id) => jsonText(c, await getRecordText(c.get('deps').engine, 'taxonomies', id)),
  });

  // The specification's operationIds of these two are swapped; these are the corrected ones.
  registerListEndpoint(app, ctx, {
    path: '/taxonomy_terms',
    operationId: 'getPaginatedListOfTaxonomyTerms',
    summary: 'Paginated listing of taxonomy terms',
    description:
      'Taxonomy terms matching every given filter (AND), each with its taxonomy (`taxonomy_detail`); searched by name, description and code; `format=ndjson` every match as a stream.',
    params: taxonomyTermsParams(ctx),
    pageSchema: taxonomyTermPageSchema,
    itemSchema: taxonomyTermItemSchema,
    responseDescription: 'Paginated listing of taxonomy terms',
    handle: async (c, p) =>
      listResponse(
        c,
        withDeleted(
          buildTaxonomyTermSearch({
            search: p.search,
            taxonomyId: p.taxonomy_id,
            topOnly: p.top_only,
            parentId: p.parent_id,
          }),
          p.include_deleted,
        ),
        resolvePaging(p, ctx.limits),
      ),
  });

  registerRecordEndpoint(app, ctx, {
    path: '/taxonomy_terms/{id}',
    operationId: 'getTaxonomyTermById',
    summary: 'Full information on a taxonomy term.',
    description: 'Full information on a taxonomy term, with its taxonomy (`taxonomy_detail`).',
    idDescription: 'The id of the taxonomy term that the request is intended to retrieve.',
    idExample: '3f7b145d-84af-42d7-8fae-eaca714b02b2',
    schema: taxonomyTermFullSchema,
    responseDescription: 'Full information on a taxonomy term.',
    handle: async (c, id) => jsonText(c, await getRecordText(c.get('deps').engine, 'taxonomy_terms', id)),
  });
}
