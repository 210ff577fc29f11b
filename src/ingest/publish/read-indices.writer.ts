/**
 * writeReadIndices: nested HSDS in (full services, taxonomies, terms, organizations), a complete
 * new version of every read index out, served by one atomic alias swap. Reindex feeds it the
 * services it reassembles from hsds-records batch by batch; tests and seeding feed it fixtures.
 * Inputs are (async) iterables consumed once, so memory follows the batch in flight, not the
 * dataset. Nothing readers see changes unless every index was written and counted.
 */
import type { Geometry } from 'geojson';
import {
  type BulkFailure,
  type BulkStats,
  type BulkWriter,
  type BulkWriterOptions,
  createBulkWriter,
} from '../../engine/bulk.ts';
import { recordBuild } from '../../engine/control.ts';
import type { Engine } from '../../engine/engine.ts';
import {
  beginBuild,
  countBuild,
  discardBuild,
  finishBuild,
  type ReadIndexBuild,
  removeOldVersions,
  swapAliases,
} from '../../engine/indices.ts';
import { applyTaxonomyVocabulary } from '../../engine/vocabulary.ts';
import { parseExtent } from '../../geo/extent.ts';
import type {
  OrganizationFull,
  OrganizationNested,
  ServiceAreaFull,
  ServiceFull,
  TaxonomyFull,
  TaxonomyTermFull,
} from '../../hsds/index.ts';
import type { ServiceAtLocationDocument, ServiceDocument } from '../../index-mapping/documents.ts';
import {
  type OrganizationServiceSummary,
  toOrganizationDocument,
} from '../../index-mapping/organization.document.ts';
import type { ReadIndex } from '../../index-mapping/read-indices.mapping.ts';
import { toServiceDocument } from '../../index-mapping/service.document.ts';
import {
  type AreaGeometry,
  coverageOf,
  serviceCoverageOf,
  toServiceAtLocationDocument,
  toServiceOfServiceAtLocation,
} from '../../index-mapping/service-at-location.document.ts';
import { toTaxonomyDocument, toTaxonomyTermDocument } from '../../index-mapping/taxonomy.document.ts';
import { type IdMembership, PackedIdSet } from './packed-id-set.ts';

export type Source<T> = Iterable<T> | AsyncIterable<T>;

export type NestedReadInput = {
  /** Fully nested services, the shape of GET /services/{id}. */
  services: Source<ServiceFull>;
  taxonomies?: Source<TaxonomyFull>;
  /** Terms; `taxonomy_detail` is filled from `taxonomies` by `taxonomy_id` when known. */
  taxonomyTerms?: Source<TaxonomyTermFull>;
  /**
   * Organizations (nested; any `services` are ignored), or, given the ids of those already
   * written from the services (`servicesGroupedByOrganization`), the others. When absent, the
   * distinct organizations nested in the services are used.
   */
  organizations?: OrganizationSource | ((written: IdMembership) => OrganizationSource);
};

type OrganizationSource = Source<OrganizationNested | OrganizationFull>;

export type BuildPhase =
  | 'taxonomies'
  | 'taxonomy_terms'
  | 'services'
  | 'organizations'
  | 'finishing'
  | 'swapped';

export type BuildProgress = { phase: BuildPhase; documents: number; services: number };

export type WriteReadIndicesOptions = {
  /**
   * The checked geometry of a service area (the records store keeps it from import). Default:
   * parse the area's GeoJSON extent with the geo checks; unusable extents give no geometry.
   */
  geometryOf?: (area: ServiceAreaFull) => AreaGeometry | undefined;
  /** Called as work advances; throwing from it aborts the build (tests use it to fail midway). */
  onProgress?: (progress: BuildProgress) => void;
  signal?: AbortSignal;
  bulk?: Pick<BulkWriterOptions, 'flushBytes' | 'concurrency'>;
  /**
   * The services come grouped by organization (reindex reads them so): each organization's
   * document is written from its services' nested `organization` as soon as its group ends, and
   * only its id is kept; the organizations source is asked for the others.
   */
  servicesGroupedByOrganization?: boolean;
  /** Document counts the new indices must have before they are served (reindex: the records' counts). */
  expected?: Partial<Record<ReadIndex, number>>;
  /**
   * Called after the build is complete and verified, just before the aliases move; throwing stops
   * the swap and discards the build (reindex: renew the lease, so a lost lease never publishes).
   */
  beforeSwap?: (build: ReadIndexBuild) => Promise<void>;
};

export type ReadIndicesReport = {
  version: string;
  indices: Record<ReadIndex, string>;
  counts: Record<ReadIndex, number>;
  /** Documents written per index (the same id twice counts twice). */
  written: Record<ReadIndex, number>;
  /** What the aliases served before the swap (kept as the rollback version). */
  previous: Partial<Record<ReadIndex, string>>;
  removed: string[];
  bulk: BulkStats;
  ms: number;
};

