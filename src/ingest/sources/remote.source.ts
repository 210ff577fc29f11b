/**
 * A remote HSDS API as a source: harvests its taxonomies and terms (where offered), its
 * organizations (where offered: an organization that runs no service is found nowhere else), and
 * every service, fully nested. Services come from `GET /services?format=ndjson&full=true` when the API
 * streams NDJSON, else page by page; list items that are not fully nested are fetched one by one
 * from `GET /services/{id}` (the one endpoint every HSDS API must have). Every request has a
 * timeout and is retried with exponential backoff on network errors, 429 and 5xx (honouring
 * Retry-After).
 */
import { setTimeout as sleep } from 'node:timers/promises';
import type { RecordType } from '../../hsds/index.ts';
import {
  createOruk1Context,
  hasLegacyId,
  looksLikeOruk1,
  migrateOruk1Organization,
  migrateOruk1Service,
  migrateOruk1Taxonomy,
} from '../migrate/oruk-1.ts';
import type { Issue } from '../records/flatten.ts';
import type { SourceItem } from './source.ts';

export type HarvestOptions = {
  /** Per request (for NDJSON: the longest silence between chunks). */
  timeoutMs?: number;
  retries?: number;
  perPage?: number;
  /** `GET /services/{id}` requests in flight at once. */
  concurrency?: number;
  /** Backoff before retry n (0-based): default 0.5 s doubling to 30 s, with jitter. */
  backoffMs?: (attempt: number) => number;
  onRetry?: (info: { url: string; attempt: number; reason: string }) => void;
  signal?: AbortSignal;
  /**
   * Harvest only what changed at or after this time (ISO 8601), with deletions: every list is asked
   * with `modified_after` and `include_deleted=true` (this API's change feed; check first with
   * `offersChangeFeed`), and tombstones become deletions.
   */
  since?: string;
  /** The fetch to make requests with (validation passes one that refuses private addresses). */
  fetch?: typeof fetch;
};

/**
 * Whether an HSDS API offers the change feed (`include_deleted` with `modified_after`): its OpenAPI
 * document (`/openapi.json`, linked from `/`) names the parameter.
 */
export async function offersChangeFeed(baseUrl: string, options: HarvestOptions = {}): Promise<boolean> {
  const base = baseUrl.replace(/\/+$/, '');
  const fetcher = createFetcher({ ...options, retries: Math.min(options.retries ?? 2, 2) });
  const names = async (url: string) => {
    const response = await fetcher(url);
    if (!response.ok) {
      await response.body?.cancel();
      return undefined;
    }
    return (await response.text()).includes('"include_deleted"');
  };
  try {
    // Where this API serves it; else where its root says (a server behind a proxy may know better).
    const here = await names(`${base}/openapi.json`);
    if (here !== undefined) return here;
    const root = await fetcher(`${base}/`);
    const info = root.ok ? ((await root.json()) as { openapi_url?: unknown }) : {};
    if (!root.ok) await root.body?.cancel();
    return typeof info.openapi_url === 'string' ? ((await names(info.openapi_url)) ?? false) : false;
  } catch {
    return false;
  }
}

/** A tombstone of a change feed (`{ id, deleted: true, deleted_at }`) as a deletion. */
function asDeletion(item: unknown, type: RecordType, origin: string): SourceItem | undefined {
  if (typeof item !== 'object' || item === null) return undefined;
  const { id, deleted } = item as { id?: unknown; deleted?: unknown };
  return deleted === true && typeof id === 'string' ? { kind: 'deleted', type, id, origin } : undefined;
}

export class HarvestError extends Error {
  override readonly name = 'HarvestError';
  readonly status: number | undefined;
  constructor(message: string, status?: number) {
    super(message);
    this.status = status;
  }
}

const RETRYABLE = new Set([408, 425, 429, 500, 502, 503, 504]);

const defaultBackoff = (attempt: number) => {
  const base = Math.min(30_000, 500 * 2 ** attempt);
  return base / 2 + Math.random() * (base / 2);
};

