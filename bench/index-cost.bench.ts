/**
 * `node bench/index-cost.bench.ts --source DIR [--services 3000] [--prefix perfi-cost]`
 *
 * What each feature of the read indices' mappings costs the engine to index: the same service and
 * service_at_location documents (built from a synthetic dataset's nested services, as a publish
 * builds them) bulk-written into one index per variant of the mapping, request by request in turn,
 * so that a busy engine (other clients, other work) slows every variant alike. The cost is the
 * engine's own indexing thread time per document from its index stats (ours alone on a shared
 * engine), as a ratio to the mapping in use. A variant that drops a feature says what the feature
 * costs; none of them is what the API serves.
 *
 * Engine: OPENSEARCH_URL (default http://127.0.0.1:9200). The indices are dropped at the end.
 */
import { createReadStream } from 'node:fs';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { parseArgs } from 'node:util';
import type { ServiceFull } from '../src/hsds/index.ts';
import { readIndexAnalysisSettings } from '../src/index-mapping/analysis.ts';
import { F } from '../src/index-mapping/fields.ts';
import { readIndexMappings } from '../src/index-mapping/read-indices.mapping.ts';
import { toServiceDocument } from '../src/index-mapping/service.document.ts';
import { geometryFromExtent, serviceAtLocationDocuments } from '../src/ingest/publish/read-indices.writer.ts';
import { createBenchEngine, indexWork } from './lib/bench-engine.ts';
import { formatTable } from './lib/results.ts';

const { values } = parseArgs({
  options: {
    source: { type: 'string' },
    services: { type: 'string', default: '3000' },
    prefix: { type: 'string', default: 'perfi-cost' },
  },
});
const engine = createBenchEngine(process.env.OPENSEARCH_URL ?? 'http://127.0.0.1:9200', values.prefix!);
const limit = Number(values.services);

type Mapping = { properties: Record<string, unknown> } & Record<string, unknown>;
type Variant = { name: string; mapping: (m: Mapping) => Mapping; settings?: Record<string, unknown> };
const disabled = { type: 'object', enabled: false };
const without =
  (...fields: string[]) =>
  (m: Mapping) => ({
    ...m,
    properties: { ...m.properties, ...Object.fromEntries(fields.map((f) => [f, disabled])) },
  });
const analysis = readIndexAnalysisSettings([]) as unknown as {
  analysis: { analyzer: Record<string, Record<string, unknown>> } & Record<string, unknown>;
};
const noCharFilter = {
  analysis: {
    ...analysis.analysis,
    analyzer: Object.fromEntries(
      Object.entries(analysis.analysis.analyzer).map(([name, a]) => {
        const { char_filter: _, ...rest } = a;
        return [name, rest];
      }),
    ),
  },
};
const variants: Variant[] = [
  { name: 'as served', mapping: (m) => m },
  { name: 'no completion (suggest)', mapping: without(F.suggest) },
  { name: 'no nested (schedules, opening)', mapping: without(F.schedules, F.opening) },
  { name: 'no coverage edge (geo_shape)', mapping: without(F.coverageEdge) },
  { name: 'no char filter (particles)', mapping: (m) => m, settings: noCharFilter },
  {
    name: 'no name twins (exact, sort)',
    mapping: (m) => ({
      ...m,
      properties: Object.fromEntries(
        Object.entries(m.properties).map(([k, v]) => {
          const { fields: _, ...rest } = v as Record<string, unknown>;
          return [k, (v as { type?: string }).type === 'text' ? rest : v];
        }),
      ),
    }),
  },
  { name: 'list item not stored', mapping: without(F.listItem) },
];

const docs: { kind: 'services' | 'service_at_locations'; id: string; source: string }[] = [];
const lines = createInterface({ input: createReadStream(join(values.source!, 'services.ndjson'), 'utf8') });
let services = 0;
for await (const line of lines) {
  if (!line) continue;
  const service = JSON.parse(line) as ServiceFull;
  docs.push({ kind: 'services', id: service.id, source: JSON.stringify(toServiceDocument(service)) });
  for (const sal of serviceAtLocationDocuments(service, geometryFromExtent)) {
    docs.push({ kind: 'service_at_locations', id: sal.id, source: JSON.stringify(sal) });
  }
  if (++services >= limit) break;
}
lines.close();

const indexOf = (v: number, kind: string) => `${values.prefix}-${v}-${kind}`;
await engine.client.indices.delete({ index: `${values.prefix}-*` } as never).catch(() => {});
for (const [v, variant] of variants.entries()) {
  for (const kind of ['services', 'service_at_locations'] as const) {
    await engine.client.indices.create({
      index: indexOf(v, kind),
      body: {
        settings: {
          number_of_shards: 1,
          number_of_replicas: 0,
          refresh_interval: '-1',
          'translog.durability': 'async',
          ...(variant.settings ?? readIndexAnalysisSettings([])),
        },
        mappings: variant.mapping(readIndexMappings[kind] as unknown as Mapping),
      },
    } as never);
  }
}
// Requests of about 2 MB, each sent to every variant in turn (the order rotating).
const batches: (typeof docs)[] = [[]];
let bytes = 0;
for (const doc of docs) {
  batches.at(-1)!.push(doc);
  bytes += doc.source.length;
  if (bytes > 2_000_000) {
    batches.push([]);
    bytes = 0;
  }
}
for (const [b, batch] of batches.entries()) {
  for (let i = 0; i < variants.length; i++) {
    const v = (i + b) % variants.length;
    const body = batch.flatMap((doc) => [
      JSON.stringify({ index: { _index: indexOf(v, doc.kind), _id: doc.id } }),
      doc.source,
    ]);
    const { body: answer } = await engine.client.bulk({ body: `${body.join('\n')}\n` } as never);
    if ((answer as { errors: boolean }).errors)
      throw new Error(`variant ${variants[v]!.name} refused documents`);
  }
}
const rows: (string | number)[][] = [['variant', 'services ms/doc', 'x', 'service_at_locations ms/doc', 'x']];
const base: Record<string, number> = {};
for (const [v, variant] of variants.entries()) {
  const row: (string | number)[] = [variant.name];
  for (const kind of ['services', 'service_at_locations']) {
    const work = await indexWork(engine, indexOf(v, kind));
    const perDoc = work.index_ms / Math.max(1, work.documents);
    base[kind] ??= perDoc;
    row.push(perDoc.toFixed(2), (perDoc / base[kind]!).toFixed(2));
  }
  rows.push(row);
}
console.log(
  `\nEngine indexing time per document (index stats), ${services} services, ${docs.length} documents per variant\n`,
);
console.log(formatTable(rows));
await engine.client.indices.delete({ index: `${values.prefix}-*` } as never).catch(() => {});
await engine.close();
