/**
 * The configuration reference, written from the schema that parses it (src/config.ts): every
 * setting's `.describe()`, and the type, bounds, allowed values and default read off its zod
 * definition. docs/configuration.md and .env.example are both rendered here, so neither is a
 * hand-kept copy that drifts (`npm run docs:config` writes them; test/unit/config-docs.test.ts
 * fails when the committed files differ). Pure: no I/O.
 */
import type { z } from '@hono/zod-openapi';

/** What the reference says about one setting. */
export type SettingDoc = {
  name: string;
  description: string | undefined;
  /** Words for the type and what it allows: `integer, 0 to 65535`, `one of: hsds, oruk`. */
  type: string;
  /** The value an unset variable takes, as it would be written in `.env`; undefined: none. */
  defaultText: string | undefined;
};

/** What a walk through a setting's wrappers (default, optional, pipe...) finds. */
type Facts = {
  kind?: 'number' | 'string' | 'enum';
  integer?: boolean;
  min?: number;
  max?: number;
  format?: string;
  pattern?: string;
  values?: string[];
  list?: boolean;
  hasDefault?: boolean;
  defaultValue?: unknown;
};

/** The part of a zod 4 schema's definition the walk reads. */
type Definition = {
  type: string;
  innerType?: z.ZodType;
  in?: z.ZodType;
  out?: z.ZodType;
  element?: z.ZodType;
  entries?: Record<string, string | number>;
  defaultValue?: unknown;
  format?: string;
  checks?: { _zod: { def: Check } }[];
};

/** A check of a number or a string: bounds, an integer, a pattern. */
type Check = {
  check: string;
  value?: number;
  minimum?: number;
  maximum?: number;
  format?: string;
  pattern?: RegExp;
};

const definition = (schema: z.ZodType): Definition =>
  (schema as unknown as { _zod: { def: Definition } })._zod.def;

/** The facts a number's or string's checks give. */
function readChecks(def: Definition, facts: Facts): void {
  facts.format = def.format;
  for (const { _zod } of def.checks ?? []) {
    const check = _zod.def;
    if (check.check === 'number_format')
      facts.integer = check.format === 'safeint' || check.format === 'int32';
    else if (check.check === 'greater_than') facts.min = check.value;
    else if (check.check === 'less_than') facts.max = check.value;
    else if (check.check === 'min_length') facts.min = check.minimum;
    else if (check.check === 'max_length') facts.max = check.maximum;
    else if (check.check === 'string_format' && check.format === 'regex')
      facts.pattern = String(check.pattern);
    else if (check.check === 'string_format') facts.format = check.format;
  }
}

/**
 * Walks a setting's schema: a pipe's input and then its output (the output, what the code
 * receives, has the last word on the type), the first default met, the checks of the core type.
 */
function walk(schema: z.ZodType, facts: Facts): void {
  const def = definition(schema);
  switch (def.type) {
    case 'default':
    case 'prefault':
      if (!facts.hasDefault) {
        facts.hasDefault = true;
        facts.defaultValue = def.defaultValue;
      }
      if (def.innerType) walk(def.innerType, facts);
      return;
    case 'optional':
    case 'nullable':
      if (def.innerType) walk(def.innerType, facts);
      return;
    case 'pipe':
      if (def.in) walk(def.in, facts);
      if (def.out) walk(def.out, facts);
      return;
    case 'array':
      facts.list = true;
      if (def.element) walk(def.element, facts);
      return;
    case 'number':
      facts.kind = 'number';
      readChecks(def, facts);
      return;
    case 'string':
      facts.kind = 'string';
      facts.values = undefined;
      readChecks(def, facts);
      return;
    case 'enum':
      facts.kind = 'enum';
      facts.values = Object.values(def.entries ?? {}).map(String);
      return;
    default:
      // transform, refine's carrier and the like: they change values, not what is allowed.
      return;
  }
}

const BOOLEAN_WORDS = ['true', 'false', '1', '0', 'yes', 'no'];

const number = (n: number) => (Math.abs(n) >= 10_000 ? n.toLocaleString('en-US') : String(n));

/** Words for a setting's type, from the facts of its walk. */
function typeWords(facts: Facts): string {
  if (facts.kind === 'enum' && facts.values) {
    if (
      facts.values.length === BOOLEAN_WORDS.length &&
      BOOLEAN_WORDS.every((w) => facts.values?.includes(w))
    ) {
      return 'boolean (`true`/`false`, `1`/`0`, `yes`/`no`)';
    }
    const values = facts.values.map((v) => `\`${v}\``).join(', ');
    return facts.list ? `comma-separated, each one of: ${values}` : `one of: ${values}`;
  }
  let words = 'text';
  if (facts.kind === 'number') {
    words = facts.integer ? 'integer' : 'number';
    if (facts.min !== undefined && facts.max !== undefined && Number.isFinite(facts.max)) {
      words += `, ${number(facts.min)} to ${number(facts.max)}`;
    } else if (facts.min !== undefined && Number.isFinite(facts.min)) {
      words += `, at least ${number(facts.min)}`;
    }
  } else if (facts.kind === 'string') {
    if (facts.format === 'url') words = 'URL';
    else if (facts.format === 'email') words = 'email address';
    else if (facts.pattern) words = `text matching \`${facts.pattern}\``;
    if (facts.min !== undefined && facts.min > 1) words += `, at least ${facts.min} characters`;
    if (facts.max !== undefined && Number.isFinite(facts.max)) words += `, at most ${facts.max} characters`;
  }
  return facts.list ? `comma-separated list (each: ${words})` : words;
}

