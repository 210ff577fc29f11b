// The shapes the generator emits: exactly the HSDS 3.1 fields it fills, snake_case as in the spec,
// with the arrays it always writes marked required. generate.ts checks them against the project's
// HSDS types (`satisfies ServiceFull` and friends, from src/hsds), and the tests validate generated
// records against the official JSON Schemas, so these narrower types cannot drift from the spec.

export type SyntheticTaxonomy = {
  id: string;
  name: string;
  description: string;
  uri: string;
  version: string;
};

export type SyntheticTaxonomyTerm = {
  id: string;
  code: string;
  name: string;
  description: string;
  parent_id?: string;
  taxonomy: string;
  taxonomy_id: string;
  taxonomy_detail: SyntheticTaxonomy;
  language: string;
  term_uri: string;
};

export type SyntheticOrganization = {
  id: string;
  name: string;
  alternate_name?: string;
  description: string;
  email: string;
  website: string;
  legal_status: string;
  year_incorporated: number;
};

export type SyntheticLanguage = { id: string; name: string; code: string; note?: string };

export type SyntheticPhone = {
  id: string;
  number: string;
  type: string;
  description?: string;
  languages: SyntheticLanguage[];
};

export type SyntheticSchedule = {
  id: string;
  dtstart?: string;
  freq: 'WEEKLY';
  interval: number;
  wkst: 'MO';
  byday: string;
  opens_at: string;
  closes_at: string;
  description: string;
  attending_type?: string;
};

export type SyntheticServiceArea = {
  id: string;
  name: string;
  description: string;
  extent: string;
  extent_type: 'geojson';
};

export type SyntheticAddress = {
  id: string;
  address_1: string;
  address_2?: string;
  city: string;
  region?: string;
  state_province: string;
  postal_code: string;
  country: string;
  address_type: 'physical';
};

export type SyntheticAccessibility = { id: string; description: string; details: string };

export type SyntheticLocation = {
  id: string;
  location_type: 'physical' | 'virtual';
  url?: string;
  organization_id: string;
  name: string;
  description: string;
  transportation?: string;
  latitude?: number;
  longitude?: number;
  languages: SyntheticLanguage[];
  addresses: SyntheticAddress[];
  accessibility: SyntheticAccessibility[];
  phones: SyntheticPhone[];
  schedules: SyntheticSchedule[];
};

export type SyntheticContact = {
  id: string;
  name: string;
  title: string;
  email: string;
  phones: SyntheticPhone[];
};

export type SyntheticServiceAtLocation = {
  id: string;
  description?: string;
  service_areas: SyntheticServiceArea[];
  contacts: SyntheticContact[];
  phones: SyntheticPhone[];
  schedules: SyntheticSchedule[];
  location: SyntheticLocation;
};

export type SyntheticCostOption = {
  id: string;
  valid_from?: string;
  option: string;
  currency: string;
  amount: number;
  amount_description?: string;
};

export type SyntheticAttribute = {
  id: string;
  link_id: string;
  link_type: string;
  link_entity: 'service';
  taxonomy_term_id: string;
  label: string;
  taxonomy_term: SyntheticTaxonomyTerm;
};

/** A service as `GET /services/{id}` returns it: fully nested. */
export type SyntheticService = {
  id: string;
  organization_id: string;
  name: string;
  alternate_name?: string;
  description: string;
  url: string;
  email: string;
  status: 'active' | 'inactive' | 'defunct' | 'temporarily closed';
  interpretation_services?: string;
  application_process: string;
  fees_description: string;
  eligibility_description?: string;
  minimum_age?: number;
  maximum_age?: number;
  alert?: string;
  last_modified: string;
  phones: SyntheticPhone[];
  schedules: SyntheticSchedule[];
  service_areas: SyntheticServiceArea[];
  service_at_locations: SyntheticServiceAtLocation[];
  languages: SyntheticLanguage[];
  organization: SyntheticOrganization;
  funding: { id: string; source: string }[];
  cost_options: SyntheticCostOption[];
  required_documents: { id: string; document: string }[];
  contacts: SyntheticContact[];
  attributes: SyntheticAttribute[];
};
