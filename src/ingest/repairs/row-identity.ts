/**
 * Which record each row of a table is, when its `id` column does not say it alone. Real tabular
 * feeds:
 * - leave `id` empty on every row of a table (Miami's `regular_schedules.csv`): each row gets a
 *   stable id minted from its table and content (a UUID v5), so importing the same file again gives
 *   the same ids, whatever the order of its rows; two rows alike in every cell are one record;
 * - reuse one id on rows that differ: one language id per location for each of its languages, one
 *   schedule id for the 16 services that keep the same hours. Each later row whose content differs
 *   from the first row of its id is a record of its own, its id minted from the table, the id and
 *   its content; the first keeps the id as published (references to it still find it);
 * - list several ids in one link column (`phones.service_id` = `id1,id2`): the row is one record
 *   for each, copies told apart as above.
 * Only tables whose records nothing else refers to by id (schedules, languages, addresses...) and
 * phones (each copy with its own languages) are split: a service or a location met
 * twice with other content is more likely one record published twice, and stays the import's
 * "duplicate" (repeats.ts).
 *
 * Memory is flat: the ids of a table are remembered as 64-bit hashes with a 32-bit hash of their
 * row (seen-records.ts RecentHashes, a few MB per table), and only in tables that are split; an id
 * met again after more than 65,536 other ids is taken as met first (and, if its content differs,
 * the import reports it as a duplicate). A row whose id is new costs one hash of its cells.
 */

import { uuidV5 } from '../migrate/legacy-ids.ts';
import { hashRecord, RecentHashes } from '../records/seen-records.ts';
import type { Repair } from './leniency.ts';
import { recordContent } from './record-content.ts';

type Row = Record<string, unknown>;

/** Why a row's id is not the one its `id` column holds. */
export type RowIdentity =
  /** The row has no id: `name` is its content, what its minted id is made of. */
  | { kind: 'minted'; name: string }
  /** An earlier row of the table has this id with other content. */
  | { kind: 'copy'; original: string; name: string };

const NO_LINKS: ReadonlySet<string> = new Set();
const IDS_PER_GENERATION = 65_536;

/** The id of a row without one: the UUID v5 of `kind:row:content`. */
export const mintedId = (kind: string, name: string): string => uuidV5(`${kind}:row:${name}`);

/** The id of a row whose id an earlier row with other content holds: the UUID v5 of `kind:id:row:content`. */
export const copyId = (kind: string, original: string, name: string): string =>
  uuidV5(`${kind}:${original}:row:${name}`);

/** The repair noted on a row whose id was minted or made its own. */
export function identityRepair(identity: RowIdentity, id: string): Repair {
  return identity.kind === 'minted'
    ? {
        field: 'id',
        found: '',
        action: `no id: given ${id}, the UUID v5 of its table and content (the same row gets the same id on every import)`,
        effect: 'changed',
        severity: 'info',
      }
    : {
        field: 'id',
        found: identity.original,
        action: `the id of an earlier row of this table with other content: a record of its own, given ${id} (the UUID v5 of its table, id and content)`,
        effect: 'changed',
        severity: 'info',
      };
}

const idOf = (row: Row): string | undefined => {
  const id = row.id;
  if (typeof id === 'number') return String(id);
  if (typeof id !== 'string') return undefined;
  const trimmed = id.trim();
  return trimmed === '' ? undefined : trimmed;
};

/** The ids met in the table being read, with a hash of their first row. One per source. */
export class RowIdentities {
  private seen: RecentHashes | undefined;
  /** Whether rows are repaired (not a `--strict` import, which reads them as published). */
  readonly repairs: boolean;

  constructor(options: { strict?: boolean } = {}) {
    this.repairs = !options.strict;
  }

  /** A new table: ids are told apart within one table. */
  startTable(): void {
    this.seen = undefined;
  }

  /**
   * Whether the row needs an id other than its `id` column: undefined when that id stands (a new
   * id, or the same row again). `split`: the table's rows may be told apart by content.
   */
  identify(row: Row, split: boolean): RowIdentity | undefined {
    if (!this.repairs) return undefined;
    const id = idOf(row);
    if (id === undefined) return { kind: 'minted', name: recordContent(row) };
    if (!split) return undefined;
    this.seen ??= new RecentHashes(IDS_PER_GENERATION);
    const hash = hashRecord(row, NO_LINKS).content;
    const before = this.seen.get(id);
    if (before === undefined) {
      this.seen.set(id, hash);
      return undefined;
    }
    return before === hash ? undefined : { kind: 'copy', original: id, name: recordContent(row) };
  }
}

