/**
 * Normalisation, the pure stage of import: one source item (a nested service, an organization with
 * its services, a taxonomy term, or a tabular row) in; flat, validated records and typed issues
 * out. No I/O: sources feed it, the records writer takes what it returns (docs/style.md 16).
 *
 * Rules:
 * - `null` is read as "no value" (many HSDS APIs emit nulls the schemas do not allow);
 * - unless the import is strict, every record goes through the leniency policy (leniency.ts)
 *   before validation, and an invalid optional field is dropped with a warning and the record
 *   kept; a missing or invalid required field (an id, a name) still rejects it;
 * - ids and every reference to one are stored in lower case, strict or not (leniency.ts
 *   lowerCaseIds), so an id in another case names the same record;
 * - unless strict, an id that is not a UUID (`"240"`, `240`, `["240"]`) and every reference to it
 *   are mapped to one UUID (non-uuid-ids.ts), the original kept in the record's `metadata`; a
 *   misspelt collection (`addresss`) that can only mean one is read as it;
 * - nesting implies the parent link when the child does not state it (`phone.service_id`);
 * - a record that fails validation is skipped with the records nested in it, and every failure
 *   is reported with its field path and the value found;
 * - a service area's GeoJSON extent is checked and repaired; an unusable extent is reported and
 *   the area is kept without geometry (it then plays no part in coverage);
 * - a location with coordinates out of range is kept and reported; it gets no map point.
 */
import { z } from '@hono/zod-openapi';
import { parseExtent } from '../../geo/extent.ts';
import { type RecordType, recordSchemas, tabularRecordSchemas } from '../../hsds/index.ts';
import type { AreaGeometry } from '../../index-mapping/service-at-location.document.ts';
import { MIGRATION_AUTHOR, publishedId } from '../migrate/legacy-ids.ts';
import {
  applyLeniency,
  asRecordList,
  collectionMeant,
  describeValue,
  idFieldsOf,
  type LeniencyOptions,
  lowerCaseIds,
  type Repair,
  wrappedValueOf,
} from '../repairs/leniency.ts';
import { mintedNestedId, mintedRepair } from '../repairs/nested-identity.ts';
import {
  dayOf,
  MAPPING_AUTHOR,
  type MappedId,
  mapNonUuidIds,
  mappedIdMetadata,
} from '../repairs/non-uuid-ids.ts';
import {
  childLinks,
  hasAttributes,
  hasMetadata,
  nestedKeysOf,
  outgoingLinksOf,
  recordKey,
  references,
} from './nesting.ts';

export type IssueKind =
  | 'invalid'
  | 'skipped-with-parent'
  | 'duplicate'
  | 'dangling-reference'
  | 'extent-invalid'
  | 'extent-not-geojson'
  | 'extent-repaired'
  | 'coordinates-out-of-range'
  | 'unreadable'
  | 'unknown-table'
  // Old versions and odd packaging (src/ingest/migrate, sources/text-encoding.ts).
  | 'migrated'
  | 'encoding'
  | 'placeholder'
  /** Records deleted: announced deleted by the source, or (sync) no longer provided. */
  | 'removed'
  | 'sync-skipped'
  /** The leniency policy changed a value (info) or dropped a field (warning); the record is kept. */
  | 'repaired'
  | 'dropped-field';

export type Severity = 'error' | 'warning' | 'info';

/** One finding of an import: what, where (source, record, field path) and why. */
export type Issue = {
  severity: Severity;
  kind: IssueKind;
  /** The file (and line or row) or URL the record came from. */
  source: string;
  record_type?: string;
  record_id?: string;
  /** Where in the source item: `service_at_locations[0].location.latitude`. */
  path: string;
  reason: string;
  /** The value found, when the issue is about one: `string "www.example.org"`, `number 3`. */
  value?: string;
};

/** A link to a record the item itself does not contain: checked against the store at the end. */
export type ExternalLink = { field: string; type?: RecordType; id: string };

