/**
 * The leniency policy of import, in one place: what a record's values may look like in a real feed
 * and what import makes of them before validation. Pure, no I/O; flatten.ts applies it to every
 * record (nested items and tabular rows) unless the import is `strict`.
 *
 * The policy (docs/loading-data.md, "How imports treat messy data", says the same for operators):
 * - `""` and whitespace-only values are absent, like `null`; but a required text field (a name, a
 *   description, an address's `country`) that is blank in JSON is kept as `""`, which HSDS JSON
 *   allows, with a warning: rejecting it would lose the record and everything nested in it;
 * - strings are trimmed of Unicode spaces and zero-width characters; in e-mails and ids, where no
 *   space can belong, they are removed wherever they are (and `mailto:` too); long free text
 *   (`description`, `*_description`, `notes`, `alert`) is kept as published unless blank;
 * - a URI starting `www.`, or a bare domain (`unitedwaymiami.org`: a host whose last label is a
 *   country code or a known generic one, no `@`), gets `https://`; one of a scheme other than http, https, mailto and tel
 *   (`javascript:`, `data:`) is dropped with a warning, and so is such a `logo`;
 * - an enum value in another case is the enum's value (`Active` → `active`);
 * - a decimal number written as a string is a number where a number belongs (`"51.5"`), and a
 *   number or boolean is its text where text belongs (`"number": 1224` for a phone);
 * - dates, times and date-times that parse are written the HSDS way (`9:00am` → `09:00`,
 *   `2021-01-06T00:00:00` → `2021-01-06` for a date, `…T00:00:00Z` for `last_modified`); the
 *   others are kept as published where the 3.1 JSON Schema allows any string (and dropped, with a
 *   warning, by validation where it does not: tabular rows, `last_modified`);
 * - an unknown key that looks like a misspelt field (`addresss`, `Email`) is dropped with a
 *   warning; other unknown keys are publishers' extensions, kept as published, objects and lists
 *   too (HSDS allows extra fields: ORUK's `pc_metadata`, `pc_targetAudience`);
 * - mojibake in text (`directorGÇÖs`, `donâ€™t`: UTF-8 once read as CP437 or Windows-1252) is
 *   repaired (mojibake.ts; ASCII text pays one scan);
 * - a taxonomy term's `x-alternate_names` (the licensee's synonyms of its name) becomes a clean
 *   list of names: index-mapping/taxonomy-vocabulary.ts says how;
 * - a single record where a list belongs is wrapped in a list; anything else there (a string,
 *   `"languages": "English"`) is dropped with a warning, as records need ids;
 * - a list of one value where one value belongs is that value (`"id": ["240"]`), and so is a list
 *   of one object holding only that field (`"id": [{"id": "2152"}]`);
 * - a missing `status` is `active`, a missing `location_type` or `address_type` is `physical`;
 * - an address's blank `country` is told by its postal code (US ZIP → `US`, UK postcode → `GB`)
 *   or DEFAULT_COUNTRY (LeniencyOptions);
 * - a service's HSDS 3.3 `operating_hours` and `events` are lists of schedules: each is repaired
 *   as a schedule record is, a single one is wrapped in a list, an entry that is no object is
 *   dropped, and a field of an entry that still fails the schedule schema is dropped with a
 *   warning (the entry and the service are kept: these lists are optional);
 * - ids that are not UUIDs are mapped to UUIDs (non-uuid-ids.ts, applied by flatten.ts);
 * - ids and references to them are lower-cased (`lowerCaseIds`, also for strict imports).
 * Every change is returned as a repair (field, value found, what was done), reported by import.
 *
 * Cost: a valid record pays one pass over its keys with a character test per string; nothing is
 * allocated unless something is repaired.
 */
import { z } from '@hono/zod-openapi';
import { parsePostalCode } from '../../geo/postal-code.ts';
import {
  LINK_SCHEMES,
  LINK_SCHEMES_TEXT,
  type RecordType,
  recordSchemas,
  recordTypes,
  scheduleEntrySchema,
  tabularTypedFields,
} from '../../hsds/index.ts';
import { ALTERNATE_NAMES_FIELD, cleanAlternateNames } from '../../index-mapping/taxonomy-vocabulary.ts';
import { normaliseTime } from '../../schedules/schedule-text.ts';
import { repairMojibake } from './mojibake.ts';
import { repairScheduleTimes } from './schedule-repair.ts';

export type RepairSeverity = 'info' | 'warning';

