/**
 * The operator console's room: the page at /admin (console.routes.ts, files in page/) and the
 * admin routes it needed that did not exist (import jobs, operator vocabulary rules). The server
 * command wires ImportJobs.
 */
export { CONSOLE_PATH, registerConsole } from './console.routes.ts';
export { registerImportJobRoutes } from './import-jobs.routes.ts';
export type { ImportFrom, ImportJob, ImportJobProgress, ImportJobs } from './import-jobs.ts';
export { progressOf } from './import-jobs.ts';
export { registerVocabularyRuleRoutes } from './vocabulary-rules.routes.ts';
