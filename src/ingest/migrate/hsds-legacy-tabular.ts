/**
 * HSDS 1.x and 2.0 tabular data packages, migrated row by row to the HSDS 3.1 tables before the
 * normal validation. Pure: one old row (CSV cells as strings) in, the 3.1 rows it becomes out, and
 * a count of each mapping in `notes` for the import report.
 *
 * What changed since 1.1/2.0 (HSDS 3.0 migration notes, and the 1.1 and 2.0 `datapackage.json`):
 * - table files: `services_at_location.csv` → `service_at_location`, `physical_addresses.csv` and
 *   `postal_addresses.csv` → `address` (with `address_type`), `regular_schedules.csv` and
 *   `holiday_schedules.csv` → `schedule`, `taxonomy.csv` (1.1) and `taxonomy_terms.csv` (2.0) →
 *   `taxonomy_term`, `services_taxonomy.csv` (1.1), `service_attributes.csv` and
 *   `other_attributes.csv` (2.0) → `attribute`, `accessibility_for_disabilities.csv` →
 *   `accessibility`;
 * - tables folded into a field: `eligibility.csv` → the service's `eligibility_description`,
 *   `payment_accepted.csv` → appended to its `fees_description` (3.1 has no table for either);
 * - fields: organization `url` → `website`; service `fees` → `fees_description`; address
 *   `address_3`/`address_4` joined into `address_2`; phone `language` (a comma list) → the phone's
 *   `languages`; taxonomy `vocabulary` → term `taxonomy`, 2.0 `term` → `name`;
 * - values 3.1 requires that old versions did not: a location's `location_type` (`physical`), a
 *   service's `status` when empty (`active`: it is listed by its publisher), a term's and an
 *   organization's `description` (its name);
 * - ids: every non-UUID id and reference becomes a UUID v5 (legacy-ids.ts), the original kept in
 *   a `metadata` row.
 */
import type { RecordType } from '../../hsds/index.ts';
import type { Weekday } from '../../schedules/calendar.ts';
import { readDayHours, readDays } from '../../schedules/schedule-text.ts';
import type { Repair } from '../repairs/leniency.ts';
import { repairMojibake } from '../repairs/mojibake.ts';
import { copyId, identityRepair, mintedId, type RowIdentity } from '../repairs/row-identity.ts';
import { MigrationNotes, migrateId, originalIdMetadata, publishedId } from './legacy-ids.ts';

/** The tables of HSDS 1.x/2.0 packages, by the resource name their `datapackage.json` gives. */
export const legacyTables = [
  'taxonomy',
  'taxonomy_term',
  'organization',
  'program',
  'eligibility',
  'payment_accepted',
  'service',
  'location',
  'service_at_location',
  'contact',
  'phone',
  'physical_address',
  'postal_address',
  'regular_schedule',
  'holiday_schedule',
  'schedule',
  'funding',
  'service_area',
  'required_document',
  'language',
  'accessibility_for_disabilities',
  'service_taxonomy',
  'service_attribute',
  'other_attribute',
  'meta_table_description',
  'metadata',
] as const;
export type LegacyTable = (typeof legacyTables)[number];

/** Their file names in the 1.1 and 2.0 packages (and the variants real exports use). */
const legacyFiles: Record<string, LegacyTable> = {
  'taxonomy.csv': 'taxonomy',
  'taxonomy_terms.csv': 'taxonomy_term',
  'organizations.csv': 'organization',
  'programs.csv': 'program',
  'eligibility.csv': 'eligibility',
  'eligibilities.csv': 'eligibility',
  'payment_accepted.csv': 'payment_accepted',
  'payments_accepted.csv': 'payment_accepted',
  'services.csv': 'service',
  'locations.csv': 'location',
  'services_at_location.csv': 'service_at_location',
  'service_at_location.csv': 'service_at_location',
  'services_at_locations.csv': 'service_at_location',
  'contacts.csv': 'contact',
  'phones.csv': 'phone',
  'physical_addresses.csv': 'physical_address',
  'postal_addresses.csv': 'postal_address',
  'regular_schedules.csv': 'regular_schedule',
  'holiday_schedules.csv': 'holiday_schedule',
  'schedules.csv': 'schedule',
  'funding.csv': 'funding',
  'fundings.csv': 'funding',
  'service_areas.csv': 'service_area',
  'required_documents.csv': 'required_document',
  'languages.csv': 'language',
  'accessibility_for_disabilities.csv': 'accessibility_for_disabilities',
  'services_taxonomy.csv': 'service_taxonomy',
  'service_taxonomy.csv': 'service_taxonomy',
  'service_attributes.csv': 'service_attribute',
  'other_attributes.csv': 'other_attribute',
  'link_taxonomy.csv': 'other_attribute',
  'meta_table_description.csv': 'meta_table_description',
  'meta_table_descriptions.csv': 'meta_table_description',
  'metadata.csv': 'metadata',
};

