/**
 * `npx hsds synonyms reload`: serves the read indices again with the configured search vocabulary
 * (the shipped one and SYNONYMS_FILE), the rules operators added (POST /admin/vocabulary/rules,
 * stored in the engine) and the served taxonomy terms' synonyms (their `x-alternate_names`),
 * without a reindex (src/engine/vocabulary.ts).
 * `npx hsds synonyms check`: parses the configured vocabulary and says how many rules it holds.
 */
import { NoServedIndicesError, reloadVocabulary } from '../engine/vocabulary.ts';
import { configuredVocabulary, loadConfigOrExit, openRuntime } from './runtime.ts';

const usage = 'usage: hsds synonyms <reload|check>';

export async function run(args: string[]): Promise<number> {
  const [sub] = args;
  if (sub === '--help' || sub === '-h') {
    console.error(usage);
    return 0;
  }
  if (sub === 'check') {
    const rules = configuredVocabulary(loadConfigOrExit());
    console.log(`${rules.length} vocabulary rules parse.`);
    return 0;
  }
  if (sub !== 'reload') {
    console.error(usage);
    return 2;
  }
  const runtime = await openRuntime({ startLocalEngine: false, loggerName: 'hsds-synonyms' });
  try {
    const rules = runtime.engine.settings.synonyms ?? [];
    const indices = await reloadVocabulary(runtime.engine, rules);
    console.log(
      `Serving ${rules.length} configured vocabulary rules, the operator rules and the taxonomy's synonyms from ${indices.join(', ')}.`,
    );
    return 0;
  } catch (error) {
    if (!(error instanceof NoServedIndicesError)) throw error;
    console.error(`${error.message} (npx hsds reindex).`);
    return 1;
  } finally {
    await runtime.engine.close();
  }
}
