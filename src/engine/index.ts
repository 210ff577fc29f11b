export { createEngine, type Engine, type EngineSettings, engineCall } from './engine.ts';
export { EngineNotFoundError, EngineRequestError, EngineUnavailableError } from './errors.ts';
export {
  checkServedData,
  countDocuments,
  type EngineHealth,
  getEngineHealth,
  type ServedData,
  unservedIndices,
} from './health.ts';
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