/** A default as it would be written in `.env` (a list comma-joined, a boolean as true/false). */
function defaultWords(value: unknown): string {
  if (Array.isArray(value)) return value.map(String).join(',');
  return String(value);
}

/** The reference of every setting of an object schema, in the schema's order. */
export function describeSettings(schema: z.ZodObject): SettingDoc[] {
  return Object.entries(schema.shape).map(([name, setting]) => {
    const facts: Facts = {};
    walk(setting as z.ZodType, facts);
    return {
      name,
      description: (setting as z.ZodType).description,
      type: typeWords(facts),
      defaultText: facts.hasDefault ? defaultWords(facts.defaultValue) : undefined,
    };
  });
}

/**
 * Settings the local engine reads (local-engine/, `npm start` without OPENSEARCH_URL and the
 * `npm run engine:*` scripts) straight from the environment: they never reach the API, so they
 * are not in its schema. Listed here, the one place the reference is written.
 */
export const LOCAL_ENGINE_SETTINGS: readonly SettingDoc[] = [
  {
    name: 'ENGINE_HEAP',
    description: "The local engine's JVM heap, e.g. `1g`.",
    type: 'text (a JVM size)',
    defaultText: '1g (512m a node in a cluster)',
  },
  {
    name: 'ENGINE_VERSION',
    description: 'The OpenSearch line the local engine runs: `2` (the default line) or `3` (the newest).',
    type: 'one of: `2`, `3`, `default`, `newest`, or a version number',
    defaultText: '2',
  },
  {
    name: 'ENGINE_NODES',
    description:
      'Nodes of the local engine: more than one is a cluster on ENGINE_PORT and the ports after it.',
    type: 'integer, 1 to 9',
    defaultText: '1 (or what the last start on this port recorded)',
  },
  {
    name: 'ENGINE_JAVA_HOME',
    description:
      'The Java the local engine runs on (then only it); unset, the first new enough one found: JAVA_HOME, PATH, the usual JDK folders.',
    type: 'a directory with bin/java',
    defaultText: undefined,
  },
  {
    name: 'ENGINE_HOME',
    description: 'Where the local engine keeps its jars, data, logs and pid files.',
    type: 'a directory',
    defaultText: 'local-engine/.runtime',
  },
];

/** Which section of the reference a setting belongs to: the first group whose pattern matches. */
const GROUPS: readonly { title: string; pattern: RegExp; intro: string }[] = [
  {
    title: 'The engine',
    pattern: /^(OPENSEARCH_|AWS_|ENGINE_|INDEX_)/,
    intro: 'Where OpenSearch is, how to reach it, and how the API server protects itself when it is sick.',
  },
  {
    title: 'HTTP',
    pattern:
      /^(PORT|HOST|LOG_LEVEL|PUBLIC_BASE_URL|TRUSTED_PROXIES|MAX_BODY_BYTES|STRICT_PARAMETERS|CACHE_CONTROL_|RECORD_CACHE_)/,
    intro: 'The server: where it listens, what it believes of proxies, bodies, caching.',
  },
  {
    title: 'What GET / says',
    pattern: /^(HSDS_PROFILE|DIRECTORY_TIMEZONE|PROFILE_URL|API_DESCRIPTION|PUBLISHER_|DATA_GUIDE_URL)/,
    intro: 'The profile and the publisher the API root states.',
  },
  {
    title: 'Pages and dumps',
    pattern: /^(DEFAULT_PER_PAGE|MAX_PER_PAGE|DUMP_|PAGE_)/,
    intro: 'How big a page may be, and how many streamed dumps run at once.',
  },
  {
    title: 'Tokens, writes and retention',
    pattern: /^(ADMIN_TOKEN|MCP_TOKEN|API_TOKENS|WRITE_|AUDIT_|TOMBSTONE_)/,
    intro: 'Who may write and administer, how writes are bounded, how long their traces are kept.',
  },
  {
    title: 'Imports and validation',
    pattern: /^(DEFAULT_COUNTRY|VALIDATE_)/,
    intro: 'Imports and `POST /validate`.',
  },
  {
    title: 'Geocoding',
    pattern: /^(GEOCODER|POSTCODES_IO_)/,
    intro: 'How `?postcode=` becomes a point (docs/operations.md has the postcode sources).',
  },
  { title: 'Change webhooks', pattern: /^WEBHOOK_/, intro: 'Deliveries of the change webhooks.' },
  { title: 'The explore page', pattern: /^EXPLORE_/, intro: 'The public /explore page.' },
  {
    title: 'Search',
    pattern: /^(SYNONYMS_|SEARCH_|CRISIS_)/,
    intro: 'The search vocabulary, search by meaning, crisis searches, the search report.',
  },
];

