/**
 * The documents of the read indices: what reindex writes and what queries read back. `record`
 * holds the HSDS record as the API serves it; the other fields exist only to be searched.
 */
import type { Geometry, MultiPolygon, Polygon } from 'geojson';
import type { OpeningRule } from '../schedules/opening-rules.ts';

export type GeoPoint = { lat: number; lon: number };

type ServiceSearchFields = {
  name: string;
  alternate_name?: string;
  description?: string;
  organization_name?: string;
  taxonomy_term_names: string[];
  taxonomy_term_descriptions?: string[];
  organization_id?: string;
  program_id?: string;
  taxonomy_term_ids: string[];
  taxonomy_ids: string[];
  status?: string;
  last_modified?: string;
  minimum_age?: number;
  maximum_age?: number;
  languages?: string[];
  language_codes?: string[];
  free?: boolean;
  accessibility?: string[];
  /** The directory's words for where it is (places.document.ts). */
  places?: string[];
  schedules: { byday: string[]; opens_at?: string; closes_at?: string }[];
  /** When it is open (F.opening); empty for a record with no schedule that can open. */
  opening: OpeningRule[];
};

/** Completion inputs (GET /suggest). */
export type SuggestField = { input: string[] };

/** `record`: the fully nested service, exactly as GET /services/{id} returns it. */
export type ServiceDocument = ServiceSearchFields & {
  id: string;
  suggest?: SuggestField;
  location_points: GeoPoint[];
  /**
   * Where the service is offered, from every service area it or its service-at-locations name:
   * its inside cells and edge, as a service_at_location's (`/services?postcode=&proximity=`).
   */
  coverage_cells?: string[];
  coverage_edge?: Geometry;
  /** Every id the record nests or points at (nested-ids.ts). */
  nested_ids: string[];
  record: Record<string, unknown>;
  /** The record's list item as JSON text (F.listItem). */
  list_item: string;
};

/**
 * `record`: the fully nested service_at_location as GET /service_at_locations/{id} returns it:
 * its own fields, `location` fully nested, and `service` fully nested (with organization, program).
 */
export type ServiceAtLocationDocument = ServiceSearchFields & {
  id: string;
  service_id: string;
  location_id?: string;
  location_point?: GeoPoint;
  coverage?: Polygon | MultiPolygon | Geometry;
  /** Quadtree cells wholly inside the coverage (F.coverageCells). */
  coverage_cells?: string[];
  /** The coverage's part in the cells its boundary crosses (F.coverageEdge). */
  coverage_edge?: Geometry;
  has_coverage: boolean;
  record: Record<string, unknown>;
  /** The record's list item as JSON text (F.listItem). */
  list_item: string;
};

/** `record`: the organization fully nested except `services` (service_ids lists them). */
export type OrganizationDocument = {
  id: string;
  name: string;
  alternate_name?: string;
  description?: string;
  service_ids: string[];
  taxonomy_term_ids: string[];
  taxonomy_ids: string[];
  last_modified?: string;
  nested_ids: string[];
  suggest?: SuggestField;
  record: Record<string, unknown>;
  /** The record's list item as JSON text (F.listItem). */
  list_item: string;
};

export type TaxonomyDocument = {
  id: string;
  name: string;
  description?: string;
  nested_ids: string[];
  record: Record<string, unknown>;
};

/** `record`: the taxonomy_term with `taxonomy_detail` nested. */
export type TaxonomyTermDocument = {
  id: string;
  name: string;
  description?: string;
  code?: string;
  taxonomy_id?: string;
  parent_id?: string;
  nested_ids: string[];
  suggest?: SuggestField;
  record: Record<string, unknown>;
};
