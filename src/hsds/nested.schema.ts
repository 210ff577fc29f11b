import { z } from '@hono/zod-openapi';
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

// The JSON (nested) form of each HSDS object, composed from the direct-field schemas the way the
// official compiled schemas (schema/compiled/*.json) inline the modular ones: every object carries
// its child arrays, its `attributes` (each with its taxonomy term and that term's taxonomy) and its
// `metadata`. Child ids and parent ids stay optional here because the JSON form implies them by
// nesting; only the tabular form requires them (see `tabularRecordSchemas`).
//
// Two reverse links exist only in the endpoint shapes, as in the compiled schemas: an organization's
// `services` (GET /organizations/{id}) and a service-at-location's `service`
// (GET /service_at_locations/{id}). The copies nested elsewhere leave them out (an organization
// inside a service has no `services`, a service inside a service-at-location no
// `service_at_locations`), which is how the compiled schemas break the cycles.

// Descriptions of the nested properties, copied from the official modular schemas.
const attributesDescription =
  'A link between a service and one or more classifications that describe the nature of the service provided.';
const metadataDescription =
  'A record of the changes that have been made to the data in order to maintain provenance information.';
const phonesDescription =
  'The details of the telephone numbers used to contact organizations, services, and locations.';
const schedulesDescription =
  'The details of when a service or location is open. Entries are RFC 5545 RRULES.';
const languagesDescription =
  'The details of the languages that are spoken at locations or services. This does not include languages which can only be used with interpretation.';
const contactsDescription = 'The details of the named contacts for services and organizations.';
const serviceAreasDescription = 'The details of the geographic area for which a service is available.';
const fundingDescription = 'The sources of funding for a service or organization.';
const locationDescription =
  'The details of the locations where organizations operate. Locations may be virtual, and one organization may have many locations.';

const metadataList = () => z.array(metadataSchema).openapi({ description: metadataDescription }).optional();

/** HSDS `metadata` has no children: its JSON form is its direct fields. */
export const metadataFullSchema = metadataSchema;

/** A taxonomy with its metadata. */
export const taxonomyFullSchema = taxonomySchema
  .extend({ metadata: metadataList() })
  .openapi('taxonomy_full', { description: 'Taxonomies from which taxonomy terms are taken.' });

/** A taxonomy term with the taxonomy it comes from (`taxonomy_detail`); GET /taxonomy_terms/{id}. */
export const taxonomyTermFullSchema = taxonomyTermSchema
  .extend({
    taxonomy_detail: taxonomyFullSchema
      .openapi({ description: 'Taxonomies from which taxonomy terms are taken' })
      .optional(),
    metadata: metadataList(),
  })
  .openapi('taxonomy_term_full', {
    description:
      'A term from a taxonomy, with the details of its taxonomy (`taxonomy_detail`) and its metadata.',
  });

/** An attribute with the taxonomy term it links to. */
export const attributeFullSchema = attributeSchema
  .extend({
    taxonomy_term: taxonomyTermFullSchema
      .openapi({
        description:
          'Each service can be categorized according to one or more taxonomy terms. The taxonomy_term object contains a list of taxonomy terms, their names, and, for hierarchical taxonomies, their structure.',
      })
      .optional(),
    metadata: metadataList(),
  })
  .openapi('attribute_full', { description: attributesDescription });

const attributesList = () =>
  z.array(attributeFullSchema).openapi({ description: attributesDescription }).optional();

// Every object but metadata, attribute, taxonomy and taxonomy_term carries these two arrays.
const annotations = () => ({ attributes: attributesList(), metadata: metadataList() });

export const urlFullSchema = urlSchema.extend(annotations()).openapi('url_full');
export const languageFullSchema = languageSchema.extend(annotations()).openapi('language_full');
export const addressFullSchema = addressSchema.extend(annotations()).openapi('address_full');
export const accessibilityFullSchema = accessibilitySchema
  .extend(annotations())
  .openapi('accessibility_full');
export const scheduleFullSchema = scheduleSchema.extend(annotations()).openapi('schedule_full');
export const serviceAreaFullSchema = serviceAreaSchema.extend(annotations()).openapi('service_area_full');
export const fundingFullSchema = fundingSchema.extend(annotations()).openapi('funding_full');
export const costOptionFullSchema = costOptionSchema.extend(annotations()).openapi('cost_option_full');
export const programFullSchema = programSchema.extend(annotations()).openapi('program_full');
export const requiredDocumentFullSchema = requiredDocumentSchema
  .extend(annotations())
  .openapi('required_document_full');