const OTHER = { title: 'Other settings', pattern: /$^/, intro: '' };

function grouped(
  settings: readonly SettingDoc[],
): { title: string; intro: string; settings: SettingDoc[] }[] {
  const groups = [...GROUPS, OTHER].map((g) => ({
    title: g.title,
    intro: g.intro,
    settings: [] as SettingDoc[],
  }));
  for (const setting of settings) {
    const index = GROUPS.findIndex((g) => g.pattern.test(setting.name));
    groups[index === -1 ? GROUPS.length : index]?.settings.push(setting);
  }
  return groups.filter((g) => g.settings.length > 0);
}

/** A markdown table cell: one line, pipes escaped. */
const cell = (text: string) => text.replaceAll('|', '\\|').replaceAll('\n', ' ');

function defaultCell(setting: SettingDoc): string {
  if (setting.defaultText === undefined) return 'unset';
  if (setting.defaultText === '') return 'empty';
  return `\`${cell(setting.defaultText)}\``;
}

function table(settings: readonly SettingDoc[]): string[] {
  return [
    '| Setting | Type | Default | What it does |',
    '| --- | --- | --- | --- |',
    ...settings.map(
      (s) =>
        `| \`${s.name}\` | ${cell(s.type)} | ${defaultCell(s)} | ${cell(s.description ?? '(not described)')} |`,
    ),
  ];
}

/** docs/configuration.md. */
export function renderConfigurationDoc(settings: readonly SettingDoc[]): string {
  const lines = [
    '# Configuration',
    '',
    '<!-- Generated from src/config.ts by `npm run docs:config`: edit the schema, not this file. -->',
    '',
    'Every setting is an environment variable, parsed once at start by one schema (`src/config.ts`):',
    'a bad value stops the process with a message naming every bad variable. An empty value means',
    'unset. A `.env` file in the directory you start from is read by every command (`npm start`,',
    '`npx hsds ...`); a variable already set in the environment wins over the file.',
    '[`.env.example`](../.env.example) lists every setting with its default: copy it to `.env` and',
    'edit what you need.',
    '',
  ];
  for (const group of grouped(settings)) {
    lines.push(`## ${group.title}`, '');
    if (group.intro) lines.push(group.intro, '');
    lines.push(...table(group.settings), '');
  }
  lines.push(
    '## The local engine',
    '',
    'Read by `local-engine/` (the engine `npm start` runs when OPENSEARCH_URL is unset, and',
    '`npm run engine:*`), not by the API; with ENGINE_PORT above.',
    '',
    ...table(LOCAL_ENGINE_SETTINGS),
    '',
  );
  return lines.join('\n');
}

/** Words wrapped into `# ` comment lines of at most `width` characters. */
function comment(text: string, width = 100): string[] {
  const lines: string[] = [];
  let line = '#';
  for (const word of text.split(/\s+/).filter(Boolean)) {
    if (line.length + 1 + word.length > width && line !== '#') {
      lines.push(line);
      line = '#';
    }
    line += ` ${word}`;
  }
  if (line !== '#') lines.push(line);
  return lines;
}

/** .env.example: every setting with its description and default, ready to copy to `.env`. */
export function renderEnvExample(settings: readonly SettingDoc[]): string {
  const lines = [
    '# Generated from src/config.ts by `npm run docs:config`: edit the schema, not this file.',
    ...comment(
      'Configuration: environment variables, validated at start (a bad value stops the process with a message naming every bad variable). Empty means unset. Copy this file to `.env` in the directory you start from: every command (`npm start`, `npx hsds ...`) reads it, and a variable already set in the environment wins over the file. docs/configuration.md says the same with types and allowed values.',
    ),
  ];
  for (const group of grouped(settings)) {
    lines.push('', `# == ${group.title} ==`);
    for (const setting of group.settings) {
      if (setting.description) lines.push(...comment(setting.description));
      lines.push(`${setting.name}=${setting.defaultText ?? ''}`);
    }
  }
  lines.push('', '# == The local engine (local-engine/; unset: as described) ==');
  for (const setting of LOCAL_ENGINE_SETTINGS) {
    if (setting.description) lines.push(...comment(setting.description));
    lines.push(`# ${setting.name}=`);
  }
  return `${lines.join('\n')}\n`;
}
