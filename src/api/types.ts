/**
 * The API's own types, in a leaf module: every file of src/api may import it, and it imports
 * nothing from src/api but the two interfaces the composition root implements (jobs, writes).
 */
import type { OpenAPIHono } from '@hono/zod-openapi';
import type { Context } from 'hono';
import type { Logger } from 'pino';
import type { Config } from '../config.ts';
import type { ImportJobs } from '../console/index.ts';
import type { Engine } from '../engine/index.ts';
import type { GeocoderChain } from '../geo/geocoder.ts';
import type { DeliveryAttempt, WebhookFilter, WebhookTarget } from '../index-mapping/webhook.document.ts';
import type { KeyedSlots, Slots } from '../resilience/slots.ts';
import type { Understanding } from '../semantic/understanding.ts';
import type { Duplicates } from './admin/duplicates.routes.ts';
import type { ReindexJobs } from './admin/jobs.ts';
import type { FeedValidation } from './validate/feed-validation.ts';
import type { RecordWrites } from './writes/record-writes.ts';

/** Everything the app needs, passed in once (docs/style.md 2). Tests build it with test values. */
export type AppDeps = {
  config: Config;
  engine: Engine;
  /** Turns `postcode` into a centroid (see geocoding.ts for the production chain). */
  geocoder: GeocoderChain;
  logger: Logger;
  /** Import jobs behind /admin/imports (src/console; src/cli/import-jobs.ts runs them). */
  imports?: ImportJobs;
  /** Reindex jobs behind POST /admin/reindex (the admin routes exist only with a token of the admin scope). */
  jobs?: ReindexJobs;
  /** The write API's writes (src/ingest/write/write.ts); without them every write is a 503. */
  writes?: RecordWrites;
  /** POST /validate's validation (src/ingest/validate); without it the route answers 503. */
  validation?: FeedValidation;
  /** Each source's quality (src/ingest/maintenance/source-quality.ts), for GET /admin/sources. */
  sources?: () => Promise<SourceQualityAnswer[]>;
  /** Duplicates across sources (src/duplicates), for /admin/duplicates and merged ids' redirects. */
  duplicates?: Duplicates;
  /** Dump slots; by default built from the configuration's DUMP_* limits. */
  dumps?: Dumps;
  /** Counts searches for the search report (src/search-report); without it nothing is recorded. */
  searchLog?: SearchLog;
  /** Large-page slots; by default built from the configuration's PAGE_* limits. */
  largePages?: LargePages;
  /** Search by meaning (src/semantic); without it a search is by its words alone. */
  understanding?: Understanding;
  /** Change webhooks' targets (src/webhooks admin.ts), for /admin/webhooks; without them those routes answer 503. */
  webhooks?: Webhooks;
};

/** A webhook target as the admin routes show it: never its secret. */
export type WebhookAnswer = Omit<WebhookTarget, 'secret'>;

/** What /admin/webhooks does with targets (src/webhooks/admin.ts, matched by structure). */
export type Webhooks = {
  register(input: {
    url: string;
    secret?: string | undefined;
    filter?: WebhookFilter | undefined;
    description?: string | undefined;
  }): Promise<{ webhook: WebhookAnswer; secret: string } | { refused: string; full?: true }>;
  /** A page of the targets, oldest first, and how many there are. */
  list(page: number, perPage: number): Promise<{ total: number; webhooks: WebhookAnswer[] }>;
  get(id: string): Promise<WebhookAnswer | undefined>;
  resume(id: string): Promise<WebhookAnswer | undefined>;
  pause(id: string): Promise<WebhookAnswer | undefined>;
  /** A new secret (the given one, else made), answered once; undefined when there is no such target. */
  rotateSecret(
    id: string,
    secret?: string,
  ): Promise<{ webhook: WebhookAnswer; secret: string } | { refused: string } | undefined>;
  remove(id: string): Promise<boolean>;
  deliveries(id: string, limit: number): Promise<DeliveryAttempt[] | undefined>;
};

/** What GET /admin/sources answers of each source (admin/sources.routes.ts documents it). */
export type SourceQualityAnswer = {
  source: string;
  last_import?: {
    state: string;
    started_at: string;
    finished_at?: string;
    error?: string;
    counts?: { items: number; records: number; repaired: number; rejected: number };
  };
  records: Record<string, number>;
  placeholder_organizations: number;
  services: number;
  services_with_placeholder_organization: number;
  services_with: Record<'phone' | 'email' | 'schedule' | 'located_address' | 'service_area', number>;
  shares: Record<'phone' | 'email' | 'schedule' | 'located_address' | 'service_area', number>;
  last_modified: Record<'within_30_days' | 'within_365_days' | 'older' | 'none', number>;
  assured_date: Record<'within_30_days' | 'within_365_days' | 'older' | 'none', number>;
};

export type DumpLimits = { maxConcurrent: number; maxPerClient: number; stallTimeoutMs: number };

/** The slots of running dumps (`format=ndjson`, `minimal=true`): dumps.ts. */
export type Dumps = { readonly limits: DumpLimits; readonly slots: KeyedSlots };

/**
 * Where a search page tells what it searched for and whether it found anything: all the search
 * report ever learns of a request (no address, token or user agent). Never throws, never waits.
 */
export type SearchLog = { record(search: string, outcome: { total: number; relaxed?: boolean }): void };

export type PageLimits = { maxBytes: number; largeBytes: number; maxLargeConcurrent: number };

/** The budget of JSON pages and the slots of large ones: large-pages.ts. */
export type LargePages = {
  readonly limits: PageLimits;
  readonly slots: Slots;
  /** What an item of each kind of page weighed lately (bytes read per item). */
  readonly bytesPerItem: Map<string, number>;
};

export type Scope = 'write' | 'admin';

/** A configured API token (auth.ts): its name, its scopes and the SHA-256 of its secret. */
export type ApiToken = { name: string; scopes: Scope[]; hash: Buffer };

export type AppEnv = {
  Variables: {
    deps: AppDeps;
    dumps: Dumps;
    largePages: LargePages;
    /** The caller's token, on the routes that require one (auth.ts `requireScope`). */
    token?: ApiToken;
    /** The request's id (request-id.ts). */
    requestId: string;
    /** Query parameters the route does not take, served anyway (ignored-params.ts). */
    ignoredParameters?: string[];
  };
};

export type App = OpenAPIHono<AppEnv>;

export type AppContext = Context<AppEnv>;