/** The build wrote fewer documents than it was given, or the engine counts disagree. */
export class ReadIndexBuildError extends Error {
  override readonly name = 'ReadIndexBuildError';
}

/**
 * What each organization's services contribute to its document (service ids, taxonomy links,
 * newest last_modified), gathered as the services are written, so the organizations need no
 * query of the new services index. It holds a few ids per service; a term or taxonomy id is kept
 * once however many services carry it.
 */
export class OrganizationSummaries {
  private readonly byOrganization = new Map<
    string,
    { services: string[]; terms: Set<string>; taxonomies: Set<string>; newest?: number }
  >();
  private readonly ids = new Map<string, string>();

  private once(id: string): string {
    const held = this.ids.get(id);
    if (held !== undefined) return held;
    this.ids.set(id, id);
    return id;
  }

  add(
    service: Pick<
      ServiceDocument,
      'id' | 'organization_id' | 'taxonomy_term_ids' | 'taxonomy_ids' | 'last_modified'
    >,
  ) {
    if (!service.organization_id) return;
    let summary = this.byOrganization.get(service.organization_id);
    if (!summary) {
      summary = { services: [], terms: new Set(), taxonomies: new Set() };
      this.byOrganization.set(service.organization_id, summary);
    }
    summary.services.push(service.id);
    for (const id of service.taxonomy_term_ids) summary.terms.add(this.once(id));
    for (const id of service.taxonomy_ids) summary.taxonomies.add(this.once(id));
    const modified = service.last_modified ? Date.parse(service.last_modified) : Number.NaN;
    if (!Number.isNaN(modified) && !(modified <= (summary.newest ?? Number.NEGATIVE_INFINITY))) {
      summary.newest = modified;
    }
  }

  /** The summary, forgotten here. */
  take(organizationId: string): OrganizationServiceSummary {
    const summary = this.summaryOf(organizationId);
    this.byOrganization.delete(organizationId);
    return summary;
  }

  summaryOf(organizationId: string): OrganizationServiceSummary {
    const summary = this.byOrganization.get(organizationId);
    if (!summary) return { service_ids: [], taxonomy_term_ids: [], taxonomy_ids: [] };
    return {
      service_ids: [...new Set(summary.services)].sort(),
      taxonomy_term_ids: [...summary.terms].sort(),
      taxonomy_ids: [...summary.taxonomies].sort(),
      ...(summary.newest !== undefined ? { last_modified: new Date(summary.newest).toISOString() } : {}),
    };
  }
}

/**
 * The service_at_locations documents of a service: each with the service nested, and its coverage
 * (its own areas, else the service's) from the areas' checked geometries.
 */
export function serviceAtLocationDocuments(
  service: ServiceFull,
  geometryOf: (area: ServiceAreaFull) => AreaGeometry | undefined,
): ServiceAtLocationDocument[] {
  const serviceRecord = toServiceOfServiceAtLocation(service);
  const geometries = new Map<string, AreaGeometry | undefined>();
  const cachedGeometryOf = (area: ServiceAreaFull) => {
    if (!geometries.has(area.id)) geometries.set(area.id, geometryOf(area));
    return geometries.get(area.id);
  };
  return (service.service_at_locations ?? []).map((sal) => {
    const coverage: Geometry | undefined = coverageOf(sal, service, cachedGeometryOf);
    return toServiceAtLocationDocument(sal, service, coverage, serviceRecord);
  });
}

async function* iterate<T>(source: Source<T> | undefined): AsyncGenerator<T> {
  if (!source) return;
  yield* source;
}

/** The default geometry reader: the area's GeoJSON extent, checked and repaired, or nothing. */
export function geometryFromExtent(area: ServiceAreaFull): AreaGeometry | undefined {
  if (area.extent === undefined) return undefined;
  const parsed = parseExtent(area.extent, area.extent_type);
  return parsed.ok === true ? parsed.geometry : undefined;
}

/** One build's writing: its bulk writer, the documents written per index, the progress reported. */
type BuildWriting = {
  writer: BulkWriter;
  /** The first 20 documents the engine refused. */
  failures: BulkFailure[];
  created: Record<ReadIndex, number>;
  progress: BuildProgress;
  /** Reports the phase (again: a phase reports as it advances). */
  step: (phase: BuildPhase) => void;
  write: (kind: ReadIndex, id: string, document: unknown) => Promise<void>;
};

