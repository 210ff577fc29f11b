/**
 * The ingest layer's public surface: what the composition root (src/cli) imports, publishes,
 * reindexes and writes with. Nothing outside src/ingest imports its other modules (biome.json
 * enforces it for src/cli).
 */

export { type DeleteSourceResult, deleteSource } from './delete-source.ts';
export { EXPORT_FORMATS, type ExportFormat, exportDirectory } from './export/export-directory.ts';
export { checkIdCase, fixIdCase, formatIdCaseReport } from './id-case.ts';
export { formatImportSummary, type ImportSummary } from './import-report.ts';
export { isUrl } from './import-source.ts';
export { deleteRecords, importAndReindex, reindexWithProgress, serveTaxonomySynonyms } from './pipeline.ts';
export { importPostcodeCsv, importPostcodeRows } from './postcode-import.ts';
export { createProgressBar } from './progress.ts';
export { publishChanges } from './publish.ts';
export { IncompleteImportError, type ReindexOptions, type ReindexReport, reindex } from './reindex.ts';
export { formatPublishSummary, formatReindexSummary } from './reindex-summary.ts';
export { formatSourceQuality, type SourceQuality, sourceQuality } from './source-quality.ts';
export { createFeedValidation } from './validate/feed-validation.ts';
export { checkRemoteUrl, RemoteRefused } from './validate/remote-guard.ts';
export { ZipError } from './validate/unzip.ts';
export type { ValidationReport } from './validate/validate-items.ts';
export { bodyFormat, validateBody, validateLocation } from './validate/validate-source.ts';
export { formatValidationReport } from './validate/validation-summary.ts';
export { completeInterruptedWrites, createRecordWrites } from './write.ts';