/** Tables only 1.x/2.0 have: a package holding any of them is an old one. */
const onlyLegacy = new Set<LegacyTable>([
  'taxonomy',
  'eligibility',
  'payment_accepted',
  'physical_address',
  'postal_address',
  'regular_schedule',
  'holiday_schedule',
  'accessibility_for_disabilities',
  'service_taxonomy',
  'service_attribute',
  'other_attribute',
]);

const isLegacyTable = (name: string): name is LegacyTable =>
  (legacyTables as readonly string[]).includes(name);

/** The old table a file or resource holds: by file name, else by resource name. */
export function findLegacyTable(path: string | undefined, name?: string): LegacyTable | undefined {
  const file = path?.slice(path.lastIndexOf('/') + 1).toLowerCase();
  const byFile = file ? legacyFiles[file] : undefined;
  if (byFile) return byFile;
  return name && isLegacyTable(name) ? name : undefined;
}

/**
 * Whether a package is HSDS 1.x/2.0: its descriptor says version 1 or 2, or it has a table only
 * old versions have (`services_at_location.csv` too: 3.1 names it `service_at_location.csv`).
 */
export function isLegacyPackage(files: readonly string[], descriptorVersion?: unknown): boolean {
  if (typeof descriptorVersion === 'string' && /^v?[12](\.|$)/.test(descriptorVersion.trim())) return true;
  return files.some((file) => {
    const name = file.slice(file.lastIndexOf('/') + 1).toLowerCase();
    const table = legacyFiles[name];
    if (table === undefined || name === 'service_at_location.csv') return false;
    return onlyLegacy.has(table) || table === 'service_at_location';
  });
}

type Row = Record<string, string>;
/** A 3.1 row, and what was done to its identity (an id minted, a row made a record of its own). */
export type MigratedRow = { type: RecordType; row: Row; repairs?: Repair[] };

/** What the rows of one package share: the day of the ids' metadata, the folded tables, notes. */
export type LegacyContext = {
  /** YYYY-MM-DD: the `last_action_date` of each original-id metadata row. */
  date: string;
  notes: MigrationNotes;
  /** eligibility.csv and payment_accepted.csv by (original) service id, read before services. */
  eligibility: Map<string, string[]>;
  payments: Map<string, string[]>;
  /**
   * Services that other services name as their `organization_id` (an AIRS site: Miami 211 gives
   * 447 services the id of their site, a service of the agency, not the agency), by (original) id,
   * to the organization that service names. Found by the source before services are migrated.
   */
  siteOrganizations: Map<string, string>;
  /** A strict import: rows as published, so no row becomes several records (hours in the text). */
  asPublished: boolean;
};

export const createLegacyContext = (
  date: string,
  options: { asPublished?: boolean } = {},
): LegacyContext => ({
  date,
  asPublished: options.asPublished ?? false,
  notes: new MigrationNotes(),
  eligibility: new Map(),
  payments: new Map(),
  siteOrganizations: new Map(),
});

/** Which record type each reference column names. */
const referenceKinds: Record<string, string> = {
  organization_id: 'organization',
  program_id: 'program',
  service_id: 'service',
  location_id: 'location',
  contact_id: 'contact',
  service_at_location_id: 'service_at_location',
  phone_id: 'phone',
  taxonomy_term_id: 'taxonomy_term',
};

const cell = (row: Row, key: string): string | undefined => {
  const value = row[key]?.trim();
  return value ? value : undefined;
};

/** Copies the row without empty cells, every reference column translated. */
function withReferences(row: Row): Row {
  const out: Row = {};
  for (const [key, value] of Object.entries(row)) {
    if (value.trim() === '') continue;
    const kind = referenceKinds[key];
    out[key] = kind ? migrateId(kind, value) : value;
  }
  return out;
}

const weekdays: Record<string, string> = {
  mo: 'MO',
  tu: 'TU',
  we: 'WE',
  th: 'TH',
  fr: 'FR',
  sa: 'SA',
  su: 'SU',
};
// 1.1 left `weekday` free: names (`Monday`, `Mon`) and ISO numbers (1 = Monday ... 7 = Sunday; 0 = Sunday).
const isoDays = ['SU', 'MO', 'TU', 'WE', 'TH', 'FR', 'SA', 'SU'];