function startWriting(engine: Engine, build: ReadIndexBuild, options: WriteReadIndicesOptions): BuildWriting {
  const failures: BulkFailure[] = [];
  const writer = createBulkWriter(engine, {
    ...options.bulk,
    ...(options.signal ? { signal: options.signal } : {}),
    onFailure: (failure) => {
      if (failures.length < 20) failures.push(failure);
    },
  });
  const created: Record<ReadIndex, number> = {
    services: 0,
    service_at_locations: 0,
    organizations: 0,
    taxonomies: 0,
    taxonomy_terms: 0,
  };
  const progress: BuildProgress = { phase: 'taxonomies', documents: 0, services: 0 };
  return {
    writer,
    failures,
    created,
    progress,
    step: (phase) => {
      progress.phase = phase;
      options.onProgress?.({ ...progress });
    },
    write: async (kind, id, document) => {
      options.signal?.throwIfAborted();
      created[kind] += 1;
      progress.documents += 1;
      await writer.index(build.indices[kind], id, document);
    },
  };
}

/**
 * Writes the taxonomies, then their terms. Taxonomies are few (a handful per directory): kept to
 * fill terms' taxonomy_detail.
 */
async function writeTaxonomies(w: BuildWriting, input: NestedReadInput): Promise<void> {
  w.step('taxonomies');
  const taxonomies = new Map<string, TaxonomyFull>();
  for await (const taxonomy of iterate(input.taxonomies)) {
    taxonomies.set(taxonomy.id, taxonomy);
    await w.write('taxonomies', taxonomy.id, toTaxonomyDocument(taxonomy));
  }

  w.step('taxonomy_terms');
  for await (const term of iterate(input.taxonomyTerms)) {
    const taxonomy = term.taxonomy_id ? taxonomies.get(term.taxonomy_id) : undefined;
    await w.write('taxonomy_terms', term.id, toTaxonomyTermDocument(term, taxonomy));
    if (w.progress.documents % 1000 === 0) w.step('taxonomy_terms');
  }
}

/** What writing the services leaves for the organizations. */
type ServicesWritten = {
  summaries: OrganizationSummaries;
  /** Organizations already written (grouped services), by id. */
  writtenOrganizations: PackedIdSet;
  /** Without an organizations source: the organizations nested in services (one each). */
  nestedOrganizations: Map<string, OrganizationNested> | undefined;
};

/**
 * Writes each service and its service_at_locations, gathering what organizations summarise; when
 * the services come grouped by organization, each organization is written as its group ends.
 */
async function writeServices(
  w: BuildWriting,
  input: NestedReadInput,
  options: WriteReadIndicesOptions,
): Promise<ServicesWritten> {
  w.step('services');
  const geometryOf = options.geometryOf ?? geometryFromExtent;
  const nestedOrganizations = input.organizations ? undefined : new Map<string, OrganizationNested>();
  const summaries = new OrganizationSummaries();
  const grouped = options.servicesGroupedByOrganization === true;
  // Grouped services arrive in organization order, so their ids pack (a million services: 374,692).
  const writtenOrganizations = new PackedIdSet();
  // Grouped: the organization whose services are being written, as they nest it.
  let group: { id: string; organization?: OrganizationNested } | undefined;
  const endGroup = async () => {
    if (group?.organization && !writtenOrganizations.has(group.id)) {
      writtenOrganizations.add(group.id);
      await w.write(
        'organizations',
        group.id,
        toOrganizationDocument(group.organization, summaries.take(group.id)),
      );
    }
    group = undefined;
  };
  for await (const service of iterate(input.services)) {
    // One parse of each area for the service and its places: coverage cells are kept per parsed
    // geometry (src/geo/coverage-cells.ts), so the service's coverage costs nothing more.
    const parsed = new Map<string, AreaGeometry | undefined>();
    const areaGeometryOf = (area: ServiceAreaFull) => {
      if (!parsed.has(area.id)) parsed.set(area.id, geometryOf(area));
      return parsed.get(area.id);
    };
    const document = toServiceDocument(service, serviceCoverageOf(service, areaGeometryOf));
    if (grouped) {
      if (group && group.id !== document.organization_id) await endGroup();
      if (!group && document.organization_id) group = { id: document.organization_id };
      if (group && !group.organization && service.organization?.id === group.id) {
        group.organization = service.organization;
      }
    }
    summaries.add(document);
    await w.write('services', service.id, document);
    for (const sal of serviceAtLocationDocuments(service, areaGeometryOf)) {
      await w.write('service_at_locations', sal.id, sal);
    }
    if (nestedOrganizations && service.organization && !nestedOrganizations.has(service.organization.id)) {
      nestedOrganizations.set(service.organization.id, service.organization);
    }
    w.progress.services += 1;
    if (w.progress.services % 500 === 0) w.step('services');
  }
  await endGroup();
  w.step('services');
  await w.writer.flush();
  return { summaries, writtenOrganizations, nestedOrganizations };
}

