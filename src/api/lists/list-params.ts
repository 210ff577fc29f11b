/**
 * The parameters of the list endpoints, one zod schema each, with the specification's
 * descriptions. The same schemas validate the query string, a JSON body and a form body (the POST
 * twins), so each accepts both the string form of a value (`"true"`, `"20"`) and its JSON type;
 * the OpenAPI document shows the JSON type. No defaults live in the schemas: a POST merges its
 * query and body first, and defaults are applied after (see `resolvePaging`).
 *
 * Unknown parameters are ignored: HSDS clients add their own (cache busters, API keys for other
 * hosts), and refusing them would break those clients.
 */
import { z } from '@hono/zod-openapi';
import { FACET_NAMES, FACET_SIZE, type FacetName } from '../../index-mapping/facets.query.ts';
import type { SearchRequest } from '../../index-mapping/search.query.ts';
import { MAX_FUZZY_WORD_CHARS, MAX_SEARCH_CHARS, MAX_SEARCH_WORDS } from '../../index-mapping/text.query.ts';
import { includeDeleted } from '../../index-mapping/tombstone.document.ts';
import { parseInstant } from '../../schedules/calendar.ts';
import { invalidParameter } from '../http/problem.ts';
import type { ListLimits } from '../http/route-context.ts';

/** The deepest page one can ask for: beyond any real directory, well inside safe integers. */
export const MAX_PAGE = 10_000_000;

const lowerCaseString = (value: unknown) => (typeof value === 'string' ? value.trim().toLowerCase() : value);

/** A boolean: JSON true/false, or the strings "true"/"false" (any case). */
export const booleanParam = (description: string) =>
  z
    .preprocess(
      (value) => {
        const v = lowerCaseString(value);
        return v === 'true' ? true : v === 'false' ? false : value;
      },
      z.boolean({ error: 'must be true or false' }),
    )
    .openapi({ type: 'boolean', description });

/** A whole number in a range: a JSON integer or its decimal string. */
export const integerParam = (description: string, min: number, max: number, extra: object = {}) =>
  z
    .preprocess(
      (value) => (typeof value === 'string' && /^\s*-?\d{1,16}\s*$/.test(value) ? Number(value) : value),
      z
        .number({ error: 'must be a whole number' })
        .int({ error: 'must be a whole number' })
        .min(min, { error: `must be at least ${min}` })
        .max(max, { error: `must be at most ${max}` }),
    )
    .openapi({ type: 'integer', minimum: min, maximum: max, description, ...extra });

/** A number in a range (decimals allowed): a JSON number or its decimal string. */
export const numberParam = (description: string, min: number, max: number, extra: object = {}) =>
  z
    .preprocess(
      (value) =>
        typeof value === 'string' && /^\s*\d{1,12}(\.\d{1,12})?\s*$/.test(value) ? Number(value) : value,
      z
        .number({ error: 'must be a number' })
        .min(min, { error: `must be at least ${min}` })
        .max(max, { error: `must be at most ${max}` }),
    )
    .openapi({ type: 'number', minimum: min, maximum: max, description, ...extra });

/** A record id: HSDS ids are UUIDs, so anything else cannot name a record. */
export const idParam = (description: string, example = 'ac148810-d857-441c-9679-408f346de14b') =>
  z.guid({ error: 'must be a UUID' }).openapi({ description, example });

/**
 * Whether the date part names a real day. Date.parse rolls 2024-02-30 over to 2024-03-01; a
 * harvester that typed it would silently skip a day of changes, so it is refused instead.
 */
function isCalendarDate(value: string): boolean {
  const [year, month, day] = value.slice(0, 10).split('-').map(Number) as [number, number, number];
  if (month < 1 || month > 12 || day < 1) return false;
  return day <= new Date(Date.UTC(year, month, 0)).getUTCDate();
}

/**
 * A date-time (RFC 3339) or a date (its start, UTC). Normalised to UTC with millisecond precision,
 * so what reaches the engine is always a form it parses.
 */
