/**
 * The directory as a Model Context Protocol server: three read-only tools an assistant calls to
 * find help for someone. Each tool asks the API's own routes, in process (`request`, which is
 * `app.request`), so it shares every filter, the postcode geocoding, the search by meaning and
 * the validation of the list endpoints: a bad argument is the route's 400, handed back as a tool
 * error that says what to fix. Nothing here reads the engine, and nothing is added to a record.
 */
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';
import {
  describeService,
  type Json,
  type ServiceSummary,
  summariseService,
  summariseServiceAtLocation,
} from './service-text.ts';

export type McpDeps = {
  /** Answers a GET of the API's own path and query (`app.request`). */
  request: (path: string) => Promise<Response> | Response;
  /** The URL clients reach the API at, for each record's URL. */
  baseUrl: string;
  /** The server's version, told to clients. */
  version?: string;
};

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** At most this many results a call: an assistant reads them all, and a long page buries the best. */
const MAX_RESULTS = 50;

/** A tool's `page` and `per_page` arguments (`noun`: what a page holds; `byDefault`: the route's own page size). */
const pagingInput = (noun: string, Noun: string, byDefault: number) => ({
  page: z.number().int().min(1).optional().describe(`The page of ${noun}, from 1.`),
  per_page: z
    .number()
    .int()
    .min(1)
    .max(MAX_RESULTS)
    .optional()
    .describe(`${Noun} a page: ${byDefault} unless given, at most ${MAX_RESULTS}.`),
});

const searchInput = {
  text: z
    .string()
    .max(500)
    .optional()
    .describe(
      'Words for the help wanted, as the person said it ("food bank", "debt advice", "somewhere to sleep tonight"). Matches names and descriptions, also by meaning.',
    ),
  postcode: z
    .string()
    .max(32)
    .optional()
    .describe(
      'Where the person is: a UK postcode (AB10 1AB), outcode (AB10) or US ZIP code. Keeps services that cover it, nearest first, each with its distance.',
    ),
  proximity: z
    .number()
    .positive()
    .optional()
    .describe(
      'With postcode: only services within this many metres of it (e.g. 2000 on foot, 10000 by bus).',
    ),
  taxonomy_term_id: z
    .string()
    .optional()
    .describe('Only services with this taxonomy term (an id from list_taxonomy_terms).'),
  taxonomy_id: z.string().optional().describe('Only services with any term of this taxonomy (an id).'),
  organization_id: z.string().optional().describe('Only services of this organization (an id).'),
  age: z.number().min(0).max(200).optional().describe('Only services that take someone of this age (years).'),
  language: z
    .string()
    .max(100)
    .optional()
    .describe('Only services where someone speaks this language: a code (pl) or a name (Polish).'),
  free: z.boolean().optional().describe('true: only services that say they are free.'),
  accessibility: z
    .string()
    .max(200)
    .optional()
    .describe('Only services whose locations say this about access (wheelchair, hearing loop).'),
  open_now: z.boolean().optional().describe('true: only services open now by their schedules.'),
  open_at: z
    .string()
    .optional()
    .describe('Only services open at this date-time (2026-03-07T10:30:00Z); not with open_now.'),
  modified_after: z.string().optional().describe('Only records changed on or after this date-time.'),
  ...pagingInput('results', 'Results', 10),
};

const taxonomyTermsInput = {
  text: z.string().max(500).optional().describe('Words to find terms by (e.g. "housing", "mental health").'),
  taxonomy_id: z.string().optional().describe('Only terms of this taxonomy (an id).'),
  parent_id: z.string().optional().describe('Only the terms under this term (an id).'),
  top_only: z.boolean().optional().describe('true: only top-level terms (a first look at the categories).'),
  ...pagingInput('terms', 'Terms', 20),
};

const RELAXED = {
  meaning: 'Nothing matched the words as given; these are services close to what they mean.',
  fewer_words: 'Nothing matched every word; these match some of them.',
} as const;