/**
 * What a repair did to the field: its value changed (or was kept and noted), it was emptied (read
 * as absent), or the field was dropped. Import reports a dropped field as `dropped-field`, the rest
 * as `repaired`; an emptied required field is said to be empty rather than missing.
 */
export type RepairEffect = 'changed' | 'emptied' | 'dropped';

/** One change made to a record's value: what was found and what was done. */
export type Repair = {
  field: string;
  found: unknown;
  action: string;
  effect: RepairEffect;
  severity: RepairSeverity;
};

const EMPTIED = { value: undefined, action: 'empty, read as absent', effect: 'emptied' } as const;

type FieldKind =
  | { kind: 'text' }
  | { kind: 'prose' }
  | { kind: 'number' }
  | { kind: 'enum'; values: ReadonlySet<string>; byLowerCase: ReadonlyMap<string, string> }
  | { kind: 'email' }
  | { kind: 'uri' }
  | { kind: 'uuid' }
  | { kind: 'datetime' }
  | { kind: 'date' }
  | { kind: 'time' }
  | { kind: 'any' };

const unwrapOptional = (schema: z.ZodType): z.ZodType =>
  schema instanceof z.ZodOptional ? unwrapOptional(schema.unwrap() as z.ZodType) : schema;

// The string formats of src/hsds/formats.schema.ts, as zod names them.
const formatKinds: Record<string, FieldKind> = {
  email: { kind: 'email' },
  url: { kind: 'uri' },
  guid: { kind: 'uuid' },
  uuid: { kind: 'uuid' },
  datetime: { kind: 'datetime' },
  date: { kind: 'date' },
};

// Long free text (descriptions, notes) is kept as published but for being blank: its spacing may be
// deliberate (the official example's description ends with a space), and it harms nothing.
const isProse = (name: string) =>
  name === 'description' || name.endsWith('_description') || name === 'notes' || name === 'alert';

// Links the 3.1 schema leaves plain strings (the official organization.json types `logo` so): read
// as URIs, so that they hold only the schemes a URI field may (LINK_SCHEMES).
const linkFields = new Set(['logo']);

/** What kind of value a schema field holds, read from the zod schema itself. */
function kindOf(name: string, field: z.ZodType): FieldKind {
  const schema = unwrapOptional(field);
  if (schema instanceof z.ZodEnum) {
    const values = (schema.options as readonly (string | number)[]).map(String);
    return {
      kind: 'enum',
      values: new Set(values),
      byLowerCase: new Map(values.map((v) => [v.toLowerCase(), v])),
    };
  }
  if (schema instanceof z.ZodNumber) return { kind: 'number' };
  // String formats (z.email(), z.url()...) are string schemas of their own classes, not ZodString.
  const def = schema._zod.def as { type: string; format?: string };
  if (def.type === 'string') {
    const byFormat = def.format ? formatKinds[def.format] : undefined;
    if (byFormat) return byFormat;
    if (linkFields.has(name)) return { kind: 'uri' };
    const typed = tabularTypedFields[name];
    if (typed) return { kind: typed };
    return isProse(name) ? { kind: 'prose' } : { kind: 'text' };
  }
  return { kind: 'any' };
}

type Plan = {
  fields: ReadonlyMap<string, FieldKind>;
  names: readonly string[];
  /** The record's id and its references to other records (`*_id`, `link_id`): UUIDs. */
  ids: readonly string[];
  /** Required plain-text fields: `""` is valid there, so a blank one is kept as `""` (JSON). */
  requiredText: ReadonlySet<string>;
};

const plans = new Map<RecordType, Plan>(
  recordTypes.map((type) => {
    const fields = new Map<string, FieldKind>();
    const requiredText = new Set<string>();
    for (const [name, field] of Object.entries(recordSchemas[type].shape)) {
      const kind = kindOf(name, field as z.ZodType);
      fields.set(name, kind);
      if (!(field instanceof z.ZodOptional) && (kind.kind === 'text' || kind.kind === 'prose')) {
        requiredText.add(name);
      }
    }
    const ids = [...fields].filter(([, kind]) => kind.kind === 'uuid').map(([name]) => name);
    return [type, { fields, names: [...fields.keys()], ids, requiredText }];
  }),
);

// Unicode white space (as `\s` knows it) and the zero-width characters it does not: U+200B-U+200D,
// U+2060, U+FEFF (the byte order mark is in `\s`), U+180E.
const SPACE = '\\s\\u180E\\u200B-\\u200D\\u2060\\uFEFF';
const EDGES = new RegExp(`^[${SPACE}]+|[${SPACE}]+$`, 'g');
const ANYWHERE = new RegExp(`[${SPACE}]`, 'g');
const HAS_SPACE = new RegExp(`[${SPACE}]`);

