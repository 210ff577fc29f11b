/**
 * Duplicates across sources: the same organization, service or location published by two sources
 * under different ids, found and scored with their evidence.
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
export { DUPLICATE_TYPES, type DuplicateCandidate, type DuplicateType, toCandidate } from './features.ts';