/** The iCal day of a 1.1 `weekday`, or undefined when it is not one. */
export function toByDay(weekday: string): string | undefined {
  const value = weekday.trim().toLowerCase();
  if (/^[0-7]$/.test(value)) return isoDays[Number(value)];
  // One word only: `Monday - Friday` is a run of days (readDays), not Monday.
  return /^[a-z]{2,}\.?$/.test(value) ? weekdays[value.slice(0, 2)] : undefined;
}

const looksLikeLanguageCode = (value: string) => /^[a-z]{2,3}(-[A-Za-z0-9]{2,8})?$/.test(value);

const languageRow = (id: string, value: string, parent: Row): Row =>
  looksLikeLanguageCode(value) ? { id, code: value, ...parent } : { id, name: value, ...parent };

/** One old row being migrated: its row (references translated, id removed) and what it becomes. */
type Migrating = {
  table: LegacyTable;
  /** The row as read. */
  source: Row;
  row: Row;
  /** The row's id as published, if it has one. */
  original: string | undefined;
  /** Set when the id column alone does not name the row's record (sources/row-identity.ts). */
  identity: RowIdentity | undefined;
  context: LegacyContext;
  notes: MigrationNotes;
  out: MigratedRow[];
  /**
   * Adds a 3.1 row first in `out`, with the migrated id and, when that changed it, its metadata row.
   * `part.repairs` are noted on the record; `part.name` names a further record made from the same
   * row (a second span of hours): its id is the row's own id made its own by that name (copyId),
   * the same on every import.
   */
  emit: (type: RecordType, kind: string, row: Row, part?: { name?: string; repairs: Repair[] }) => void;
  /** Moves a column to its 3.1 name, unless the row has that column already. */
  renamed: (from: string, to: string) => void;
};

function startMigrating(
  table: LegacyTable,
  source: Row,
  context: LegacyContext,
  identity: RowIdentity | undefined,
): Migrating {
  const { notes } = context;
  const original = publishedId(source.id);
  const out: MigratedRow[] = [];
  const row = withReferences(source);
  delete row.id;
  return {
    table,
    source,
    row,
    original,
    identity,
    context,
    notes,
    out,
    emit: (type, kind, emitted, part) => {
      let repairs: Repair[] | undefined;
      if (identity?.kind === 'minted') {
        emitted.id = mintedId(kind, identity.name);
        if (part?.name) emitted.id = copyId(kind, emitted.id, part.name);
        repairs = [identityRepair(identity, emitted.id)];
        notes.add(`${table}: rows without an id given one minted from their content`);
      } else if (original !== undefined) {
        const copy =
          identity?.kind === 'copy'
            ? part?.name
              ? `${identity.name}:${part.name}`
              : identity.name
            : part?.name;
        emitted.id = copy === undefined ? migrateId(kind, original) : copyId(kind, original, copy);
        if (identity) {
          repairs = [identityRepair(identity, emitted.id)];
          notes.add(
            `${table}: rows sharing an id with an earlier row of other content made records of their own`,
          );
        }
        if (emitted.id !== original) {
          out.push({
            type: 'metadata',
            row: originalIdMetadata(type, kind, emitted.id, original, context.date, copy),
          });
          notes.add(
            `${table}: non-UUID ids replaced by UUID v5; each original id is kept in a metadata record`,
          );
        }
      }
      if (part) repairs = [...(repairs ?? []), ...part.repairs];
      out.unshift(repairs ? { type, row: emitted, repairs } : { type, row: emitted });
    },
    renamed: (from, to) => {
      if (row[from] === undefined) return;
      if (row[to] === undefined) {
        row[to] = row[from];
        notes.add(`${table}.${from} → ${to}`);
      }
      delete row[from];
    },
  };
}

type Migration = (m: Migrating) => void;

/** A table 3.1 keeps as it was, bar the ids. */
const unchanged =
  (type: RecordType): Migration =>
  (m) =>
    m.emit(type, type, m.row);

/**
 * An organization. One without a description (Miami 211 has one, with 23 services) would be
 * rejected, as 3.1 requires one, and its services shown under a placeholder: its name is used, as
 * for a term.
 */
