/**
 * The conformance summary of a remote HSDS API: its endpoints checked against the HSDS 3.1 API
 * reference (https://docs.openreferral.org/en/latest/hsds/api_reference.html): `/`, `/services` and `/services/{id}` are REQUIRED; the
 * lists of organizations, service-at-locations, taxonomies and terms and their `{id}` routes are
 * OPTIONAL; `format=ndjson` (a whole-list dump, this API's and others') is checked when offered.
 * A list must answer a Page (`total_items`, `total_pages`, `page_number`, `size`, `first_page`,
 * `last_page`, `empty`, `contents`); the `{id}` route of its first item must answer that item.
 * Each check says what it found; `conformant` means every required check passed.
 */
import type { ConformanceCheck, ConformanceSummary } from './validate-items.ts';

const PAGE_FIELDS = {
  total_items: 'number',
  total_pages: 'number',
  page_number: 'number',
  size: 'number',
  first_page: 'boolean',
  last_page: 'boolean',
  empty: 'boolean',
  contents: 'array',
} as const;

const LISTS = [
  { path: '/services', required: true },
  { path: '/organizations', required: false },
  { path: '/service_at_locations', required: false },
  { path: '/taxonomies', required: false },
  { path: '/taxonomy_terms', required: false },
] as const;

type Json = Record<string, unknown>;

/** What is wrong with a Page, or undefined. */
export function pageProblems(body: unknown): string | undefined {
  if (Array.isArray(body)) return 'not a Page: a bare JSON array';
  if (typeof body !== 'object' || body === null) return 'not a Page: not a JSON object';
  const page = body as Json;
  const wrong = Object.entries(PAGE_FIELDS)
    .filter(([field, kind]) => (kind === 'array' ? !Array.isArray(page[field]) : typeof page[field] !== kind))
    .map(([field, kind]) => `${field} (${kind})`);
  return wrong.length > 0 ? `not a Page: missing or mistyped ${wrong.join(', ')}` : undefined;
}

/** Checks a remote HSDS API's endpoints; never throws (a failed request is a failed check). */
export async function checkConformance(
  baseUrl: string,
  fetcher: typeof fetch,
  timeoutMs = 30_000,
): Promise<ConformanceSummary> {
  const base = baseUrl.replace(/\/+$/, '');
  const checks: ConformanceCheck[] = [];
  // Why a check that passed was not made (an empty list has no {id} to ask for).
  let skipped: string | undefined;
  const get = async (path: string, accept = 'application/json') => {
    const response = await fetcher(`${base}${path}`, {
      headers: { accept },
      signal: AbortSignal.timeout(timeoutMs),
    });
    const text = await response.text();
    return { status: response.status, type: response.headers.get('content-type') ?? '', text };
  };
  const check = async (name: string, required: boolean, run: () => Promise<string | undefined>) => {
    try {
      const problem = await run();
      checks.push({ check: name, required, ok: problem === undefined, detail: problem ?? skipped ?? 'ok' });
      skipped = undefined;
    } catch (error) {
      checks.push({ check: name, required, ok: false, detail: (error as Error).message });
    }
  };
  const json = (text: string): unknown => {
    try {
      return JSON.parse(text);
    } catch {
      throw new Error('the answer is not JSON');
    }
  };

  await check('GET / (the API root: version)', true, async () => {
    const { status, text } = await get('/');
    if (status !== 200) return `HTTP ${status}`;
    const root = json(text) as Json;
    return typeof root?.version === 'string' ? undefined : 'no `version` in the answer';
  });
  for (const list of LISTS) {
    let first: string | undefined;
    let empty = false;
    await check(`GET ${list.path} (a Page)`, list.required, async () => {
      const { status, text } = await get(`${list.path}?per_page=5`);
      if (status !== 200) return `HTTP ${status}`;
      const body = json(text);
      const problem = pageProblems(body);
      if (problem) return problem;
      const contents = (body as Json).contents as Json[];
      empty = contents.length === 0;
      const id = contents[0]?.id;
      first = typeof id === 'string' ? id : undefined;
      return undefined;
    });
    await check(`GET ${list.path}/{id}`, list.required, async () => {
      if (empty) {
        skipped = `not checked: ${list.path} is empty`;
        return undefined;
      }
      if (first === undefined) return `no item in ${list.path} to ask for`;
      const { status, text } = await get(`${list.path}/${encodeURIComponent(first)}`);
      if (status !== 200) return `HTTP ${status}`;
      const item = json(text) as Json;
      return item?.id === first ? undefined : `answered another record (id ${String(item?.id)})`;
    });
  }
  await check('GET /services?format=ndjson (a dump, one service a line)', false, async () => {
    const { status, type, text } = await get('/services?format=ndjson', 'application/x-ndjson');
    if (status !== 200) return `HTTP ${status}`;
    if (!/ndjson|jsonl|json-seq/i.test(type)) return `not NDJSON (Content-Type ${type || 'none'})`;
    const lines = text.split('\n').filter((l) => l.trim() !== '');
    const bad = lines.findIndex((line) => {
      try {
        const value = JSON.parse(line) as Json;
        return typeof value?.id !== 'string';
      } catch {
        return true;
      }
    });
    return bad < 0 ? undefined : `line ${bad + 1} is not a service`;
  });
  return { conformant: checks.every((c) => c.ok || !c.required), checks };
}
