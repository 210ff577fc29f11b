/**
 * `npm run docs:config`: rewrites docs/configuration.md and .env.example from the configuration
 * schema (src/config.ts). test/unit/config-docs.test.ts fails when the committed files and the
 * schema disagree.
 */
import { writeFileSync } from 'node:fs';
import { configSchema } from './config.ts';
import { describeSettings, renderConfigurationDoc, renderEnvExample } from './config-docs.ts';

const settings = describeSettings(configSchema);
const targets = [
  [new URL('../docs/configuration.md', import.meta.url), renderConfigurationDoc(settings)],
  [new URL('../.env.example', import.meta.url), renderEnvExample(settings)],
] as const;
for (const [target, text] of targets) {
  writeFileSync(target, text);
  process.stderr.write(`wrote ${target.pathname}\n`);
}