export const dateTimeParam = (description: string) =>
  z
    .string()
    .refine(
      (value) =>
        /^\d{4}-\d{2}-\d{2}([Tt ]\d{2}:\d{2}(:\d{2}(\.\d+)?)?([Zz]|[+-]\d{2}:?\d{2})?)?$/.test(
          value.trim(),
        ) &&
        isCalendarDate(value.trim()) &&
        !Number.isNaN(Date.parse(value.trim())),
      {
        error: 'must be an RFC 3339 date-time (2024-01-31T09:00:00Z) or a date (2024-01-31)',
      },
    )
    .transform((value) => new Date(value.trim()).toISOString())
    .openapi({ type: 'string', format: 'date-time', description, example: '2024-01-31T09:00:00Z' });

const facetsError = `must be a comma-separated list of ${FACET_NAMES.join(', ')}`;

const stringParam = (description: string, max?: number) =>
  (max === undefined
    ? z.string({ error: 'must be a string' })
    : z.string({ error: 'must be a string' }).max(max, { error: `must be at most ${max} characters` })
  ).openapi({ description });

// An empty value means absent, as HTML forms send them (`?search=&taxonomy_id=&page=`) and as JSON
// bodies built from forms do (`"page": ""`): such a parameter filters nothing and gets its default.
const isBlank = (value: unknown) => (typeof value === 'string' && value.trim() === '' ? undefined : value);
const blankIsAbsent =
  <Args extends unknown[], Schema extends z.ZodType>(build: (...args: Args) => Schema) =>
  (...args: Args) => {
    const schema = build(...args);
    return z.preprocess(isBlank, schema.optional()).openapi(schema.meta() ?? {});
  };

