/** What every source yields: nested items, tabular rows, or an issue it met reading. */
import type { RecordType } from '../../hsds/index.ts';
import type { Issue } from '../records/flatten.ts';
import type { Repair } from '../repairs/leniency.ts';

export type SourceItem =
  | { kind: 'nested'; type: RecordType; value: unknown; origin: string }
  | {
      kind: 'row';
      type: RecordType;
      row: Record<string, unknown>;
      origin: string;
      /** What the source did to tell the row's record (sources/row-identity.ts), for the report. */
      repairs?: Repair[];
    }
  | { kind: 'issue'; issue: Issue }
  /** The source says this record was deleted (a harvested change feed's tombstone). */
  | { kind: 'deleted'; type: RecordType; id: string; origin: string };
