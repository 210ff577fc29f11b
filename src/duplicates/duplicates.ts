/**
 * Duplicates across sources against the engine: read the served records of a type with the
 * sources that provide them, detect pairs (detect.ts), leave out the pairs an operator marked;
 * store marks, and publish what a `same` mark changes: the merged-away record leaves the read
 * indices (the publish hides it, src/engine/duplicates.ts), and comes back when the mark goes.
 */
import { type Lease, LeaseHeldError, waitForLease } from '../engine/control.ts';
import {
  conflictingMarks,
  type DuplicateMarkDocument,
  deleteMark,
  getMark,
  keptIdFor,
  listMarks,
  putMark,
  scanServedRecords,
  sourcesOfKeys,
} from '../engine/duplicates.ts';
import type { Engine } from '../engine/engine.ts';
import type { ReadIndex } from '../index-mapping/read-indices.mapping.ts';
import { publishChanges } from '../ingest/index.ts';
import { DEFAULT_THRESHOLD, type DuplicatePair, detectDuplicates, pairKey } from './detect.ts';
import { DUPLICATE_TYPES, type DuplicateCandidate, type DuplicateType, toCandidate } from './features.ts';

export type { DuplicateMarkDocument } from '../engine/duplicates.ts';

/** The types whose merged-away records stop being served (they have a read index of their own). */
export const SERVED_ONCE_TYPES: readonly DuplicateType[] = ['service', 'organization'];

const READ_INDEX: Record<DuplicateType, ReadIndex> = {
  service: 'services',
  organization: 'organizations',
  // Locations have no read index of their own: they are read from the service_at_locations.
  location: 'service_at_locations',
};

/** Every served record of a type as a candidate, with the sources that provide it. */
export async function readCandidates(engine: Engine, type: DuplicateType): Promise<DuplicateCandidate[]> {
  const out: DuplicateCandidate[] = [];
  const seen = new Set<string>();
  for await (const page of scanServedRecords(engine, READ_INDEX[type])) {
    const records = (
      type === 'location'
        ? page
            .map((sal) => sal.location)
            .filter((l): l is Record<string, unknown> => typeof l === 'object' && !!l)
        : page
    ).filter((r) => typeof r.id === 'string' && !seen.has(r.id) && seen.add(r.id));
    const sources = await sourcesOfKeys(
      engine,
      records.map((r) => `${type}:${r.id as string}`),
    );
    for (const record of records) {
      out.push(toCandidate(type, record, sources.get(`${type}:${record.id as string}`) ?? []));
    }
  }
  return out;
}

export type FindOptions = { types?: readonly DuplicateType[]; threshold?: number; limit?: number };

export type FindReport = {
  threshold: number;
  /** Per type: records read, pairs compared, pairs listed (before `limit`). */
  counts: Record<string, { records: number; compared: number; listed: number }>;
  pairs: DuplicatePair[];
};

/** The unmarked duplicate pairs of the served records, best first (at most `limit`). */
export async function findDuplicates(engine: Engine, options: FindOptions = {}): Promise<FindReport> {
  const threshold = options.threshold ?? DEFAULT_THRESHOLD;
  const counts: FindReport['counts'] = {};
  const pairs: DuplicatePair[] = [];
  for (const type of options.types ?? DUPLICATE_TYPES) {
    const marks = await listMarks(engine, type);
    const merged = new Set(marks.filter((m) => m.decision === 'same').map((m) => m.merged));
    // A merged-away location is still served inside service_at_locations: left out here.
    const candidates = (await readCandidates(engine, type)).filter((c) => !merged.has(c.id));
    const report = detectDuplicates(candidates, { threshold, skip: new Set(marks.map((m) => m.key)) });
    counts[type] = { records: candidates.length, compared: report.compared, listed: report.pairs.length };
    pairs.push(...report.pairs);
  }
  pairs.sort((a, b) => b.score - a.score);
  return { threshold, counts, pairs: pairs.slice(0, options.limit ?? pairs.length) };
}

export type MarkInput = {
  type: DuplicateType;
  ids: [string, string];
  decision: 'same' | 'distinct';
  /** With `same`: which of the two ids is served. */
  keep?: string | undefined;
  /** Who marked it (the token's name). */
  by?: string | undefined;
};

export type MarkErrorStatus = 400 | 404 | 409 | 503;

/**
 * A mark refused: 400 for a malformed one, 404 when an id is not a stored record of the type, 409
 * when it would chain or cycle with another mark (`conflict`, the mark in its way), 503 when a
 * publish held the lease for longer than a mark waits.
 */
export class MarkError extends Error {
  override readonly name = 'MarkError';
  readonly status: MarkErrorStatus;
  readonly conflict: DuplicateMarkDocument | undefined;
  constructor(message: string, status: MarkErrorStatus, conflict?: DuplicateMarkDocument) {
    super(message);
    this.status = status;
    this.conflict = conflict;
  }
}

/** Why a `same` mark keeping `keep` and merging `merged` may not stand beside `other`. */
function conflictText(keep: string, merged: string, other: DuplicateMarkDocument): string {
  const named = `mark ${other.key} (keep ${other.keep}, merged ${other.merged})`;
  if (other.merged === keep) {
    return `keep: ${keep} is itself merged into ${other.keep} by ${named}; keep ${other.keep}, or remove that mark first`;
  }
  if (other.keep === merged) {
    return `${merged} is kept by ${named}: merging it away would hide ${other.merged} too; keep ${merged}, or remove that mark first`;
  }
  return `${merged} is already merged into ${other.keep} by ${named}; remove that mark first`;
}