export const organizationIdentifierFullSchema = organizationIdentifierSchema
  .extend(annotations())
  .openapi('organization_identifier_full');
export const metaTableDescriptionFullSchema = metaTableDescriptionSchema
  .extend(annotations())
  .openapi('meta_table_description_full');
export const unitFullSchema = unitSchema.extend(annotations()).openapi('unit_full');

/** A service capacity with its unit; `unit` is required in the JSON form (the tabular form has `unit_id`). */
export const serviceCapacityFullSchema = serviceCapacitySchema
  .extend({ unit: unitFullSchema, ...annotations() })
  .openapi('service_capacity_full');

export const phoneFullSchema = phoneSchema
  .extend({
    languages: z.array(languageFullSchema).openapi({ description: languagesDescription }).optional(),
    ...annotations(),
  })
  .openapi('phone_full');

const phonesList = () => z.array(phoneFullSchema).openapi({ description: phonesDescription }).optional();
const schedulesList = () =>
  z.array(scheduleFullSchema).openapi({ description: schedulesDescription }).optional();

export const contactFullSchema = contactSchema
  .extend({ phones: phonesList(), ...annotations() })
  .openapi('contact_full');

const contactsList = () =>
  z.array(contactFullSchema).openapi({ description: contactsDescription }).optional();

/** A location with its languages, addresses, contacts, accessibility, phones and schedules. */
export const locationFullSchema = locationSchema
  .extend({
    languages: z
      .array(languageFullSchema)
      .openapi({
        description:
          'The languages that are spoken at locations or services. This does not include languages which can only be used with interpretation.',
      })
      .optional(),
    addresses: z
      .array(addressFullSchema)
      .openapi({ description: 'The addresses of locations where organizations operate.' })
      .optional(),
    contacts: contactsList(),
    accessibility: z
      .array(accessibilityFullSchema)
      .openapi({
        description:
          'The details of the arrangements for access to locations for people who have disabilities',
      })
      .optional(),
    phones: phonesList(),
    schedules: schedulesList(),
    ...annotations(),
  })
  .openapi('location_full', { description: locationDescription });

/** A service-at-location with its location, as nested inside a service (no `service`). */
export const serviceAtLocationNestedSchema = serviceAtLocationSchema
  .extend({
    service_areas: z
      .array(serviceAreaFullSchema)
      .openapi({ description: serviceAreasDescription })
      .optional(),
    contacts: contactsList(),
    phones: phonesList(),
    schedules: schedulesList(),
    location: locationFullSchema.openapi({ description: locationDescription }).optional(),
    ...annotations(),
  })
  .openapi('service_at_location_nested', {
    description: 'A link between a service and a specific location.',
  });

/** An organization with its children, as nested inside a service (no `services`). */
export const organizationNestedSchema = organizationSchema
  .extend({
    additional_websites: z
      .array(urlFullSchema)
      .openapi({ description: 'The details of additional websites for the organization.' })
      .optional(),
    funding: z.array(fundingFullSchema).openapi({ description: fundingDescription }).optional(),
    contacts: contactsList(),
    phones: phonesList(),
    locations: z.array(locationFullSchema).openapi({ description: locationDescription }).optional(),
    programs: z
      .array(programFullSchema)
      .openapi({ description: 'The details of collection of related services.' })
      .optional(),
    organization_identifiers: z
      .array(organizationIdentifierFullSchema)
      .openapi({
        description:
          'The details of the third party identifiers for organizations, such as: company registration number, charity number, tax registration number.',
      })
      .optional(),
    ...annotations(),
  })
  .openapi('organization_nested', {
    description:
      'The details about each organization delivering services. Each service should be linked to the organization responsible for its delivery. One organization may deliver many services.',
  });

