/**
 * Which parts of a stored document each response shape needs (`_source` filtering). The engine
 * sends only these, so a list page of direct fields does not carry every record's phones,
 * schedules and locations over the wire. Direct fields come from the HSDS zod schemas, so a field
 * added there is served without a change here.
 */
import {
  locationSchema,
  organizationSchema,
  programSchema,
  serviceAtLocationSchema,
  serviceSchema,
} from '../hsds/index.ts';
import { F } from './fields.ts';

const directFields = (schema: { shape: object }, prefix: string): string[] =>
  Object.keys(schema.shape).map((key) => `${prefix}.${key}`);

const record = F.record;

/** The record as stored: fully nested. */
export const FULL_RECORD: readonly string[] = [record];

/** A service list item: direct fields, with its organization and program (direct fields). */
export const SERVICE_LIST_ITEM: readonly string[] = [
  ...directFields(serviceSchema, record),
  ...directFields(organizationSchema, `${record}.organization`),
  ...directFields(programSchema, `${record}.program`),
];

/** `minimal=true`: a service's id and last_modified. */
export const SERVICE_MINIMAL: readonly string[] = [`${record}.id`, `${record}.last_modified`];

/** A service-at-location list item: direct fields, its location, and its service as a list item. */
export const SERVICE_AT_LOCATION_LIST_ITEM: readonly string[] = [
  ...directFields(serviceAtLocationSchema, record),
  ...directFields(locationSchema, `${record}.location`),
  ...directFields(serviceSchema, `${record}.service`),
  ...directFields(organizationSchema, `${record}.service.organization`),
  ...directFields(programSchema, `${record}.service.program`),
];

/** An organization list item: direct fields. */
export const ORGANIZATION_LIST_ITEM: readonly string[] = directFields(organizationSchema, record);

/** The services listed inside an organization without `full_service`: what the schema requires. */
export const SERVICE_SUMMARY: readonly string[] = [
  `${record}.id`,
  `${record}.name`,
  `${record}.status`,
  `${record}.organization_id`,
];