/**
 * Publishes the records whose being served a mark changed (services and organizations): the
 * publish rebuilds them from the store and then hides what `same` marks merged away.
 */
async function republish(
  engine: Engine,
  type: DuplicateType,
  ids: readonly (string | undefined)[],
  lease: Lease,
) {
  const keys = SERVED_ONCE_TYPES.includes(type)
    ? [...new Set(ids.filter((id): id is string => !!id))].map((id) => `${type}:${id}`)
    : [];
  await publishChanges(engine, keys, { lease });
}

/**
 * The publish lease, held while a mark is checked, stored and published: marks are made one at a
 * time, so two at once cannot both pass the check and chain (A→B beside B→C), and a deletion's
 * publish (which drops the marks keeping a deleted record) never runs between the check and the
 * write.
 */
async function markLease(engine: Engine): Promise<Lease> {
  try {
    return await waitForLease(engine, 'publish', { purpose: 'mark duplicates', waitMs: MARK_WAIT_MS });
  } catch (error) {
    if (!(error instanceof LeaseHeldError)) throw error;
    throw new MarkError(`${error.message}: try the mark again once it is done`, 503);
  }
}

/** How long a mark waits for a publish under way (an import's) before it answers busy. */
const MARK_WAIT_MS = 15_000;

/**
 * Marks a pair as the same record (`keep` is served; the other id answers with it) or as distinct
 * (no longer listed). Replaces an earlier mark of the pair. Both ids must be stored records of the
 * type. A `same` mark never chains nor cycles (A→B beside B→C, or C→A): one whose kept record
 * another mark merged away, or that would merge away a record another mark keeps (or merged into
 * a third), is refused with the mark in its way.
 */
export async function markDuplicates(engine: Engine, input: MarkInput): Promise<DuplicateMarkDocument> {
  const ids = input.ids.map((id) => id.toLowerCase()) as [string, string];
  if (ids[0] === ids[1]) throw new MarkError('ids: the two ids are the same', 400);
  const keep = input.keep?.toLowerCase();
  if (input.decision === 'same' && (!keep || !ids.includes(keep))) {
    throw new MarkError('keep: a `same` mark names which of the two ids is kept', 400);
  }
  if (input.decision === 'distinct' && keep)
    throw new MarkError('keep: only a `same` mark keeps one id', 400);
  const sorted = [...ids].sort() as [string, string];
  const key = pairKey(input.type, sorted[0], sorted[1]);
  const merged = keep ? ids.find((id) => id !== keep) : undefined;
  const lease = await markLease(engine);
  try {
    const known = await sourcesOfKeys(
      engine,
      ids.map((id) => `${input.type}:${id}`),
    );
    const unknown = ids.filter((id) => !known.has(`${input.type}:${id}`));
    if (unknown.length > 0) throw new MarkError(`no ${input.type} with id ${unknown.join(', ')}`, 404);
    if (keep && merged) {
      const [conflict] = await conflictingMarks(engine, input.type, key, keep, merged);
      if (conflict) throw new MarkError(conflictText(keep, merged, conflict), 409, conflict);
    }
    const before = await getMark(engine, key);
    const mark: DuplicateMarkDocument = {
      key,
      type: input.type,
      ids: sorted,
      decision: input.decision,
      ...(keep && merged ? { keep, merged } : {}),
      marked_at: new Date().toISOString(),
      ...(input.by ? { marked_by: input.by } : {}),
    };
    await putMark(engine, mark);
    // The record merged away before (if another) is served again; the one merged now is hidden.
    await republish(
      engine,
      input.type,
      [before?.merged !== mark.merged ? before?.merged : undefined, mark.merged],
      lease,
    );
    return mark;
  } finally {
    // The publish released it already (release is idempotent); not when refused before it.
    await lease.release();
  }
}

/** Removes a pair's mark: it is listed again, and a merged-away record served again. */
export async function unmarkDuplicates(
  engine: Engine,
  type: DuplicateType,
  ids: [string, string],
): Promise<DuplicateMarkDocument | undefined> {
  const [a, b] = ids.map((id) => id.toLowerCase()) as [string, string];
  const lease = await markLease(engine);
  try {
    const removed = await deleteMark(engine, pairKey(type, a, b));
    await republish(engine, type, [removed?.merged], lease);
    return removed;
  } finally {
    // The publish released it already (release is idempotent); not when refused before it.
    await lease.release();
  }
}

export const listDuplicateMarks = (engine: Engine, type?: DuplicateType) => listMarks(engine, type);

/** The id a merged-away id of a type answers with, if it was merged away. */
export const keptId = (engine: Engine, type: string, id: string) => keptIdFor(engine, type, id.toLowerCase());

/** The functions the API server is given (AppDeps.duplicates). */
export function createDuplicates(engine: Engine) {
  return {
    list: (options: FindOptions) => findDuplicates(engine, options),
    mark: (input: MarkInput) => markDuplicates(engine, input),
    unmark: (type: DuplicateType, ids: [string, string]) => unmarkDuplicates(engine, type, ids),
    marks: (type?: DuplicateType) => listDuplicateMarks(engine, type),
    keptId: (type: string, id: string) => keptId(engine, type, id),
  };
}