export type FlatRecord = {
  type: RecordType;
  id: string;
  /** Direct fields (scalars and parent ids), as validated. */
  record: Record<string, unknown>;
  /** A service area's checked GeoJSON geometry. */
  geometry?: AreaGeometry;
  /** Links to records outside this item. */
  external: ExternalLink[];
  /** Where the record was found, for issues about it later (duplicates, dangling links). */
  path: string;
  /**
   * Findings about the record's own values (extent, coordinates). Kept apart from `issues` so a
   * record met several times is reported once, when it is written.
   */
  notes: Issue[];
};

/** A record that failed validation (skipped with what it nests); its id when it had a usable one. */
export type Rejected = { type: RecordType; id?: string };

export type Flattened = { records: FlatRecord[]; issues: Issue[]; rejected: Rejected[] };

export type FlattenOptions = {
  /** Validate records as published: no leniency, an invalid optional field rejects its record. */
  strict?: boolean;
  /**
   * Map ids that are not UUIDs to UUIDs (non-uuid-ids.ts); default true. The write API turns it
   * off: a writer names the record in the path and is there to be told its id is no UUID.
   */
  mapIds?: boolean;
  /** What repairs may assume where the feed says nothing (leniency.ts LeniencyOptions). */
  leniency?: LeniencyOptions;
};

type Fields = Record<string, unknown>;

const isPlainObject = (value: unknown): value is Fields =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

const withoutNulls = (object: Fields, skip: Set<string>): Fields => {
  const out: Fields = {};
  for (const key in object) {
    const value = object[key];
    if (value === null || value === undefined || skip.has(key)) continue;
    out[key] = value;
  }
  return out;
};

const nestedKeys = new Map<RecordType, Set<string>>();
const nestedKeysCached = (type: RecordType) => {
  let keys = nestedKeys.get(type);
  if (!keys) {
    keys = nestedKeysOf(type);
    nestedKeys.set(type, keys);
  }
  return keys;
};

const joinPath = (base: string, part: string | number) =>
  typeof part === 'number' ? `${base}[${part}]` : base ? `${base}.${part}` : part;

function countNested(value: unknown): number {
  if (Array.isArray(value)) return value.reduce((n: number, v) => n + countNested(v), 0);
  if (!isPlainObject(value)) return 0;
  let n = typeof value.id === 'string' ? 1 : 0;
  for (const key in value) if (typeof value[key] === 'object') n += countNested(value[key]);
  return n;
}

/** What a zod issue says, in words an operator can act on: the type found for a type error. */
// zod reports no input unless asked (and asking costs every parse): the value comes from the record.
function issueReason(issue: z.core.$ZodIssue, input: unknown, emptied: ReadonlySet<string>): string {
  // An enum reports a missing value as a bad option: a missing field is said so, whatever its type.
  if (input === undefined && issue.path.length === 1) {
    const field = issue.path[0];
    return typeof field === 'string' && emptied.has(field)
      ? 'required field is empty'
      : 'required field is missing';
  }
  if (issue.code === 'invalid_type') return `expected ${issue.expected}, got ${describeValue(input)}`;
  return issue.message;
}

const valueAt = (fields: Fields, path: readonly PropertyKey[]): unknown => {
  let value: unknown = fields;
  for (const part of path) {
    if (typeof value !== 'object' || value === null) return undefined;
    value = (value as Record<PropertyKey, unknown>)[part];
  }
  return value;
};

function zodIssues(
  error: z.ZodError,
  base: Omit<Issue, 'path' | 'reason' | 'severity' | 'kind'>,
  path: string,
  fields: Fields,
  emptied: ReadonlySet<string> = noFields,
): Issue[] {
  return error.issues.map((issue) => {
    const value = valueAt(fields, issue.path);
    return {
      severity: 'error',
      kind: 'invalid',
      ...base,
      path: issue.path.reduce<string>(
        (p, part) => joinPath(p, typeof part === 'number' ? part : String(part)),
        path,
      ),
      reason: issueReason(issue, value, emptied),
      ...(value !== undefined && issue.code !== 'invalid_type' ? { value: describeValue(value) } : {}),
    };
  });
}

const noFields: ReadonlySet<string> = new Set();

/**
 * A record's repairs and dropped fields as one list: a field repaired and then dropped anyway is
 * one note, dropped, showing the value as published.
 */
