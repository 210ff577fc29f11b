/**
 * The facts of a real feed that people use (services, their addresses, opening hours, phones,
 * languages...), counted twice by the same rules: in the source AS THE PUBLISHER MEANT IT (its
 * raw tables or JSON, read without any of the import's leniency or migration) and in what the
 * records store holds after an import. Pure: parsed rows and records in, counts out. The
 * realdata benchmark (bench/realdata.bench.ts) compares the two.
 *
 * The unit is one fact as a reader of a service meets it:
 * - a child record (schedule, phone, language, contact, taxonomy link, service area) counts once
 *   per service it is attached to: a schedule row whose `service_id` lists three services, or one
 *   schedule shared by three services, is three services' hours. A child that names no service
 *   but another record the feed has (a location's phone) counts once. A child attached to
 *   nothing the feed has (an eligibility row with a blank `service_id`, a phone whose services
 *   are all missing from the feed) is unattached: it is reported, not counted, since no import
 *   can show it with anything.
 * - a row without an id still counts (ids are the publisher's bookkeeping, not the fact);
 * - a row that carries no content of its kind (an address without a street, a language without
 *   a name, a phone without a number) is no fact;
 * - services, organizations and locations count once per distinct record: an organization nested
 *   in every service of an ORUK feed is one organization, but one id on records that differ is
 *   several records (a feed repeating an id is the publisher's slip, not one record); field facts
 *   (URLs, eligibility, ages, extensions, the publisher's modified date) once per record that has
 *   them. A modified date is kept when the stored `last_modified` precedes the import (the
 *   import stamps its own time on a service without one).
 */

export const FACT_KINDS = [
  'services',
  'organizations',
  'locations',
  'addresses',
  'schedules',
  'opening times',
  'phones',
  'languages',
  'taxonomy links',
  'contacts',
  'service areas',
  'eligibility',
  'ages',
  'urls',
  'extensions',
  'modified dates',
] as const;

export type FactKind = (typeof FACT_KINDS)[number];
export type FactCounts = Record<FactKind, number>;

export type FactTally = {
  facts: FactCounts;
  /** Child facts attached to no record the feed (or the store) has: not counted in `facts`. */
  unattached: Partial<Record<FactKind, number>>;
  /** Distinct services per language name (lower case): what a `language=` filter should find. */
  servicesByLanguage: Record<string, number>;
  /** Text values holding UTF-8 read as CP437 or CP1252 (`directorGÇÖs`, `directorâ€™s`). */
  mojibake: number;
  /**
   * Of the opening times, those written only in free text (`original_text`, `description`:
   * "8:30am-5:00pm, Tue, Fri; 8:30am-8:00pm, Mon, Wed"), which an import keeps as text and can
   * place in opens_at/closes_at only by reading prose.
   */
  timesInTextOnly: number;
};

/** Schedule columns of prose: a time there is a sentence's, not a field's. */
const FREE_TEXT = new Set(['original_text', 'description', 'notes', 'name', 'attending_type']);

/** Whether a schedule says when it opens, and whether only its prose does. */
function openingTime(schedule: Record<string, unknown>): { stated: boolean; textOnly: boolean } {
  if (filled(schedule.opens_at) || filled(schedule.closes_at)) return { stated: true, textOnly: false };
  const fields = Object.entries(schedule).filter(([key]) => key !== 'id' && !key.endsWith('_id'));
  if (holdsTimeOfDay(fields.filter(([key]) => !FREE_TEXT.has(key)).map(([, v]) => v))) {
    return { stated: true, textOnly: false };
  }
  const stated = holdsTimeOfDay(fields.map(([, v]) => v));
  return { stated, textOnly: stated };
}

type Row = Record<string, string | undefined>;

const emptyCounts = (): FactCounts => Object.fromEntries(FACT_KINDS.map((kind) => [kind, 0])) as FactCounts;

const text = (value: unknown): string =>
  typeof value === 'string' ? value.trim() : typeof value === 'number' ? String(value) : '';

