/**
 * The one-off check of ids in the records store (`hsds check-ids`): records stored before every
 * write path lower-cased ids (index-mapping/ids.ts) may hold an id, or a reference to one, in
 * upper or mixed case, and two records may then be one id in two cases (a PUT under the upper-case
 * form of an id created a second service). The check reads the whole store once and lists them;
 * `fix` stores each again as an import now would, under lower-case ids.
 *
 * The fix writes each record again as a single store document of its own (`type:id`, winning over
 * any copy a bundle holds, as an import writes a record that must win), its ids and references
 * lower-cased by the import's own rule (leniency.ts lowerCaseIds), under the source that stored
 * it; then deletes the record under the old-case key (only the record: what nests under it is
 * fixed with it, as its references pointed at the old case), and publishes both as an import's
 * changes are published. Of a record stored in two cases, the copy written last is kept, as
 * imports keep the last copy a source brought; the other is deleted. (Importing each record as an
 * item of its source would write it as that item's bundle, `item:<source>:type:id`: the bundle
 * that holds the record and everything nested under it, which would be lost.)
 */

import { createBulkWriter } from '../../engine/bulk.ts';
import type { Engine } from '../../engine/engine.ts';
import {
  flushRecords,
  getRecords,
  recordsIndex,
  refreshRecords,
  removeRecords,
  scanStore,
} from '../../engine/records.ts';
import type { RecordType } from '../../hsds/index.ts';
import { parseRecordKey, storedId } from '../../index-mapping/ids.ts';
import {
  type RecordStoreDocument,
  toRecordStoreDocument,
  toSingleDocument,
  unpackDocument,
} from '../../index-mapping/record-store.document.ts';
import { allDocumentsQuery } from '../../index-mapping/record-store.query.ts';
import { publishOrReindex } from '../publish/pipeline.ts';
import { ChangeSet } from '../records/changes.ts';
import { parentIdsOf, recordKey } from '../records/nesting.ts';
import { lowerCaseIds } from '../repairs/leniency.ts';

/** A stored record with an id or a reference not in lower case. */
export type IdCaseFinding = {
  key: string;
  type: string;
  id: string;
  source: string;
  /** The fields not in lower case (`id`, `service_id`...), with their value. */
  fields: { field: string; value: string }[];
  /**
   * The record is stored under another case of its id too (`type:<id in lower case>` or another
   * mixed case): the keys of those copies.
   */
  collidesWith: string[];
};

export type IdCaseReport = {
  /** Records read (a record held by several documents is counted in each). */
  recordsRead: number;
  findings: IdCaseFinding[];
};

type Found = IdCaseFinding & { record: RecordStoreDocument; run: number };

/** Which fields of a stored record are not in lower case (none: undefined). */
function fieldsNotLowerCase(record: RecordStoreDocument): { field: string; value: string }[] | undefined {
  const fields = { ...record.record, id: record.id };
  const repairs = lowerCaseIds(record.type as RecordType, fields, undefined);
  return repairs?.map((r) => ({ field: r.field, value: String(r.found) }));
}

async function scan(
  engine: Engine,
): Promise<{ recordsRead: number; found: Found[]; runs: Map<string, number> }> {
  await refreshRecords(engine);
  let recordsRead = 0;
  const candidates = new Set<string>();
  for await (const page of scanStore(engine, allDocumentsQuery(), { pageSize: 2000 })) {
    for (const doc of page) {
      for (const record of unpackDocument(doc)) {
        recordsRead += 1;
        if (fieldsNotLowerCase(record)) candidates.add(record.key);
      }
    }
  }
  // A document may hold an old copy that another one overrides: what counts is the copy served.
  const current = await getRecords(engine, [...candidates]);
  const found: Found[] = [];
  for (const record of current.values()) {
    const fields = fieldsNotLowerCase(record);
    if (!fields) continue;
    found.push({
      key: record.key,
      type: record.type,
      id: record.id,
      source: record.source,
      fields,
      collidesWith: [],
      record,
      run: record.run,
    });
  }
  // Two cases of one id: the copies under each case, found here or stored in lower case.
  const lowerKey = (f: { type: string; id: string }) => recordKey(f.type, storedId(f.id));
  const mixed = found.filter((f) => f.id !== storedId(f.id));
  const stored = await getRecords(engine, [...new Set(mixed.map(lowerKey))]);
  const runs = new Map([...stored].map(([key, r]) => [key, r.run]));
  for (const f of found) runs.set(f.key, f.run);
  const byId = new Map<string, string[]>();
  for (const key of runs.keys()) {
    const lower = lowerKey(parseRecordKey(key));
    byId.set(lower, [...(byId.get(lower) ?? []), key]);
  }
  for (const f of found) f.collidesWith = byId.get(lowerKey(f))!.filter((key) => key !== f.key);
  return { recordsRead, found, runs };
}