// Each list parameter; an empty value is absent. Descriptions follow the specification's parameters (schema/openapi.json components), corrected
// where they are wrong (`minimal` speaks of `modified_date`; the field is `last_modified`).
export const param = {
  search: blankIsAbsent(() =>
    stringParam(
      `Full text search. Words match names (service, organization, taxonomy terms) and descriptions (the service's and its taxonomy terms'), with English stemming, a search vocabulary (synonyms, everyday needs such as "somewhere to sleep", UK and US spellings, compounds such as foodbank, abbreviations such as GP or DV) and one typo forgiven in words of three to ${MAX_FUZZY_WORD_CHARS} characters (below five, the first letter must be right); a word found in several fields ranks above one found in one; "quoted phrases" must match as phrases. Any text up to ${MAX_SEARCH_CHARS} characters is accepted (longer is a 400); words beyond the first ${MAX_SEARCH_WORDS} are ignored.`,
      MAX_SEARCH_CHARS,
    ),
  ),
  page: blankIsAbsent(() =>
    integerParam(
      'Page number of paginated result, from 1. A page past the last is an empty page. Every page can be reached, including past the 10,000th result; for a whole result set, `format=ndjson` is faster.',
      1,
      MAX_PAGE,
      { default: 1 },
    ),
  ),
  perPage: blankIsAbsent((limits: ListLimits) =>
    integerParam(
      `Number of results requested in a single page: ${limits.defaultPerPage} unless given, at most ${limits.maxPerPage}.`,
      1,
      limits.maxPerPage,
      { default: limits.defaultPerPage },
    ),
  ),
  format: blankIsAbsent(() =>
    z.preprocess(lowerCaseString, z.enum(['json', 'ndjson'], { error: 'must be json or ndjson' })).openapi({
      type: 'string',
      enum: ['json', 'ndjson'],
      default: 'json',
      description:
        'Return results in the specified format. Default is `json` (a page). `ndjson` streams every matching result, one JSON object a line, without pagination (`page` and `per_page` are ignored), as `application/x-ndjson`.',
    }),
  ),
  facets: blankIsAbsent(() =>
    z
      .preprocess(
        (value) =>
          typeof value === 'string'
            ? value
                .split(',')
                .map((name) => name.trim().toLowerCase())
                .filter(Boolean)
            : value,
        z
          .array(z.string(), { error: facetsError })
          .refine((names) => names.every((name) => (FACET_NAMES as readonly string[]).includes(name)), {
            error: facetsError,
          })
          .transform((names) => [...new Set(names)] as FacetName[]),
      )
      .openapi({
        type: 'string',
        pattern: `^\\s*(${FACET_NAMES.join('|')})(\\s*,\\s*(${FACET_NAMES.join('|')}))*\\s*$`,
        example: 'taxonomy_term,organization',
        description: `An extension of this API: counts of the matches (for the current search and filters) per ${FACET_NAMES.join(', ')}, in the page's \`facets\` field, e.g. \`{"taxonomy_term": [{"id": "...", "name": "Food", "count": 12}]}\`: the ${FACET_SIZE} most frequent values of each, most frequent first. Absent unless asked for; not in \`format=ndjson\` streams.`,
      }),
  ),
  taxonomyTermId: blankIsAbsent(() => idParam('Search for records with particular taxonomy_term.')),
  includeChildTerms: blankIsAbsent(() =>
    booleanParam(
      'An extension of this API, on by default: `taxonomy_term_id` also finds records linked to any term below it (its children, their children, and so on; up to 5,000 terms), so a broad category finds the services filed under its narrower ones; `taxonomy_id` also finds records linked to terms below its terms that name no taxonomy or another. `false` matches the term or taxonomy alone.',
    ),
  ),
  taxonomyId: blankIsAbsent(() => idParam('Search for records which contain any term with this taxonomy.')),
  organizationId: blankIsAbsent(() => idParam('Search for services that this organization provides.')),
  modifiedAfter: blankIsAbsent(() =>
    dateTimeParam(
      'Return all results modified on or after this datetime (`last_modified`). A date alone means its start, UTC.',
    ),
  ),
  age: blankIsAbsent(() =>
    numberParam(
      'An extension of this API: services that take someone this old (years): `minimum_age` at most, `maximum_age` at least this; a bound a service does not state holds for any age. Also a facet (`facets=age`: bands 0-4, 5-11, 12-17, 18-24, 25-64, 65+, each counting the services whose range overlaps it).',
      0,
      200,
    ),
  ),
  language: blankIsAbsent(() =>
    stringParam(
      'An extension of this API: services where someone speaks this language, by its `code` (`en`, `pl`) or `name` (`Polish`), in any case: languages of the service, of its locations and of their phones (on /service_at_locations, the location of each). Also a facet (`facets=language`: each language by its code, else its name, lower-cased).',
      100,
    ),
  ),
  free: blankIsAbsent(() =>
    booleanParam(
      'An extension of this API: `true` keeps services that say they are free: a cost option with amount 0, or a cost option (`option`, `amount_description`) or `fees_description` saying "free", "no charge" or "no cost". `false` filters nothing. Also a facet (`facets=free`: `true`, and `false` for a positive amount or "not free"; a service that says neither is counted in neither).',
    ),
  ),
  accessibility: blankIsAbsent(() =>
    stringParam(
      "An extension of this API: services whose locations' accessibility records (`description`, `details`) hold every word given, stemmed (`wheelchair`, `hearing loop`); on /service_at_locations, the location of each. Also a facet (`facets=accessibility`: the records as written, lower-cased).",
      200,
    ),
  ),
  openAt: blankIsAbsent(() =>
    z
      .string({ error: 'must be a date-time' })
      .refine((value) => parseInstant(value, 'UTC') !== undefined, {
        error: 'must be an RFC 3339 date-time (2026-03-07T10:30:00Z, 2026-03-07T10:30) or a date',
      })
      .transform((value) => value.trim())
      .openapi({
        type: 'string',
        example: '2026-03-07T10:30:00+00:00',
        description:
          "An extension of this API: only records open at this instant by one of their schedules (docs/api.md, \"Open now\"): RRULE `freq` WEEKLY or MONTHLY, `interval` counted from `dtstart`, `byday` (with ordinals such as `1MO`, `-1FR`), `bymonthday`, `count`, `until`, `valid_from`/`valid_to`; hours past midnight run into the next day. Local time is the schedule's `timezone` (a UTC offset), else the offset in its `opens_at`, else the server's DIRECTORY_TIMEZONE; an instant without an offset is in DIRECTORY_TIMEZONE. A service is open when one of its own schedules (with HSDS 3.3 `operating_hours` and `events`) or one of its service_at_locations' is; a service_at_location by its own schedules, else by its service's. A record with no schedule is never returned.",
      }),
  ),
  openNow: blankIsAbsent(() =>
    booleanParam(
      'An extension of this API: `true` keeps only records open now, as `open_at` does for the time of the request. Not with `open_at`.',
    ),
  ),
  nextOpening: blankIsAbsent(() =>
    booleanParam(
      'An extension of this API: `true` gives each record `next_opening`, when its schedules next open by the rules of `open_at` (monthly, fortnightly and one-off schedules as well as weekly): `{ "open_now": true, "until": <instant> }` when open at the time of the request, else `{ "open_now": false, "opens_at": <instant> }` within the next 62 days; absent when neither. Instants are RFC 3339 in UTC. A record is read by the schedules it holds: with `full=true`, all of them; a list item holds its service\'s `operating_hours` and `events` only.',
    ),
  ),
  includeDeleted: blankIsAbsent((since: boolean) =>
    booleanParam(
      `An extension for harvesters (the change feed): also list the records deleted${since ? ' at or after `modified_after`' : ''} (kept for a period the server sets, TOMBSTONE_RETENTION_DAYS, 30 days by default), each as \`{ "id", "deleted": true, "deleted_at" }\` in place of a record, in pages and in \`format=ndjson\`. Other filters apply to live records only: a deleted record's fields are gone. Sorted with the records (in name order, after them).`,
    ),
  ),
  minimal: blankIsAbsent(() =>
    booleanParam(
      "Return every matching service with just 'id' and 'last_modified', in one streamed response (one page holding all of them; `page` and `per_page` are ignored).",
    ),
  ),
  full: blankIsAbsent((what: string) => booleanParam(`true, false return fully nested ${what}.`)),
  fullService: blankIsAbsent(() =>
    booleanParam(
      'Fully nested organization with service array that contains full service information. Without it, each service in the array holds its id, name and status.',
    ),
  ),
  topOnly: blankIsAbsent(() =>
    booleanParam(
      'Only retrieve top-level taxonomy terms: those without a parent. (The specification says "terms that have not child terms", which is read as terms that are not child terms.)',
    ),
  ),
  parentId: blankIsAbsent(() => idParam('Retrieve taxonomy terms that have a parent with this id.')),
  postcode: blankIsAbsent(() =>
    stringParam(
      'The postcode or zip code of a point used to check service coverage. If `service_area` is available, only return results where the postcode exists within the `service_area`; results without a service area are kept. If `proximity` is provided, only show results within the proximity from the centroid of the postcode. With a postcode, results are sorted by distance, nearest first, and each carries `distance` (metres from the centroid). A UK postcode (AB10 1AB), UK outcode (AB10) or US ZIP code (12345). Malformed: 400 `invalid-parameter`. Well-formed but known to no geocoder on this server: 400 `unknown-postcode`, never an empty page. No geocoder reachable: 503. A full postcode known only by its outcode is placed at the outcode centroid, and the `Postcode-Precision` response header says `outcode`.',
      32,
    ),
  ),
  servicePostcode: blankIsAbsent(() =>
    stringParam(
      'The postcode or zip code of a point to sort services by: nearest location first (services without a located one last). If `proximity` is provided, only services with a location within the proximity from the centroid of the postcode, or with a `service_area` (of the service or of one of its service_at_locations) that covers the centroid: those with a location within come first, nearest first, then those the area alone brings, by name. (`/service_at_locations` keeps only results whose `service_area` covers the postcode, with or without `proximity`.) A UK postcode (AB10 1AB), UK outcode (AB10) or US ZIP code (12345). Malformed: 400 `invalid-parameter`. Well-formed but known to no geocoder on this server: 400 `unknown-postcode`. No geocoder reachable: 503. The `Postcode-Precision`, `Postcode-Matched` and `Postcode-Centroid` response headers say which centroid was used.',
      32,
    ),
  ),
  proximity: blankIsAbsent(() =>
    numberParam(
      'Return services that exist within this many metres from the centroid of the provided postcode (requires `postcode`).',
      1,
      1_000_000,
    ),
  ),
  minimumAge: blankIsAbsent(() =>
    numberParam('Return services with a minimum age of at least the specified value.', 0, 200),
  ),
  maximumAge: blankIsAbsent(() =>
    numberParam('Return services with a maximum age equal to or below the specified value.', 0, 200),
  ),
  day: blankIsAbsent(() =>
    z
      .preprocess(
        (value) => (typeof value === 'string' ? (dayCodes[value.trim().toLowerCase()] ?? value) : value),
        z.enum(['MO', 'TU', 'WE', 'TH', 'FR', 'SA', 'SU'], {
          error: 'must be a day: MO, TU, WE, TH, FR, SA, SU (or its English name)',
        }),
      )
      .openapi({
        type: 'string',
        description:
          'Return services open on this day: an RFC 5545 day code (MO, TU, WE, TH, FR, SA, SU) or the English day name. With `start_time` or `end_time`, the same opening slot must match both.',
        example: 'MO',
      }),
  ),
  startTime: blankIsAbsent(() =>
    timeParam('Return services with a start time (opens_at) of at least the specified value (HH:MM).'),
  ),
  endTime: blankIsAbsent(() =>
    timeParam('Return services with an end time (closes_at) equal to or below the specified value (HH:MM).'),
  ),
};

