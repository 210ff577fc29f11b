/**
 * The import's link check: the links of the records written are spooled to a file while the
 * source is read (memory stays flat), and checked at the end against the store, where a link's
 * target may come from this source or an earlier one. It owns the spool file and the cache of
 * targets known to exist.
 */
import { once } from 'node:events';
import { createReadStream, createWriteStream, type WriteStream } from 'node:fs';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import type { Engine } from '../../engine/engine.ts';
import { existingIds, existingKeys } from '../../engine/records.ts';
import type { RecordType } from '../../hsds/index.ts';
import type { FlatRecord } from '../records/flatten.ts';
import { recordKey } from '../records/nesting.ts';
import { RecentWindow } from '../records/seen-records.ts';
import type { IssueLog } from './import-report.ts';

type SpooledLink = [
  type: RecordType,
  id: string,
  field: string,
  targetType: RecordType | null,
  targetId: string,
  path: string,
  origin: string,
];

/** The links to check, one JSON array a line, in a file of the run's work folder. */
export class LinkSpool {
  readonly file: string;
  /** Links spooled so far. */
  count = 0;
  private readonly out: WriteStream;

  constructor(workDir: string) {
    this.file = join(workDir, 'links.ndjson');
    this.out = createWriteStream(this.file);
  }

  async add(flat: FlatRecord, origin: string): Promise<void> {
    for (const link of flat.external) {
      const line = JSON.stringify([
        flat.type,
        flat.id,
        link.field,
        link.type ?? null,
        link.id,
        flat.path,
        origin,
      ]);
      this.count += 1;
      if (!this.out.write(`${line}\n`)) await once(this.out, 'drain');
    }
  }

  async close(): Promise<void> {
    this.out.end();
    await once(this.out, 'finish');
  }
}

/** Reports every spooled link whose target exists neither in the source nor in the store. */
export async function checkLinks(
  engine: Engine,
  file: string,
  log: IssueLog,
  onChecked: (checked: number) => void,
  onMissing: (from: RecordType, type: RecordType | null, id: string) => void = () => {},
): Promise<void> {
  // Many links point at the same few records (every service at its organization).
  const known = new RecentWindow<boolean>(50_000);
  let batch: SpooledLink[] = [];
  let checked = 0;
  const flush = async () => {
    const typed = new Set<string>();
    const untyped = new Set<string>();
    for (const [, , , type, id] of batch) {
      const key = type ? recordKey(type, id) : `*:${id}`;
      if (known.get(key) !== undefined) continue;
      if (type) typed.add(key);
      else untyped.add(id);
    }
    const foundKeys = typed.size > 0 ? await existingKeys(engine, [...typed]) : new Set<string>();
    const foundIds = untyped.size > 0 ? await existingIds(engine, [...untyped]) : new Set<string>();
    for (const key of typed) known.set(key, foundKeys.has(key));
    for (const id of untyped) known.set(`*:${id}`, foundIds.has(id));
    for (const [type, id, field, targetType, targetId, path, origin] of batch) {
      const key = targetType ? recordKey(targetType, targetId) : `*:${targetId}`;
      if (known.get(key)) continue;
      onMissing(type, targetType, targetId);
      await log.add({
        severity: 'warning',
        kind: 'dangling-reference',
        source: origin,
        record_type: type,
        record_id: id,
        path: path ? `${path}.${field}` : field,
        reason: `${field} ${targetId}: no ${targetType ?? 'record'} with this id in the source or the records store`,
      });
    }
    checked += batch.length;
    onChecked(checked);
    batch = [];
  };
  const lines = createInterface({ input: createReadStream(file, { encoding: 'utf8' }), crlfDelay: Infinity });
  for await (const line of lines) {
    if (!line) continue;
    batch.push(JSON.parse(line) as SpooledLink);
    if (batch.length >= 5000) await flush();
  }
  if (batch.length > 0) await flush();
}
