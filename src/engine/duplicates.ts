/**
 * The engine side of duplicates across sources (src/duplicates): marks kept in their own small
 * index, the served records read for detection with the sources that provide them, and the
 * merged-away records taken out of the read indices (live, or a build before its swap).
 */
import {
  conflictingMarksBody,
  DUPLICATE_MARKS_INDEX,
  type DuplicateMarkDocument,
  duplicateMarksMapping,
  hiddenIdsPageBody,
  hideQuery,
  marksPageBody,
  mergedMarksBody,
  servedPageBody,
  sourcesOfKeysBody,
} from '../index-mapping/duplicates.query.ts';
import type { ReadIndex } from '../index-mapping/read-indices.mapping.ts';
import { createBulkWriter } from './bulk.ts';
import { type Engine, engineCall } from './engine.ts';
import { EngineNotFoundError } from './errors.ts';
import { createSmallIndex } from './layout.ts';
import { recordsChanged } from './record-cache.ts';
import { recordsIndex } from './records.ts';
import type { RecordRef } from './tombstones.ts';

export type { DuplicateDecision, DuplicateMarkDocument } from '../index-mapping/duplicates.query.ts';

const marksIndex = (engine: Engine) => engine.name(DUPLICATE_MARKS_INDEX);
type Hits<T> = { hits: { hits: { _source: T; sort: unknown[] }[] } };

const ensured = new WeakSet<Engine>();
async function ensureMarksIndex(engine: Engine): Promise<void> {
  if (ensured.has(engine)) return;
  await createSmallIndex(engine, marksIndex(engine), duplicateMarksMapping, 'duplicate marks');
  ensured.add(engine);
}

/** Stores a mark (replacing any earlier one of the pair); visible to reads when this returns. */
export async function putMark(engine: Engine, mark: DuplicateMarkDocument): Promise<void> {
  await ensureMarksIndex(engine);
  await engineCall('store a duplicate mark', () =>
    engine.client.index({ index: marksIndex(engine), id: mark.key, body: mark as never, refresh: true }),
  );
}

/** Removes a pair's mark: the mark it was, or undefined when there was none. */
export async function deleteMark(engine: Engine, key: string): Promise<DuplicateMarkDocument | undefined> {
  const mark = await getMark(engine, key);
  if (!mark) return undefined;
  await engineCall('remove a duplicate mark', () =>
    engine.client.delete({ index: marksIndex(engine), id: key, refresh: true }),
  );
  return mark;
}

export async function getMark(engine: Engine, key: string): Promise<DuplicateMarkDocument | undefined> {
  try {
    const { body } = await engineCall('read a duplicate mark', () =>
      engine.client.get({ index: marksIndex(engine), id: key }),
    );
    return (body as { found?: boolean; _source?: DuplicateMarkDocument }).found
      ? (body as { _source: DuplicateMarkDocument })._source
      : undefined;
  } catch (error) {
    if (error instanceof EngineNotFoundError) return undefined;
    throw error;
  }
}

/** Every mark, of one type or all (none when no mark was ever made). */
export async function listMarks(engine: Engine, type?: string): Promise<DuplicateMarkDocument[]> {
  const marks: DuplicateMarkDocument[] = [];
  let after: unknown[] | undefined;
  const size = 2000;
  try {
    for (;;) {
      const { body } = await engineCall('list duplicate marks', () =>
        engine.client.search({ index: marksIndex(engine), body: marksPageBody(type, size, after) as never }),
      );
      const hits = (body as unknown as Hits<DuplicateMarkDocument>).hits.hits;
      for (const hit of hits) marks.push(hit._source);
      if (hits.length < size) return marks;
      after = hits[hits.length - 1]!.sort;
    }
  } catch (error) {
    if (error instanceof EngineNotFoundError) return marks;
    throw error;
  }
}

/** The marks a search of the marks index finds (none when no mark was ever made). */
async function searchMarks(engine: Engine, what: string, body: object): Promise<DuplicateMarkDocument[]> {
  try {
    const { body: answer } = await engineCall(what, () =>
      engine.client.search({ index: marksIndex(engine), body: body as never }),
    );
    return (answer as unknown as Hits<DuplicateMarkDocument>).hits.hits.map((h) => h._source);
  } catch (error) {
    if (error instanceof EngineNotFoundError) return [];
    throw error;
  }
}