const isSpaceCode = (c: number) =>
  c <= 32 ||
  c === 0x85 ||
  c === 0xa0 ||
  c === 0x1680 ||
  c === 0x180e ||
  (c >= 0x2000 && c <= 0x200d) ||
  c === 0x2028 ||
  c === 0x2029 ||
  c === 0x202f ||
  c === 0x205f ||
  c === 0x2060 ||
  c === 0x3000 ||
  c === 0xfeff;

/** Whether a string starts or ends with white space or a zero-width character (or is empty). */
const needsTrim = (s: string) =>
  s.length === 0 || isSpaceCode(s.charCodeAt(0)) || isSpaceCode(s.charCodeAt(s.length - 1));

const trimAll = (s: string) => s.replace(EDGES, '');

// A decimal number as people write one; deliberately narrower than `Number()` ('0x1A', ' ').
const decimalPattern = /^[+-]?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][+-]?\d+)?$/;

const isoDate = /^\d{4}-\d{2}-\d{2}$/;
const rfc3339 = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(?:\.\d+)?(?:Z|[+-]\d{2}:\d{2})$/;
const hsdsTime = /^(?:[01]\d|2[0-3]):[0-5]\d(?::[0-5]\d(?:\.\d+)?)?(?:Z|[+-](?:[01]\d|2[0-3]):[0-5]\d)?$/;

const pad2 = (n: number) => String(n).padStart(2, '0');

const validDate = (y: number, m: number, d: number) => {
  const date = new Date(Date.UTC(y, m - 1, d));
  return date.getUTCFullYear() === y && date.getUTCMonth() === m - 1 && date.getUTCDate() === d;
};
const ymd = (y: number, m: number, d: number) =>
  validDate(y, m, d) ? `${y}-${pad2(m)}-${pad2(d)}` : undefined;

const months = ['jan', 'feb', 'mar', 'apr', 'may', 'jun', 'jul', 'aug', 'sep', 'oct', 'nov', 'dec'] as const;
const monthOf = (name: string) => {
  const i = months.indexOf(name.slice(0, 3).toLowerCase() as (typeof months)[number]);
  return i < 0 ? undefined : i + 1;
};

/**
 * A date in a form that says one day without doubt, as YYYY-MM-DD: an ISO date-time's date,
 * `2021/01/06`, `6 January 2021`, `January 6, 2021`. `06/01/2021` is June or January depending on
 * the country that wrote it: not repaired.
 */
export function normaliseDate(value: string): string | undefined {
  let m =
    /^(\d{4})-(\d{2})-(\d{2})[T ]\d{2}:\d{2}/.exec(value) ??
    /^(\d{4})[/.](\d{1,2})[/.](\d{1,2})$/.exec(value);
  if (m) return ymd(Number(m[1]), Number(m[2]), Number(m[3]));
  m = /^(\d{1,2})(?:st|nd|rd|th)?\s+([A-Za-z]{3,9})\.?,?\s+(\d{4})$/.exec(value);
  if (m) {
    const month = monthOf(m[2]!);
    return month ? ymd(Number(m[3]), month, Number(m[1])) : undefined;
  }
  m = /^([A-Za-z]{3,9})\.?\s+(\d{1,2})(?:st|nd|rd|th)?,?\s+(\d{4})$/.exec(value);
  if (m) {
    const month = monthOf(m[1]!);
    return month ? ymd(Number(m[3]), month, Number(m[2])) : undefined;
  }
  return undefined;
}

/**
 * A date-time as RFC 3339: a date alone is its midnight UTC; a date-time without an offset is
 * read as UTC; a space for `T` is accepted.
 */
export function normaliseDateTime(value: string): string | undefined {
  if (isoDate.test(value))
    return ymd(...(value.split('-').map(Number) as [number, number, number]))
      ? `${value}T00:00:00Z`
      : undefined;
  const m = /^(\d{4}-\d{2}-\d{2})[T ](\d{2}:\d{2})(:\d{2}(?:\.\d+)?)?(Z|[+-]\d{2}:?\d{2})?$/i.exec(value);
  if (!m) return undefined;
  const offset = m[4] ? (m[4].toUpperCase() === 'Z' ? 'Z' : `${m[4].slice(0, 3)}:${m[4].slice(-2)}`) : 'Z';
  const out = `${m[1]}T${m[2]}${m[3] ?? ':00'}${offset}`;
  return Number.isNaN(Date.parse(out)) ? undefined : out;
}