function retryAfterMs(response: Response): number | undefined {
  const header = response.headers.get('retry-after');
  if (!header) return undefined;
  const seconds = Number(header);
  if (Number.isFinite(seconds)) return Math.min(60_000, seconds * 1000);
  const date = Date.parse(header);
  return Number.isFinite(date) ? Math.max(0, Math.min(60_000, date - Date.now())) : undefined;
}

type Fetcher = (url: string, accept?: string, idle?: boolean) => Promise<Response>;

function createFetcher(options: HarvestOptions): Fetcher {
  const timeoutMs = options.timeoutMs ?? 30_000;
  const retries = options.retries ?? 5;
  const backoff = options.backoffMs ?? defaultBackoff;
  return async (url, accept = 'application/json') => {
    for (let attempt = 0; ; attempt++) {
      options.signal?.throwIfAborted();
      let reason: string;
      let wait: number | undefined;
      try {
        const signal = options.signal
          ? AbortSignal.any([options.signal, AbortSignal.timeout(timeoutMs)])
          : AbortSignal.timeout(timeoutMs);
        const response = await (options.fetch ?? fetch)(url, { headers: { accept }, signal });
        if (!RETRYABLE.has(response.status)) return response;
        reason = `HTTP ${response.status}`;
        wait = retryAfterMs(response);
        await response.body?.cancel();
      } catch (error) {
        if (options.signal?.aborted) throw error;
        const e = error as Error;
        reason = e.name === 'TimeoutError' ? `no answer within ${timeoutMs} ms` : e.message;
      }
      if (attempt >= retries)
        throw new HarvestError(`${url}: ${reason} (gave up after ${attempt + 1} attempts)`);
      options.onRetry?.({ url, attempt: attempt + 1, reason });
      await sleep(wait ?? backoff(attempt), undefined, options.signal ? { signal: options.signal } : {});
    }
  };
}

const fetchIssue = (
  source: string,
  reason: string,
  severity: Issue['severity'] = 'error',
  kind: Issue['kind'] = 'unreadable',
): SourceItem => ({
  kind: 'issue',
  issue: { severity, kind, source, path: '', reason },
});

// An HSDS Page, or the Spring page of an ORUK 1.0 API (`content`, `totalPages`, `last`).
type Page = {
  contents?: unknown[];
  total_pages?: number;
  last_page?: boolean;
  page_number?: number;
  content?: unknown[];
  totalPages?: number;
  last?: boolean;
};

/** Pages of a list endpoint; `undefined` when the API does not offer it (404). */
async function* pages(
  fetcher: Fetcher,
  base: string,
  path: string,
  perPage: number,
  extra: Record<string, string> = {},
): AsyncGenerator<{ url: string; items: unknown[] } | { url: string; missing: true }> {
  for (let page = 1; ; page++) {
    const url = `${base}${path}?${new URLSearchParams({ ...extra, page: String(page), per_page: String(perPage) })}`;
    const response = await fetcher(url);
    if (response.status === 404 || response.status === 501) {
      await response.body?.cancel();
      if (page === 1) yield { url, missing: true };
      return;
    }
    if (!response.ok) throw new HarvestError(`${url}: HTTP ${response.status}`, response.status);
    const body = (await response.json()) as Page | unknown[];
    const items = Array.isArray(body)
      ? body
      : Array.isArray(body.contents)
        ? body.contents
        : Array.isArray(body.content)
          ? body.content
          : [];
    yield { url, items };
    if (Array.isArray(body) || items.length === 0) return;
    if (body.last_page === true || body.last === true) return;
    const totalPages = body.total_pages ?? body.totalPages;
    if (typeof totalPages === 'number' && page >= totalPages) return;
  }
}

// Keys only a fully nested service has (a list item carries organization and program too).
const FULL_SERVICE_KEYS = [
  'service_at_locations',
  'phones',
  'schedules',
  'service_areas',
  'contacts',
  'attributes',
  'languages',
  'funding',
  'cost_options',
  'required_documents',
  'capacities',
  'additional_urls',
];

export const looksFullyNested = (item: unknown): boolean =>
  typeof item === 'object' &&
  item !== null &&
  FULL_SERVICE_KEYS.some((key) => Array.isArray((item as Record<string, unknown>)[key]));