function combineRepairs(repairs: readonly Repair[] | undefined, dropped: readonly Repair[]): Repair[] {
  if (!repairs) return dropped as Repair[];
  if (dropped.length === 0) return repairs as Repair[];
  const found = new Map(repairs.map((r) => [r.field, r.found]));
  const droppedFields = new Set(dropped.map((d) => d.field));
  return [
    ...repairs.filter((r) => !droppedFields.has(r.field)),
    ...dropped.map((d) => (found.has(d.field) ? { ...d, found: found.get(d.field) } : d)),
  ];
}

/** The notes of a record's repairs: info for a value changed, warning for a field dropped. */
function repairNotes(
  repairs: readonly Repair[],
  base: Omit<Issue, 'path' | 'reason' | 'severity' | 'kind'>,
  path: string,
): Issue[] {
  return repairs.map((repair) => ({
    severity: repair.severity,
    kind: repair.effect === 'dropped' ? 'dropped-field' : 'repaired',
    ...base,
    path: joinPath(path, repair.field),
    reason: repair.action,
    // A field that was missing has no value to show.
    ...(repair.found !== undefined ? { value: describeValue(repair.found) } : {}),
  }));
}

type Validated =
  | { ok: true; data: Fields; dropped: Repair[] }
  | { ok: false; error: z.ZodError; fields: Fields };

/**
 * Validates a record; unless strict, an invalid optional field is dropped and the rest validated
 * again (the record is kept). Valid records pay one parse, as before.
 */
function validate(schema: z.ZodObject, fields: Fields, strict: boolean): Validated {
  const first = schema.safeParse(fields);
  if (first.success) return { ok: true, data: first.data as Fields, dropped: [] };
  if (strict) return { ok: false, error: first.error, fields };
  const drop = new Map<string, string>();
  for (const issue of first.error.issues) {
    const field = issue.path[0];
    const shape = typeof field === 'string' ? schema.shape[field] : undefined;
    // A required field, or an issue about the record as a whole: the record cannot be kept.
    if (typeof field !== 'string' || !(shape instanceof z.ZodOptional) || fields[field] === undefined) {
      return { ok: false, error: first.error, fields };
    }
    if (!drop.has(field)) drop.set(field, issueReason(issue, valueAt(fields, issue.path), noFields));
  }
  const kept: Fields = { ...fields };
  const dropped: Repair[] = [];
  for (const [field, reason] of drop) {
    dropped.push({
      field,
      found: fields[field],
      action: `${reason}: dropped, the record is kept`,
      effect: 'dropped',
      severity: 'warning',
    });
    delete kept[field];
  }
  const second = schema.safeParse(kept);
  return second.success
    ? { ok: true, data: second.data as Fields, dropped }
    : { ok: false, error: first.error, fields };
}

const emptiedFields = (repairs: readonly Repair[] | undefined): ReadonlySet<string> =>
  repairs ? new Set(repairs.filter((r) => r.effect === 'emptied').map((r) => r.field)) : noFields;

/** Checks what a record's own fields say beyond the schema: geometry and coordinates. */
function checkGeography(flat: FlatRecord, source: string): void {
  const issues = flat.notes;
  const base = { source, record_type: flat.type, record_id: flat.id };
  if (flat.type === 'service_area') {
    const { extent, extent_type } = flat.record as { extent?: unknown; extent_type?: string };
    if (typeof extent !== 'string' || extent.trim() === '') return;
    const parsed = parseExtent(extent, extent_type);
    if (parsed.ok === true) {
      flat.geometry = parsed.geometry;
      if (parsed.repairs.length > 0) {
        issues.push({
          severity: 'info',
          kind: 'extent-repaired',
          ...base,
          path: joinPath(flat.path, 'extent'),
          reason: parsed.repairs.join('; '),
        });
      }
    } else if (parsed.ok === false) {
      issues.push({
        severity: 'warning',
        kind: 'extent-invalid',
        ...base,
        path: joinPath(flat.path, 'extent'),
        reason: `${parsed.reason}; the area is kept without geometry and does not limit coverage`,
      });
    } else {
      issues.push({
        severity: 'warning',
        kind: 'extent-not-geojson',
        ...base,
        path: joinPath(flat.path, 'extent_type'),
        reason: parsed.reason,
      });
    }
  } else if (flat.type === 'location') {
    const { latitude, longitude } = flat.record as { latitude?: number; longitude?: number };
    if (latitude === undefined && longitude === undefined) return;
    const ok =
      typeof latitude === 'number' &&
      typeof longitude === 'number' &&
      Math.abs(latitude) <= 90 &&
      Math.abs(longitude) <= 180;
    if (!ok) {
      issues.push({
        severity: 'warning',
        kind: 'coordinates-out-of-range',
        ...base,
        path: joinPath(flat.path, 'latitude'),
        reason: `latitude ${latitude}, longitude ${longitude} is not a WGS84 position (or only one is given); the location gets no map point`,
      });
    }
  }
}

