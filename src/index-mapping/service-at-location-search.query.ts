/**
 * GET /service_at_locations: the service filters, plus the geography of a geocoded postcode.
 */
import { geoFilter } from './geo.query.ts';
import { composeQuery, type SearchRequest, STREAM_BATCH, sortOrder } from './search.query.ts';
import { type ServiceFilters, serviceFilters, serviceTextQuery } from './service-search.query.ts';
import { FULL_RECORD, SERVICE_AT_LOCATION_LIST_ITEM } from './sources.query.ts';

export type ServiceAtLocationFilters = ServiceFilters;

/** `list`: direct fields, the location and the service (direct fields, organization, program); `full`: fully nested. */
export type ServiceAtLocationShape = 'list' | 'full';

export function buildServiceAtLocationSearch(
  params: ServiceAtLocationFilters,
  shape: ServiceAtLocationShape,
): SearchRequest {
  const text = serviceTextQuery(params);
  const geo = geoFilter(params.geo);
  return {
    index: 'service_at_locations',
    query: composeQuery(text, [...serviceFilters(params), ...geo.filters]),
    sort: sortOrder({ relevance: text !== undefined, leading: geo.sort }),
    source: shape === 'full' ? FULL_RECORD : SERVICE_AT_LOCATION_LIST_ITEM,
    batchSize: STREAM_BATCH[shape],
    // Each item carries its distance in metres to the decimetre (an extension field): the
    // engine's own sort value.
    ...(params.geo ? { sortValues: { distance: { position: 0, decimals: 1 } } } : {}),
  };
}
