/**
 * The search vocabulary's files: the shipped ones (vocabulary/ at the root of the repository,
 * versioned, each borrowed source with its licence beside it) and an operator's own
 * (SYNONYMS_FILE), read from disk and parsed (vocabulary.ts). The rules go to the engine handle
 * (`EngineSettings.synonyms`, src/engine/vocabulary.ts builds and reloads indices with them) and
 * to search by meaning (src/semantic). The one module of index-mapping that reads files: shipped
 * data, read once, like the analysis settings it becomes.
 */
import { readFileSync } from 'node:fs';
import { parseVocabulary } from './vocabulary.ts';

/** The shipped vocabulary's files, under vocabulary/ at the root of the repository. */
export const SHIPPED_VOCABULARY_FILES = [
  'hsds-vocabulary.txt',
  'family-hubs/categories.txt',
  'outpost/accessibility.txt',
  'everyday/uk-us-services.txt',
] as const;

export const vocabularyDir = new URL('../../vocabulary/', import.meta.url);

let shipped: readonly string[] | undefined;

/** The shipped rules (read once). */
export function shippedVocabulary(): readonly string[] {
  shipped ??= SHIPPED_VOCABULARY_FILES.flatMap((file) =>
    parseVocabulary(readFileSync(new URL(file, vocabularyDir), 'utf8'), `vocabulary/${file}`),
  );
  return shipped;
}

/** The rules an operator's configuration asks for: the shipped ones unless turned off, then their own file. */
export function loadVocabulary(options: { shipped: boolean; file?: string | undefined }): string[] {
  const own = options.file ? parseVocabulary(readFileSync(options.file, 'utf8'), options.file) : [];
  return [...(options.shipped ? shippedVocabulary() : []), ...own];
}
