/**
 * The search vocabulary the read indices are built with, and its reload into served indices.
 *
 * The shipped vocabulary (vocabulary/, versioned, each borrowed source with its licence beside it)
 * is used unless an engine handle says otherwise (`EngineSettings.synonyms`): the CLI and the
 * server give the shipped rules plus an operator's own file (SYNONYMS_FILE), or the operator's
 * alone (SEARCH_VOCABULARY=none).
 *
 * Reload: the rules live inline in each index's settings, not in files on the engine's nodes (a
 * managed cluster gives no access to them, and OpenSearch's `_refresh_search_analyzers`, which
 * re-reads such files, comes with the Index State Management plugin, absent from a plain engine).
 * Analysis settings change only on a closed index, and a closed index behind an alias reads as
 * empty, so a reload never closes a served index. It clones each one instead, under the reindex
 * lease: the served index is made read-only for the moment of the clone, and `_clone` hard-links
 * its segments into a new version (no document is read or rewritten; a second on 100,000
 * services) created with the new rules; then every alias moves in one atomic request, as after a
 * reindex, and the version served before stays as the rollback.
 */
import { readFileSync } from 'node:fs';
import { SYNONYM_FILTER, synonymFilterSettings } from '../index-mapping/analysis.ts';
import { READ_INDICES, type ReadIndex } from '../index-mapping/read-indices.mapping.ts';
import { parseVocabulary } from '../index-mapping/vocabulary.ts';
import { acquireLease, waitForLease } from './control.ts';
import { type Engine, engineCall } from './engine.ts';
import { deleteIndices, newVersion, readAliasTargets, removeOldVersions, swapAliases } from './indices.ts';

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
 * Serves every read index again with the given rules (see above): clones of the served indices,
 * swapped in atomically. Returns the new indices. On failure the served indices stay as they were.
 */
export async function reloadVocabulary(
  engine: Engine,
  rules: readonly string[],
  options: { purpose?: string } = {},
): Promise<string[]> {
  const lease = await acquireLease(engine, 'reindex', { purpose: options.purpose ?? 'hsds synonyms reload' });
  // The served indices are write-blocked while they are cloned: publishing waits for the swap
  // (it then writes to the clones), rather than fail against the block.
  const publishing = await waitForLease(engine, 'publish', {
    purpose: options.purpose ?? 'hsds synonyms reload',
  }).catch(async (error: unknown) => {
    await lease.release();
    throw error;
  });
  try {
    const { current } = await readAliasTargets(engine);
    const missing = READ_INDICES.filter((kind) => !current[kind]);
    if (missing.length > 0) throw new NoServedIndicesError(missing);
    const served = current as Record<ReadIndex, string>;
    const version = newVersion();
    const clones = Object.fromEntries(
      READ_INDICES.map((kind) => [kind, `${engine.name(kind)}-${version}`]),
    ) as Record<ReadIndex, string>;
    const sources = Object.values(served).join(',');
    const writeBlock = (index: string, blocked: boolean) =>
      engineCall(`${blocked ? 'block' : 'unblock'} writes to ${index}`, () =>
        engine.client.indices.putSettings({
          index,
          body: { index: { 'blocks.write': blocked ? true : null } } as Record<string, unknown>,
        }),
      );
    try {
      await writeBlock(sources, true);
      for (const kind of READ_INDICES) {
        await engineCall(`clone ${served[kind]}`, () =>
          engine.client.indices.clone({
            index: served[kind],
            target: clones[kind],
            body: {
              settings: {
                'index.blocks.write': null,
                'index.number_of_replicas': engine.settings.replicas,
                [`index.analysis.filter.${SYNONYM_FILTER}`]: synonymFilterSettings(rules),
              },
            },
          } as never),
        );
      }
      await engineCall('wait for the clones', () =>
        engine.client.cluster.health({
          index: Object.values(clones).join(','),
          wait_for_status: (engine.settings.replicas ?? 0) > 0 ? 'green' : 'yellow',
          timeout: '120s',
        }),
      );
      await lease.renew();
      await swapAliases(engine, clones);
    } catch (error) {
      await deleteIndices(engine, Object.values(clones)).catch(() => {});
      throw error;
    } finally {
      // The indices served until now stay as the rollback version; they take writes again.
      await writeBlock(sources, false).catch(() => {});
    }
    await removeOldVersions(engine);
    return Object.values(clones);
  } finally {
    await publishing.release();
    await lease.release();
  }
}

/** A reload needs served read indices: there are none before the first reindex. */
export class NoServedIndicesError extends Error {
  constructor(missing: readonly string[]) {
    super(`no served ${missing.join(', ')} index to reload: run a reindex first`);
  }
}