/** A link column: a reference to another record (`service_id`, `link_id`), not the row's own id. */
const isLinkColumn = (key: string) => key !== 'id' && key.endsWith('_id');

/** The ids a link cell lists (`id1,id2`, `id1; id2`), when it lists more than one id or a stray separator. */
function listedIds(key: string, value: unknown): string[] | undefined {
  if (typeof value !== 'string' || !isLinkColumn(key) || !/[,;]/.test(value)) return undefined;
  const ids = value
    .split(/[,;]/)
    .map((part) => part.trim())
    .filter((part) => part !== '');
  return ids.length === 0 ? undefined : ids;
}

/** The link columns of a row that list ids, with their ids; undefined when none does (a cheap pass). */
function listColumns(row: Row): [string, string[]][] | undefined {
  let lists: [string, string[]][] | undefined;
  for (const key in row) {
    const ids = listedIds(key, row[key]);
    if (!ids) continue;
    lists ??= [];
    lists.push([key, ids]);
  }
  return lists;
}

/**
 * The rows a row stands for when link columns list several ids (`service_id` = `id1,id2`): one
 * per id of each such column, linked to that id alone (a phone listed for two services and two
 * locations is four phone records, each with one link, and the links the row gives singly).
 * Undefined (the row stands as it is) when no link column lists ids.
 *
 * `linksOnce`: the links the row gives singly (`organization_id`, a lone `location_id`) stay on
 * the first record only. For a phone, each link is where it is shown: DC lists up to ten services
 * of one location on a phone row, and that location (and its organization) showed the number
 * ten times. Hours keep them on every copy: a schedule for a service at a location is that
 * service's hours there.
 */
export function splitIdLists(
  row: Row,
  options?: { linksOnce?: boolean },
): { row: Row; repair: Repair }[] | undefined {
  const lists = listColumns(row);
  if (!lists) return undefined;
  const out: { row: Row; repair: Repair }[] = [];
  const singles = options?.linksOnce
    ? Object.keys(row).filter((key) => isLinkColumn(key) && !lists.some(([list]) => list === key))
    : [];
  for (const [key, ids] of lists) {
    const others = lists.filter(([other]) => other !== key).map(([other]) => other);
    ids.forEach((id, i) => {
      const copy: Row = { ...row, [key]: id };
      for (const other of others) delete copy[other];
      const first = out.length === 0;
      const moved = first ? [] : singles.filter((single) => filled(row[single]));
      for (const single of moved) delete copy[single];
      const also =
        (others.length > 0 ? `; the ids listed in ${others.join(', ')} have records of their own` : '') +
        (moved.length > 0 ? `; ${moved.join(', ')} on the first record only (each link shows it once)` : '');
      out.push({
        row: copy,
        repair: {
          field: key,
          found: row[key],
          action:
            ids.length === 1
              ? `one id with a stray separator: read as ${id}${also}`
              : `a list of ${ids.length} ids: one record for each (this one for ${id}, ${i + 1} of ${ids.length})${also}`,
          effect: 'changed',
          severity: 'info',
        },
      });
    });
  }
  return out;
}

const filled = (value: unknown) => value !== undefined && value !== null && String(value).trim() !== '';

/**
 * A row of a table whose records others refer to (a service, a term), whose link columns list
 * ids where HSDS has room for one (`organization_id` = `id1,id2`, a term's `parent_id`): the first
 * id is read, the others named in the repair (a warning: those links are lost). Undefined when no
 * link column lists ids.
 */
export function firstOfIdLists(row: Row): { row: Row; repairs: Repair[] } | undefined {
  const lists = listColumns(row);
  if (!lists) return undefined;
  const copy: Row = { ...row };
  const repairs = lists.map(([key, ids]): Repair => {
    copy[key] = ids[0];
    return {
      field: key,
      found: row[key],
      action:
        ids.length === 1
          ? `one id with a stray separator: read as ${ids[0]}`
          : `a list of ${ids.length} ids where HSDS has room for one: read as the first, ${ids[0]} (not linked: ${ids.slice(1).join(', ')})`,
      effect: 'changed',
      severity: ids.length === 1 ? 'info' : 'warning',
    };
  });
  return { row: copy, repairs };
}
