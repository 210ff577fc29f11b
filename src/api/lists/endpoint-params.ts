/**
 * Each list endpoint's parameters, as one zod object (the GET query, and the POST twin's query
 * and body), built from the shared parameter schemas of list-params.ts. Routes import these; no
 * route file imports another.
 */
import { z } from '@hono/zod-openapi';
import type { ServiceFilters } from '../../index-mapping/service-search.query.ts';
import { parseInstant } from '../../schedules/calendar.ts';
import { invalidParameter } from '../http/problem.ts';
import type { RouteContext } from '../http/route-context.ts';
import type { AppContext } from '../types.ts';
import { param } from './list-params.ts';
import { understoodParams } from './understood.ts';

/** The UK profile's extra /services and /service_at_locations filters. */
const ukServiceParams = () => ({
  minimum_age: param.minimumAge().optional(),
  maximum_age: param.maximumAge().optional(),
  day: param.day().optional(),
  start_time: param.startTime().optional(),
  end_time: param.endTime().optional(),
});

/** The search, paging and format parameters of every list. */
const listShape = (ctx: RouteContext) => ({
  search: param.search().optional(),
  page: param.page().optional(),
  per_page: param.perPage(ctx.limits).optional(),
  format: param.format().optional(),
});

/** The search, paging and filter parameters that /services and /service_at_locations share. */
const serviceListShape = (ctx: RouteContext) => ({
  ...listShape(ctx),
  taxonomy_term_id: param.taxonomyTermId().optional(),
  include_child_terms: param.includeChildTerms().optional(),
  taxonomy_id: param.taxonomyId().optional(),
  organization_id: param.organizationId().optional(),
  modified_after: param.modifiedAfter().optional(),
  age: param.age().optional(),
  language: param.language().optional(),
  free: param.free().optional(),
  accessibility: param.accessibility().optional(),
  open_at: param.openAt().optional(),
  open_now: param.openNow().optional(),
  next_opening: param.nextOpening().optional(),
  facets: param.facets().optional(),
  ...understoodParams(),
});

const servicesShape = (ctx: RouteContext) => ({
  ...serviceListShape(ctx),
  include_deleted: param.includeDeleted(true).optional(),
  minimal: param.minimal().optional(),
  full: param.full('service').optional(),
  postcode: param.servicePostcode().optional(),
  proximity: param.proximity().optional(),
});

const serviceAtLocationsShape = (ctx: RouteContext) => ({
  ...serviceListShape(ctx),
  full: param.full('service_at_location').optional(),
  postcode: param.postcode().optional(),
  proximity: param.proximity().optional(),
});

const ukServicesParams = (ctx: RouteContext) => z.object({ ...servicesShape(ctx), ...ukServiceParams() });
const ukServiceAtLocationsParams = (ctx: RouteContext) =>
  z.object({ ...serviceAtLocationsShape(ctx), ...ukServiceParams() });

// The UK parameters exist only under the UK profile: elsewhere they are unknown parameters, so
// ignored. The handlers take the UK profile's type, where they are optional, under both.
export const servicesParams = (ctx: RouteContext) =>
  ctx.profile === 'oruk' ? ukServicesParams(ctx) : z.object(servicesShape(ctx));

export const serviceAtLocationsParams = (ctx: RouteContext) =>
  ctx.profile === 'oruk' ? ukServiceAtLocationsParams(ctx) : z.object(serviceAtLocationsShape(ctx));

export const organizationsParams = (ctx: RouteContext) =>
  z.object({
    ...listShape(ctx),
    full_service: param.fullService().optional(),
    full: param.full('organization').optional(),
    taxonomy_term_id: param.taxonomyTermId().optional(),
    include_child_terms: param.includeChildTerms().optional(),
    taxonomy_id: param.taxonomyId().optional(),
    include_deleted: param.includeDeleted(false).optional(),
  });

export const taxonomiesParams = (ctx: RouteContext) =>
  z.object({
    ...listShape(ctx),
    include_deleted: param.includeDeleted(false).optional(),
  });

export const taxonomyTermsParams = (ctx: RouteContext) =>
  z.object({
    ...listShape(ctx),
    taxonomy_id: param.taxonomyId().optional(),
    top_only: param.topOnly().optional(),
    parent_id: param.parentId().optional(),
    include_deleted: param.includeDeleted(false).optional(),
  });

export type ServicesParams = z.output<ReturnType<typeof ukServicesParams>>;
export type ServiceAtLocationsParams = z.output<ReturnType<typeof ukServiceAtLocationsParams>>;
export type OrganizationsParams = z.output<ReturnType<typeof organizationsParams>>;
export type TaxonomiesParams = z.output<ReturnType<typeof taxonomiesParams>>;
export type TaxonomyTermsParams = z.output<ReturnType<typeof taxonomyTermsParams>>;

/** When a list is asked: the request's time, and DIRECTORY_TIMEZONE for local times. */
export type AskedAt = { now: number; directoryZone: string };

/** The request's AskedAt: the clock is read here, at the edge; query builders take the instant. */
export const askedAt = (c: AppContext): AskedAt => ({
  now: Date.now(),
  // Configurations built by hand (tests) may predate the variable.
  directoryZone: c.get('deps').config.DIRECTORY_TIMEZONE ?? 'UTC',
});

/** `open_at` (local to DIRECTORY_TIMEZONE when it carries no offset) or `open_now`, as an instant. */
function openingOf(p: ServicesParams | ServiceAtLocationsParams, asked: AskedAt): ServiceFilters['open'] {
  if (p.open_at !== undefined && p.open_now) {
    throw invalidParameter('open_now', 'give open_at or open_now, not both');
  }
  const instant =
    p.open_at !== undefined
      ? parseInstant(p.open_at, asked.directoryZone)
      : p.open_now
        ? asked.now
        : undefined;
  return instant === undefined ? undefined : { instant, directoryZone: asked.directoryZone };
}

/** Parameter names to builder fields; the UK ones are simply absent under plain HSDS. */
export function toServiceFilters(
  p: ServicesParams | ServiceAtLocationsParams,
  asked: AskedAt,
): ServiceFilters {
  return {
    open: openingOf(p, asked),
    age: p.age,
    language: p.language,
    free: p.free,
    accessibility: p.accessibility,
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
