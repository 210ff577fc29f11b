/**
 * Which parts of a stored document each response shape needs (`_source` filtering). The engine
 * sends only these, so a list page of direct fields does not carry every record's phones,
 * schedules and locations over the wire. Direct fields come from the HSDS zod schemas, so a field
 * added there is served without a change here.
 */
import {
  locationSchema,
  organizationSchema,
  PLACEHOLDER_FIELD,
  programSchema,
  serviceAtLocationSchema,
  serviceSchema,
} from '../hsds/index.ts';
import { F } from './fields.ts';
import type { ReadIndex } from './read-indices.mapping.ts';

const directFields = (schema: { shape: object }, prefix: string): string[] =>
  Object.keys(schema.shape).map((key) => `${prefix}.${key}`);

const record = F.record;

// An organization's direct fields, and the mark of a placeholder (an extension field), so that a
// list item says it too and a client need not fetch each organization to tell.
const organizationFields = (prefix: string): string[] => [
  ...directFields(organizationSchema, prefix),
  `${prefix}.${PLACEHOLDER_FIELD}`,
];

/** The record as stored: fully nested. */
export const FULL_RECORD: readonly string[] = [record];

/** A service list item: direct fields, with its organization and program (direct fields). */
export const SERVICE_LIST_ITEM: readonly string[] = [
  ...directFields(serviceSchema, record),
  ...organizationFields(`${record}.organization`),
  ...directFields(programSchema, `${record}.program`),
];

/** `minimal=true`: a service's id and last_modified. */
export const SERVICE_MINIMAL: readonly string[] = [`${record}.id`, `${record}.last_modified`];

/** A service-at-location list item: direct fields, its location, and its service as a list item. */
export const SERVICE_AT_LOCATION_LIST_ITEM: readonly string[] = [
  ...directFields(serviceAtLocationSchema, record),
  ...directFields(locationSchema, `${record}.location`),
  ...directFields(serviceSchema, `${record}.service`),
  ...organizationFields(`${record}.service.organization`),
  ...directFields(programSchema, `${record}.service.program`),
];

/** An organization list item: direct fields. */
export const ORGANIZATION_LIST_ITEM: readonly string[] = organizationFields(record);

/** The services listed inside an organization without `full_service`: what the schema requires. */
export const SERVICE_SUMMARY: readonly string[] = [
  `${record}.id`,
  `${record}.name`,
  `${record}.status`,
  `${record}.organization_id`,
];

/** The list item each read index stores beside its record (F.listItem): what a list page serves. */
export const STORED_LIST_ITEMS = {
  services: SERVICE_LIST_ITEM,
  service_at_locations: SERVICE_AT_LOCATION_LIST_ITEM,
  organizations: ORGANIZATION_LIST_ITEM,
} as const satisfies Partial<Record<ReadIndex, readonly string[]>>;

/** The read indices that store list items. */
export type ListItemIndex = keyof typeof STORED_LIST_ITEMS;

export const storesListItems = (index: ReadIndex): index is ListItemIndex => index in STORED_LIST_ITEMS;

type PathTree = Map<string, PathTree | true>;

function pathTree(paths: readonly string[]): PathTree {
  const root: PathTree = new Map();
  for (const path of paths) {
    const parts = path.split('.').slice(1); // below `record`
    let node = root;
    parts.forEach((part, i) => {
      if (i === parts.length - 1) {
        node.set(part, true);
        return;
      }
      let child = node.get(part);
      if (child === true) return;
      if (!child) {
        child = new Map();
        node.set(part, child);
      }
      node = child;
    });
  }
  return root;
}

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * The members of `value` the tree names, as the engine's `_source` includes filtering keeps them:
 * a named member whole; below a partly named one only what is named, objects and arrays of
 * objects that keep nothing left out. Members keep the record's order.
 */
function project(value: Record<string, unknown>, tree: PathTree): Record<string, unknown> | undefined {
  let out: Record<string, unknown> | undefined;
  for (const key of Object.keys(value)) {
    const rule = tree.get(key);
    if (rule === undefined) continue;
    const member = value[key];
    let kept: unknown;
    if (rule === true) kept = member;
    else if (isObject(member)) kept = project(member, rule);
    else if (Array.isArray(member)) {
      const items = member.flatMap((item) => {
        const projected = isObject(item) ? project(item, rule) : undefined;
        return projected ? [projected] : [];
      });
      kept = items.length > 0 ? items : undefined;
    }
    if (kept === undefined) continue;
    out ??= {};
    out[key] = kept;
  }
  return out;
}

const LIST_ITEM_TREES: Record<ListItemIndex, PathTree> = {
  services: pathTree(STORED_LIST_ITEMS.services),
  service_at_locations: pathTree(STORED_LIST_ITEMS.service_at_locations),
  organizations: pathTree(STORED_LIST_ITEMS.organizations),
};

/** A record's list item for `index` as JSON text. */
export const listItemText = (index: ListItemIndex, record: Record<string, unknown>): string =>
  JSON.stringify(project(record, LIST_ITEM_TREES[index]) ?? {});