const migrateOrganization: Migration = (m) => {
  m.renamed('url', 'website');
  if (m.row.description === undefined && m.row.name !== undefined) {
    m.row.description = m.row.name;
    m.notes.add(`${m.table}: no description; the organization's name is used (HSDS 3.1 requires one)`);
  }
  m.emit('organization', 'organization', m.row);
};

/** A service, with its eligibility and payments folded in (read before the services). */
const migrateService: Migration = ({ source, row, original, context, notes, out, emit, renamed }) => {
  renamed('fees', 'fees_description');
  const site = cell(source, 'organization_id');
  const agency = site === undefined ? undefined : context.siteOrganizations.get(site);
  if (agency !== undefined) row.organization_id = migrateId('organization', agency);
  if (row.status === undefined) {
    row.status = 'active';
    notes.add('service: empty status set to active (HSDS 3.1 requires one)');
  }
  const key = original ?? '';
  const eligibility = context.eligibility.get(key);
  if (eligibility && row.eligibility_description === undefined) {
    row.eligibility_description = eligibility.join('; ');
    notes.add('eligibility → service.eligibility_description');
  }
  const payments = context.payments.get(key);
  if (payments) {
    const accepted = `Payment accepted: ${payments.join(', ')}.`;
    row.fees_description = row.fees_description ? `${row.fees_description} ${accepted}` : accepted;
    notes.add('payment_accepted → service.fees_description');
  }
  emit('service', 'service', row);
  if (agency !== undefined) {
    const reading = `names service ${site} (a site of its organization), not an organization: read as ${agency}, the organization of that service`;
    notes.add('service.organization_id names another service, not an organization: its organization is used');
    const repair: Repair = {
      field: 'organization_id',
      found: site,
      action: reading,
      effect: 'changed',
      severity: 'info',
    };
    out[0]!.repairs = [...(out[0]!.repairs ?? []), repair];
  }
};

const migrateLocation: Migration = ({ row, notes, emit }) => {
  if (row.location_type === undefined) {
    row.location_type = 'physical';
    notes.add('location: no location_type; set to physical (HSDS 3.1 requires one)');
  }
  emit('location', 'location', row);
};

/**
 * A language value that is only digits (`136`): an id into a languages table, not a language. DC
 * writes its phones' languages so and publishes that table empty; stored as a name, it became a
 * language called "136" that a `language=` filter matches and no reader understands.
 */
const isLanguageId = (value: string) => /^\d+$/.test(value);

/** A phone, and a language row for each of its `language` list (numbers aside, with a warning). */
const migratePhone: Migration = ({ row, original, identity, notes, out, emit }) => {
  const languages = row.language;
  delete row.language;
  if (row.department !== undefined) {
    delete row.department;
    notes.add('phone.department dropped (deprecated, not in HSDS 3.1)');
  }
  emit('phone', 'phone', row);
  const phone = out[0];
  const phoneId = phone?.row.id;
  if (!languages || !phone || !phoneId) return;
  const values = languages
    .split(/[,;]/)
    .map((language) => language.trim())
    .filter(Boolean);
  const ids = values.filter(isLanguageId);
  values.forEach((language, i) => {
    if (ids.length > 0 && isLanguageId(language)) return;
    // A phone made a record of its own (row-identity.ts) has languages of its own.
    const of = identity ? `${original}:row:${identity.name}` : original;
    const id = migrateId('language', `phone:${of}:${i}`);
    out.push({ type: 'language', row: languageRow(id, language, { phone_id: phoneId }) });
  });
  if (ids.length < values.length) notes.add('phone.language → the languages of the phone');
  if (ids.length === 0) return;
  notes.add('phone.language: numbers (ids into a languages table), not language names: not imported');
  const repair: Repair = {
    field: 'language',
    found: languages,
    action:
      ids.length === 1
        ? `${ids[0]}: a number (an id into a languages table), not a language name: not imported as a language`
        : `${ids.join(', ')}: numbers (ids into a languages table), not language names: not imported as languages`,
    effect: 'dropped',
    severity: 'warning',
  };
  phone.repairs = [...(phone.repairs ?? []), repair];
};

const migrateAddress: Migration = ({ table, row, notes, emit }) => {
  const extra = [row.address_3, row.address_4].filter((line) => line !== undefined);
  if (extra.length > 0) {
    row.address_2 = [row.address_2, ...extra].filter(Boolean).join(', ');
    notes.add(`${table}: address_3, address_4 joined into address_2`);
  }
  delete row.address_3;
  delete row.address_4;
  const addressType = table === 'physical_address' ? 'physical' : 'postal';
  row.address_type = addressType;
  emit('address', `address:${addressType}`, row);
};

