/**
 * The import's validate step: source items flattened into records and checked (flatten.ts, pure),
 * and each item's issues reported, a record rejected again (an organization nested in every
 * service) only at its first occurrence.
 */
import { type Flattened, type FlattenOptions, flattenNested, flattenRow } from '../records/flatten.ts';
import { recordKey } from '../records/nesting.ts';
import type { SourceItem } from '../sources/source.ts';
import type { IssueLog } from './import-report.ts';

/** Each item's records and issues; undefined for what is no record (an issue, a deletion). */
export const flattenItems = (
  items: readonly SourceItem[],
  options: FlattenOptions,
): (Flattened | undefined)[] =>
  items.map((item) => {
    if (item.kind === 'issue' || item.kind === 'deleted') return undefined;
    return item.kind === 'nested'
      ? flattenNested(item.type, item.value, item.origin, options)
      : flattenRow(item.type, item.row, item.origin, options, item.repairs);
  });

/** Reports an item's issues and counts its rejected records. */
export async function reportItemIssues(
  log: IssueLog,
  item: Pick<Flattened, 'issues' | 'rejected'>,
): Promise<void> {
  // A record rejected again (an organization nested in every service) is counted and
  // reported once, at its first occurrence.
  const again =
    item.rejected.length === 0
      ? undefined
      : new Set(
          item.rejected.filter((r) => log.wasRejected(r.type, r.id)).map((r) => recordKey(r.type, r.id!)),
        );
  for (const issue of item.issues) {
    if (issue.record_id && issue.record_type && again?.has(recordKey(issue.record_type, issue.record_id)))
      continue;
    await log.add(issue);
  }
  for (const { type, id } of item.rejected) log.rejected(type, id);
}
