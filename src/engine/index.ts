export { createEngine, type Engine, type EngineSettings, engineCall } from './engine.ts';
export { EngineNotFoundError, EngineRequestError, EngineUnavailableError } from './errors.ts';
export { countDocuments, type EngineHealth, getEngineHealth } from './health.ts';
export {
  activatePostcodeIndex,
  countPostcodes,
  createPostcodeIndex,
  currentPostcodeIndices,
  deletePostcodeIndex,
  loadPostcodes,
  lookupPostcode,
  type PostcodeEntry,
  postcodeAlias,
} from './postcodes.ts';