const filled = (value: unknown): boolean => {
  if (value === null || value === undefined) return false;
  if (typeof value === 'string') return value.trim() !== '';
  if (Array.isArray(value)) return value.length > 0;
  if (typeof value === 'object') return Object.keys(value).length > 0;
  return true;
};

/**
 * A time of day written anywhere a publisher might put one: `9:00am`, `8:30AM`, `5 p.m.`,
 * `17:00`, `09:00:00`, `noon`, and `24 Hours` (DC's `dtstart` of places always open). A
 * schedule whose row holds one says when it opens.
 */
const TIME_OF_DAY =
  /\b(?:[01]?\d|2[0-3]):[0-5]\d\b|\b(?:1[0-2]|0?[1-9])(?::[0-5]\d)?\s*[ap]\.?\s*m\b|\b24\s*(?:hours?|hrs?)\b|\b24\/7\b|\bnoon\b|\bmidnight\b/i;

export const holdsTimeOfDay = (values: readonly unknown[]): boolean =>
  values.some((value) => typeof value === 'string' && TIME_OF_DAY.test(value));

/**
 * UTF-8 punctuation read back as CP437 (`GÇÖ` for a right quote, the Miami feed's) or CP1252
 * (`â€™`), and accented letters read as CP1252 (`Ã©`).
 */
const MOJIBAKE = /GÇ[\u0080-\u00ff]|â€|Ã[\u00a0-\u00bf]/;

/** Text values with mojibake anywhere in a value (nested objects and lists too). */
export function countMojibake(value: unknown): number {
  if (typeof value === 'string') return MOJIBAKE.test(value) ? 1 : 0;
  if (Array.isArray(value)) return value.reduce((sum: number, v) => sum + countMojibake(v), 0);
  if (typeof value === 'object' && value !== null) return countMojibake(Object.values(value));
  return 0;
}

/**
 * A web address as publishers write them, with or without a scheme (`unitedwaymiami.org`,
 * `www.example.org/help`); an organization's name in the URL column (`Warmley Community Centre`)
 * is no URL, so no fact an import could keep.
 */
