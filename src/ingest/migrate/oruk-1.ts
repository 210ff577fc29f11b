/**
 * Open Referral UK 1.0 services, migrated to HSDS 3.1 nested services before the normal
 * flattening. Pure: one ORUK 1.0 list item in, one 3.1 service out, each mapping counted in
 * `notes` for the import report.
 *
 * ORUK 1.0 (developers.openreferraluk.org, HSDS 1.x with UK extensions) differs from 3.1 in:
 * - collection names: `eligibilitys` (folded into the service's `eligibility_description`,
 *   `minimum_age`, `maximum_age`), `fundings` → `funding`, `regular_schedules` and
 *   `holiday_schedules` → `schedules`, `service_taxonomys[].taxonomy` → `attributes[]` with their
 *   `taxonomy_term`, a location's `physical_addresses` → `addresses` and
 *   `accessibility_for_disabilities` → `accessibility`;
 * - fields: service `fees` → `fees_description`, organization `url` → `website`, language
 *   `language` → `name`, service area `service_area` → `name`, taxonomy `vocabulary` → term
 *   `taxonomy`, a schedule's `weekday` → `byday` (with `freq` WEEKLY);
 * - values 3.1 requires: a location's `location_type` (`physical`), a status when empty (`active`),
 *   a term's `description` (its name), and ids: non-UUID ids become UUID v5 (legacy-ids.ts), the
 *   original kept in the record's `metadata`; a record without an id gets one from its parent's
 *   id and its position.
 * Fields with no 3.1 home (`deliverable_type`, `attending_type`, `reviews`, publisher extensions
 * such as Placecube's `pc_*`) are kept on the record as published: HSDS allows extra fields, and
 * the operator loses nothing.
 */
import { type RecordType, recordSchemas } from '../../hsds/index.ts';
import { toByDay } from './hsds-legacy-tabular.ts';
import { isUuid, MigrationNotes, migrateId, originalIdMetadata, publishedId, uuidV5 } from './legacy-ids.ts';

type Obj = Record<string, unknown>;
export type Oruk1Context = { date: string; notes: MigrationNotes };

export const createOruk1Context = (date: string): Oruk1Context => ({ date, notes: new MigrationNotes() });

const isObject = (value: unknown): value is Obj =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

const listOf = (value: unknown): Obj[] => (Array.isArray(value) ? value.filter(isObject) : []);

// Keys only ORUK 1.0 (and HSDS 1.x) services carry; 3.1 names them otherwise or not at all.
const oruk1Keys = [
  'service_taxonomys',
  'eligibilitys',
  'regular_schedules',
  'holiday_schedules',
  'fundings',
  'reviews',
  'deliverable_type',
  'attending_type',
  'attending_access',
];

/** Whether a JSON item is an ORUK 1.0 service (rather than an HSDS 3.x one). */
export function looksLikeOruk1(value: unknown): boolean {
  if (!isObject(value)) return false;
  if (oruk1Keys.some((key) => key in value)) return true;
  return listOf(value.service_at_locations).some(
    (sal) =>
      isObject(sal.location) &&
      ('physical_addresses' in sal.location || 'accessibility_for_disabilities' in sal.location),
  );
}

const fieldsOf = new Map<RecordType, Set<string>>();
const knownFields = (type: RecordType) => {
  let fields = fieldsOf.get(type);
  if (!fields) {
    fields = new Set(Object.keys(recordSchemas[type].shape));
    fieldsOf.set(type, fields);
  }
  return fields;
};

type Shape = {
  type: RecordType;
  /** The id's name space (`address:physical`: 1.x numbered physical and postal addresses apart). */
  kind?: string;
  /** Keys this function maps itself: not copied. */
  handled?: readonly string[];
  renames?: Readonly<Record<string, string>>;
};

/**
 * The 3.1 record of one ORUK 1.0 object: its id migrated (or derived from `fallback` when it has
 * none), renamed fields renamed, every other field copied as published.
 */
