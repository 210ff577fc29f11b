import type { z } from '@hono/zod-openapi';
import { accessibilitySchema } from './accessibility.schema.ts';
import { addressSchema } from './address.schema.ts';
import { attributeSchema } from './attribute.schema.ts';
import { contactSchema } from './contact.schema.ts';
import { costOptionSchema } from './cost-option.schema.ts';
import { fundingSchema } from './funding.schema.ts';
import { languageSchema } from './language.schema.ts';
import { locationSchema } from './location.schema.ts';
import { metaTableDescriptionSchema } from './meta-table-description.schema.ts';
import { metadataSchema } from './metadata.schema.ts';
import {
  accessibilityFullSchema,
  addressFullSchema,
  attributeFullSchema,
  contactFullSchema,
  costOptionFullSchema,
  fundingFullSchema,
  languageFullSchema,
  locationFullSchema,
  metadataFullSchema,
  metaTableDescriptionFullSchema,
  organizationFullSchema,
  organizationIdentifierFullSchema,
  phoneFullSchema,
  programFullSchema,
  requiredDocumentFullSchema,
  scheduleFullSchema,
  serviceAreaFullSchema,
  serviceAtLocationFullSchema,
  serviceCapacityFullSchema,
  serviceFullSchema,
  taxonomyFullSchema,
  taxonomyTermFullSchema,
  unitFullSchema,
  urlFullSchema,
} from './nested.schema.ts';
import { organizationSchema } from './organization.schema.ts';
import { organizationIdentifierSchema } from './organization-identifier.schema.ts';
import { phoneSchema } from './phone.schema.ts';
import { programSchema } from './program.schema.ts';
import { requiredDocumentSchema } from './required-document.schema.ts';
import { scheduleSchema } from './schedule.schema.ts';
import { serviceSchema } from './service.schema.ts';
import { serviceAreaSchema } from './service-area.schema.ts';
import { serviceAtLocationSchema } from './service-at-location.schema.ts';
import { serviceCapacitySchema } from './service-capacity.schema.ts';
import { taxonomySchema } from './taxonomy.schema.ts';
import { taxonomyTermSchema } from './taxonomy-term.schema.ts';
import { unitSchema } from './unit.schema.ts';
import { urlSchema } from './url.schema.ts';

/**
 * The 24 HSDS 3.1 record types (table names), in the official data package order: parents before
 * the records that point at them, so a loader that follows this order sees organizations first.
 */
export const recordTypes = [
  'organization',
  'program',
  'service',
  'attribute',
  'service_at_location',
  'location',
  'phone',
  'contact',
  'address',
  'schedule',
  'funding',
  'service_area',
  'required_document',
  'language',
  'accessibility',
  'taxonomy_term',
  'metadata',
  'meta_table_description',
  'cost_option',
  'organization_identifier',
  'taxonomy',
  'service_capacity',
  'unit',
  'url',
] as const;

export type RecordType = (typeof recordTypes)[number];

/** Each record type's direct-field schema: scalars and parent ids, one row of the tabular form. */
export const recordSchemas = {
  organization: organizationSchema,
  program: programSchema,
  service: serviceSchema,
  attribute: attributeSchema,
  service_at_location: serviceAtLocationSchema,
  location: locationSchema,
  phone: phoneSchema,
  contact: contactSchema,
  address: addressSchema,
  schedule: scheduleSchema,
  funding: fundingSchema,
  service_area: serviceAreaSchema,
  required_document: requiredDocumentSchema,
  language: languageSchema,
  accessibility: accessibilitySchema,
  taxonomy_term: taxonomyTermSchema,
  metadata: metadataSchema,
  meta_table_description: metaTableDescriptionSchema,
  cost_option: costOptionSchema,
  organization_identifier: organizationIdentifierSchema,
  taxonomy: taxonomySchema,
  service_capacity: serviceCapacitySchema,
  unit: unitSchema,
  url: urlSchema,
} as const satisfies Record<RecordType, z.ZodObject>;

/**
 * Each record type's JSON (nested) form, with its children; its `required` list is the official
 * one. Organization and service-at-location are the endpoint shapes, which add `services` and
 * `service` respectively.
 */
export const recordFullSchemas = {
  organization: organizationFullSchema,
  program: programFullSchema,
  service: serviceFullSchema,
  attribute: attributeFullSchema,
  service_at_location: serviceAtLocationFullSchema,
  location: locationFullSchema,
  phone: phoneFullSchema,
  contact: contactFullSchema,
  address: addressFullSchema,
  schedule: scheduleFullSchema,
  funding: fundingFullSchema,
  service_area: serviceAreaFullSchema,
  required_document: requiredDocumentFullSchema,
  language: languageFullSchema,
  accessibility: accessibilityFullSchema,
  taxonomy_term: taxonomyTermFullSchema,
  metadata: metadataFullSchema,
  meta_table_description: metaTableDescriptionFullSchema,
  cost_option: costOptionFullSchema,
  organization_identifier: organizationIdentifierFullSchema,
  taxonomy: taxonomyFullSchema,
  service_capacity: serviceCapacityFullSchema,
  unit: unitFullSchema,
  url: urlFullSchema,
} as const satisfies Record<RecordType, z.ZodObject>;

/** A record of the given type (direct fields). */
export type HsdsRecord<Type extends RecordType> = z.infer<(typeof recordSchemas)[Type]>;

/** Narrows a string to a record type name. */
export const isRecordType = (name: string): name is RecordType => Object.hasOwn(recordSchemas, name);