/** How a value is shown in a repair or an issue: strings quoted and cut, others as JSON. */
export function describeValue(value: unknown): string {
  if (typeof value === 'string') {
    const cut = value.length > 60 ? `${value.slice(0, 57)}...` : value;
    return `string ${JSON.stringify(cut)}`;
  }
  if (Array.isArray(value)) return `an array of ${value.length}`;
  if (value === null) return 'null';
  if (typeof value === 'object') return 'an object';
  return `${typeof value} ${String(value)}`;
}

// Unknown keys are compared with known ones letter by letter: one edit apart, or the same but for
// case and separators (`Email`, `e-mail`, `addresss`, `phone_numbers` is not one).
const squash = (s: string) => s.toLowerCase().replace(/[^a-z0-9]/g, '');
function editDistanceAtMost1(a: string, b: string): boolean {
  if (Math.abs(a.length - b.length) > 1) return false;
  let i = 0;
  let j = 0;
  let edits = 0;
  while (i < a.length && j < b.length) {
    if (a[i] === b[j]) {
      i += 1;
      j += 1;
      continue;
    }
    edits += 1;
    if (edits > 1) return false;
    if (a.length > b.length) i += 1;
    else if (b.length > a.length) j += 1;
    else {
      i += 1;
      j += 1;
    }
  }
  return edits + (a.length - i) + (b.length - j) <= 1;
}

const lookalikes = new Map<string, string | null>();
/** The known key an unknown one probably meant, if any. */
function lookalikeOf(type: RecordType, key: string, nestedKeys: ReadonlySet<string>): string | undefined {
  const cacheKey = `${type}\u0000${key}`;
  const cached = lookalikes.get(cacheKey);
  if (cached !== undefined) return cached ?? undefined;
  const squashed = squash(key);
  let found: string | undefined;
  for (const known of [...plans.get(type)!.names, ...nestedKeys]) {
    const k = squash(known);
    if (k === squashed || (squashed.length >= 4 && editDistanceAtMost1(k, squashed))) {
      found = known;
      break;
    }
  }
  if (lookalikes.size < 10_000) lookalikes.set(cacheKey, found ?? null);
  return found;
}

/**
 * The collection an unknown key of a nested record misspells (`addresss` for `addresses`), when
 * it is the only known key it can mean and it holds records (an object or a list). Such a key is
 * read as the collection (flatten.ts) rather than dropped.
 */
export function collectionMeant(
  type: RecordType,
  key: string,
  value: unknown,
  nestedKeys: ReadonlySet<string>,
): string | undefined {
  if (typeof value !== 'object' || value === null || nestedKeys.has(key) || plans.get(type)!.fields.has(key))
    return undefined;
  const squashed = squash(key);
  if (squashed.length < 4) return undefined;
  const meant = [...plans.get(type)!.names, ...nestedKeys].filter((known) => {
    const k = squash(known);
    return k === squashed || editDistanceAtMost1(k, squashed);
  });
  return meant.length === 1 && nestedKeys.has(meant[0]!) ? meant[0] : undefined;
}

type Fields = Record<string, unknown>;