/** A service with its children, as nested inside a service-at-location (no `service_at_locations`). */
export const serviceNestedSchema = serviceSchema
  .extend({
    additional_urls: z
      .array(urlFullSchema)
      .openapi({ description: 'The details of additional URLs for the service' })
      .optional(),
    phones: phonesList(),
    schedules: schedulesList(),
    service_areas: z
      .array(serviceAreaFullSchema)
      .openapi({ description: serviceAreasDescription })
      .optional(),
    languages: z.array(languageFullSchema).openapi({ description: languagesDescription }).optional(),
    organization: organizationNestedSchema.optional(),
    funding: z.array(fundingFullSchema).openapi({ description: fundingDescription }).optional(),
    cost_options: z
      .array(costOptionFullSchema)
      .openapi({
        description:
          "The costs of a service at certain points in time. This is an LGA Extension table. This table provides a structured version of the text information contained in the 'fees' field of the 'service' table.",
      })
      .optional(),
    program: programFullSchema
      .openapi({ description: 'The details of collections of related services.' })
      .optional(),
    required_documents: z
      .array(requiredDocumentFullSchema)
      .openapi({
        description: 'The details of any documents that are required in order to access or use services.',
      })
      .optional(),
    contacts: contactsList(),
    capacities: z
      .array(serviceCapacityFullSchema)
      .openapi({ description: 'The details of capacities of this service. See `service_capacity`.' })
      .optional(),
    ...annotations(),
  })
  .openapi('service_nested', {
    description:
      'The details of the services provided by organizations to a range of different groups, with all related data but its service_at_locations.',
  });

/** The fully nested service: the shape GET /services/{id} returns. */
export const serviceFullSchema = serviceNestedSchema
  .extend({
    service_at_locations: z
      .array(serviceAtLocationNestedSchema)
      .openapi({ description: 'A link between a service and a specific location.' })
      .optional(),
  })
  .openapi('service_full', {
    description:
      'The details of the services provided by organizations to a range of different groups, with all related data: the shape of GET /services/{id}.',
  });

/** GET /organizations/{id}: the organization with its children and its fully nested services. */
export const organizationFullSchema = organizationNestedSchema
  .extend({
    services: z
      .array(serviceFullSchema)
      .openapi({ description: 'The services this organization provides, each fully nested.' })
      .optional(),
  })
  .openapi('organization_full', {
    description:
      'The details about each organization delivering services, with all related data and its services: the shape of GET /organizations/{id}.',
  });

/** GET /service_at_locations/{id}: the service-at-location with its location and its service. */
export const serviceAtLocationFullSchema = serviceAtLocationNestedSchema
  .extend({
    service: serviceNestedSchema.optional(),
  })
  .openapi('service_at_location_full', {
    description:
      'A link between a service and a specific location, with the location and the service: the shape of GET /service_at_locations/{id}.',
  });

/** An item of GET /services: the service's direct fields with its organization and program (direct fields). */
export const serviceListItemSchema = serviceSchema
  .extend({
    organization: organizationSchema.optional(),
    program: programSchema.optional(),
  })
  .openapi('service_list_item', {
    description: 'A service with its one-to-one fields only: direct fields, organization and program.',
  });

/** An item of GET /service_at_locations: direct fields, the location, and the service as a list item. */
export const serviceAtLocationListItemSchema = serviceAtLocationSchema
  .extend({
    location: locationSchema.optional(),
    service: serviceListItemSchema.optional(),
  })
  .openapi('service_at_location_list_item', {
    description:
      'A service-at-location with its one-to-one fields only: direct fields, the location, and the service with its organization and program.',
  });

/** An item of GET /organizations: the organization's direct fields. */
export const organizationListItemSchema = organizationSchema;

/** An item of GET /taxonomies. */
export const taxonomyListItemSchema = taxonomySchema;

/** An item of GET /taxonomy_terms: the official examples include `taxonomy_detail`. */
export const taxonomyTermListItemSchema = taxonomyTermFullSchema;

export type TaxonomyFull = z.infer<typeof taxonomyFullSchema>;
export type TaxonomyTermFull = z.infer<typeof taxonomyTermFullSchema>;
export type AttributeFull = z.infer<typeof attributeFullSchema>;
export type PhoneFull = z.infer<typeof phoneFullSchema>;
export type ContactFull = z.infer<typeof contactFullSchema>;
export type ScheduleFull = z.infer<typeof scheduleFullSchema>;
export type ServiceAreaFull = z.infer<typeof serviceAreaFullSchema>;
export type LocationFull = z.infer<typeof locationFullSchema>;
export type ServiceAtLocationNested = z.infer<typeof serviceAtLocationNestedSchema>;
export type OrganizationNested = z.infer<typeof organizationNestedSchema>;
export type ServiceNested = z.infer<typeof serviceNestedSchema>;
export type ServiceFull = z.infer<typeof serviceFullSchema>;
export type OrganizationFull = z.infer<typeof organizationFullSchema>;
export type ServiceAtLocationFull = z.infer<typeof serviceAtLocationFullSchema>;
export type ServiceListItem = z.infer<typeof serviceListItemSchema>;
export type ServiceAtLocationListItem = z.infer<typeof serviceAtLocationListItemSchema>;