export const looksLikeUrl = (value: unknown): boolean =>
  /^(?:https?:\/\/)?[^\s/@]+\.[a-z]{2,}(?:[/\\?#:]\S*)?$/i.test(text(value));

/** Extension fields: the `x-` convention of HSDS 3, and ORUK publishers' `pc_` fields. */
const EXTENSION_KEY = /^(?:x-|pc_)/;

const countExtensions = (record: Record<string, unknown>): number =>
  Object.entries(record).filter(([key, value]) => EXTENSION_KEY.test(key) && filled(value)).length;

/** `a, b ,c` → `['a', 'b', 'c']`: a link column may list several ids. */
export const splitIds = (value: unknown): string[] =>
  text(value)
    .split(',')
    .map((id) => id.trim())
    .filter(Boolean);

/**
 * How many facts one child record is, from the records it names that exist: one per service;
 * for hours (`perLocation`), one per service at each location it names (a row for a service at
 * two locations is its hours at both; a phone for two locations is still one number of the
 * service's). Without a service: one per location (hours) or one, if it names another record. A
 * child that names services, none of which exist, is attached to nothing (0), even if it names a
 * location: it is about them.
 */
export function factsOfChild(links: {
  services: number;
  locations: number;
  namesService: boolean;
  other: boolean;
  perLocation: boolean;
}): number {
  const locations = links.perLocation ? links.locations : Math.min(1, links.locations);
  if (links.services > 0) return links.services * Math.max(1, locations);
  if (links.namesService) return 0;
  if (locations > 0) return locations;
  return links.other ? 1 : 0;
}

/**
 * Hours as facts, told apart by whose they are (each service, else the record's other parents),
 * where (each location it names the feed has) and what they say (every field but ids and links).
 * So a row for a service at three locations the feed lacks, which an import may split into three
 * copies, stays one fact; and the same hours written twice for one service are one.
 */
class Hours {
  private readonly keys = new Set<string>();

  add(owners: readonly string[], locations: readonly string[], record: Record<string, unknown>): void {
    const said = JSON.stringify(
      Object.entries(record)
        .filter(([key, value]) => key !== 'id' && !key.endsWith('_id') && filled(value))
        .sort(([a], [b]) => (a < b ? -1 : 1)),
    );
    for (const owner of owners) {
      for (const location of locations.length > 0 ? locations : [''])
        this.keys.add(`${owner}|${location}|${said}`);
    }
  }

  get size(): number {
    return this.keys.size;
  }
}

class Tally {
  readonly facts = emptyCounts();
  readonly unattached: Partial<Record<FactKind, number>> = {};
  mojibake = 0;
  timesInTextOnly = 0;
  private readonly languageServices = new Map<string, Set<string>>();

  add(kind: FactKind, n = 1): void {
    this.facts[kind] += n;
  }

  /** A child that is `n` facts (factsOfChild); none is a child attached to nothing. */
  child(kind: FactKind, n: number): number {
    if (n === 0) this.unattached[kind] = (this.unattached[kind] ?? 0) + 1;
    this.facts[kind] += n;
    return n;
  }

  language(name: string, serviceIds: readonly string[]): void {
    const key = name.trim().toLowerCase();
    const set = this.languageServices.get(key) ?? new Set<string>();
    this.languageServices.set(key, set);
    for (const id of serviceIds) set.add(id);
  }

  result(): FactTally {
    return {
      facts: this.facts,
      unattached: this.unattached,
      servicesByLanguage: Object.fromEntries(
        [...this.languageServices].map(([name, services]) => [name, services.size]),
      ),
      mojibake: this.mojibake,
      timesInTextOnly: this.timesInTextOnly,
    };
  }
}

// ---------------------------------------------------------------------------------------------
// Tabular sources (HSDS 1.x/2.0/3.x CSV tables), keyed by table name (the file name without .csv)

/** The table each link column points into. */
const LINK_TABLES: Record<string, string[]> = {
  service_id: ['services'],
  location_id: ['locations'],
  organization_id: ['organizations'],
  contact_id: ['contacts'],
  service_at_location_id: ['services_at_location', 'service_at_locations'],
  phone_id: ['phones'],
};

const firstTable = (tables: Record<string, Row[]>, ...names: string[]): Row[] =>
  names.flatMap((name) => tables[name] ?? []);

/** Counts the facts of a tabular feed as its rows say them. */
export function countTabularFacts(tables: Record<string, Row[]>): FactTally {
  const tally = new Tally();
  const ids = new Map<string, Set<string>>();
  for (const [column, names] of Object.entries(LINK_TABLES)) {
    ids.set(column, new Set(firstTable(tables, ...names).flatMap((row) => splitIds(row.id))));
  }
  const services = ids.get('service_id')!;
  /** The services a row names (that the feed has), and how many facts the row is. */
  const links = (
    row: Row,
    perLocation = false,
  ): { services: string[]; locations: string[]; others: string[]; n: number } => {
    const others = new Set<string>();
    const named = new Set<string>();
    const locations = new Set<string>();
    for (const [column, known] of ids) {
      for (const id of splitIds(row[column])) {
        if (!known.has(id)) continue;
        if (column === 'service_id') named.add(id);
        else if (column === 'location_id') locations.add(id);
        else others.add(`${column}:${id}`);
      }
    }
    const n = factsOfChild({
      services: named.size,
      locations: locations.size,
      namesService: splitIds(row.service_id).length > 0,
      other: others.size > 0,
      perLocation,
    });
    return { services: [...named], locations: [...locations], others: [...others].sort(), n };
  };
  /** Schedule rows as hours facts (Hours): the rows attached to nothing are set apart. */
  const hours = (kind: FactKind, rows: Row[], isFact: (row: Row) => boolean) => {
    const facts = new Hours();
    for (const row of rows) {
      if (!isFact(row)) continue;
      const linked = links(row, true);
      if (linked.n === 0) {
        tally.child(kind, 0);
        continue;
      }
      const owners = linked.services.length > 0 ? linked.services : [linked.others.join(',')];
      facts.add(owners, linked.locations, row);
    }
    tally.add(kind, facts.size);
  };
  const child = (kind: FactKind, rows: Row[], isFact: (row: Row) => boolean, perLocation = false) => {
    for (const row of rows) {
      if (!isFact(row)) continue;
      tally.child(kind, links(row, perLocation).n);
    }
  };
  // A row's own content: every column but its id and its links.
  const content = (row: Row) =>
    Object.entries(row).filter(
      ([column, value]) => column !== 'id' && !column.endsWith('_id') && filled(value),
    );

  for (const rows of Object.values(tables)) tally.mojibake += countMojibake(rows);

  const serviceRows = firstTable(tables, 'services');
  const organizationRows = firstTable(tables, 'organizations');
  const locationRows = firstTable(tables, 'locations');
  tally.add('services', serviceRows.length);
  tally.add('organizations', organizationRows.length);
  tally.add('locations', locationRows.length);

  child('addresses', firstTable(tables, 'physical_addresses', 'postal_addresses', 'addresses'), (row) =>
    filled(row.address_1),
  );
  const scheduleRows = firstTable(tables, 'regular_schedules', 'holiday_schedules', 'schedules');
  hours('schedules', scheduleRows, (row) => content(row).length > 0);
  hours('opening times', scheduleRows, (row) => openingTime(row).stated);
  for (const row of scheduleRows) {
    const time = openingTime(row);
    if (time.textOnly) tally.timesInTextOnly += links(row, true).n;
  }
  child('phones', firstTable(tables, 'phones'), (row) => filled(row.number));
  for (const row of firstTable(tables, 'languages')) {
    const name = row.language ?? row.name;
    if (!filled(name)) continue;
    const linked = links(row);
    tally.child('languages', linked.n);
    tally.language(name!, linked.services);
  }
  child(
    'taxonomy links',
    firstTable(tables, 'services_taxonomy', 'service_attributes', 'attributes'),
    (row) => filled(row.taxonomy_id ?? row.taxonomy_term_id),
  );
  child('contacts', firstTable(tables, 'contacts'), (row) => content(row).length > 0);
  child(
    'service areas',
    firstTable(tables, 'service_areas', 'service_area'),
    (row) => content(row).length > 0,
  );

  // Eligibility and ages are about a service: each service that states them counts once.
  const eligible = new Set<string>();
  const aged = new Set<string>();
  for (const row of serviceRows) {
    if (filled(row.last_modified)) tally.add('modified dates');
    if (filled(row.eligibility_description)) eligible.add(text(row.id));
    if (filled(row.minimum_age) || filled(row.maximum_age)) aged.add(text(row.id));
  }
  for (const row of firstTable(tables, 'eligibility', 'eligibilities')) {
    const named = splitIds(row.service_id).filter((id) => services.has(id));
    const states = filled(row.eligibility) || filled(row.eligibility_description);
    const ages = filled(row.minimum_age) || filled(row.maximum_age);
    if (named.length === 0 && (states || ages)) {
      if (states) tally.unattached.eligibility = (tally.unattached.eligibility ?? 0) + 1;
      if (ages) tally.unattached.ages = (tally.unattached.ages ?? 0) + 1;
    }
    for (const id of named) {
      if (states) eligible.add(id);
      if (ages) aged.add(id);
    }
  }
  tally.add('eligibility', eligible.size);
  tally.add('ages', aged.size);

  for (const row of [...serviceRows, ...organizationRows, ...locationRows]) {
    if (looksLikeUrl(row.url) || looksLikeUrl(row.website)) tally.add('urls');
  }
  return tally.result();
}

// ---------------------------------------------------------------------------------------------
// Nested sources (HSDS 3 JSON, ORUK list items, a transformer's nested organizations)

type Json = Record<string, unknown>;

const objects = (value: unknown): Json[] =>
  Array.isArray(value)
    ? value.filter((v): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v))
    : typeof value === 'object' && value !== null
      ? [value as Json]
      : [];

/** A record's id as published; `[{"id": "2152"}]` is the id 2152 wrapped in a list. */
export function publishedId(value: unknown): string {
  if (Array.isArray(value)) return value.length === 1 ? publishedId(value[0]) : '';
  if (typeof value === 'object' && value !== null) return publishedId((value as Json).id);
  return text(value);
}

type NestedKind = 'organization' | 'service' | 'service_at_location' | 'location' | 'contact' | 'phone';

const ADDRESS_KEYS = [
  'addresses',
  'physical_addresses',
  'postal_addresses',
  'addresss',
  'physical_address',
  'postal_address',
];
const SCHEDULE_KEYS = ['schedules', 'regular_schedules', 'holiday_schedules'];

/** Counts the facts of nested items: services, or organizations with their services. */
export function countNestedFacts(items: readonly unknown[]): FactTally {
  const tally = new Tally();
  const seen: Record<'organization' | 'service' | 'location', Set<string>> = {
    organization: new Set(),
    service: new Set(),
    location: new Set(),
  };
  let anonymous = 0;
  /**
   * Whether this record is met for the first time: the same id with the same content (an
   * organization nested in each of its services, an item repeated on two pages) is one record;
   * the same id on records that differ is several, and a record without an id is always new.
   */
  const first = (kind: keyof typeof seen, record: Json): boolean => {
    const id = publishedId(record.id);
    const key = id ? `${id}\u0000${JSON.stringify(record)}` : `#${anonymous++}`;
    if (seen[kind].has(key)) return false;
    seen[kind].add(key);
    return true;
  };
  const url = (record: Json) => {
    if (looksLikeUrl(record.url) || looksLikeUrl(record.website)) tally.add('urls');
  };

  // Each nesting is one fact (a schedule under a location, or under a service); `service` (of
  // languages) is the service id a language found under it speaks for.
  const schedules = (record: Json) => {
    for (const key of SCHEDULE_KEYS) {
      for (const schedule of objects(record[key])) {
        const { id: _, ...rest } = schedule;
        if (!Object.values(rest).some(filled)) continue;
        tally.child('schedules', 1);
        const time = openingTime(schedule);
        if (time.stated) {
          tally.child('opening times', 1);
          if (time.textOnly) tally.timesInTextOnly += 1;
        }
      }
    }
  };
  const languages = (record: Json, service: string | undefined) => {
    for (const language of objects(record.languages)) {
      const name = text(language.name ?? language.language);
      if (!name) continue;
      tally.child('languages', 1);
      tally.language(name, service ? [service] : []);
    }
    // HSDS 2.0-style nesting: a list of language names.
    if (Array.isArray(record.languages)) {
      for (const name of record.languages) {
        if (typeof name !== 'string' || !name.trim()) continue;
        tally.child('languages', 1);
        tally.language(name, service ? [service] : []);
      }
    }
  };
  const phones = (record: Json, service: string | undefined) => {
    for (const phone of objects(record.phones)) walk('phone', phone, service);
  };
  const contacts = (record: Json, service: string | undefined) => {
    for (const contact of objects(record.contacts)) walk('contact', contact, service);
  };

  function walk(kind: NestedKind, record: Json, service: string | undefined): void {
    if ((kind === 'organization' || kind === 'service' || kind === 'location') && !first(kind, record))
      return;
    tally.add('extensions', countExtensions(record));
    switch (kind) {
      case 'organization':
        tally.add('organizations');
        url(record);
        for (const child of objects(record.services)) walk('service', child, undefined);
        for (const child of objects(record.locations)) walk('location', child, undefined);
        phones(record, undefined);
        contacts(record, undefined);
        return;
      case 'service': {
        // The key that tells this service from others (same id, other content: another service).
        const id = `${publishedId(record.id)}#${seen.service.size}`;
        tally.add('services');
        url(record);
        // ORUK publishers keep theirs in `pc_metadata.date_modified`.
        if (
          filled(record.last_modified) ||
          objects(record.pc_metadata).some((m) => filled(m.date_modified))
        ) {
          tally.add('modified dates');
        }
        if (
          filled(record.eligibility_description) ||
          objects(record.eligibilitys).some((e) => filled(e.eligibility))
        ) {
          tally.add('eligibility');
        }
        const ages = [record, ...objects(record.eligibilitys)].some(
          (r) => filled(r.minimum_age) || filled(r.maximum_age),
        );
        if (ages) tally.add('ages');
        for (const organization of objects(record.organization))
          walk('organization', organization, undefined);
        for (const sal of objects(record.service_at_locations)) walk('service_at_location', sal, id);
        for (const location of objects(record.locations)) walk('location', location, id);
        schedules(record);
        languages(record, id);
        phones(record, id);
        contacts(record, id);
        for (const area of [...objects(record.service_areas), ...objects(record.service_area)]) {
          const { id: _, ...rest } = area;
          if (Object.values(rest).some(filled)) tally.child('service areas', 1);
        }
        for (const link of [...objects(record.attributes), ...objects(record.service_taxonomys)]) {
          if (filled(link.taxonomy_term_id ?? link.taxonomy_id ?? link.taxonomy_term)) {
            tally.child('taxonomy links', 1);
          }
        }
        return;
      }
      case 'service_at_location':
        for (const location of objects(record.location)) walk('location', location, service);
        schedules(record);
        phones(record, service);
        contacts(record, service);
        return;
      case 'location':
        tally.add('locations');
        url(record);
        for (const key of ADDRESS_KEYS) {
          for (const address of objects(record[key])) {
            if (filled(address.address_1)) tally.child('addresses', 1);
          }
        }
        schedules(record);
        languages(record, service);
        phones(record, service);
        contacts(record, service);
        return;
      case 'contact': {
        const { id: _, ...rest } = record;
        if (Object.values(rest).some(filled)) tally.child('contacts', 1);
        phones(record, service);
        return;
      }
      case 'phone':
        if (filled(record.number)) tally.child('phones', 1);
        languages(record, undefined);
        return;
    }
  }

  for (const item of items) {
    tally.mojibake += countMojibake(item);
    for (const record of objects(item)) {
      walk(Array.isArray(record.services) ? 'organization' : 'service', record, undefined);
    }
  }
  return tally.result();
}

// ---------------------------------------------------------------------------------------------
// The records store

/** One stored record, as the records store holds it (RecordStoreDocument's fields used here). */
export type StoredRecord = { type: string; id: string; parent_ids: readonly string[]; record: Json };

export type StoredTally = FactTally & {
  /** Organizations the import made up for services whose organization the feed never names. */
  placeholderOrganizations: number;
  /** The services that link to one of them. */
  servicesUnderPlaceholders: number;
};

/** Whether a record says anything beyond its id and its links (a schedule row of ids alone does not). */
const hasContent = (record: Json): boolean =>
  Object.entries(record).some(([key, value]) => key !== 'id' && !key.endsWith('_id') && filled(value));

/**
 * Counts the same facts in the records store. A child counts once per stored service among its
 * parents, else once when any parent is stored, else it is unattached. `isPlaceholder` tells the
 * import's placeholder organizations, which are no fact of the feed.
 */
export function countStoredFacts(
  records: Iterable<StoredRecord>,
  isPlaceholder: (organization: Json) => boolean,
  /** When the import began (ms): a service's `last_modified` before it is the publisher's, not ours. */
  importStartedAt = Number.POSITIVE_INFINITY,
): StoredTally {
  const tally = new Tally();
  const all = [...records];
  const services = new Set<string>();
  const locations = new Set<string>();
  const known = new Set<string>();
  for (const r of all) {
    known.add(r.id);
    if (r.type === 'service') services.add(r.id);
    if (r.type === 'location') locations.add(r.id);
  }
  const placeholders = new Set<string>();
  const hours: Partial<Record<FactKind, Hours>> = { schedules: new Hours(), 'opening times': new Hours() };
  const child = (kind: FactKind, r: StoredRecord, perLocation = false): string[] => {
    const parents = [...new Set(r.parent_ids)];
    const named = parents.filter((id) => services.has(id));
    const at = parents.filter((id) => locations.has(id));
    // As in the source: a record that names a service is about services (a copy made for a
    // service the feed lacks is not counted through the location it shares with the others).
    const namesService = filled(r.record.service_id) || r.record.link_entity === 'service';
    const n = factsOfChild({
      services: named.length,
      locations: at.length,
      namesService,
      other: parents.some((id) => known.has(id)),
      perLocation,
    });
    const facts = hours[kind];
    if (!facts || n === 0) tally.child(kind, n);
    else {
      const others = parents.filter((id) => known.has(id) && !locations.has(id)).sort();
      facts.add(named.length > 0 ? named : [others.join(',')], at, r.record);
    }
    return named;
  };
  for (const r of all) {
    const record = r.record;
    tally.add('extensions', countExtensions(record));
    tally.mojibake += countMojibake(record);
    switch (r.type) {
      case 'service':
        tally.add('services');
        if (filled(record.url)) tally.add('urls');
        if (Date.parse(text(record.last_modified)) < importStartedAt) tally.add('modified dates');
        if (filled(record.eligibility_description)) tally.add('eligibility');
        if (filled(record.minimum_age) || filled(record.maximum_age)) tally.add('ages');
        break;
      case 'organization':
        if (isPlaceholder(record)) {
          placeholders.add(r.id);
          break;
        }
        tally.add('organizations');
        if (filled(record.website) || filled(record.url)) tally.add('urls');
        break;
      case 'location':
        tally.add('locations');
        if (filled(record.url)) tally.add('urls');
        break;
      case 'address':
        if (filled(record.address_1)) child('addresses', r);
        break;
      case 'schedule':
        if (hasContent(record)) child('schedules', r, true);
        if (filled(record.opens_at) || filled(record.closes_at)) child('opening times', r, true);
        break;
      case 'phone':
        if (filled(record.number)) child('phones', r);
        break;
      case 'language':
        if (filled(record.name)) tally.language(text(record.name), child('languages', r));
        break;
      case 'attribute':
        if (filled(record.taxonomy_term_id)) child('taxonomy links', r);
        break;
      case 'contact':
        if (hasContent(record)) child('contacts', r);
        break;
      case 'service_area':
        if (hasContent(record)) child('service areas', r);
        break;
    }
  }
  for (const [kind, facts] of Object.entries(hours)) tally.add(kind as FactKind, facts.size);
  const underPlaceholders = all.filter(
    (r) => r.type === 'service' && placeholders.has(text(r.record.organization_id)),
  ).length;
  return {
    ...tally.result(),
    placeholderOrganizations: placeholders.size,
    servicesUnderPlaceholders: underPlaceholders,
  };
}

/** The record type whose import counts (repaired, rejected, reasons) stand for a kind of fact. */
export const RECORD_TYPE_OF: Record<FactKind, string> = {
  services: 'service',
  organizations: 'organization',
  locations: 'location',
  addresses: 'address',
  schedules: 'schedule',
  'opening times': 'schedule',
  phones: 'phone',
  languages: 'language',
  'taxonomy links': 'attribute',
  contacts: 'contact',
  'service areas': 'service_area',
  eligibility: 'service',
  ages: 'service',
  urls: 'service',
  extensions: 'service',
  'modified dates': 'service',
};
