/**
 * The operator's postcode index: one document per full postcode and per outcode, keyed by its
 * normalised form, so a lookup is a single GET by id. Each import builds a new versioned index and
 * moves the alias in one atomic request, so lookups never see a half-loaded file.
 */

import {
  type PostcodeDocument,
  type PostcodeEntry,
  postcodeMapping,
  toPostcodeDocument,
} from '../index-mapping/postcode.document.ts';
import type { Engine } from './engine.ts';
import { engineCall, maintenanceRequest } from './engine.ts';
import { EngineNotFoundError } from './errors.ts';
import { indexLayout } from './layout.ts';

export type { PostcodeEntry };

export const postcodeAlias = (engine: Engine) => engine.name('postcodes');

/** Creates an empty versioned postcode index, tuned for bulk loading; returns its name. */
export async function createPostcodeIndex(
  engine: Engine,
  version = Date.now().toString(36),
): Promise<string> {
  const index = `${postcodeAlias(engine)}-${version}`;
  await engineCall('create postcode index', () =>
    engine.client.indices.create({
      index,
      body: {
        settings: { number_of_shards: 1, number_of_replicas: 0, refresh_interval: '-1' },
        mappings: postcodeMapping,
      },
    }),
  );
  return index;
}

export type BulkLoadResult = { indexed: number; failed: number };

/** Streams entries into the index with the client's bulk helper. */
export async function loadPostcodes(
  engine: Engine,
  index: string,
  entries: AsyncIterable<PostcodeEntry>,
  onProgress?: (indexed: number) => void,
): Promise<BulkLoadResult> {
  let seen = 0;
  let dropped = 0;
  async function* documents(): AsyncGenerator<PostcodeDocument> {
    for await (const entry of entries) {
      seen += 1;
      if (onProgress && seen % 5000 === 0) onProgress(seen);
      yield toPostcodeDocument(entry);
    }
  }
  const stats = await engineCall('bulk load postcodes', () =>
    engine.client.helpers.bulk<PostcodeDocument>({
      datasource: documents(),
      onDocument: (document) => ({ index: { _index: index, _id: document.key } }),
      onDrop: () => {
        dropped += 1;
      },
      flushBytes: 5_000_000,
      concurrency: 2,
      refreshOnCompletion: false,
    }),
  );
  onProgress?.(seen);
  return { indexed: stats.successful, failed: Math.max(dropped, stats.failed) };
}

/**
 * Points the alias at `index` (restoring normal refresh first) and, unless `keepOld`, deletes the
 * indices it pointed at before.
 */
export async function activatePostcodeIndex(
  engine: Engine,
  index: string,
  options: { keepOld?: boolean } = {},
) {
  const alias = postcodeAlias(engine);
  await engineCall('finish postcode index', async () => {
    // Loaded without a replica (faster); from now on it has the cluster's, so losing a node keeps lookups.
    const { replicas } = await indexLayout(engine);
    await engine.client.indices.putSettings({
      index,
      body: { index: { refresh_interval: '1s', number_of_replicas: replicas } },
    });
    await engine.client.indices.refresh({ index }, maintenanceRequest(engine));
  });
  const previous = await currentPostcodeIndices(engine);
  await engineCall('swap postcode alias', () =>
    engine.client.indices.updateAliases({
      body: {
        actions: [...previous.map((old) => ({ remove: { index: old, alias } })), { add: { index, alias } }],
      },
    }),
  );
  if (!options.keepOld) {
    for (const old of previous.filter((name) => name !== index)) {
      await engineCall('delete old postcode index', () => engine.client.indices.delete({ index: old }));
    }
  }
  return { alias, previous };
}

export async function currentPostcodeIndices(engine: Engine): Promise<string[]> {
  try {
    const { body } = await engineCall('read postcode alias', () =>
      engine.client.indices.getAlias({ name: postcodeAlias(engine) }),
    );
    return Object.keys(body);
  } catch (error) {
    if (error instanceof EngineNotFoundError) return [];
    throw error;
  }
}

export async function deletePostcodeIndex(engine: Engine, index: string) {
  await engineCall('delete postcode index', () => engine.client.indices.delete({ index })).catch(() => {});
}

/** The centroid stored for a normalised postcode or outcode; null when absent or never imported. */
export async function lookupPostcode(
  engine: Engine,
  key: string,
): Promise<{ lat: number; lon: number } | null> {
  try {
    const { body } = await engineCall('look up postcode', () =>
      engine.client.get({ index: postcodeAlias(engine), id: key, _source_includes: ['point'] }),
    );
    const point = (body._source as { point?: { lat: number; lon: number } } | undefined)?.point;
    return point ? { lat: point.lat, lon: point.lon } : null;
  } catch (error) {
    // A missing document, or no postcode index at all: this geocoder does not know the code.
    if (error instanceof EngineNotFoundError) return null;
    throw error;
  }
}

export async function countPostcodes(engine: Engine): Promise<number> {
  try {
    const { body } = await engineCall('count postcodes', () =>
      engine.client.count({ index: postcodeAlias(engine) }),
    );
    return body.count;
  } catch (error) {
    if (error instanceof EngineNotFoundError) return 0;
    throw error;
  }
}