/**
 * The spans of hours a 1.1 row writes only in `original_text` (Miami 211: `9:00am-12:00pm;
 * 1:00pm-4:00pm, Mon-Fri`, `8:30amGÇô5:00pm, Mon-Fri`) for its own weekday, with the repair that
 * says so; undefined when the row has its times or the text is not read (schedule-text.ts).
 * Mojibake is repaired before reading: leniency repairs text only after migration.
 */
function hoursFromText(row: Row, byday: string | undefined) {
  const text = row.original_text;
  if (!text || !byday || row.opens_at || row.closes_at) return undefined;
  const spans = readDayHours(repairMojibake(text)?.text ?? text, byday as Weekday);
  if (!spans || spans.length === 0) return undefined;
  const said = spans.map((s) => `${s.opens_at}-${s.closes_at}`).join(', ');
  return spans.map((span, i) => ({
    span,
    repair: {
      field: 'original_text',
      found: text,
      action: `no opens_at/closes_at: read from the text as ${byday} ${span.opens_at}-${span.closes_at}${spans.length > 1 ? ` (span ${i + 1} of ${spans.length} that day: ${said}; one schedule each, the gap stays closed)` : ''} (the text is kept)`,
      effect: 'changed' as const,
      severity: 'info' as const,
    },
  }));
}

const migrateRegularSchedule: Migration = ({ row, notes, emit, context }) => {
  const weekday = row.weekday;
  delete row.weekday;
  // A number or one day name (`1`, `Mon`), else words naming days (`Monday - Friday`).
  const byday = weekday ? toByDay(weekday) : undefined;
  const days = byday ? { byday, freq: 'WEEKLY' } : weekday ? readDays(weekday) : undefined;
  if (days && row.byday === undefined) {
    row.byday = days.byday;
    row.freq ??= days.freq;
    notes.add(`regular_schedule.weekday → schedule freq ${days.freq}, byday`);
  } else if (weekday) {
    row.description = [row.description, weekday].filter(Boolean).join('; ');
    notes.add('regular_schedule.weekday not a day name or number: kept in the description');
  }
  const hours = context.asPublished ? undefined : hoursFromText(row, byday);
  if (!hours) {
    emit('schedule', 'schedule:regular', row);
    return;
  }
  notes.add('regular_schedule.original_text → opens_at, closes_at (one schedule per span of hours)');
  // Emitted last first: emit puts each record first in `out`, so the row's own record leads.
  for (let i = hours.length - 1; i >= 0; i--) {
    const { span, repair } = hours[i]!;
    const record = { ...row, opens_at: span.opens_at, closes_at: span.closes_at };
    emit('schedule', 'schedule:regular', record, {
      ...(i === 0 ? {} : { name: `hours:${i + 1}` }),
      repairs: [repair],
    });
  }
};

const migrateHolidaySchedule: Migration = ({ row, notes, emit, renamed }) => {
  renamed('start_date', 'valid_from');
  renamed('end_date', 'valid_to');
  const closed = row.closed;
  delete row.closed;
  if (closed !== undefined && /^(true|t|yes|y|1)$/i.test(closed)) {
    row.description = ['Closed', row.description].filter(Boolean).join(': ');
    notes.add('holiday_schedule.closed → schedule description "Closed"');
  }
  emit('schedule', 'schedule:holiday', row);
};

const migrateServiceArea: Migration = (m) => {
  m.renamed('service_area', 'name');
  m.emit('service_area', 'service_area', m.row);
};

const migrateLanguage: Migration = ({ row, notes, emit }) => {
  if (row.language !== undefined) {
    const value = row.language;
    delete row.language;
    if (looksLikeLanguageCode(value)) row.code = value;
    else row.name = value;
    notes.add('language.language → name (or code, when it is one)');
  }
  emit('language', 'language', row);
};

const migrateAccessibility: Migration = (m) => {
  m.renamed('accessibility', 'description');
  m.emit('accessibility', 'accessibility', m.row);
};

/** A 1.1 taxonomy row or a 2.0 term: a 3.1 term. */
const migrateTaxonomyTerm: Migration = ({ table, source, row, notes, emit, renamed }) => {
  renamed('term', 'name');
  renamed('vocabulary', 'taxonomy');
  delete row.parent_name;
  if (source.parent_id?.trim()) row.parent_id = migrateId('taxonomy_term', source.parent_id);
  if (row.description === undefined && row.name !== undefined) {
    row.description = row.name;
    notes.add(`${table}: no description; the term's name is used (HSDS 3.1 requires one)`);
  }
  emit('taxonomy_term', 'taxonomy_term', row);
};