/**
 * The `same` marks a new `same` mark of the pair `key` (keeping `keep`, merging `merged`) would
 * chain or cycle with (conflictingMarksBody); none means it may be stored.
 */
export const conflictingMarks = (engine: Engine, type: string, key: string, keep: string, merged: string) =>
  searchMarks(engine, 'check duplicate marks', conflictingMarksBody(type, key, keep, merged));

/** The types whose merged-away records a `same` mark takes out of the read indices (HIDDEN_IN). */
const HIDING_TYPES = ['service', 'organization'];

/**
 * The `same` marks (of services and organizations) that keep a record the store no longer holds,
 * among the ids of `keys` (`type:id`; every mark without them): a kept record deleted. Left standing, such a mark would
 * hide the record it merged away for good, and send its URL to a 404.
 */
export async function marksKeepingDeleted(
  engine: Engine,
  keys: ReadonlySet<string> | undefined,
): Promise<DuplicateMarkDocument[]> {
  // Marks are an operator's, a few hundred at most: one read of them all costs less than asking
  // by the changed keys, which an import counts in tens of thousands.
  const keeping = (await listMarks(engine)).filter(
    (m) =>
      m.decision === 'same' && HIDING_TYPES.includes(m.type) && (!keys || keys.has(`${m.type}:${m.keep}`)),
  );
  if (keeping.length === 0) return [];
  const stored = await sourcesOfKeys(
    engine,
    keeping.map((m) => `${m.type}:${m.keep}`),
  );
  return keeping.filter((m) => !stored.has(`${m.type}:${m.keep}`));
}

/** Removes these marks (visible to reads when this returns). */
export async function dropMarks(engine: Engine, marks: readonly DuplicateMarkDocument[]): Promise<void> {
  if (marks.length === 0) return;
  const writer = createBulkWriter(engine);
  for (const mark of marks) await writer.delete(marksIndex(engine), mark.key);
  const stats = await writer.close();
  if (stats.failed > 0) throw new Error(`${stats.failed} duplicate marks could not be removed`);
  await engineCall('refresh duplicate marks', () =>
    engine.client.indices.refresh({ index: marksIndex(engine) }),
  );
}

/**
 * The id a merged-away id answers with: the kept id of its `same` mark, followed through marks
 * that merged that one in turn; undefined when the id was not merged away.
 */
export async function keptIdFor(engine: Engine, type: string, id: string): Promise<string | undefined> {
  let current = id;
  const visited = new Set([id]);
  for (let hop = 0; hop < 10; hop += 1) {
    let marks: DuplicateMarkDocument[];
    try {
      const { body } = await engineCall('find a merged id', () =>
        engine.client.search({ index: marksIndex(engine), body: mergedMarksBody(type, [current]) as never }),
      );
      marks = (body as unknown as Hits<DuplicateMarkDocument>).hits.hits.map((h) => h._source);
    } catch (error) {
      if (error instanceof EngineNotFoundError) return undefined;
      throw error;
    }
    const next = marks[0]?.keep;
    if (!next) break;
    // A cycle left by marks stored before they were checked: no record of it is served, so a
    // redirect would only loop; the id answers 404 instead.
    if (visited.has(next)) return undefined;
    visited.add(next);
    current = next;
  }
  return current === id ? undefined : current;
}

/** The read indices a merged-away record of each type is taken out of, by which field, and the type of their documents. */
const HIDDEN_IN: Record<string, [ReadIndex, 'id' | 'service_id', string][]> = {
  service: [
    ['services', 'id', 'service'],
    ['service_at_locations', 'service_id', 'service_at_location'],
  ],
  organization: [['organizations', 'id', 'organization']],
};

/** The ids of the documents of an index that a query matches, page by page. */
async function matchingIds(engine: Engine, index: string, query: object): Promise<string[]> {
  const ids: string[] = [];
  let after: unknown[] | undefined;
  const size = 1000;
  for (;;) {
    const { body } = await engineCall('find merged records', () =>
      engine.client.search({ index, body: hiddenIdsPageBody(query, size, after) as never }),
    );
    const hits = (body as unknown as { hits: { hits: { _id: string; sort: unknown[] }[] } }).hits.hits;
    for (const hit of hits) ids.push(hit._id);
    if (hits.length < size) return ids;
    after = hits[hits.length - 1]!.sort;
  }
}