/** The query string of a tool's arguments, renamed where the tool speaks plainer than the API. */
function queryOf(args: Record<string, unknown>, renames: Record<string, string> = {}): string {
  const query = new URLSearchParams();
  for (const [name, value] of Object.entries(args)) {
    if (value === undefined || value === null || value === '') continue;
    query.set(renames[name] ?? name, String(value));
  }
  return query.toString();
}

const toolError = (message: string): CallToolResult => ({
  isError: true,
  content: [{ type: 'text', text: message }],
});

/** The API's answer as JSON, or the tool error its problem+json (or status) explains. */
async function getJson(deps: McpDeps, path: string): Promise<Json | CallToolResult> {
  const res = await deps.request(path);
  const body = (await res.json().catch(() => undefined)) as Json | undefined;
  if (res.ok && body) return body;
  const detail = typeof body?.detail === 'string' ? body.detail : (body?.title ?? res.statusText);
  if (res.status === 404) return toolError(`Not found: ${detail}`);
  if (res.status >= 500)
    return toolError(`The directory could not answer (${res.status}): ${detail}. Try again shortly.`);
  return toolError(`The directory refused these arguments (${res.status}): ${detail}`);
}

const isToolError = (value: Json | CallToolResult): value is CallToolResult => value.isError === true;

const pageOf = (body: Json) => ({
  total_items: typeof body.total_items === 'number' ? body.total_items : 0,
  page: typeof body.page_number === 'number' ? body.page_number : 1,
  total_pages: typeof body.total_pages === 'number' ? body.total_pages : 0,
});

const contents = (body: Json): Json[] =>
  Array.isArray(body.contents)
    ? body.contents.filter((c): c is Json => typeof c === 'object' && c !== null)
    : [];

