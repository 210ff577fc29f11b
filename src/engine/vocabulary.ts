/**
 * The search vocabulary the read indices are built with, and its reload into served indices.
 *
 * The shipped vocabulary (vocabulary/, versioned, each borrowed source with its licence beside it)
 * is used unless an engine handle says otherwise (`EngineSettings.synonyms`): the CLI and the
 * server give the shipped rules plus an operator's own file (SYNONYMS_FILE), or the operator's
 * alone (SEARCH_VOCABULARY=none).
 *
 * Reload: the rules live inline in each index's settings (not in files on the engine's nodes, which
 * a managed cluster does not give access to, and which OpenSearch's `_refresh_search_analyzers`
 * needs: it comes with the Index State Management plugin, absent from a plain engine). Analysis
 * settings change only on a closed index, so a reload closes each served read index, sets the
 * new rules and opens it again: no document is rewritten, and the search analyzer takes the new
 * rules at once. While an index is closed (well under a second on one node, until its shards
 * are started again on a cluster) reads of it fail; the API answers those with a 503.
 */
import { readFileSync } from 'node:fs';
import { SYNONYM_FILTER, synonymFilterSettings } from '../index-mapping/analysis.ts';
import { READ_INDICES } from '../index-mapping/read-indices.mapping.ts';
import { parseVocabulary } from '../index-mapping/vocabulary.ts';
import { type Engine, engineCall } from './engine.ts';
import { readAliasTargets } from './indices.ts';

/** The shipped vocabulary's files, under vocabulary/ at the root of the repository. */
export const SHIPPED_VOCABULARY_FILES = [
  'hsds-vocabulary.txt',
  'family-hubs/categories.txt',
  'outpost/accessibility.txt',
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

/** The rules a build of the read indices uses. */
export const searchVocabulary = (engine: Engine): readonly string[] =>
  engine.settings.synonyms ?? shippedVocabulary();

/**
 * Puts the given rules into every served read index (see above), one index at a time. Returns
 * the indices reloaded. A failure leaves an index open with its old rules when it can.
 */
export async function reloadVocabulary(engine: Engine, rules: readonly string[]): Promise<string[]> {
  const { current } = await readAliasTargets(engine);
  const indices = READ_INDICES.map((kind) => current[kind]).filter((i): i is string => i !== undefined);
  for (const index of indices) {
    await engineCall(`close ${index}`, () => engine.client.indices.close({ index }));
    try {
      await engineCall(`set the vocabulary of ${index}`, () =>
        engine.client.indices.putSettings({
          index,
          body: { index: { analysis: { filter: { [SYNONYM_FILTER]: synonymFilterSettings(rules) } } } },
        }),
      );
    } finally {
      await engineCall(`open ${index}`, () =>
        engine.client.indices.open({ index, wait_for_active_shards: 1 } as never),
      );
    }
  }
  return indices;
}