/**
 * Takes the records that `same` marks merged away out of the read indices: the live ones, or
 * `targets` (a build before its swap, a publish's targets). A merged service goes from services
 * and its service_at_locations from theirs; a merged organization from organizations. Refreshed
 * before it returns. With `collect`, the documents it took out (for the change feed's
 * tombstones: a publish that rebuilt a merged-away record reports it gone, not written).
 */
export async function hideMergedRecords(
  engine: Engine,
  targets?: Partial<Record<ReadIndex, string>>,
  options: { collect?: boolean } = {},
): Promise<RecordRef[]> {
  const merged = new Map<string, string[]>();
  for (const mark of await listMarks(engine)) {
    if (mark.decision !== 'same' || !mark.merged) continue;
    merged.set(mark.type, [...(merged.get(mark.type) ?? []), mark.merged]);
  }
  const hidden: RecordRef[] = [];
  let deleted = 0;
  for (const [type, ids] of merged) {
    for (const [kind, field, docType] of HIDDEN_IN[type] ?? []) {
      const index = targets?.[kind] ?? engine.name(kind);
      const query = hideQuery(field, ids);
      if (options.collect) {
        for (const id of await matchingIds(engine, index, query)) hidden.push({ type: docType, id });
      }
      const { body } = await engineCall(`hide merged records in ${kind}`, () =>
        engine.client.deleteByQuery({
          index,
          body: { query },
          refresh: true,
          conflicts: 'proceed',
        } as never),
      );
      deleted += (body as { deleted?: number }).deleted ?? 0;
    }
  }
  // Records read by id in this process may have been cached before they were hidden.
  if (deleted > 0) recordsChanged();
  return hidden;
}

/** The records of `refs` that are not among `hidden`. */
export function withoutHidden(refs: readonly RecordRef[], hidden: readonly RecordRef[]): RecordRef[] {
  if (hidden.length === 0) return [...refs];
  const gone = new Set(hidden.map((r) => `${r.type}:${r.id}`));
  return refs.filter((r) => !gone.has(`${r.type}:${r.id}`));
}

/**
 * Every record a read index serves (the `record` of each document), page by page in id order;
 * nothing when the index does not exist.
 */
export async function* scanServedRecords(
  engine: Engine,
  index: ReadIndex,
  pageSize = 500,
): AsyncGenerator<Record<string, unknown>[]> {
  let after: unknown[] | undefined;
  for (;;) {
    let hits: { _source: { record?: Record<string, unknown> }; sort: unknown[] }[];
    try {
      const { body } = await engineCall(`read ${index} for duplicates`, () =>
        engine.client.search(
          { index: engine.name(index), body: servedPageBody(pageSize, after) as never },
          { requestTimeout: Math.max(engine.settings.requestTimeoutMs, 60_000) },
        ),
      );
      hits = (body as unknown as Hits<{ record?: Record<string, unknown> }>).hits.hits;
    } catch (error) {
      if (error instanceof EngineNotFoundError) return;
      throw error;
    }
    const records = hits.map((h) => h._source.record).filter((r): r is Record<string, unknown> => !!r);
    if (records.length > 0) yield records;
    if (hits.length < pageSize) return;
    after = hits[hits.length - 1]!.sort;
  }
}

/** The sources whose store documents hold each of the keys (`type:id`), in name order. */
export async function sourcesOfKeys(engine: Engine, keys: readonly string[]): Promise<Map<string, string[]>> {
  const wanted = new Set(keys);
  const found = new Map<string, Set<string>>();
  const size = 2000;
  for (let i = 0; i < keys.length; i += 1000) {
    const chunk = keys.slice(i, i + 1000);
    let after: unknown[] | undefined;
    for (;;) {
      const { body } = await engineCall('read the sources of records', () =>
        engine.client.search({
          index: recordsIndex(engine),
          body: sourcesOfKeysBody(chunk, size, after) as never,
        }),
      );
      const hits = (body as unknown as Hits<{ keys: string[]; source: string }>).hits.hits;
      for (const { _source: doc } of hits) {
        for (const key of doc.keys) {
          if (!wanted.has(key)) continue;
          const set = found.get(key) ?? new Set<string>();
          set.add(doc.source);
          found.set(key, set);
        }
      }
      if (hits.length < size) break;
      after = hits[hits.length - 1]!.sort;
    }
  }
  return new Map([...found].map(([key, set]) => [key, [...set].sort()]));
}
