import { z } from '@hono/zod-openapi';
import { tabularDateString, tabularTimeString } from './formats.schema.ts';
import { type RecordType, recordSchemas, recordTypes } from './records.schema.ts';

/** The file of each table in an HSDS tabular data package (the `path` of the official schemas). */
export const tabularPaths = {
  organization: 'organizations.csv',
  program: 'programs.csv',
  service: 'services.csv',
  attribute: 'attributes.csv',
  service_at_location: 'service_at_location.csv',
  location: 'locations.csv',
  phone: 'phones.csv',
  contact: 'contacts.csv',
  address: 'addresses.csv',
  schedule: 'schedules.csv',
  funding: 'funding.csv',
  service_area: 'service_areas.csv',
  required_document: 'required_documents.csv',
  language: 'languages.csv',
  accessibility: 'accessibility.csv',
  taxonomy_term: 'taxonomy_terms.csv',
  metadata: 'metadata.csv',
  meta_table_description: 'meta_table_descriptions.csv',
  cost_option: 'cost_options.csv',
  organization_identifier: 'organization_identifiers.csv',
  taxonomy: 'taxonomies.csv',
  service_capacity: 'service_capacity.csv',
  unit: 'units.csv',
  url: 'url.csv',
} as const satisfies Record<RecordType, string>;

/**
 * Parent ids the tabular form requires on top of the JSON form's `required` (the official
 * `tabular_required`): in JSON nesting implies them, in a flat table nothing else can.
 */
export const tabularRequired = {
  organization: [],
  program: ['organization_id'],
  service: ['organization_id'],
  attribute: ['link_id', 'taxonomy_term_id', 'link_entity'],
  service_at_location: ['service_id', 'location_id'],
  location: [],
  phone: [],
  contact: [],
  address: [],
  schedule: [],
  funding: [],
  service_area: [],
  required_document: [],
  language: [],
  accessibility: [],
  taxonomy_term: [],
  metadata: ['resource_id', 'resource_type'],
  meta_table_description: [],
  cost_option: ['service_id'],
  organization_identifier: ['organization_id'],
  taxonomy: [],
  service_capacity: ['unit_id', 'service_id'],
  unit: [],
  url: [],
} as const satisfies Record<RecordType, readonly string[]>;

const unwrapOptional = (schema: z.ZodType): z.ZodType =>
  schema instanceof z.ZodOptional ? unwrapOptional(schema.unwrap() as z.ZodType) : schema;

// Making a key required is replacing its field by the field without `.optional()`.
const requireKeys = (schema: z.ZodObject, keys: readonly string[]): z.ZodObject =>
  keys.length === 0
    ? schema
    : schema.extend(
        Object.fromEntries(keys.map((key) => [key, unwrapOptional(schema.shape[key] as z.ZodType)])),
      );

/**
 * Fields the official schema leaves plain strings in JSON but the data package types (its
 * `datapackage_type` is `date` or `time` with no JSON `format`): the tabular form validates them.
 */
export const tabularTypedFields: Readonly<Record<string, 'date' | 'time'>> = {
  assured_date: 'date',
  valid_from: 'date',
  valid_to: 'date',
  dtstart: 'date',
  until: 'date',
  last_action_date: 'date',
  opens_at: 'time',
  closes_at: 'time',
};

// Typing a field keeps it optional or required as it was.
const typeTabularFields = (schema: z.ZodObject): z.ZodObject => {
  const typed: Record<string, z.ZodType> = {};
  for (const [key, field] of Object.entries(schema.shape)) {
    const kind = tabularTypedFields[key];
    if (!kind) continue;
    const base = kind === 'date' ? tabularDateString() : tabularTimeString();
    typed[key] = field instanceof z.ZodOptional ? base.optional() : base;
  }
  return Object.keys(typed).length === 0 ? schema : schema.extend(typed);
};

/**
 * Each table's row schema: the direct-field schema with `tabularRequired` made required and the
 * `tabularTypedFields` typed.
 */
export const tabularRecordSchemas = Object.fromEntries(
  recordTypes.map((type) => [
    type,
    typeTabularFields(requireKeys(recordSchemas[type], tabularRequired[type])),
  ]),
) as Record<RecordType, z.ZodObject>;

/** The record type stored in a data package file, e.g. `services.csv` → `service`. */
export const findTableOfPath = (path: string): RecordType | undefined => {
  const fileName = path.slice(path.lastIndexOf('/') + 1);
  return recordTypes.find((type) => tabularPaths[type] === fileName);
};

// Which columns of each table hold numbers, read from the schemas so the two cannot disagree.
const numberColumns = new Map<RecordType, ReadonlySet<string>>(
  recordTypes.map((type) => [
    type,
    new Set(
      Object.entries(recordSchemas[type].shape)
        .filter(([, field]) => unwrapOptional(field) instanceof z.ZodNumber)
        .map(([name]) => name),
    ),
  ]),
);

// A decimal number as a data package writes one. Deliberately narrower than `Number()`, which
// would also turn '0x1A', 'Infinity' or ' ' into numbers.
const decimalPattern = /^[+-]?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][+-]?\d+)?$/;

export type TabularRow = Record<string, string>;
export type CoercedRow = Record<string, string | number>;

/**
 * Turns one CSV row (all strings, as csv-parse gives them with `columns: true`) into the record the
 * table's schema validates:
 * - an empty cell means "no value" and the key is left out (the data package default
 *   `missingValues: [""]`; CSV cannot tell an empty string from an absent one), so a required
 *   field left empty is reported as missing;
 * - a number column whose cell is a decimal number becomes that number; any other cell is left as
 *   the string it was, so validation reports it at its column instead of it vanishing silently;
 * - every other cell, including columns the schema does not know, stays a string. HSDS tables
 *   have no boolean, array or object columns.
 */
export const coerceTabularRow = (table: RecordType, row: TabularRow): CoercedRow => {
  const numbers = numberColumns.get(table);
  const record: CoercedRow = {};
  for (const [column, cell] of Object.entries(row)) {
    if (cell === '') continue;
    if (numbers?.has(column)) {
      const trimmed = cell.trim();
      record[column] = decimalPattern.test(trimmed) ? Number(trimmed) : cell;
    } else {
      record[column] = cell;
    }
  }
  return record;
};