type Walk = {
  source: string;
  strict: boolean;
  leniency: LeniencyOptions;
  mapIds: boolean;
  /** The day of the item's first `last_modified`: the date of its original-id metadata. */
  date?: string;
  records: FlatRecord[];
  issues: Issue[];
  rejected: Rejected[];
};

function visit(
  walk: Walk,
  type: RecordType,
  published: unknown,
  path: string,
  implied: Fields,
): string | undefined {
  if (!isPlainObject(published)) {
    walk.issues.push({
      severity: 'error',
      kind: 'invalid',
      source: walk.source,
      record_type: type,
      path,
      reason: `expected an object, got ${Array.isArray(published) ? 'an array' : describeValue(published)}`,
    });
    walk.rejected.push({ type });
    return undefined;
  }
  const keys = nestedKeysCached(type);
  const renamed = walk.strict ? undefined : readMisspeltCollections(type, published, keys);
  const value = renamed?.value ?? published;
  const fields = withoutNulls(value, keys);
  for (const field in implied) if (fields[field] === undefined) fields[field] = implied[field];

  // A referenced record nested whole gives its id to the parent's reference field.
  for (const ref of references[type] ?? []) {
    const nested = value[ref.key];
    const nestedId = isPlainObject(nested) ? nestedIdOf(nested.id) : undefined;
    if (nestedId !== undefined && fields[ref.field] === undefined) fields[ref.field] = nestedId;
  }
  if (type === 'service_at_location' && isPlainObject(value.service) && fields.service_id === undefined) {
    fields.service_id = nestedIdOf(value.service.id);
  }

  let leniency: Repair[] | undefined;
  let mapped: MappedId | undefined;
  const fromMetadata =
    type === 'service' && fields.last_modified === undefined && !walk.strict
      ? lastActionDateOf(value.metadata)
      : undefined;
  if (fromMetadata !== undefined) fields.last_modified = fromMetadata;
  // A child record of a feed without an id (Brevard's languages) is kept under a minted, stable
  // id; a writer (mapIds off) is told instead, as of an id that is no UUID.
  const minted =
    !walk.strict && walk.mapIds && Object.keys(implied).length > 0 && isBlankId(fields.id)
      ? mintedNestedId(type, fields)
      : undefined;
  if (minted !== undefined) fields.id = minted;
  if (!walk.strict) {
    walk.date ??= dayOf(fields.last_modified);
    leniency = applyLeniency(type, fields, true, keys, walk.leniency);
    if (minted !== undefined) leniency = [mintedRepair(minted), ...(leniency ?? [])];
    if (renamed) leniency = [...renamed.repairs, ...(leniency ?? [])];
    if (fromMetadata !== undefined) {
      leniency = [
        ...(leniency ?? []).filter((r) => r.field !== 'last_modified'),
        {
          field: 'last_modified',
          found: undefined,
          action: `no last_modified: read as ${String(fields.last_modified)}, the latest last_action_date of its metadata (the publisher's own date)`,
          effect: 'changed',
          severity: 'info',
        },
      ];
    }
    if (walk.mapIds) {
      const ids = mapNonUuidIds(type, fields, idFieldsOf(type), leniency);
      leniency = ids.repairs;
      mapped = ids.own;
    }
  }
  const repairs = lowerCaseIds(type, fields, leniency);
  const id = typeof fields.id === 'string' ? fields.id : undefined;
  const result = validate(recordSchemas[type], fields, walk.strict);
  const base = { source: walk.source, record_type: type, ...(id ? { record_id: id } : {}) };
  if (!result.ok) {
    walk.issues.push(...zodIssues(result.error, base, path, result.fields, emptiedFields(repairs)));
    walk.rejected.push({ type, ...(id ? { id } : {}) });
    let skipped = 0;
    for (const key of keys) skipped += countNested(value[key]);
    if (skipped > 0) {
      walk.issues.push({
        severity: 'error',
        kind: 'skipped-with-parent',
        ...base,
        path,
        reason: `${skipped} record(s) nested in this ${type} were skipped with it`,
      });
    }
    return undefined;
  }
  const flat: FlatRecord = { type, id: id!, record: result.data, external: [], path, notes: [] };
  flat.notes.push(...repairNotes(combineRepairs(repairs, result.dropped), base, path));
  checkGeography(flat, walk.source);
  walk.records.push(flat);

  const listOf = (key: string): unknown[] | undefined => {
    const children = value[key];
    if (Array.isArray(children)) return children;
    if (children === undefined || children === null || walk.strict) return undefined;
    const { list, ...repair } = asRecordList(children);
    flat.notes.push(...repairNotes([{ field: key, found: children, ...repair }], base, path));
    return list;
  };
  for (const link of childLinks[type] ?? []) {
    const children = listOf(link.key);
    if (!children) continue;
    children.forEach((child, i) => {
      visit(walk, link.type, child, joinPath(joinPath(path, link.key), i), { [link.field]: id });
    });
  }
  for (const ref of references[type] ?? []) {
    const nested = value[ref.key];
    if (isPlainObject(nested)) visit(walk, ref.type, nested, joinPath(path, ref.key), {});
  }
  const attributes = hasAttributes(type) ? listOf('attributes') : undefined;
  if (attributes) {
    attributes.forEach((attribute, i) => {
      visit(walk, 'attribute', attribute, joinPath(joinPath(path, 'attributes'), i), {
        link_id: id,
        link_entity: type,
      });
    });
  }
  const metadata = hasMetadata(type) ? listOf('metadata') : undefined;
  if (mapped && hasMetadata(type)) {
    visit(
      walk,
      'metadata',
      mappedIdMetadata(type, mapped, dayOf(fields.last_modified) ?? walk.date),
      joinPath(path, 'metadata'),
      {},
    );
  }
  if (metadata) {
    metadata.forEach((metadata, i) => {
      visit(walk, 'metadata', metadata, joinPath(joinPath(path, 'metadata'), i), {
        resource_id: id,
        resource_type: type,
      });
    });
  }
  const services = type === 'organization' ? listOf('services') : undefined;
  if (services) {
    services.forEach((service, i) => {
      visit(walk, 'service', service, joinPath(joinPath(path, 'services'), i), { organization_id: id });
    });
  }
  if (type === 'service_at_location' && isPlainObject(value.service)) {
    visit(walk, 'service', value.service, joinPath(path, 'service'), {});
  }
  return id;
}

