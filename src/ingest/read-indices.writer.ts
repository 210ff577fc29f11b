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
  type BulkWriterOptions,
  createBulkWriter,
} from '../engine/bulk.ts';
import type { Engine } from '../engine/engine.ts';
import { engineCall } from '../engine/engine.ts';
import {
  beginBuild,
  countBuild,
  discardBuild,
  finishBuild,
  type ReadIndexBuild,
  removeOldVersions,
  summarizeOrganizations,
  swapAliases,
} from '../engine/indices.ts';
import { parseExtent } from '../geo/extent.ts';
import type {
  OrganizationFull,
  OrganizationNested,
  ServiceAreaFull,
  ServiceFull,
  TaxonomyFull,
  TaxonomyTermFull,
} from '../hsds/index.ts';
import { toOrganizationDocument } from '../index-mapping/organization.document.ts';
import type { ReadIndex } from '../index-mapping/read-indices.mapping.ts';
import { toServiceDocument } from '../index-mapping/service.document.ts';
import {
  type AreaGeometry,
  coverageOf,
  toServiceAtLocationDocument,
  toServiceOfServiceAtLocation,
} from '../index-mapping/service-at-location.document.ts';
import { toTaxonomyDocument, toTaxonomyTermDocument } from '../index-mapping/taxonomy.document.ts';

export type Source<T> = Iterable<T> | AsyncIterable<T>;

export type NestedReadInput = {
  /** Fully nested services, the shape of GET /services/{id}. */
  services: Source<ServiceFull>;
  taxonomies?: Source<TaxonomyFull>;
  /** Terms; `taxonomy_detail` is filled from `taxonomies` by `taxonomy_id` when known. */
  taxonomyTerms?: Source<TaxonomyTermFull>;
  /**
   * Organizations (nested; any `services` are ignored). When absent, the distinct organizations
   * nested in the services are used.
   */
  organizations?: Source<OrganizationNested | OrganizationFull>;
};

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
  /** Organizations are summarised from the new services index this many at a time. */
  organizationBatch?: number;
  /** Document counts the new indices must have before they are served (reindex: the records' counts). */
  expected?: Partial<Record<ReadIndex, number>>;
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

export async function writeReadIndices(
  engine: Engine,
  input: NestedReadInput,
  options: WriteReadIndicesOptions = {},
): Promise<ReadIndicesReport> {
  const started = Date.now();
  const geometryOf = options.geometryOf ?? geometryFromExtent;
  const build = await beginBuild(engine);
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
  const step = (phase: BuildPhase) => {
    progress.phase = phase;
    options.onProgress?.({ ...progress });
  };
  const write = async (kind: ReadIndex, id: string, document: unknown) => {
    options.signal?.throwIfAborted();
    created[kind] += 1;
    progress.documents += 1;
    await writer.index(build.indices[kind], id, document);
  };

  try {
    step('taxonomies');
    // Taxonomies are few (a handful per directory): kept to fill terms' taxonomy_detail.
    const taxonomies = new Map<string, TaxonomyFull>();
    for await (const taxonomy of iterate(input.taxonomies)) {
      taxonomies.set(taxonomy.id, taxonomy);
      await write('taxonomies', taxonomy.id, toTaxonomyDocument(taxonomy));
    }

    step('taxonomy_terms');
    for await (const term of iterate(input.taxonomyTerms)) {
      const taxonomy = term.taxonomy_id ? taxonomies.get(term.taxonomy_id) : undefined;
      await write('taxonomy_terms', term.id, toTaxonomyTermDocument(term, taxonomy));
      if (progress.documents % 1000 === 0) step('taxonomy_terms');
    }

    step('services');
    // Without an organizations source, the organizations nested in services are used (one each).
    const nestedOrganizations = input.organizations ? undefined : new Map<string, OrganizationNested>();
    for await (const service of iterate(input.services)) {
      await write('services', service.id, toServiceDocument(service));
      const serviceRecord = toServiceOfServiceAtLocation(service);
      const geometries = new Map<string, AreaGeometry | undefined>();
      const cachedGeometryOf = (area: ServiceAreaFull) => {
        if (!geometries.has(area.id)) geometries.set(area.id, geometryOf(area));
        return geometries.get(area.id);
      };
      for (const sal of service.service_at_locations ?? []) {
        const coverage: Geometry | undefined = coverageOf(sal, service, cachedGeometryOf);
        await write(
          'service_at_locations',
          sal.id,
          toServiceAtLocationDocument(sal, service, coverage, serviceRecord),
        );
      }
      if (nestedOrganizations && service.organization && !nestedOrganizations.has(service.organization.id)) {
        nestedOrganizations.set(service.organization.id, service.organization);
      }
      progress.services += 1;
      if (progress.services % 500 === 0) step('services');
    }
    step('services');
    await writer.flush();

    step('organizations');
    // Organization documents summarise their services, read back from the new services index.
    await engineCall('refresh services', () =>
      engine.client.indices.refresh({ index: build.indices.services }),
    );
    const batchSize = options.organizationBatch ?? 500;
    let batch: OrganizationNested[] = [];
    const writeBatch = async () => {
      const summaries = await summarizeOrganizations(
        engine,
        build.indices.services,
        batch.map((o) => o.id),
      );
      for (const organization of batch) {
        const summary = summaries.get(organization.id)!;
        await write('organizations', organization.id, toOrganizationDocument(organization, summary));
      }
      batch = [];
      step('organizations');
    };
    for await (const organization of iterate(input.organizations ?? nestedOrganizations?.values())) {
      batch.push(organization);
      if (batch.length >= batchSize) await writeBatch();
    }
    if (batch.length > 0) await writeBatch();
    await writer.close();
    if (writer.stats.failed > 0) {
      const first = failures[0];
      throw new ReadIndexBuildError(
        `${writer.stats.failed} document(s) were refused by the engine; first: ${first?.index}/${first?.id}: ${first?.reason}`,
      );
    }

    step('finishing');
    await finishBuild(engine, build);
    const counts = await countBuild(engine, build);
    // Fresh indices: every distinct document was a "created" in some bulk answer (the same id
    // written twice is one document), so the engine must count exactly that many.
    const counted = Object.values(counts).reduce((a, b) => a + b, 0);
    if (counted !== writer.stats.created) {
      throw new ReadIndexBuildError(
        `the new indices hold ${counted} documents but the engine created ${writer.stats.created}`,
      );
    }
    const short = (Object.entries(options.expected ?? {}) as [ReadIndex, number][]).filter(
      ([kind, n]) => counts[kind] !== n,
    );
    if (short.length > 0) {
      throw new ReadIndexBuildError(
        `document counts disagree with the records: ${short.map(([k, n]) => `${k} ${counts[k]} of ${n}`).join(', ')}`,
      );
    }
    options.signal?.throwIfAborted();
    const previous = await swapAliases(engine, build.indices);
    step('swapped');
    const removed = await removeOldVersions(engine);
    return {
      version: build.version,
      indices: build.indices,
      counts,
      written: created,
      previous,
      removed,
      bulk: writer.stats,
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