const dayCodes: Record<string, string> = {
  mo: 'MO',
  mon: 'MO',
  monday: 'MO',
  tu: 'TU',
  tue: 'TU',
  tues: 'TU',
  tuesday: 'TU',
  we: 'WE',
  wed: 'WE',
  wednesday: 'WE',
  th: 'TH',
  thu: 'TH',
  thur: 'TH',
  thurs: 'TH',
  thursday: 'TH',
  fr: 'FR',
  fri: 'FR',
  friday: 'FR',
  sa: 'SA',
  sat: 'SA',
  saturday: 'SA',
  su: 'SU',
  sun: 'SU',
  sunday: 'SU',
};

/** HH:MM or HH:MM:SS, answered as HH:MM: the form the services index holds opening times in. */
function timeParam(description: string) {
  return z
    .string({ error: 'must be a time, HH:MM' })
    .regex(/^([01]\d|2[0-3]):[0-5]\d(:[0-5]\d)?$/, { error: 'must be a time, HH:MM' })
    .transform((value) => value.slice(0, 5))
    .openapi({ type: 'string', description, example: '09:00' });
}

export type PagingParams = {
  page?: number | undefined;
  per_page?: number | undefined;
  format?: 'json' | 'ndjson' | undefined;
};

export type Paging = { page: number; perPage: number; format: 'json' | 'ndjson' };

/** Page, size and format with their defaults. */
export function resolvePaging(params: PagingParams, limits: ListLimits): Paging {
  return {
    page: params.page ?? 1,
    perPage: params.per_page ?? limits.defaultPerPage,
    format: params.format ?? 'json',
  };
}

/** `proximity` measures from a postcode's centroid: alone, it has nothing to measure from. */
export function requirePostcodeForProximity(params: {
  postcode?: string | undefined;
  proximity?: number | undefined;
}) {
  if (params.proximity !== undefined && params.postcode === undefined) {
    throw invalidParameter('proximity', 'requires postcode: the distance is measured from its centroid');
  }
}

/** The search with the deletions of its type added when `include_deleted=true` (the change feed). */
export const withDeleted = (request: SearchRequest, include: boolean | undefined, since?: string) =>
  include ? includeDeleted(request, since) : request;
