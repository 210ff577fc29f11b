import { describe, expect, it } from 'vitest';
import { builtDocument } from '../../../bench/lib/floor.ts';
import { readIndexMappings } from '../../../src/index-mapping/read-indices.mapping.ts';
import { toServiceDocument } from '../../../src/index-mapping/service.document.ts';
import {
  coverageOf,
  toServiceAtLocationDocument,
} from '../../../src/index-mapping/service-at-location.document.ts';
import { geometryFromExtent } from '../../../src/ingest/publish/read-indices.writer.ts';
import { syntheticServices } from '../ingest/fixtures.ts';

/** What the engine answers for a document: `_source` without the mapping's excludes, stored fields apart. */
function hitOf(document: Record<string, unknown>, excludes: readonly string[]) {
  const source = Object.fromEntries(Object.entries(document).filter(([key]) => !excludes.includes(key)));
  const item = document.list_item;
  return { _id: String(document.id), _source: source, ...(item ? { fields: { list_item: [item] } } : {}) };
}

const excludesOf = (kind: keyof typeof readIndexMappings): readonly string[] => {
  const source = (readIndexMappings[kind] as { _source?: { excludes?: readonly string[] } })._source;
  return source?.excludes ?? [];
};

// Indices built before `_source` kept every field left these out of it; a dump may read such a build.
const earlierExcludes = ['list_item', 'coverage_cells', 'coverage_edge'];

// The ingest floor (bench:compare) must bulk-index what a publish indexes: a floor built from
// `_source` alone skipped the coverage's cells and edge and the list items, and so measured less work.
describe('the ingest floor document', () => {
  const services = syntheticServices(40).filter((s) => (s.service_areas ?? []).length > 0);

  it('is the built service_at_location, coverage cells, edge and list item included', () => {
    let withEdge = 0;
    for (const service of services) {
      for (const sal of service.service_at_locations ?? []) {
        const built = toServiceAtLocationDocument(sal, service, coverageOf(sal, service, geometryFromExtent));
        const document = JSON.parse(JSON.stringify(built)) as Record<string, unknown>;
        if (document.coverage_edge) withEdge += 1;
        for (const excludes of [excludesOf('service_at_locations'), earlierExcludes]) {
          expect(builtDocument(hitOf(document, excludes))).toEqual(document);
        }
      }
    }
    expect(withEdge).toBeGreaterThan(0);
  });

  it('is the built service, list item included', () => {
    for (const service of services.slice(0, 5)) {
      const document = JSON.parse(JSON.stringify(toServiceDocument(service))) as Record<string, unknown>;
      expect(document.list_item).toBeDefined();
      for (const excludes of [excludesOf('services'), earlierExcludes]) {
        expect(builtDocument(hitOf(document, excludes))).toEqual(document);
      }
    }
  });
});