/**
 * The latest `last_action_date` of a service's nested metadata (when the publisher recorded its
 * changes there rather than in `last_modified`), compared as instants, kept as written.
 */
function lastActionDateOf(metadata: unknown): string | undefined {
  if (!Array.isArray(metadata)) return undefined;
  let latest: { text: string; time: number } | undefined;
  for (const entry of metadata) {
    // Our own note of a migrated or mapped id dates the import, not the publisher's change.
    if (!isPlainObject(entry) || entry.updated_by === MIGRATION_AUTHOR || entry.updated_by === MAPPING_AUTHOR)
      continue;
    const date = entry.last_action_date;
    if (typeof date !== 'string') continue;
    const time = Date.parse(date.trim());
    if (!Number.isNaN(time) && (latest === undefined || time > latest.time))
      latest = { text: date.trim(), time };
  }
  return latest?.text;
}

const isBlankId = (id: unknown): boolean =>
  id === undefined || id === null || (typeof id === 'string' && id.trim() === '');

/**
 * A nested record's id as its parent's reference takes it: a string, a number, a list of one, a
 * list of one `{"id": ...}` (wrappedValueOf).
 */
const nestedIdOf = (id: unknown): string | undefined =>
  publishedId(wrappedValueOf('id', id) ?? (Array.isArray(id) && id.length === 1 ? id[0] : id));