async function* ndjsonLines(response: Response, idleMs: number): AsyncGenerator<string> {
  if (!response.body) return;
  const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
  let buffer = '';
  try {
    for (;;) {
      let timer: NodeJS.Timeout | undefined;
      const idle = new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(new Error(`the stream stalled for ${idleMs} ms`)), idleMs);
      });
      const { done, value } = await Promise.race([reader.read(), idle]).finally(() => clearTimeout(timer));
      if (done) break;
      buffer += value;
      let newline = buffer.indexOf('\n');
      while (newline >= 0) {
        const line = buffer.slice(0, newline).trim();
        buffer = buffer.slice(newline + 1);
        if (line) yield line;
        newline = buffer.indexOf('\n');
      }
    }
    if (buffer.trim()) yield buffer.trim();
  } finally {
    reader.releaseLock();
    await response.body.cancel().catch(() => {});
  }
}

/** Fetches GET /services/{id} for list items that are not fully nested, a few at a time, in order. */
async function* completeServices(
  fetcher: Fetcher,
  base: string,
  items: { item: unknown; origin: string }[],
  concurrency: number,
): AsyncGenerator<SourceItem> {
  const fetchOne = async ({ item, origin }: { item: unknown; origin: string }): Promise<SourceItem> => {
    if (looksFullyNested(item)) return { kind: 'nested', type: 'service', value: item, origin };
    const id = (item as { id?: unknown } | null)?.id;
    if (typeof id !== 'string') return { kind: 'nested', type: 'service', value: item, origin };
    const url = `${base}/services/${encodeURIComponent(id)}`;
    try {
      const response = await fetcher(url);
      if (!response.ok) {
        await response.body?.cancel();
        return fetchIssue(url, `HTTP ${response.status}; service ${id} not harvested`);
      }
      return { kind: 'nested', type: 'service', value: await response.json(), origin: url };
    } catch (error) {
      return fetchIssue(url, `${(error as Error).message}; service ${id} not harvested`);
    }
  };
  for (let i = 0; i < items.length; i += concurrency) {
    yield* await Promise.all(items.slice(i, i + concurrency).map(fetchOne));
  }
}

/**
 * Everything a remote HSDS API offers, as source items. An ORUK 1.0 API's items are migrated to
 * HSDS 3.1 as they arrive (migrate/oruk-1.ts): services told by their 1.0 collections,
 * organizations and taxonomy items by their non-UUID ids. Each mapping is reported once, with
 * its count, at the end. The original-id metadata is dated with the day of the harvest (an API
 * has no file date).
 */
export async function* readRemoteSource(
  baseUrl: string,
  options: HarvestOptions = {},
): AsyncGenerator<SourceItem> {
  const context = createOruk1Context(new Date().toISOString().slice(0, 10));
  let migrated = 0;
  for await (const item of readRemoteItems(baseUrl, options)) {
    if (item.kind !== 'nested' || typeof item.value !== 'object' || item.value === null) {
      yield item;
      continue;
    }
    const value = item.value as Record<string, unknown>;
    if (item.type === 'service' && looksLikeOruk1(value)) {
      migrated += 1;
      yield { ...item, value: migrateOruk1Service(value, context) };
    } else if (item.type === 'organization' && hasLegacyId(value)) {
      migrated += 1;
      yield { ...item, value: migrateOruk1Organization(value, context) };
    } else if (item.type === 'taxonomy' && 'vocabulary' in value && hasLegacyId(value)) {
      migrated += 1;
      yield { ...item, type: 'taxonomy_term', value: migrateOruk1Taxonomy(value, context) };
    } else {
      yield item;
    }
  }
  if (migrated === 0) return;
  const source = baseUrl.replace(/\/+$/, '');
  yield fetchIssue(
    source,
    `an ORUK 1.0 API: ${migrated} item(s) migrated to HSDS 3.1 on import`,
    'info',
    'migrated',
  );
  for (const [reason, count] of context.notes.entries())
    yield fetchIssue(
      source,
      `${reason} (${count} ${count === 1 ? 'record' : 'records'})`,
      'info',
      'migrated',
    );
}