const strip = ({ record: _, run: __, ...finding }: Found): IdCaseFinding => finding;

/** Lists the stored records whose id, or a reference, is not in lower case. Changes nothing. */
export async function checkIdCase(engine: Engine): Promise<IdCaseReport> {
  const { recordsRead, found } = await scan(engine);
  return { recordsRead, findings: found.map(strip) };
}

export type IdCaseFix = IdCaseReport & {
  /** Records stored again under lower-case ids and references. */
  restored: string[];
  /** Keys deleted: the old-case keys, and the older copies of a record stored in two cases. */
  deleted: string[];
};

/** Stores every finding again in lower case, deletes the old-case keys, and publishes both. */
export async function fixIdCase(engine: Engine): Promise<IdCaseFix> {
  const { recordsRead, found, runs } = await scan(engine);
  // Of the copies of one id, the one written last is stored again (a lower-case copy that loses
  // is overwritten by it); every copy under another case is deleted.
  const kept = found.filter((f) =>
    f.collidesWith.every(
      (other) => (runs.get(other) ?? 0) < f.run || (runs.get(other) === f.run && other < f.key),
    ),
  );
  const deleted = found.filter((f) => f.id !== storedId(f.id)).map((f) => f.key);
  const run = Date.now();
  const docs = kept.map((f) => {
    const fields = { ...f.record.record, id: f.id };
    lowerCaseIds(f.type as RecordType, fields, undefined);
    const parents = parentIdsOf(f.type as RecordType, fields);
    const record = toRecordStoreDocument(
      f.type,
      storedId(f.id),
      fields,
      parents,
      f.source,
      f.record.geometry,
    );
    return toSingleDocument(record, run, true);
  });
  const changes = new ChangeSet(engine);
  for (const key of [...docs.map((d) => d.key), ...deleted]) changes.add(key);
  // Logged before the store changes: a run killed after is published by the next publish.
  await changes.log();
  const writer = createBulkWriter(engine);
  // External versions above any an import wrote before this run (import/store-writer.ts).
  let seq = 0n;
  for (const doc of docs) {
    seq += 1n;
    await writer.index(recordsIndex(engine), doc.key, doc, (BigInt(run) * 1_000_000n + seq).toString());
  }
  await writer.flush();
  await refreshRecords(engine);
  await removeRecords(engine, new Set(deleted), writer);
  await writer.close();
  if (writer.stats.failed > 0) throw new Error(`${writer.stats.failed} writes were refused by the engine`);
  await flushRecords(engine);
  if (changes.all || changes.keys.size > 0) await publishOrReindex(engine, changes);
  return {
    recordsRead,
    findings: found.map(strip),
    restored: kept.map((f) => recordKey(f.type, storedId(f.id))),
    deleted,
  };
}

/** What `hsds check-ids` prints: a summary, then each finding on a line. */
export function formatIdCaseReport(report: IdCaseReport | IdCaseFix): string {
  const lines = [`Read ${report.recordsRead} stored records.`];
  const { findings } = report;
  if (findings.length === 0) {
    lines.push('Every id and every reference to one is in lower case.');
    return lines.join('\n');
  }
  const ids = findings.filter((f) => f.fields.some((field) => field.field === 'id'));
  const collisions = findings.filter((f) => f.collidesWith.length > 0);
  lines.push(
    `${findings.length} records hold an id or a reference not in lower case: ${ids.length} by their own id, ` +
      `${findings.length - ids.length} by references only; ${collisions.length} are one id stored in two cases.`,
  );
  for (const f of findings.slice(0, 100)) {
    const fields = f.fields.map((field) => `${field.field} ${field.value}`).join(', ');
    const twice = f.collidesWith.length > 0 ? `; also stored as ${f.collidesWith.join(', ')}` : '';
    lines.push(`  ${f.type} ${f.id} (source ${f.source}): ${fields}${twice}`);
  }
  if (findings.length > 100) lines.push(`  ... and ${findings.length - 100} more (--json lists them all)`);
  if ('restored' in report) {
    lines.push(
      `Fixed: ${report.restored.length} records stored again in lower case, ${report.deleted.length} old-case keys deleted.`,
    );
  } else lines.push('Run `npx hsds check-ids --fix` to store them again in lower case.');
  return lines.join('\n');
}
