import { readFileSync } from 'node:fs';
import { parseEnv } from 'node:util';
import { z } from '@hono/zod-openapi';
import { describe, expect, it } from 'vitest';
import { configSchema, loadConfig } from '../../src/config.ts';
import { describeSettings, renderConfigurationDoc, renderEnvExample } from '../../src/config-docs.ts';

const root = new URL('../../', import.meta.url);
const read = (path: string) => readFileSync(new URL(path, root), 'utf8');
const settings = describeSettings(configSchema);
const FIX = 'differs from src/config.ts: run `npm run docs:config` and commit the result';

describe('the configuration reference', () => {
  it('describes every setting of the schema', () => {
    expect(settings.filter((s) => !s.description?.trim()).map((s) => s.name)).toEqual([]);
    expect(settings.length).toBe(Object.keys(configSchema.shape).length);
  });

  it('is committed as generated (docs/configuration.md)', () => {
    expect(read('docs/configuration.md'), `docs/configuration.md ${FIX}`).toBe(
      renderConfigurationDoc(settings),
    );
  });

  it('is committed as generated (.env.example)', () => {
    expect(read('.env.example'), `.env.example ${FIX}`).toBe(renderEnvExample(settings));
  });

  it('gives in .env.example values that parse to the defaults', () => {
    const values = parseEnv(read('.env.example'));
    expect(Object.keys(values).sort()).toEqual(Object.keys(configSchema.shape).sort());
    expect(loadConfig(values)).toEqual(loadConfig({}));
  });

  it('reads type, bounds, allowed values and default off the schema', () => {
    const docs = describeSettings(
      z.object({
        PORT: z.coerce.number().int().min(0).max(65535).default(3000).describe('port'),
        MODE: z.enum(['on', 'off']).default('on').describe('mode'),
        FLAG: z
          .enum(['true', 'false', '1', '0', 'yes', 'no'])
          .transform((v) => v === 'true')
          .default(false)
          .describe('flag'),
        LIST: z
          .string()
          .default('a,b')
          .transform((v) => v.split(','))
          .pipe(z.array(z.enum(['a', 'b', 'c'])))
          .describe('list'),
        URL: z.preprocess((v) => (v === '' ? undefined : v), z.url().optional()),
      }),
    );
    expect(docs).toEqual([
      { name: 'PORT', description: 'port', type: 'integer, 0 to 65,535', defaultText: '3000' },
      { name: 'MODE', description: 'mode', type: 'one of: `on`, `off`', defaultText: 'on' },
      {
        name: 'FLAG',
        description: 'flag',
        type: 'boolean (`true`/`false`, `1`/`0`, `yes`/`no`)',
        defaultText: 'false',
      },
      {
        name: 'LIST',
        description: 'list',
        type: 'comma-separated, each one of: `a`, `b`, `c`',
        defaultText: 'a,b',
      },
      { name: 'URL', description: undefined, type: 'URL', defaultText: undefined },
    ]);
  });
});