function migrateRecord(value: Obj, shape: Shape, fallback: string | undefined, context: Oruk1Context): Obj {
  const { type, kind = type, handled = [], renames = {} } = shape;
  const { notes } = context;
  const out: Obj = {};
  const original = publishedId(value.id);
  const id =
    original !== undefined
      ? migrateId(kind, original)
      : fallback !== undefined
        ? uuidV5(`${kind}:derived:${fallback}`)
        : undefined;
  if (id !== undefined) out.id = id;
  if (original === undefined && id !== undefined)
    notes.add(`${type}: no id; one is derived from its parent's id and its position`);
  for (const [key, field] of Object.entries(value)) {
    if (key === 'id' || handled.includes(key)) continue;
    const to = renames[key];
    if (to !== undefined) {
      if (field !== null && field !== undefined && out[to] === undefined) out[to] = field;
      notes.add(`${type}.${key} → ${to}`);
      continue;
    }
    out[key] = field;
    if (!knownFields(type).has(key)) notes.add(`${type}.${key} kept as published (not an HSDS 3.1 field)`);
  }
  if (original !== undefined && id !== undefined && id !== original) {
    out.metadata = [...listOf(out.metadata), originalIdMetadata(type, kind, id, original, context.date)];
    notes.add(`${type}: non-UUID ids replaced by UUID v5; each original id is kept in a metadata record`);
  }
  return out;
}

const each = <T>(value: unknown, parent: string, key: string, map: (item: Obj, fallback: string) => T): T[] =>
  listOf(value).map((item, i) => map(item, `${parent}:${key}:${i}`));

function migrateSchedule(value: Obj, fallback: string, context: Oruk1Context, holiday: boolean): Obj {
  const schedule = holiday
    ? migrateRecord(
        value,
        {
          type: 'schedule',
          kind: 'schedule:holiday',
          handled: ['closed'],
          renames: { start_date: 'valid_from', end_date: 'valid_to' },
        },
        fallback,
        context,
      )
    : migrateRecord(
        value,
        { type: 'schedule', kind: 'schedule:regular', handled: ['weekday'] },
        fallback,
        context,
      );
  if (holiday && (value.closed === true || value.closed === 'true')) {
    schedule.description = ['Closed', schedule.description].filter(Boolean).join(': ');
    context.notes.add('holiday_schedules.closed → schedule description "Closed"');
  }
  const weekday =
    typeof value.weekday === 'string' || typeof value.weekday === 'number' ? String(value.weekday) : '';
  if (!holiday && weekday) {
    const byday = toByDay(weekday);
    if (byday && (schedule.byday === undefined || schedule.byday === null || schedule.byday === '')) {
      schedule.byday = byday;
      schedule.freq ??= 'WEEKLY';
      context.notes.add('regular_schedules.weekday → schedule byday (freq WEEKLY)');
    } else if (!byday) {
      schedule.weekday = value.weekday; // not a day: kept as published
    }
  }
  return schedule;
}

const schedulesOf = (value: Obj, parent: string, context: Oruk1Context): Obj[] => [
  ...each(value.regular_schedules, parent, 'regular_schedules', (s, f) =>
    migrateSchedule(s, f, context, false),
  ),
  ...each(value.holiday_schedules, parent, 'holiday_schedules', (s, f) =>
    migrateSchedule(s, f, context, true),
  ),
];

function migrateLocation(value: Obj, fallback: string, context: Oruk1Context): Obj {
  const location = migrateRecord(
    value,
    {
      type: 'location',
      handled: ['physical_addresses', 'postal_addresses', 'accessibility_for_disabilities'],
    },
    fallback,
    context,
  );
  const id = String(location.id);
  if (
    location.location_type === undefined ||
    location.location_type === null ||
    location.location_type === ''
  ) {
    location.location_type = 'physical';
    context.notes.add('location: no location_type; set to physical (HSDS 3.1 requires one)');
  }
  const addresses = (key: string, addressType: 'physical' | 'postal') =>
    each(value[key], id, key, (address, f) => ({
      ...migrateRecord(address, { type: 'address', kind: `address:${addressType}` }, f, context),
      address_type: addressType,
    }));
  const all = [...addresses('physical_addresses', 'physical'), ...addresses('postal_addresses', 'postal')];
  if (all.length > 0) {
    location.addresses = [...listOf(location.addresses), ...all];
    context.notes.add('location physical_addresses/postal_addresses → addresses (with address_type)');
  }
  if (Array.isArray(value.accessibility_for_disabilities)) {
    location.accessibility = each(value.accessibility_for_disabilities, id, 'accessibility', (a, f) =>
      migrateRecord(a, { type: 'accessibility', renames: { accessibility: 'description' } }, f, context),
    );
    context.notes.add('location accessibility_for_disabilities → accessibility');
  }
  return location;
}

