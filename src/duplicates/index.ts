/**
 * Duplicates across sources: the same organization, service or location published by two sources
 * under different ids, found, scored with their evidence, and marked by an operator as the same
 * (served once) or as distinct.
 */
export {
  DEFAULT_THRESHOLD,
  type DetectOptions,
  type DetectReport,
  type DuplicatePair,
  detectDuplicates,
  type Evidence,
  pairKey,
  scorePair,
} from './detect.ts';
export {
  createDuplicates,
  type DuplicateMarkDocument,
  type FindOptions,
  type FindReport,
  findDuplicates,
  keptId,
  listDuplicateMarks,
  MarkError,
  type MarkInput,
  markDuplicates,
  readCandidates,
  SERVED_ONCE_TYPES,
  unmarkDuplicates,
} from './duplicates.ts';
export { DUPLICATE_TYPES, type DuplicateCandidate, type DuplicateType, toCandidate } from './features.ts';