/** One field's value made usable, or `undefined` to drop it; `action` says what was done. */
function repairValue(
  kind: FieldKind,
  value: unknown,
  json: boolean,
): { value: unknown; action?: string; effect?: RepairEffect } {
  if (typeof value !== 'string') {
    if (
      (kind.kind === 'text' || kind.kind === 'prose') &&
      (typeof value === 'number' || typeof value === 'boolean')
    ) {
      return { value: String(value), action: 'read as text' };
    }
    return { value };
  }
  if (kind.kind === 'prose') {
    if (needsTrim(value) && trimAll(value) === '') return EMPTIED;
    return withoutMojibake(value) ?? { value };
  }
  if (kind.kind === 'text') {
    const repaired = withoutMojibake(value);
    if (repaired) {
      const rest = repairValue(kind, repaired.value, json);
      return rest.action ? { ...rest, action: `${repaired.action}, ${rest.action}` } : repaired;
    }
  }
  let s = value;
  let trimmed = false;
  if (kind.kind === 'email' || kind.kind === 'uri' || kind.kind === 'uuid') {
    if (HAS_SPACE.test(s)) {
      s = kind.kind === 'uri' ? trimAll(s) : s.replace(ANYWHERE, '');
      trimmed = s !== value;
    }
  } else if (needsTrim(s)) {
    s = trimAll(s);
    trimmed = s !== value;
  }
  if (s === '') return EMPTIED;
  const spaces = kind.kind === 'email' || kind.kind === 'uuid' ? 'spaces removed' : 'trimmed of spaces';
  const done = (out: unknown, action: string) => ({
    value: out,
    action: trimmed ? `${spaces}, ${action}` : action,
  });
  const asIs = () => (trimmed ? { value: s, action: spaces } : { value });
  switch (kind.kind) {
    case 'enum': {
      if (kind.values.has(s)) return asIs();
      const canonical = kind.byLowerCase.get(s.toLowerCase());
      return canonical ? done(canonical, `read as ${JSON.stringify(canonical)}`) : asIs();
    }
    case 'number':
      return decimalPattern.test(s) ? done(Number(s), 'read as a number') : asIs();
    case 'email': {
      if (/^mailto:/i.test(s)) return done(s.slice(7), 'mailto: removed');
      return asIs();
    }
    case 'uri': {
      if (/^www\./i.test(s)) return done(`https://${s}`, 'https:// added');
      if (isBareDomain(s)) return done(`https://${s}`, 'a bare domain: https:// added');
      if (hasOtherScheme(s)) return { value: undefined, action: OTHER_SCHEME_DROPPED, effect: 'dropped' };
      return asIs();
    }
    case 'datetime': {
      if (rfc3339.test(s)) return asIs();
      const normal = normaliseDateTime(s);
      return normal ? done(normal, `read as ${normal}`) : asIs();
    }
    case 'date': {
      if (isoDate.test(s)) return asIs();
      const normal = normaliseDate(s);
      if (normal) return done(normal, `read as ${normal}`);
      return json ? { value: s, action: 'not a YYYY-MM-DD date: kept as published' } : asIs();
    }
    case 'time': {
      if (hsdsTime.test(s)) return asIs();
      const normal = normaliseTime(s);
      if (normal) return done(normal, `read as ${normal}`);
      return json ? { value: s, action: 'not an HH:MM time: kept as published' } : asIs();
    }
    default:
      return asIs();
  }
}

/** Text with its mojibake repaired (mojibake.ts), as a repair, or `undefined` when it had none. */
function withoutMojibake(value: string): { value: string; action: string } | undefined {
  const repaired = repairMojibake(value);
  if (!repaired) return undefined;
  const times = repaired.count === 1 ? 'one sequence' : `${repaired.count} sequences`;
  return {
    value: repaired.text,
    action: `mojibake repaired (UTF-8 once read as another code page: ${times})`,
  };
}