/** A service's taxonomy link (1.1) or attribute (2.0): an attribute linked to the service. */
const migrateServiceAttribute: Migration = ({ source, row, emit, renamed }) => {
  const service = row.service_id;
  delete row.service_id;
  if (source.taxonomy_id?.trim()) row.taxonomy_term_id = migrateId('taxonomy_term', source.taxonomy_id);
  delete row.taxonomy_id;
  renamed('taxonomy_detail', 'value');
  if (service !== undefined) row.link_id = service;
  row.link_entity = 'service';
  emit('attribute', 'attribute:service', row);
};

/** A 2.0 attribute of any record: an attribute linked to the record its `link_type` names. */
const migrateOtherAttribute: Migration = ({ source, row, emit }) => {
  const entity = cell(source, 'link_type');
  delete row.link_type;
  const target = entity ? otherAttributeTargets[entity] : undefined;
  if (source.link_id?.trim() && target) row.link_id = migrateId(target.kind, source.link_id);
  if (target) row.link_entity = target.type;
  emit('attribute', 'attribute:other', row);
};

// Folded into services by the source (collectFolded), or not migrated: never rows of their own.
const folded: Migration = () => {};

/** How each old table migrates. */
const migrations: Record<LegacyTable, Migration> = {
  taxonomy: migrateTaxonomyTerm,
  taxonomy_term: migrateTaxonomyTerm,
  organization: migrateOrganization,
  program: unchanged('program'),
  eligibility: folded,
  payment_accepted: folded,
  service: migrateService,
  location: migrateLocation,
  service_at_location: unchanged('service_at_location'),
  contact: unchanged('contact'),
  phone: migratePhone,
  physical_address: migrateAddress,
  postal_address: migrateAddress,
  regular_schedule: migrateRegularSchedule,
  holiday_schedule: migrateHolidaySchedule,
  schedule: unchanged('schedule'),
  funding: unchanged('funding'),
  service_area: migrateServiceArea,
  required_document: unchanged('required_document'),
  language: migrateLanguage,
  accessibility_for_disabilities: migrateAccessibility,
  service_taxonomy: migrateServiceAttribute,
  service_attribute: migrateServiceAttribute,
  other_attribute: migrateOtherAttribute,
  meta_table_description: unchanged('meta_table_description'),
  metadata: folded,
};

/**
 * The 3.1 rows of one old row. `identity` (sources/row-identity.ts) says when its id column does
 * not name its record alone: no id (one is minted), or an id an earlier row with other content has.
 */
export function migrateLegacyRow(
  table: LegacyTable,
  source: Row,
  context: LegacyContext,
  identity?: RowIdentity,
): MigratedRow[] {
  const m = startMigrating(table, source, context, identity);
  migrations[table](m);
  if (m.out.length > 0) m.notes.add(`${table} → HSDS 3.1 ${m.out[0]?.type}`);
  return m.out;
}

const otherAttributeTargets: Record<string, { type: RecordType; kind: string }> = {
  organization: { type: 'organization', kind: 'organization' },
  program: { type: 'program', kind: 'program' },
  service: { type: 'service', kind: 'service' },
  service_at_location: { type: 'service_at_location', kind: 'service_at_location' },
  location: { type: 'location', kind: 'location' },
  phone: { type: 'phone', kind: 'phone' },
  contact: { type: 'contact', kind: 'contact' },
  physical_address: { type: 'address', kind: 'address:physical' },
  postal_address: { type: 'address', kind: 'address:postal' },
  funding: { type: 'funding', kind: 'funding' },
  service_area: { type: 'service_area', kind: 'service_area' },
  required_document: { type: 'required_document', kind: 'required_document' },
  language: { type: 'language', kind: 'language' },
  accessibility_for_disabilities: { type: 'accessibility', kind: 'accessibility' },
};

/**
 * Remembers one row of a table that 3.1 folds into the service (eligibility, payment_accepted):
 * the source reads those tables before services.
 */
export function collectFolded(table: 'eligibility' | 'payment_accepted', row: Row, context: LegacyContext) {
  const service = cell(row, 'service_id');
  const value = table === 'eligibility' ? cell(row, 'eligibility') : cell(row, 'payment');
  if (!service || !value) return;
  const map = table === 'eligibility' ? context.eligibility : context.payments;
  const values = map.get(service) ?? [];
  values.push(value);
  map.set(service, values);
}
