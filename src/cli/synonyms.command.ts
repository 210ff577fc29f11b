/**
 * `npx hsds synonyms reload`: puts the configured search vocabulary (the shipped one and
 * SYNONYMS_FILE) into the served read indices, without a reindex (src/engine/vocabulary.ts).
 * `npx hsds synonyms check`: parses the configured vocabulary and says how many rules it holds.
 */
import { reloadVocabulary } from '../engine/vocabulary.ts';
import { configuredVocabulary, loadConfigOrExit, openRuntime } from './runtime.ts';

const usage = 'usage: hsds synonyms <reload|check>';

export async function run(args: string[]): Promise<number> {
  const [sub] = args;
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
    if (indices.length === 0) {
      console.error('No served read indices to reload: run `npx hsds reindex` first.');
      return 1;
    }
    console.log(`Reloaded ${rules.length} vocabulary rules into ${indices.join(', ')}.`);
    return 0;
  } finally {
    await runtime.engine.close();
  }
}