/**
 * A nested record with each unknown key that can only mean one collection (`addresss`) read as
 * that collection (when the record does not also have it), and a repair for each.
 */
function readMisspeltCollections(
  type: RecordType,
  value: Fields,
  keys: ReadonlySet<string>,
): { value: Fields; repairs: Repair[] } | undefined {
  let out: { value: Fields; repairs: Repair[] } | undefined;
  for (const key in value) {
    if (keys.has(key)) continue;
    const meant = collectionMeant(type, key, value[key], keys);
    if (meant === undefined || value[meant] !== undefined) continue;
    out ??= { value: { ...value }, repairs: [] };
    out.value[meant] = value[key];
    delete out.value[key];
    out.repairs.push({
      field: key,
      found: value[key],
      action: `a misspelt collection: read as \`${meant}\``,
      effect: 'changed',
      severity: 'warning',
    });
  }
  return out;
}

/** Marks the links of each record whose target is not in the same item. */
function findExternalLinks(records: FlatRecord[]): void {
  const keys = new Set<string>();
  const ids = new Set<string>();
  for (const r of records) {
    keys.add(recordKey(r.type, r.id));
    ids.add(r.id);
  }
  for (const r of records) {
    for (const link of outgoingLinksOf(r.type, r.record)) {
      const present = link.type ? keys.has(recordKey(link.type, link.id)) : ids.has(link.id);
      if (!present) r.external.push(link);
    }
  }
}

/**
 * Flattens one nested item of the given type (a service, an organization with or without
 * services, a taxonomy, a term...) into records.
 */
export function flattenNested(
  type: RecordType,
  item: unknown,
  source: string,
  options: FlattenOptions = {},
): Flattened {
  const walk: Walk = {
    source,
    strict: options.strict ?? false,
    leniency: options.leniency ?? {},
    mapIds: options.mapIds ?? true,
    records: [],
    issues: [],
    rejected: [],
  };
  visit(walk, type, item, '', {});
  findExternalLinks(walk.records);
  return { records: walk.records, issues: walk.issues, rejected: walk.rejected };
}

/**
 * Validates one row of a tabular data package (already coerced: numbers are numbers, empty cells
 * absent) against its table's tabular schema, which also requires the parent ids. `given`: what
 * the source did to tell the row's record (an id minted, a list of ids split), reported with it.
 */
export function flattenRow(
  type: RecordType,
  row: Fields,
  source: string,
  options: FlattenOptions = {},
  given?: readonly Repair[],
): Flattened {
  const strict = options.strict ?? false;
  let leniency: Repair[] | undefined = given ? [...given] : undefined;
  let mapped: MappedId | undefined;
  if (!strict) {
    const repaired = applyLeniency(type, row, false, noFields, options.leniency);
    if (repaired) leniency = leniency ? [...leniency, ...repaired] : repaired;
    if (options.mapIds ?? true) {
      const ids = mapNonUuidIds(type, row, idFieldsOf(type), leniency);
      leniency = ids.repairs;
      mapped = ids.own;
    }
  }
  const repairs = lowerCaseIds(type, row, leniency);
  const id = typeof row.id === 'string' ? row.id : undefined;
  const result = validate(tabularRecordSchemas[type], row, strict);
  const base = { source, record_type: type, ...(id ? { record_id: id } : {}) };
  if (!result.ok) {
    return {
      records: [],
      issues: zodIssues(result.error, base, '', result.fields, emptiedFields(repairs)),
      rejected: [{ type, ...(id ? { id } : {}) }],
    };
  }
  const flat: FlatRecord = { type, id: id!, record: result.data, external: [], path: '', notes: [] };
  flat.notes.push(...repairNotes(combineRepairs(repairs, result.dropped), base, ''));
  checkGeography(flat, source);
  flat.external = outgoingLinksOf(type, flat.record);
  if (!mapped || !hasMetadata(type)) return { records: [flat], issues: [], rejected: [] };
  // The row's original id, kept as a metadata row of its own (its link is inside this "item").
  const kept = flattenRow('metadata', mappedIdMetadata(type, mapped, dayOf(row.last_modified)), source);
  for (const record of kept.records) record.external = [];
  return { records: [flat, ...kept.records], issues: kept.issues, rejected: kept.rejected };
}
