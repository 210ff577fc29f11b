/**
 * A distance-limited postcode search answered from the few documents near the point
 * (NearbyPlan, src/index-mapping/geo.query.ts) gives exactly what the engine's own coverage test
 * gives: the same total, the same records in the same order with the same distances, page by
 * page, with a text search and a filter too. National data (US ZIP centroids, areas from
 * neighbourhoods to whole states) has few documents within most distances, so that path is taken;
 * where more than NEARBY_CANDIDATES lie within the distance, the plain search answers.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { searchPage } from '../../src/engine/search.ts';
import type { ServiceFull } from '../../src/hsds/index.ts';
import { NEARBY_CANDIDATES } from '../../src/index-mapping/geo.query.ts';
import { buildServiceAtLocationSearch } from '../../src/index-mapping/service-at-location-search.query.ts';
import { generateDataset } from '../../src/synthetic/generate.ts';
import { createTestEngine, dropTestIndices } from '../support/engine.ts';
import { seedReadIndices } from '../support/seed.ts';

const engine = createTestEngine('geo-nearby');
let services: ServiceFull[] = [];

/**
 * What the engine was asked from now on: coverage read for candidates (the nearby path answered),
 * and counts that found more than NEARBY_CANDIDATES within the distance (the plain search did).
 */
function watchNearby(): { candidates: number; overLimit: number } {
  const seen = { candidates: 0, overLimit: 0 };
  engine.client.on('response', (_error, result) => {
    const params = result?.meta?.request?.params as { path?: string; body?: unknown } | undefined;
    if (!params?.path?.includes('/_search')) return;
    const body = typeof params.body === 'string' ? params.body : JSON.stringify(params.body ?? '');
    if (body.includes('"includes":["has_coverage","coverage"]')) seen.candidates += 1;
    const total = (result?.body as { hits?: { total?: { value: number; relation: string } } } | null)?.hits
      ?.total;
    if (body.includes(`"track_total_hits":${NEARBY_CANDIDATES + 1}`) && total?.relation === 'gte')
      seen.overLimit += 1;
  });
  return seen;
}

beforeAll(async () => {
  const dataset = generateDataset({ services: 1500, seed: 'geo-nearby', places: 'us' });
  services = [...dataset.services()] as ServiceFull[];
  await seedReadIndices(engine, {
    services,
    taxonomies: dataset.taxonomies,
    taxonomyTerms: dataset.taxonomyTerms,
  });
}, 300_000);
afterAll(() => dropTestIndices(engine));

describe('a distance-limited search from the documents near the point', () => {
  it('answers as the engine does alone: totals, records, order and distances, page by page', async () => {
    const points = services
      .flatMap((s) => s.service_at_locations ?? [])
      .map((sal) => sal.location)
      .filter((l) => typeof l?.latitude === 'number' && typeof l?.longitude === 'number')
      .filter((_, i) => i % 25 === 0)
      .slice(0, 40)
      .map((l) => ({ lat: l!.latitude as number, lon: l!.longitude as number }));
    expect(points.length).toBe(40);
    const word = services[0]!.name.split(/\s+/).find((w) => w.length > 4) ?? 'support';
    const taxonomyTermId = services[0]!.attributes?.[0]?.taxonomy_term_id ?? undefined;
    const seen = watchNearby();
    let nonEmpty = 0;

    for (const [i, point] of points.entries()) {
      for (const proximityMetres of [500, 5_000, 25_000, 150_000]) {
        const filters = [
          {},
          { search: word },
          ...(taxonomyTermId && i % 4 === 0 ? [{ taxonomyTermId }] : []),
        ];
        for (const extra of filters) {
          const request = buildServiceAtLocationSearch({ ...extra, geo: { point, proximityMetres } }, 'list');
          expect(request.nearby).toBeDefined();
          for (const window of [
            { from: 0, size: 5 },
            { from: 5, size: 5 },
          ]) {
            const near = await searchPage(engine, request, window);
            const plain = await searchPage(engine, { ...request, nearby: undefined }, window);
            expect(near.total, `${JSON.stringify({ point, proximityMetres, extra, window })}`).toBe(
              plain.total,
            );
            expect(near.texts).toEqual(plain.texts);
            if (plain.texts.length > 0) nonEmpty += 1;
          }
        }
      }
    }
    // Both paths were taken, and most comparisons had records to compare.
    expect(seen.candidates).toBeGreaterThan(100);
    expect(nonEmpty).toBeGreaterThan(100);
    // 150 km around the densest points holds more than the limit: the plain search answered.
    expect(seen.overLimit).toBeGreaterThan(0);
  }, 300_000);

  it('is not used without a distance limit', () => {
    const request = buildServiceAtLocationSearch({ geo: { point: { lat: 40.7, lon: -74 } } }, 'list');
    expect(request.nearby).toBeUndefined();
  });
});