function migrateTerm(value: Obj, fallback: string | undefined, context: Oruk1Context): Obj {
  const term = migrateRecord(
    value,
    { type: 'taxonomy_term', handled: ['parent'], renames: { vocabulary: 'taxonomy' } },
    fallback,
    context,
  );
  const parent = isObject(value.parent) ? publishedId(value.parent.id) : publishedId(value.parent);
  if (parent !== undefined) term.parent_id = migrateId('taxonomy_term', parent);
  if ((term.description === undefined || term.description === '') && typeof term.name === 'string') {
    term.description = term.name;
    context.notes.add("taxonomy_term: no description; the term's name is used (HSDS 3.1 requires one)");
  }
  return term;
}

function foldEligibility(service: Obj, eligibilitys: Obj[], context: Oruk1Context): void {
  if (eligibilitys.length === 0) return;
  const texts = eligibilitys
    .map((e) => e.eligibility)
    .filter((t): t is string => typeof t === 'string' && t !== '');
  if (texts.length > 0 && service.eligibility_description === undefined)
    service.eligibility_description = texts.join('; ');
  const ages = (key: string) =>
    eligibilitys.map((e) => Number(e[key] ?? Number.NaN)).filter((n) => Number.isFinite(n) && n >= 0);
  const minimums = ages('minimum_age');
  const maximums = ages('maximum_age');
  if (minimums.length > 0 && service.minimum_age === undefined) service.minimum_age = Math.min(...minimums);
  if (maximums.length > 0 && service.maximum_age === undefined) service.maximum_age = Math.max(...maximums);
  context.notes.add('eligibilitys → service eligibility_description, minimum_age, maximum_age');
}

/**
 * The date the publisher says it last changed the service: Placecube's `pc_metadata.date_modified`
 * (`2021-01-06`), read as a date-time by the leniency (`2021-01-06T00:00:00Z`). Without it, import
 * would stamp the service with the time it first saw it, and `modified_after` would find every
 * service of the feed changed on the day it was imported.
 */
function publisherModified(item: Obj): string | undefined {
  const metadata = item.pc_metadata;
  if (!isObject(metadata)) return undefined;
  const date = metadata.date_modified;
  return typeof date === 'string' && date.trim() !== '' ? date.trim() : undefined;
}

/**
 * The HSDS 3.1 nested service of one ORUK 1.0 service. A service without an id is left without
 * one (validation rejects it): an id from its position in the feed would change when the feed is
 * reordered.
 */