// Generic top-level domains seen on directory links; any two-letter country code is taken too.
const GENERIC_TLDS = new Set(
  'com org net edu gov mil int info biz name pro coop museum aero app dev io ai co us uk church health care help community foundation charity ngo onl social services support center centre clinic online site website today life family'.split(
    ' ',
  ),
);
// A host of dot-separated labels and an optional port, path, query or fragment: no scheme, no `@`.
const BARE_DOMAIN = /^(?:[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)+([a-z]{2,13})\.?(?:[/?#][^\s@:]*)?$/i;

/**
 * Whether a link is a bare domain (`unitedwaymiami.org`, `example.org/help`): a host whose last
 * label is a country code or a known generic domain, no port. An e-mail address, a file name with
 * a longer extension and free text are not.
 */
function isBareDomain(value: string): boolean {
  // A URL with a scheme (nearly every valid one) has a colon within its first few characters.
  if (value.includes(':')) return false;
  const m = BARE_DOMAIN.exec(value);
  if (!m) return false;
  const tld = m[1]!.toLowerCase();
  return tld.length === 2 || GENERIC_TLDS.has(tld);
}

const linkScheme = new RegExp(`^(?:${LINK_SCHEMES.join('|')}):`, 'i');

/**
 * Whether a URI is an absolute URL of a scheme a URI field may not hold (`javascript:`, `data:`,
 * `vbscript:`...), as a browser reads it (the WHATWG parser: case, tabs and control characters
 * do not hide a scheme). A value that is no absolute URL is left for validation to judge.
 */
function hasOtherScheme(value: string): boolean {
  if (linkScheme.test(value)) return false;
  const url = URL.parse(value);
  return url !== null && !LINK_SCHEMES.includes(url.protocol.slice(0, -1));
}

/**
 * What is done with a link of another scheme: dropped (a warning), the record kept. A write
 * refuses it instead (isOtherSchemeDrop): its sender is there to be told.
 */
export const OTHER_SCHEME_DROPPED = `not an ${LINK_SCHEMES_TEXT} link (a javascript: or data: URL would run in the page that shows it): dropped`;

/** Whether an import's note is the drop of a link of another scheme (OTHER_SCHEME_DROPPED). */
export const isOtherSchemeDrop = (note: { kind: string; reason: string }) =>
  note.kind === 'dropped-field' && note.reason === OTHER_SCHEME_DROPPED;

/** What the operator configured for repairs that need a fact the feed does not give. */
export type LeniencyOptions = {
  /** The ISO 3166-1 alpha-2 country of addresses whose country is blank and not told by the postal code. */
  defaultCountry?: string;
};

/** Records one repair of a record's field (its severity `info` unless said). */
export type NoteRepair = (
  field: string,
  found: unknown,
  action: string,
  effect: RepairEffect,
  severity?: RepairSeverity,
) => void;

/**
 * Applies the policy to a record's direct fields, in place (the caller owns `fields`). `json`
 * says whether the record came as JSON (date and time fields are any string there) or as a tabular
 * row. `nestedKeys` are the keys that hold nested records (not fields). Returns the repairs, or
 * `undefined` when there were none.
 */
export function applyLeniency(
  type: RecordType,
  fields: Fields,
  json: boolean,
  nestedKeys: ReadonlySet<string>,
  options: LeniencyOptions = {},
): Repair[] | undefined {
  const plan = plans.get(type)!;
  let repairs: Repair[] | undefined;
  const note: NoteRepair = (field, found, action, effect, severity = 'info') => {
    repairs ??= [];
    repairs.push({ field, found, action, effect, severity });
  };
  // Days and hours where feeds put them (a time in a date column, day names in `freq`), moved to
  // the fields opening rules read before those fields are repaired one by one.
  if (type === 'schedule') repairScheduleTimes(fields, note);
  if (type === 'address') inferBlankCountry(fields, options, note);
  for (const key in fields) {
    const value = fields[key];
    const kind = plan.fields.get(key);
    if (kind === undefined) {
      if (nestedKeys.has(key)) continue;
      if (type === 'taxonomy_term' && key === ALTERNATE_NAMES_FIELD) {
        repairAlternateNames(fields, value, note);
        continue;
      }
      const meant = lookalikeOf(type, key, nestedKeys);
      if (meant !== undefined) {
        delete fields[key];
        note(key, value, `unknown field, dropped (did you mean \`${meant}\`?)`, 'dropped', 'warning');
      }
      // Any other unknown key is a publisher's extension (ORUK `pc_metadata` {...},
      // `pc_targetAudience` [...]): kept as published, objects and lists too (HSDS allows extra
      // properties; the store and the served JSON keep them unindexed).
      continue;
    }
    if (kind.kind === 'any') {
      if (type === 'service' && SCHEDULE_LISTS.has(key)) repairScheduleList(fields, key, value, json, note);
      continue;
    }
    if (Array.isArray(value)) {
      // `"id": ["240"]`: a list of one where one value belongs is that value (a list of several
      // is left for validation to report: which one was meant is not ours to guess).
      const wrapped = wrappedValueOf(key, value);
      if (
        wrapped === undefined &&
        (value.length !== 1 || (typeof value[0] === 'object' && value[0] !== null))
      )
        continue;
      const inner = wrapped ?? value[0];
      fields[key] = inner;
      note(
        key,
        value,
        wrapped === undefined
          ? 'a list of one where a single value belongs: read as its value'
          : 'a value wrapped in a list of one object: read as its value',
        'changed',
      );
      const repaired = repairValue(kind, inner, json);
      if (repaired.action === undefined) continue;
      if (repaired.value === undefined) delete fields[key];
      else fields[key] = repaired.value;
      repairs!.at(-1)!.action += `, ${repaired.action}`;
      continue;
    }
    const repaired = repairValue(kind, value, json);
    if (repaired.action === undefined) continue;
    if (repaired.value === undefined && json && plan.requiredText.has(key)) {
      // HSDS JSON allows `""` in a required string: the record is kept, and the gap reported.
      fields[key] = '';
      note(key, value, 'required field is empty: kept as ""', 'changed', 'warning');
      continue;
    }
    if (repaired.value === undefined) delete fields[key];
    else fields[key] = repaired.value;
    const effect = repaired.effect ?? 'changed';
    note(key, value, repaired.action, effect, effect === 'dropped' ? 'warning' : 'info');
  }
  if (type === 'service' || type === 'location' || type === 'address')
    fillMissingRequired(type, fields, note);
  return repairs;
}

/**
 * The value of `"id": [{"id": "2152"}]` (a transformer's output): a list of one object whose only
 * key is the field itself, holding a string or a number. Anything else: `undefined`.
 */
export function wrappedValueOf(key: string, value: unknown): string | number | undefined {
  if (!Array.isArray(value) || value.length !== 1) return undefined;
  const only: unknown = value[0];
  if (typeof only !== 'object' || only === null || Array.isArray(only)) return undefined;
  const keys = Object.keys(only);
  const inner = (only as Fields)[key];
  return keys.length === 1 && keys[0] === key && (typeof inner === 'string' || typeof inner === 'number')
    ? inner
    : undefined;
}

// What HSDS 3.1 requires that a feed may leave out, and the value a published record means.
const REQUIRED_DEFAULTS: Partial<Record<RecordType, { field: string; value: string; why: string }>> = {
  service: {
    field: 'status',
    value: 'active',
    why: 'a service the publisher lists is taken to be active',
  },
  location: {
    field: 'location_type',
    value: 'physical',
    why: 'a location is taken to be a physical place unless it says it is virtual',
  },
  address: {
    field: 'address_type',
    value: 'physical',
    why: "an address is taken to be where the location is, not only its post's",
  },
};

/**
 * A missing `status` (service), `location_type` (location) or `address_type` (address) set to what
 * a published record means, rather than losing the record and all it nests.
 */
function fillMissingRequired(type: RecordType, fields: Fields, note: NoteRepair): void {
  const rule = REQUIRED_DEFAULTS[type];
  if (!rule || fields[rule.field] !== undefined) return;
  fields[rule.field] = rule.value;
  note(rule.field, undefined, `missing: set to "${rule.value}" (HSDS requires it; ${rule.why})`, 'changed');
}

/**
 * An address's blank or missing `country` (required), told by the shape of its postal code (a US
 * ZIP is `US`, a UK postcode `GB`), else the configured DEFAULT_COUNTRY; without either it is left
 * blank (kept as `""` in JSON, as any blank required text). Runs before the field loop, so an
 * inferred country is then checked as a published one.
 */
function inferBlankCountry(fields: Fields, options: LeniencyOptions, note: NoteRepair): void {
  const found = fields.country;
  if (found !== undefined && (typeof found !== 'string' || trimAll(found) !== '')) return;
  const code = fields.postal_code;
  const postal =
    typeof code === 'string' || typeof code === 'number' ? parsePostalCode(String(code)) : undefined;
  const byPostalCode = postal?.ok === true ? (postal.value.kind === 'us-zip' ? 'US' : 'GB') : undefined;
  const country = byPostalCode ?? options.defaultCountry;
  if (country === undefined) return;
  fields.country = country;
  note(
    'country',
    found,
    byPostalCode
      ? `no country: read as "${country}" from the postal code's shape`
      : `no country: set to "${country}" (DEFAULT_COUNTRY)`,
    'changed',
  );
}

/** A service's HSDS 3.3 fields that hold schedules in the record itself (not records of their own). */
const SCHEDULE_LISTS: ReadonlySet<string> = new Set(['operating_hours', 'events']);
const NO_NESTED_KEYS: ReadonlySet<string> = new Set();

/**
 * A service's `operating_hours` or `events`, repaired in place as `schedules` are: the leniency of
 * a schedule record for each entry, then the entry schema (scheduleEntrySchema: a schedule whose
 * id may be absent), dropping only the fields that still fail it. A list that ends empty is kept
 * empty when it came as a list, so that a write can clear it.
 */
function repairScheduleList(fields: Fields, key: string, value: unknown, json: boolean, note: NoteRepair) {
  if (value === undefined) return;
  let list: unknown[];
  if (Array.isArray(value)) list = value;
  else if (value === null) {
    delete fields[key];
    note(key, value, EMPTIED.action, 'emptied');
    return;
  } else {
    const wrapped = asRecordList(value);
    note(key, value, wrapped.action, wrapped.effect, wrapped.severity);
    list = wrapped.list;
    if (list.length === 0) {
      delete fields[key];
      return;
    }
  }
  const kept: Fields[] = [];
  for (const [index, entry] of list.entries()) {
    const at = `${key}[${index}]`;
    if (typeof entry !== 'object' || entry === null || Array.isArray(entry)) {
      note(at, entry, 'not a schedule (an object): dropped', 'dropped', 'warning');
      continue;
    }
    const schedule: Fields = { ...(entry as Fields) };
    for (const repair of applyLeniency('schedule', schedule, json, NO_NESTED_KEYS) ?? [])
      note(`${at}.${repair.field}`, repair.found, repair.action, repair.effect, repair.severity);
    const checked = scheduleEntrySchema.safeParse(schedule);
    if (!checked.success) {
      const failing = new Set(checked.error.issues.map((issue) => String(issue.path[0])));
      for (const field of failing) {
        if (!(field in schedule)) continue;
        const issue = checked.error.issues.find((i) => String(i.path[0]) === field)!;
        note(`${at}.${field}`, schedule[field], `${issue.message}: dropped`, 'dropped', 'warning');
        delete schedule[field];
      }
    }
    kept.push(schedule);
  }
  fields[key] = kept;
}

/** A record's id fields: its own id and its references to other records (UUIDs in HSDS 3.1). */
export const idFieldsOf = (type: RecordType): readonly string[] => plans.get(type)!.ids;

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const UPPER = /[A-F]/;

/**
 * Ids in lower case: the record's id and every reference it makes (`service_id`, `link_id`...). A
 * UUID names the same thing in any case (RFC 9562), and the records store keys records by
 * `type:id`: an id stored as published would make `0D2A...` and `0d2a...` two records. Every
 * write path (import, strict or not, and the write API) goes through here, so references agree
 * with the ids they name. Not a leniency: applied to strict imports too. A value that is not a
 * UUID is left as found, for validation to reject as published. Each change is a repair (info),
 * merged into one the leniency already made of the field (spaces removed).
 */
export function lowerCaseIds(
  type: RecordType,
  fields: Fields,
  repairs: Repair[] | undefined,
): Repair[] | undefined {
  for (const key of plans.get(type)!.ids) {
    const value = fields[key];
    if (typeof value !== 'string' || !UPPER.test(value) || !UUID.test(value)) continue;
    fields[key] = value.toLowerCase();
    const action = 'read in lower case (ids are stored in lower case: a UUID names one record in any case)';
    const earlier = repairs?.find((r) => r.field === key);
    if (earlier) {
      earlier.action = `${earlier.action}, ${action}`;
      continue;
    }
    repairs ??= [];
    repairs.push({ field: key, found: value, action, effect: 'changed', severity: 'info' });
  }
  return repairs;
}

/**
 * A taxonomy term's alternate names (an extension: index-mapping/taxonomy-vocabulary.ts), kept as a
 * clean list of names; what was dropped or changed is one repair, a warning when names were lost.
 */
function repairAlternateNames(fields: Fields, value: unknown, note: NoteRepair) {
  // Nothing given (a blank CSV cell, an empty list): absent, as blanks are everywhere.
  if ((typeof value === 'string' && value.trim() === '') || (Array.isArray(value) && value.length === 0)) {
    delete fields[ALTERNATE_NAMES_FIELD];
    return;
  }
  const termName = typeof fields.name === 'string' ? fields.name : undefined;
  const { names, problems, lost } = cleanAlternateNames(value, termName);
  const severity = lost ? 'warning' : 'info';
  if (names.length === 0) {
    delete fields[ALTERNATE_NAMES_FIELD];
    note(
      ALTERNATE_NAMES_FIELD,
      value,
      `no usable alternate name (${problems.join('; ')})`,
      'emptied',
      severity,
    );
    return;
  }
  fields[ALTERNATE_NAMES_FIELD] = names;
  if (problems.length > 0) note(ALTERNATE_NAMES_FIELD, value, problems.join('; '), 'changed', severity);
  else if (!Array.isArray(value)) note(ALTERNATE_NAMES_FIELD, value, 'one name: made a list', 'changed');
}

/**
 * What to make of the value under a key that holds a list of records, when it is not a list:
 * a single record becomes a list of one; anything else is dropped (records need ids, and a string
 * such as `"languages": "English"` has none).
 */
export function asRecordList(value: unknown): {
  list: unknown[];
  action: string;
  effect: RepairEffect;
  severity: RepairSeverity;
} {
  if (typeof value === 'object' && value !== null) {
    return {
      list: [value],
      action: 'a single record where a list belongs: read as a list of one',
      effect: 'changed',
      severity: 'info',
    };
  }
  if (typeof value === 'string' && value.trim() === '')
    return { list: [], action: EMPTIED.action, effect: 'emptied', severity: 'info' };
  return {
    list: [],
    action: 'a list of records belongs here (each with an id); dropped',
    effect: 'dropped',
    severity: 'warning',
  };
}
