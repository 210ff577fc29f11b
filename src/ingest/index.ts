/**
 * The ingest layer's public surface: what the composition root (src/cli) imports, publishes,
 * reindexes and writes with. Nothing outside src/ingest imports its other modules (biome.json
 * enforces it for src/cli).
 */

export { EXPORT_FORMATS, type ExportFormat, exportDirectory } from './export/export-directory.ts';
export { formatImportSummary, type ImportSummary } from './import/import-report.ts';
export { isUrl } from './import/import-source.ts';
export { importPostcodeCsv, importPostcodeRows } from './import/postcode-import.ts';
export { createProgressBar } from './import/progress.ts';
export { type DeleteSourceResult, deleteSource } from './maintenance/delete-source.ts';
export { checkIdCase, fixIdCase, formatIdCaseReport } from './maintenance/id-case.ts';
export { formatSourceQuality, type SourceQuality, sourceQuality } from './maintenance/source-quality.ts';
export {
  deleteRecords,
  importAndReindex,
  reindexWithProgress,
  serveTaxonomySynonyms,
} from './publish/pipeline.ts';
export { publishChanges } from './publish/publish.ts';
export {
  IncompleteImportError,
  type ReindexOptions,
  type ReindexReport,
  reindex,
} from './publish/reindex.ts';
export { formatPublishSummary, formatReindexSummary } from './publish/reindex-summary.ts';
export { createFeedValidation } from './validate/feed-validation.ts';
export { ZipError } from './validate/unzip.ts';
export type { ValidationReport } from './validate/validate-items.ts';
export { bodyFormat, validateBody, validateLocation } from './validate/validate-source.ts';
export { formatValidationReport } from './validate/validation-summary.ts';
export { completeInterruptedWrites, createRecordWrites } from './write/write.ts';