export function migrateOruk1Service(item: Obj, context: Oruk1Context): Obj {
  const { notes } = context;
  const service = migrateRecord(
    item,
    {
      type: 'service',
      handled: [
        'organization',
        'contacts',
        'cost_options',
        'fundings',
        'eligibilitys',
        'languages',
        'regular_schedules',
        'holiday_schedules',
        'service_areas',
        'service_at_locations',
        'service_taxonomys',
      ],
      renames: { fees: 'fees_description' },
    },
    undefined,
    context,
  );
  const id = String(service.id);
  notes.add('ORUK 1.0 service → HSDS 3.1 service');
  if (service.status === undefined || service.status === null || service.status === '') {
    service.status = 'active';
    notes.add('service: empty status set to active (HSDS 3.1 requires one; the publisher lists it)');
  }
  const modified = publisherModified(item);
  if (modified !== undefined && (service.last_modified === undefined || service.last_modified === '')) {
    service.last_modified = modified;
    notes.add("service: pc_metadata.date_modified → last_modified (the publisher's own date)");
  }
  if (isObject(item.organization)) {
    service.organization = migrateRecord(
      item.organization,
      { type: 'organization', renames: { url: 'website' } },
      `${id}:organization`,
      context,
    );
  }
  foldEligibility(service, listOf(item.eligibilitys), context);
  const set = (key: string, records: Obj[]) => {
    if (records.length > 0) service[key] = records;
  };
  set(
    'contacts',
    each(item.contacts, id, 'contacts', (contact, f) => {
      const out = migrateRecord(contact, { type: 'contact', handled: ['phones'] }, f, context);
      const phones = each(contact.phones, String(out.id), 'phones', (phone, pf) => {
        const migrated = migrateRecord(phone, { type: 'phone', handled: ['language'] }, pf, context);
        if (typeof phone.language === 'string' && phone.language.trim() !== '') {
          migrated.languages = [
            { id: uuidV5(`language:derived:${migrated.id}:0`), name: phone.language.trim() },
          ];
          notes.add('phone.language → the languages of the phone');
        }
        return migrated;
      });
      if (phones.length > 0) out.phones = phones;
      return out;
    }),
  );
  set(
    'cost_options',
    each(item.cost_options, id, 'cost_options', (c, f) =>
      migrateRecord(c, { type: 'cost_option' }, f, context),
    ),
  );
  set(
    'funding',
    each(item.fundings, id, 'fundings', (c, f) => migrateRecord(c, { type: 'funding' }, f, context)),
  );
  set(
    'languages',
    each(item.languages, id, 'languages', (c, f) =>
      migrateRecord(c, { type: 'language', renames: { language: 'name' } }, f, context),
    ),
  );
  set('schedules', schedulesOf(item, id, context));
  set(
    'service_areas',
    each(item.service_areas, id, 'service_areas', (c, f) =>
      migrateRecord(c, { type: 'service_area', renames: { service_area: 'name' } }, f, context),
    ),
  );
  set(
    'service_at_locations',
    each(item.service_at_locations, id, 'service_at_locations', (sal, f) => {
      const out = migrateRecord(
        sal,
        { type: 'service_at_location', handled: ['location', 'regular_schedules', 'holiday_schedules'] },
        f,
        context,
      );
      if (isObject(sal.location)) out.location = migrateLocation(sal.location, `${out.id}:location`, context);
      const schedules = schedulesOf(sal, String(out.id), context);
      if (schedules.length > 0) out.schedules = schedules;
      return out;
    }),
  );
  set(
    'attributes',
    each(item.service_taxonomys, id, 'service_taxonomys', (link, f) => {
      const attribute = migrateRecord(link, { type: 'attribute', handled: ['taxonomy'] }, f, context);
      if (isObject(link.taxonomy)) {
        attribute.taxonomy_term = migrateTerm(link.taxonomy, `${attribute.id}:taxonomy`, context);
        attribute.taxonomy_term_id = (attribute.taxonomy_term as Obj).id;
      }
      notes.add('service_taxonomys[].taxonomy → attributes[].taxonomy_term');
      return attribute;
    }),
  );
  return service;
}

/** Whether an organization or taxonomy list item of an API is ORUK 1.0: its id is not a UUID. */
export const hasLegacyId = (value: unknown): boolean => {
  if (!isObject(value)) return false;
  const id = publishedId(value.id);
  return id !== undefined && !isUuid(id);
};

/** An ORUK 1.0 `/organizations` item as a 3.1 organization (its brief services left out). */
export const migrateOruk1Organization = (item: Obj, context: Oruk1Context): Obj =>
  migrateRecord(
    item,
    { type: 'organization', handled: ['services'], renames: { url: 'website' } },
    undefined,
    context,
  );

/**
 * An ORUK 1.0 `/taxonomies` item, which is a term of a vocabulary (`{id, name, vocabulary,
 * parent}`), as a 3.1 taxonomy term.
 */
export const migrateOruk1Taxonomy = (item: Obj, context: Oruk1Context): Obj =>
  migrateTerm(item, undefined, context);