/** Writes the organizations not written yet, each summarising its services as gathered. */
async function writeOrganizations(w: BuildWriting, input: NestedReadInput, services: ServicesWritten) {
  w.step('organizations');
  const { summaries, writtenOrganizations, nestedOrganizations } = services;
  const organizations =
    typeof input.organizations === 'function'
      ? input.organizations(writtenOrganizations)
      : (input.organizations ?? nestedOrganizations?.values());
  for await (const organization of iterate(organizations)) {
    if (writtenOrganizations.has(organization.id)) continue;
    await w.write(
      'organizations',
      organization.id,
      toOrganizationDocument(organization, summaries.summaryOf(organization.id)),
    );
    if (w.created.organizations % 500 === 0) w.step('organizations');
  }
}

/** Sends what is left; a document the engine refused fails the build. */
async function finishWriting(w: BuildWriting): Promise<void> {
  await w.writer.close();
  if (w.writer.stats.failed > 0) {
    const first = w.failures[0];
    throw new ReadIndexBuildError(
      `${w.writer.stats.failed} document(s) were refused by the engine; first: ${first?.index}/${first?.id}: ${first?.reason}`,
    );
  }
}

/**
 * Makes the build searchable and counts it: the engine must hold every document it created, and
 * as many per index as `expected` says.
 */
async function verifyBuild(
  engine: Engine,
  build: ReadIndexBuild,
  createdByEngine: number,
  expected: WriteReadIndicesOptions['expected'],
): Promise<Record<ReadIndex, number>> {
  await finishBuild(engine, build);
  const counts = await countBuild(engine, build);
  // Fresh indices: every distinct document was a "created" in some bulk answer (the same id
  // written twice is one document), so the engine must count exactly that many.
  const counted = Object.values(counts).reduce((a, b) => a + b, 0);
  if (counted !== createdByEngine) {
    throw new ReadIndexBuildError(
      `the new indices hold ${counted} documents but the engine created ${createdByEngine}`,
    );
  }
  const short = (Object.entries(expected ?? {}) as [ReadIndex, number][]).filter(
    ([kind, n]) => counts[kind] !== n,
  );
  if (short.length > 0) {
    throw new ReadIndexBuildError(
      `document counts disagree with the records: ${short.map(([k, n]) => `${k} ${counts[k]} of ${n}`).join(', ')}`,
    );
  }
  return counts;
}

/**
 * Serves the verified build: the caller's last word (beforeSwap), the taxonomy synonyms, the
 * build's record, then one atomic alias swap. Returns what the aliases served before.
 */
async function serveBuild(
  engine: Engine,
  build: ReadIndexBuild,
  counts: Record<ReadIndex, number>,
  options: WriteReadIndicesOptions,
): Promise<Partial<Record<ReadIndex, string>>> {
  options.signal?.throwIfAborted();
  if (options.beforeSwap) {
    await options.beforeSwap(build);
    // It may have written to the build (a reindex replays changes published meanwhile).
    Object.assign(counts, await countBuild(engine, build));
  }
  // The licensee's taxonomy synonyms, from the terms this build holds.
  await applyTaxonomyVocabulary(engine, build);
  // What this version holds, for /health to compare with what is served later.
  await recordBuild(engine, { version: build.version, counts, published_at: new Date().toISOString() });
  return swapAliases(engine, build.indices);
}

export async function writeReadIndices(
  engine: Engine,
  input: NestedReadInput,
  options: WriteReadIndicesOptions = {},
): Promise<ReadIndicesReport> {
  const started = Date.now();
  const build = await beginBuild(engine);
  const w = startWriting(engine, build, options);
  try {
    await writeTaxonomies(w, input);
    const services = await writeServices(w, input, options);
    await writeOrganizations(w, input, services);
    await finishWriting(w);

    w.step('finishing');
    const counts = await verifyBuild(engine, build, w.writer.stats.created, options.expected);
    const previous = await serveBuild(engine, build, counts, options);
    w.step('swapped');
    const removed = await removeOldVersions(engine);
    return {
      version: build.version,
      indices: build.indices,
      counts,
      written: w.created,
      previous,
      removed,
      bulk: w.writer.stats,
      ms: Date.now() - started,
    };
  } catch (error) {
    await abandon(engine, build);
    throw error;
  }
}

async function abandon(engine: Engine, build: ReadIndexBuild): Promise<void> {
  try {
    await discardBuild(engine, build);
  } catch (error) {
    // The next successful build removes what is left; the original error matters more.
    engine.logger.warn({ err: error, version: build.version }, 'could not remove a failed build');
  }
}
