/**
 * The search vocabulary the read indices are built with, and its reload into served indices.
 *
 * The shipped vocabulary (read from vocabulary/ by index-mapping/vocabulary-files.ts) is used
 * unless an engine handle says otherwise (`EngineSettings.synonyms`): the CLI and the server give
 * the shipped rules plus an operator's own file (SYNONYMS_FILE), or the operator's alone
 * (SEARCH_VOCABULARY=none).
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
 *
 * A licensee's taxonomy synonyms (the `x-alternate_names` of its terms,
 * index-mapping/taxonomy-vocabulary.ts) are read from the taxonomy_terms index and added to the
 * configured rules: by every reload (from the served index), by every build before its swap (from
 * the build's own index), and after an import publishes changed terms (`syncTaxonomyVocabulary`,
 * which reloads only when the served rules are not those the terms now give).
 */
import {
  FILLER_FILTER,
  fillerFilterSettings,
  SYNONYM_FILTER,
  synonymFilterSettings,
} from '../index-mapping/analysis.ts';
import { READ_INDICES, type ReadIndex } from '../index-mapping/read-indices.mapping.ts';
import { buildTermNamesPageBody } from '../index-mapping/taxonomy-vocabulary.query.ts';
import { ALTERNATE_NAMES_FIELD, taxonomySynonymRules } from '../index-mapping/taxonomy-vocabulary.ts';
import { acquireLease, waitForLease } from './control.ts';
import { type Engine, engineCall, maintenanceRequest } from './engine.ts';
import { EngineNotFoundError } from './errors.ts';
import {
  deleteIndices,
  newVersion,
  type ReadIndexBuild,
  readAliasTargets,
  removeOldVersions,
  swapAliases,
} from './indices.ts';
import { operatorVocabulary } from './operator-vocabulary.ts';

/**
 * Serves every read index again with the given rules (see above), the operator rules stored in
 * the engine (operator-vocabulary.ts) and the served taxonomy's synonyms after them: clones of the served indices, swapped in atomically. Returns the new
 * indices. On failure the served indices stay as they were.
 */
export async function reloadVocabulary(
  engine: Engine,
  configured: readonly string[],
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
    const rules = [
      ...configured,
      ...(await operatorVocabulary(engine)),
      ...(await readTaxonomyVocabulary(engine, served.taxonomy_terms)),
    ];
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
                [`index.analysis.filter.${FILLER_FILTER}`]: fillerFilterSettings,
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

const TERMS_PAGE = 1000;

/**
 * The synonym rules of the taxonomy terms in an index (the served one unless named): every term's
 * `x-alternate_names`, read from its stored record. Terms are few (the AIRS taxonomy has about
 * 9,000), so they are read in pages of a thousand, in id order.
 */
export async function readTaxonomyVocabulary(
  engine: Engine,
  index = engine.name('taxonomy_terms'),
): Promise<string[]> {
  const terms: { name: unknown; alternates: unknown }[] = [];
  let after: unknown[] | undefined;
  for (;;) {
    let body: { hits?: { hits?: { _source?: { record?: Record<string, unknown> }; sort?: unknown[] }[] } };
    try {
      ({ body } = await engineCall(`read the taxonomy synonyms of ${index}`, () =>
        engine.client.search({
          index,
          body: buildTermNamesPageBody(TERMS_PAGE, after),
        } as never),
      ));
    } catch (error) {
      if (error instanceof EngineNotFoundError) return [];
      throw error;
    }
    const hits = body.hits?.hits ?? [];
    for (const hit of hits) {
      const record = hit._source?.record;
      if (record?.[ALTERNATE_NAMES_FIELD] !== undefined) {
        terms.push({ name: record.name, alternates: record[ALTERNATE_NAMES_FIELD] });
      }
    }
    if (hits.length < TERMS_PAGE) break;
    after = hits[hits.length - 1]?.sort;
  }
  const { rules, leftOut } = taxonomySynonymRules(terms);
  if (leftOut > 0) {
    engine.logger.warn(
      { index, leftOut },
      'taxonomy alternate names beyond the limit are left out of search',
    );
  }
  return rules;
}

/** The rules the served services index searches with, or undefined when none is served. */
export async function servedVocabulary(engine: Engine): Promise<string[] | undefined> {
  let body: Record<string, { settings?: Record<string, unknown> }>;
  try {
    ({ body } = await engineCall('read the served vocabulary', () =>
      engine.client.indices.getSettings({
        index: engine.name('services'),
        name: `index.analysis.filter.${SYNONYM_FILTER}.synonyms`,
        flat_settings: true,
      }),
    ));
  } catch (error) {
    if (error instanceof EngineNotFoundError) return undefined;
    throw error;
  }
  const settings = Object.values(body)[0]?.settings;
  if (!settings) return undefined;
  const key = `index.analysis.filter.${SYNONYM_FILTER}.synonyms`;
  const listed = settings[key];
  if (Array.isArray(listed)) return listed.map(String);
  // Older engines flatten a list as key.0, key.1, ...
  return Object.keys(settings)
    .filter((k) => k.startsWith(`${key}.`))
    .sort((a, b) => Number(a.slice(key.length + 1)) - Number(b.slice(key.length + 1)))
    .map((k) => String(settings[k]));
}

const sameRules = (served: readonly string[], rules: readonly string[]) => {
  const wanted = synonymFilterSettings(rules).synonyms;
  return served.length === wanted.length && served.every((rule, i) => rule === wanted[i]);
};

/**
 * After an import published changed taxonomy terms: serves the synonyms they now give (with the
 * configured rules), by a reload, unless the served indices already search with exactly those.
 * Returns the new indices, or undefined when nothing had to change.
 */
export async function syncTaxonomyVocabulary(engine: Engine): Promise<string[] | undefined> {
  const served = await servedVocabulary(engine);
  if (served === undefined) return undefined;
  const configured = engine.settings.synonyms;
  const operator = await operatorVocabulary(engine);
  const taxonomy = await readTaxonomyVocabulary(engine);
  if (sameRules(served, [...configured, ...operator, ...taxonomy])) return undefined;
  return reloadVocabulary(engine, configured, { purpose: 'taxonomy synonyms' });
}

/**
 * Before a build is served: gives its indices the synonyms of the taxonomy it holds (created with
 * the configured rules alone, as its terms were not written yet). The build is not served, so its
 * indices are closed for the change and opened again, a second or so.
 */
export async function applyTaxonomyVocabulary(engine: Engine, build: ReadIndexBuild): Promise<void> {
  const taxonomy = await readTaxonomyVocabulary(engine, build.indices.taxonomy_terms);
  if (taxonomy.length === 0) return;
  const index = Object.values(build.indices).join(',');
  const rules = [...(build.synonyms ?? engine.settings.synonyms), ...taxonomy];
  await engineCall('close the new indices', () =>
    engine.client.indices.close({ index }, maintenanceRequest(engine)),
  );
  try {
    await engineCall('give the new indices the taxonomy synonyms', () =>
      engine.client.indices.putSettings({
        index,
        body: {
          index: { analysis: { filter: { [SYNONYM_FILTER]: synonymFilterSettings(rules) } } },
        } as never,
      }),
    );
  } finally {
    await engineCall('open the new indices', () =>
      engine.client.indices.open({ index }, maintenanceRequest(engine)),
    );
  }
  // Its primaries are searchable again (replicas, where the cluster has them, follow).
  await engineCall('wait for the new indices', () =>
    engine.client.cluster.health(
      { index, wait_for_status: 'yellow', timeout: '120s' },
      maintenanceRequest(engine, 130_000),
    ),
  );
}
