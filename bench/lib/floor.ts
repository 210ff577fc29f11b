/**
 * The ingest floor: bulk-indexing the documents of every read index (services,
 * service_at_locations with their coverage, organizations, taxonomies, taxonomy terms) exactly as
 * the last publish built them, into a fresh build with the same settings, and nothing else. No
 * records store, no joins, no document building: what writing those indices costs the engine.
 *
 * `dumpReadDocuments` saves what the read aliases serve (untimed); `timeFloor` writes it again
 * (timed: create the build, bulk, finish the build as a publish does), then drops that build.
 *
 * `_source` keeps the whole built document; in indices built before it did, the list item (stored,
 * read by list pages) and the coverage's cells and edge (indexed only) were left out of it. The
 * dump puts them back (the list item as stored, the cells and edge by the document builder's own
 * coverageFields), so the floor indexes every field a publish indexes, from either.
 */
import { once } from 'node:events';
import { createReadStream, createWriteStream } from 'node:fs';
import { createInterface } from 'node:readline';
import type { Geometry } from 'geojson';
import type { Engine } from '../../src/engine/index.ts';
import { beginBuild, discardBuild, finishBuild } from '../../src/engine/indices.ts';
import { F } from '../../src/index-mapping/fields.ts';
import { READ_INDICES, type ReadIndex } from '../../src/index-mapping/read-indices.mapping.ts';
import { coverageFields } from '../../src/index-mapping/service-at-location.document.ts';

type Hit = { _id: string; _source: Record<string, unknown>; fields?: Record<string, unknown[]> };

/** The document a publish built, from a hit's `_source` and stored list item (see above). */
export function builtDocument(hit: Hit): Record<string, unknown> {
  const coverage = hit._source[F.coverage] as Geometry | undefined;
  const document: Record<string, unknown> = { ...hit._source, ...(coverage ? coverageFields(coverage) : {}) };
  const item = hit.fields?.[F.listItem]?.[0];
  if (typeof item === 'string') document[F.listItem] = item;
  return document;
}

/** Every document of every read alias, as bulk lines with the kind for an index name. */
export async function dumpReadDocuments(engine: Engine, file: string): Promise<Record<ReadIndex, number>> {
  const out = createWriteStream(file);
  const counts = {} as Record<ReadIndex, number>;
  for (const kind of READ_INDICES) {
    counts[kind] = 0;
    let { body } = await engine.client.search({
      index: engine.name(kind),
      scroll: '1m',
      size: 1000,
      body: { sort: ['_doc'], _source: true, stored_fields: [F.listItem] },
    });
    while (body.hits.hits.length > 0) {
      for (const hit of body.hits.hits as Hit[]) {
        const line = `${JSON.stringify({ index: { _index: kind, _id: hit._id } })}\n${JSON.stringify(builtDocument(hit))}\n`;
        if (!out.write(line)) await once(out, 'drain');
        counts[kind] += 1;
      }
      ({ body } = await engine.client.scroll({ scroll_id: body._scroll_id as string, scroll: '1m' }));
    }
    await engine.client.clearScroll({ scroll_id: body._scroll_id as string }).catch(() => {});
  }
  out.end();
  await once(out, 'finish');
  return counts;
}

const FLUSH_BYTES = 2_000_000; // the bulk writer's request size (src/engine/bulk.ts)
const CONCURRENCY = 2; // and its requests in flight

/** Bulk-indexes the dumped documents into a new build; seconds from creating it to finishing it. */
export async function timeFloor(
  engine: Engine,
  file: string,
): Promise<{ seconds: number; documents: number }> {
  const started = performance.now();
  const build = await beginBuild(engine);
  let documents = 0;
  try {
    const inFlight = new Set<Promise<void>>();
    const send = async (body: string) => {
      const { body: answer } = await engine.client.bulk(
        { body, filter_path: 'errors,items.*.error' } as never,
        { compression: false, requestTimeout: 300_000 } as never,
      );
      if ((answer as { errors?: boolean }).errors) {
        throw new Error(`floor bulk failed: ${JSON.stringify(answer).slice(0, 500)}`);
      }
    };
    const dispatch = async (body: string) => {
      while (inFlight.size >= CONCURRENCY) await Promise.race(inFlight);
      const request = send(body).finally(() => inFlight.delete(request));
      inFlight.add(request);
    };
    let chunk: string[] = [];
    let bytes = 0;
    let action: string | undefined;
    const lines = createInterface({ input: createReadStream(file, 'utf8'), crlfDelay: Infinity });
    for await (const line of lines) {
      if (action === undefined) {
        const { index } = JSON.parse(line) as { index: { _index: ReadIndex; _id: string } };
        action = JSON.stringify({ index: { _index: build.indices[index._index], _id: index._id } });
        continue;
      }
      chunk.push(action, line);
      bytes += action.length + line.length + 2;
      documents += 1;
      action = undefined;
      if (bytes >= FLUSH_BYTES) {
        await dispatch(`${chunk.join('\n')}\n`);
        chunk = [];
        bytes = 0;
      }
    }
    if (chunk.length > 0) await dispatch(`${chunk.join('\n')}\n`);
    await Promise.all(inFlight);
    await finishBuild(engine, build);
    return { seconds: (performance.now() - started) / 1000, documents };
  } finally {
    await discardBuild(engine, build);
  }
}
