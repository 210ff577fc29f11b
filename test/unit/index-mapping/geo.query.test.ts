import { describe, expect, it } from 'vitest';
import { serviceGeoFilter } from '../../../src/index-mapping/geo.query.ts';

const point = { lat: 57.149606, lon: -2.096916 };

describe('serviceGeoFilter', () => {
  it('keeps, within a distance, services with a location there or an area covering the point', () => {
    const { filters, sort } = serviceGeoFilter({ point, proximityMetres: 2000 });
    const should = (
      filters[0] as { bool: { should: Record<string, unknown>[]; minimum_should_match: number } }
    ).bool;
    expect(should.minimum_should_match).toBe(1);
    expect(should.should.map((clause) => Object.keys(clause)[0])).toEqual([
      'geo_distance',
      'terms',
      'geo_shape',
    ]);
    expect(should.should[0]).toEqual({ geo_distance: { distance: '2000m', location_points: point } });
    expect(Object.keys((should.should[1] as { terms: object }).terms)).toEqual(['coverage_cells']);
    expect(Object.keys((should.should[2] as { geo_shape: object }).geo_shape)).toContain('coverage_edge');
    expect(sort).toEqual([
      { _geo_distance: { location_points: point, order: 'asc', unit: 'm', ignore_unmapped: true } },
    ]);
  });

  it('without a distance, filters nothing and sorts nearest first', () => {
    const { filters, sort } = serviceGeoFilter({ point });
    expect(filters).toEqual([]);
    expect(sort).toHaveLength(1);
  });
});