export function createMcpServer(deps: McpDeps): McpServer {
  const server = new McpServer(
    { name: 'hsds-directory', version: deps.version ?? '1.0.0' },
    {
      instructions:
        "A directory of human services (help offered by councils, charities and others: food, housing, money advice, health...). Use search_services to find help for a need near a place; get_service for the full record of one; list_taxonomy_terms to find the categories to filter by. Tell people only what the records say, and give each record's URL.",
    },
  );

  server.registerTool(
    'search_services',
    {
      title: 'Search services',
      description:
        'Find services for a need, near a place. Use it when someone asks what help there is ("food bank near AB10 1AB", "debt advice in Leeds for someone who speaks Polish"). Give `postcode` whenever the place is known: results then cover it and come nearest first, with distance. Each result says the service, its organization, address, phone, opening times and record URL, as the directory holds them; use get_service for more of one.',
      inputSchema: searchInput,
      annotations: { readOnlyHint: true, openWorldHint: false },
    },
    async (args) => {
      const { text, per_page, ...rest } = args;
      // Near a place: the places services are offered at, nearest first. Otherwise the services
      // themselves, so a directory whose services publish no location is searched too, and each
      // service is counted once. A broad category includes its narrower terms (the API default).
      // (A distance alone goes there too, to be told it needs a postcode.)
      const byPlace =
        (args.postcode !== undefined && args.postcode.trim() !== '') || args.proximity !== undefined;
      const query = queryOf({
        search: text,
        ...rest,
        per_page: per_page ?? 10,
        full: true,
      });
      const body = await getJson(deps, `${byPlace ? '/service_at_locations' : '/services'}?${query}`);
      if (isToolError(body)) return body;
      const services = contents(body)
        .map((item) =>
          byPlace ? summariseServiceAtLocation(item, deps.baseUrl) : summariseService(item, deps.baseUrl),
        )
        .filter((s): s is ServiceSummary => s !== undefined);
      const page = pageOf(body);
      const from = args.postcode?.trim().toUpperCase();
      // The route's own word on a search that found nothing as typed: passed on, never hidden, so
      // the assistant does not present a wider search as an exact match.
      const relaxed = body.relaxed === 'meaning' || body.relaxed === 'fewer_words' ? body.relaxed : undefined;
      const didYouMean = typeof body.did_you_mean === 'string' ? body.did_you_mean : undefined;
      const heading = [
        page.total_items === 0
          ? 'No services found for this search.'
          : `${page.total_items} service${page.total_items === 1 ? '' : 's'} found; page ${page.page} of ${page.total_pages}:`,
        ...(relaxed ? [RELAXED[relaxed]] : []),
        ...(didYouMean
          ? [`Did you mean "${didYouMean}"? Search again with that text to see its services.`]
          : []),
      ].join(' ');
      return {
        content: [
          { type: 'text', text: heading },
          ...services.map((s, i) => ({
            type: 'text' as const,
            text: `${i + 1}. ${describeService(s, from)}`,
          })),
        ],
        structuredContent: {
          ...page,
          ...(relaxed ? { relaxed } : {}),
          ...(didYouMean ? { did_you_mean: didYouMean } : {}),
          services,
        },
      };
    },
  );

  server.registerTool(
    'get_service',
    {
      title: 'Get a service',
      description:
        'The full record of one service, by its id (service_id from search_services): its description, eligibility, fees, every location with address, phones and opening times, and its organization. Use it when someone wants the details of a service already found.',
      inputSchema: {
        // A UUID in any case, as the route takes it; checked here too, since the id is a path segment.
        id: z
          .string()
          .trim()
          .regex(UUID, { error: 'must be a service id (a UUID) from search_services' })
          .describe('The service id (a UUID), the service_id of a search_services result.'),
      },
      annotations: { readOnlyHint: true, openWorldHint: false },
    },
    async ({ id }) => {
      const body = await getJson(deps, `/services/${id}`);
      if (isToolError(body)) return body;
      const summary = summariseService(body, deps.baseUrl);
      const description = typeof body.description === 'string' ? body.description.trim() : '';
      return {
        content: [
          { type: 'text', text: describeService(summary) },
          ...(description ? [{ type: 'text' as const, text: `Description: ${description}` }] : []),
        ],
        structuredContent: { summary, service: body },
      };
    },
  );

  server.registerTool(
    'list_taxonomy_terms',
    {
      title: 'List taxonomy terms',
      description:
        'The categories services are filed under (taxonomy terms), with their ids. Use it to narrow search_services by category (its taxonomy_term_id), when words alone find too much or too little; start with top_only, or search by words.',
      inputSchema: taxonomyTermsInput,
      annotations: { readOnlyHint: true, openWorldHint: false },
    },
    async (args) => {
      const { text, per_page, ...rest } = args;
      const body = await getJson(
        deps,
        `/taxonomy_terms?${queryOf({ search: text, ...rest, per_page: per_page ?? 20 })}`,
      );
      if (isToolError(body)) return body;
      const terms = contents(body).map((term) => {
        const taxonomy =
          typeof term.taxonomy_detail === 'object' && term.taxonomy_detail !== null
            ? (term.taxonomy_detail as Json).name
            : term.taxonomy;
        return Object.fromEntries(
          Object.entries({
            id: term.id,
            name: term.name,
            code: term.code,
            description: term.description,
            taxonomy: typeof taxonomy === 'string' ? taxonomy : undefined,
            parent_id: term.parent_id,
          }).filter(([, v]) => v !== undefined && v !== null && v !== ''),
        );
      });
      const page = pageOf(body);
      const lines = terms.map(
        (t) =>
          `- ${t.name}${t.code ? ` [${t.code}]` : ''}${t.taxonomy ? ` (${t.taxonomy})` : ''}: taxonomy_term_id ${t.id}`,
      );
      return {
        content: [
          {
            type: 'text',
            text:
              terms.length === 0
                ? 'No taxonomy terms found.'
                : `${page.total_items} term${page.total_items === 1 ? '' : 's'}; page ${page.page} of ${page.total_pages}:\n${lines.join('\n')}`,
          },
        ],
        structuredContent: { ...page, terms },
      };
    },
  );

  return server;
}