async function* readRemoteItems(baseUrl: string, options: HarvestOptions): AsyncGenerator<SourceItem> {
  const base = baseUrl.replace(/\/+$/, '');
  const fetcher = createFetcher(options);
  const perPage = options.perPage ?? 100;
  const concurrency = options.concurrency ?? 4;
  const changes: Record<string, string> = options.since
    ? { modified_after: options.since, include_deleted: 'true' }
    : {};

  for (const [path, type] of [
    ['/taxonomies', 'taxonomy'],
    ['/taxonomy_terms', 'taxonomy_term'],
  ] as [string, RecordType][]) {
    try {
      for await (const page of pages(fetcher, base, path, perPage, changes)) {
        if ('missing' in page) {
          yield fetchIssue(page.url, `${path} is not offered by this API; skipped`, 'info');
          break;
        }
        let i = 0;
        for (const item of page.items) {
          const origin = `${page.url}#${i++}`;
          yield asDeletion(item, type, origin) ?? { kind: 'nested', type, value: item, origin };
        }
      }
    } catch (error) {
      yield fetchIssue(`${base}${path}`, (error as Error).message);
    }
  }

  // Organizations with their own details (`full=true` where the API honours it); their brief
  // `services` are left out: every service comes whole from /services below.
  try {
    for await (const page of pages(fetcher, base, '/organizations', perPage, { full: 'true', ...changes })) {
      if ('missing' in page) {
        yield fetchIssue(page.url, '/organizations is not offered by this API; skipped', 'info');
        break;
      }
      let i = 0;
      for (const item of page.items) {
        const deletion = asDeletion(item, 'organization', `${page.url}#${i}`);
        if (deletion) {
          i += 1;
          yield deletion;
          continue;
        }
        const value =
          typeof item === 'object' && item !== null && !Array.isArray(item)
            ? Object.fromEntries(Object.entries(item).filter(([key]) => key !== 'services'))
            : item;
        yield { kind: 'nested', type: 'organization', value, origin: `${page.url}#${i++}` };
      }
    }
  } catch (error) {
    yield fetchIssue(`${base}/organizations`, (error as Error).message);
  }

  // NDJSON first: one streamed response instead of a request per page.
  const streamUrl = `${base}/services?${new URLSearchParams({ format: 'ndjson', full: 'true', ...changes })}`;
  let streamed = false;
  try {
    const response = await fetcher(streamUrl, 'application/x-ndjson, application/json;q=0.5');
    const type = response.headers.get('content-type') ?? '';
    if (response.ok && /ndjson|jsonl|json-seq/.test(type)) {
      let line = 0;
      let batch: { item: unknown; origin: string }[] = [];
      for await (const text of ndjsonLines(response, options.timeoutMs ?? 30_000)) {
        line += 1;
        try {
          const item = JSON.parse(text) as unknown;
          const deletion = asDeletion(item, 'service', `${streamUrl}:${line}`);
          if (deletion) yield deletion;
          else batch.push({ item, origin: `${streamUrl}:${line}` });
        } catch (error) {
          yield fetchIssue(`${streamUrl}:${line}`, `not valid JSON: ${(error as Error).message}`);
        }
        if (batch.length >= 100) {
          yield* completeServices(fetcher, base, batch, concurrency);
          batch = [];
        }
      }
      yield* completeServices(fetcher, base, batch, concurrency);
      streamed = true;
    } else {
      await response.body?.cancel();
    }
  } catch (error) {
    // A stream that breaks midway is harvested again page by page; repeats import as no-ops.
    yield fetchIssue(streamUrl, `${(error as Error).message}; harvesting page by page instead`, 'warning');
  }
  if (streamed) return;

  for await (const page of pages(fetcher, base, '/services', perPage, { full: 'true', ...changes })) {
    if ('missing' in page)
      throw new HarvestError(`${page.url}: HTTP 404: not an HSDS API (no /services)`, 404);
    const items: { item: unknown; origin: string }[] = [];
    for (const [i, item] of page.items.entries()) {
      const deletion = asDeletion(item, 'service', `${page.url}#${i}`);
      if (deletion) yield deletion;
      else items.push({ item, origin: `${page.url}#${i}` });
    }
    yield* completeServices(fetcher, base, items, concurrency);
  }
}
