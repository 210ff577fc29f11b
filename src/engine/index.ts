export { createEngine, type Engine, type EngineSettings, engineCall } from './engine.ts';
export { EngineNotFoundError, EngineRequestError, EngineUnavailableError } from './errors.ts';
export { type EngineHealth, getEngineHealth } from './health.ts';
