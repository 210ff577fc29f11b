/** /taxonomies and /taxonomy_terms (each with its POST twin) and their `{id}` routes. */
import { readRecord } from '../../engine/search.ts';
import { taxonomyFullSchema, taxonomyTermFullSchema } from '../../hsds/index.ts';
import { buildTaxonomySearch, buildTaxonomyTermSearch } from '../../index-mapping/taxonomy-search.query.ts';
import type { RouteContext } from '../http/route-context.ts';
import {
  type TaxonomiesParams,
  type TaxonomyTermsParams,
  taxonomiesParams,
  taxonomyTermsParams,
} from '../lists/endpoint-params.ts';
import { resolvePaging, withDeleted } from '../lists/list-params.ts';
import { listResponse, listRoutes, postedParams } from '../lists/list-route.ts';
import { noQuery, recordResponse, recordRoute } from '../records/record-route.ts';
import {
  taxonomyItemSchema,
  taxonomyPageSchema,
  taxonomyTermItemSchema,
  taxonomyTermPageSchema,
} from '../records/response-schemas.ts';
import type { App, AppContext } from '../types.ts';

const taxonomiesRoutes = (ctx: RouteContext) =>
  listRoutes(ctx, {
    path: '/taxonomies',
    operationId: 'getPaginatedListOfTaxonomies',
    summary: 'Paginated listing of taxonomies.',
    description:
      'Taxonomies, optionally searched by name and description; `format=ndjson` every match as a stream.',
    params: taxonomiesParams(ctx),
    pageSchema: taxonomyPageSchema,
    itemSchema: taxonomyItemSchema,
    responseDescription: 'Paginated listing of taxonomies.',
  });

const taxonomyRoute = (ctx: RouteContext) =>
  recordRoute(ctx, {
    path: '/taxonomies/{id}',
    operationId: 'getTaxonomyById',
    summary: 'Retrieves full information on a taxonomy by {id}.',
    description: 'Full information on taxonomy.',
    idDescription: 'The id of the taxonomy that the request is intended to retrieve.',
    idExample: '5c4d79d7-cc55-470e-9f1f-8cad074e4892',
    schema: taxonomyFullSchema,
    responseDescription: 'Full information on taxonomy.',
    query: noQuery,
  });

// The specification's operationIds of these two are swapped; these are the corrected ones.
const taxonomyTermsRoutes = (ctx: RouteContext) =>
  listRoutes(ctx, {
    path: '/taxonomy_terms',
    operationId: 'getPaginatedListOfTaxonomyTerms',
    summary: 'Paginated listing of taxonomy terms',
    description:
      'Taxonomy terms matching every given filter (AND), each with its taxonomy (`taxonomy_detail`); searched by name, description and code; `format=ndjson` every match as a stream.',
    params: taxonomyTermsParams(ctx),
    pageSchema: taxonomyTermPageSchema,
    itemSchema: taxonomyTermItemSchema,
    responseDescription: 'Paginated listing of taxonomy terms',
  });

const taxonomyTermRoute = (ctx: RouteContext) =>
  recordRoute(ctx, {
    path: '/taxonomy_terms/{id}',
    operationId: 'getTaxonomyTermById',
    summary: 'Full information on a taxonomy term.',
    description: 'Full information on a taxonomy term, with its taxonomy (`taxonomy_detail`).',
    idDescription: 'The id of the taxonomy term that the request is intended to retrieve.',
    idExample: '3f7b145d-84af-42d7-8fae-eaca714b02b2',
    schema: taxonomyTermFullSchema,
    responseDescription: 'Full information on a taxonomy term.',
    query: noQuery,
  });

const listTaxonomies = (ctx: RouteContext, c: AppContext, p: TaxonomiesParams) =>
  listResponse(
    c,
    taxonomyPageSchema,
    withDeleted(buildTaxonomySearch({ search: p.search }), p.include_deleted),
    resolvePaging(p, ctx.limits),
  );

const listTaxonomyTerms = (ctx: RouteContext, c: AppContext, p: TaxonomyTermsParams) =>
  listResponse(
    c,
    taxonomyTermPageSchema,
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
  );

export function registerTaxonomyRoutes(app: App, ctx: RouteContext) {
  const taxonomies = taxonomiesRoutes(ctx);
  app.openapi(taxonomies.get, (c) => listTaxonomies(ctx, c, c.req.valid('query')));
  app.openapi(taxonomies.post, (c) => listTaxonomies(ctx, c, postedParams(c)));
  app.openapi(taxonomyRoute(ctx), (c) =>
    recordResponse(c, taxonomyFullSchema, { ...c.req.valid('param'), ...c.req.valid('query') }, (id) =>
      readRecord(c.get('deps').engine, 'taxonomies', id),
    ),
  );

  const terms = taxonomyTermsRoutes(ctx);
  app.openapi(terms.get, (c) => listTaxonomyTerms(ctx, c, c.req.valid('query')));
  app.openapi(terms.post, (c) => listTaxonomyTerms(ctx, c, postedParams(c)));
  app.openapi(taxonomyTermRoute(ctx), (c) =>
    recordResponse(c, taxonomyTermFullSchema, { ...c.req.valid('param'), ...c.req.valid('query') }, (id) =>
      readRecord(c.get('deps').engine, 'taxonomy_terms', id),
    ),
  );
}
