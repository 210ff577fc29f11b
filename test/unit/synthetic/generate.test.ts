import { booleanPointInPolygon } from '@turf/turf';
import { beforeAll, describe, expect, it } from 'vitest';
import { generateDataset } from '../../../src/synthetic/generate.ts';
import type {
  SyntheticService,
  SyntheticServiceArea,
  SyntheticTaxonomyTerm,
} from '../../../src/synthetic/synthetic.types.ts';
import { loadUkPlaces } from '../../../src/synthetic/uk-places.ts';
import { areaSquareKm, countHoles, findGeometryProblems, type ParsedArea } from './geometry-checks.ts';

const UUID_V4 = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

const serialise = (services: Iterable<SyntheticService>) => [...services].map((s) => JSON.stringify(s));

const parseArea = (area: SyntheticServiceArea): ParsedArea => JSON.parse(area.extent) as ParsedArea;

const allAreas = (service: SyntheticService): SyntheticServiceArea[] => [
  ...service.service_areas,
  ...service.service_at_locations.flatMap((sal) => sal.service_areas),
];

describe('generateDataset: determinism', () => {
  it('gives byte-identical output for the same seed, taxonomies included', () => {
    const a = generateDataset({ services: 300, seed: 'same' });
    const b = generateDataset({ services: 300, seed: 'same' });
    expect(serialise(a.services())).toEqual(serialise(b.services()));
    expect(JSON.stringify(a.taxonomyTerms)).toBe(JSON.stringify(b.taxonomyTerms));
    expect([...a.organizations()]).toEqual([...b.organizations()]);
  });

  it('gives the same records on a second iteration of the same dataset', () => {
    const dataset = generateDataset({ services: 50, seed: 1 });
    expect(serialise(dataset.services())).toEqual(serialise(dataset.services()));
  });

  it('treats a number seed and its decimal string alike', () => {
    const n = generateDataset({ services: 20, seed: 7 });
    const s = generateDataset({ services: 20, seed: '7' });
    expect(serialise(n.services())).toEqual(serialise(s.services()));
  });

  it('gives different data, ids and taxonomy ids for a different seed', () => {
    const a = [...generateDataset({ services: 50, seed: 1 }).services()];
    const b = [...generateDataset({ services: 50, seed: 2 }).services()];
    expect(a.map((s) => s.id)).not.toEqual(b.map((s) => s.id));
    expect(a.map((s) => s.name)).not.toEqual(b.map((s) => s.name));
    expect(generateDataset({ services: 1, seed: 1 }).taxonomies[0]!.id).not.toBe(
      generateDataset({ services: 1, seed: 2 }).taxonomies[0]!.id,
    );
  });

  it('derives last_modified from now, which defaults to a fixed date', () => {
    const fixed = [...generateDataset({ services: 30, seed: 3 }).services()];
    const explicit = [
      ...generateDataset({ services: 30, seed: 3, now: new Date('2026-01-01T00:00:00Z') }).services(),
    ];
    const later = [
      ...generateDataset({ services: 30, seed: 3, now: new Date('2027-01-01T00:00:00Z') }).services(),
    ];
    expect(explicit).toEqual(fixed);
    for (const service of fixed) {
      expect(Date.parse(service.last_modified)).toBeLessThanOrEqual(Date.parse('2026-01-01T00:00:00Z'));
      expect(Date.parse(service.last_modified)).toBeGreaterThan(Date.parse('2023-12-31T00:00:00Z'));
    }
    expect(later.map((s) => s.last_modified)).not.toEqual(fixed.map((s) => s.last_modified));
    expect(later.map((s) => s.id)).toEqual(fixed.map((s) => s.id));
  });

  it('makes a smaller dataset a prefix of a larger one with the same seed', () => {
    const small = serialise(generateDataset({ services: 137, seed: 'prefix' }).services());
    const large = serialise(generateDataset({ services: 400, seed: 'prefix' }).services());
    expect(large.slice(0, 137)).toEqual(small);
  });

  it('produces exactly the number of services asked for, lazily', () => {
    const dataset = generateDataset({ services: 250_000, seed: 'lazy' });
    expect(dataset.serviceCount).toBe(250_000);
    const iterator = dataset.services();
    expect(iterator.next().done).toBe(false);
    expect(generateDataset({ services: 0, seed: 1 }).services().next().done).toBe(true);
    expect([...generateDataset({ services: 77, seed: 1 }).services()]).toHaveLength(77);
    expect(() => generateDataset({ services: -1, seed: 1 })).toThrow(RangeError);
    expect(() => generateDataset({ services: 1.5, seed: 1 })).toThrow(RangeError);
  });
});

describe('generateDataset: a realistic dataset (2,000 services)', () => {
  let services: SyntheticService[];
  let terms: Map<string, SyntheticTaxonomyTerm>;
  const dataset = generateDataset({ services: 2_000, seed: 'variety' });

  beforeAll(() => {
    services = [...dataset.services()];
    terms = new Map(dataset.taxonomyTerms.map((t) => [t.id, t]));
  });

  it('has unique, uuid-shaped ids; a location shared by services is the same record each time', () => {
    const ids = new Set<string>();
    const problems: string[] = [];
    const locations = new Map<string, string>();
    for (const service of services) {
      const own = [
        service.id,
        ...service.phones.map((p) => p.id),
        ...service.schedules.map((s) => s.id),
        ...service.languages.map((l) => l.id),
        ...service.attributes.map((a) => a.id),
        ...service.cost_options.map((c) => c.id),
        ...allAreas(service).map((a) => a.id),
        ...service.service_at_locations.map((sal) => sal.id),
      ];
      for (const id of own) {
        if (!UUID_V4.test(id)) problems.push(`not a v4 uuid: ${id}`);
        if (ids.has(id)) problems.push(`duplicate id ${id}`);
        ids.add(id);
      }
      for (const { location } of service.service_at_locations) {
        const json = JSON.stringify(location);
        if ((locations.get(location.id) ?? json) !== json) problems.push(`location ${location.id} differs`);
        locations.set(location.id, json);
      }
    }
    expect(problems).toEqual([]);
    expect(ids.size).toBeGreaterThan(15_000);
    const shared = services.flatMap((s) => s.service_at_locations.map((sal) => sal.location.id));
    expect(new Set(shared).size).toBeLessThan(shared.length);
  });

  it('groups services into organizations of one to six, several with three or more', () => {
    const byOrganization = new Map<string, number>();
    for (const service of services) {
      expect(service.organization_id).toBe(service.organization.id);
      byOrganization.set(service.organization.id, (byOrganization.get(service.organization.id) ?? 0) + 1);
    }
    expect(byOrganization.size).toBe(dataset.organizationCount);
    const sizes = [...byOrganization.values()];
    expect(Math.max(...sizes)).toBe(6);
    expect(Math.min(...sizes)).toBe(1);
    expect(sizes.filter((n) => n >= 3).length).toBeGreaterThan(sizes.length / 5);
    const organizations = [...dataset.organizations()];
    expect(organizations.map((o) => o.id)).toEqual([...byOrganization.keys()]);
    const first = services[0]!;
    expect(organizations[0]).toEqual(first.organization);
  });

  it('places physical locations at real postcode centroids, with matching addresses', () => {
    const places = new Map(loadUkPlaces().map((p) => [p.postcode, p]));
    let physical = 0;
    for (const service of services) {
      expect(service.service_at_locations.length).toBeGreaterThanOrEqual(1);
      expect(service.service_at_locations.length).toBeLessThanOrEqual(3);
      for (const { location } of service.service_at_locations) {
        if (location.location_type === 'virtual') continue;
        physical++;
        const address = location.addresses[0]!;
        const place = places.get(address.postal_code);
        expect(place, address.postal_code).toBeDefined();
        expect([location.latitude, location.longitude]).toEqual([place!.lat, place!.lon]);
        expect(address.country).toBe('GB');
      }
    }
    expect(physical).toBeGreaterThan(2_000);
    const aberdeen = services.filter((s) =>
      s.service_at_locations[0]?.location.addresses[0]?.postal_code.startsWith('AB'),
    );
    expect(aberdeen.length / services.length).toBeGreaterThan(0.85);
  });

  it('has virtual-only services, with no coordinates and no address', () => {
    const virtual = services.filter((s) =>
      s.service_at_locations.every((sal) => sal.location.location_type === 'virtual'),
    );
    expect(virtual.length / services.length).toBeGreaterThan(0.02);
    expect(virtual.length / services.length).toBeLessThan(0.09);
    for (const service of virtual) {
      const { location } = service.service_at_locations[0]!;
      expect(location.latitude).toBeUndefined();
      expect(location.longitude).toBeUndefined();
      expect(location.addresses).toEqual([]);
      expect(location.url).toMatch(/^https:\/\//);
    }
  });

  it('has services with no service area at all, and areas on service-at-locations', () => {
    const none = services.filter((s) => allAreas(s).length === 0);
    expect(none.length / services.length).toBeGreaterThan(0.1);
    expect(none.length / services.length).toBeLessThan(0.2);
    const withSalAreas = services.filter((s) =>
      s.service_at_locations.some((sal) => sal.service_areas.length > 0),
    );
    expect(withSalAreas.length).toBeGreaterThan(50);
    // Both sides of "a service-at-location's own areas, else its service's".
    expect(withSalAreas.some((s) => s.service_areas.length > 0)).toBe(true);
    expect(withSalAreas.some((s) => s.service_areas.length === 0)).toBe(true);
    expect(
      withSalAreas.some((s) => s.service_at_locations.some((sal) => sal.service_areas.length === 0)),
    ).toBe(true);
  });

  it('has geojson areas of every kind: small circles, multipolygons, holes, regions over 1,000 km²', () => {
    const geometries = services.flatMap(allAreas).map((area) => {
      expect(area.extent_type).toBe('geojson');
      return parseArea(area);
    });
    const sizes = geometries.map(areaSquareKm);
    expect(geometries.filter((g) => g.type === 'MultiPolygon').length).toBeGreaterThan(50);
    expect(geometries.filter((g) => countHoles(g) > 0).length).toBeGreaterThan(50);
    expect(geometries.filter((g) => countHoles(g) > 1).length).toBeGreaterThan(5);
    expect(sizes.filter((km2) => km2 > 1_000).length).toBeGreaterThan(100);
    expect(sizes.filter((km2) => km2 < 1).length).toBeGreaterThan(50); // circles of a few hundred metres
    expect(Math.max(...sizes)).toBeLessThan(15_000);
  });

  it('writes every area as valid GeoJSON: simple, closed, wound per RFC 7946, holes inside, parts apart', () => {
    const problems = services.flatMap((service) =>
      allAreas(service).flatMap((area) =>
        findGeometryProblems(parseArea(area)).map((p) => `${area.id}: ${p}`),
      ),
    );
    expect(problems).toEqual([]);
  }, 120_000);

  it('covers Aberdeen postcodes realistically: some areas contain a postcode, some leave it out or hole it', () => {
    const postcodes = loadUkPlaces().filter((p) => p.postcode.startsWith('AB'));
    const probes = postcodes.filter((_, i) => i % 400 === 0);
    const geometries = services.flatMap(allAreas).map(parseArea);
    const holed = geometries.filter((g) => countHoles(g) > 0);
    for (const probe of probes) {
      const point = [probe.lon, probe.lat];
      const containing = geometries.filter((g) => booleanPointInPolygon(point, g)).length;
      expect(containing, probe.postcode).toBeGreaterThan(0);
      expect(containing, probe.postcode).toBeLessThan(geometries.length / 2);
    }
    // Some Aberdeen postcode falls in a hole of an area whose exterior would contain it.
    const inHole = probes.some((probe) =>
      holed.some((g) => {
        const exteriors =
          g.type === 'Polygon' ? [[g.coordinates[0]!]] : g.coordinates.map((rings) => [rings[0]!]);
        const point = [probe.lon, probe.lat];
        return (
          !booleanPointInPolygon(point, g) &&
          exteriors.some((rings) => booleanPointInPolygon(point, { type: 'Polygon', coordinates: rings }))
        );
      }),
    );
    expect(inHole).toBe(true);
  });

  it('classifies each service with one to three existing category terms, sometimes an audience', () => {
    for (const service of services) {
      const categories = service.attributes.filter((a) => a.link_type === 'service_category');
      expect(categories.length).toBeGreaterThanOrEqual(1);
      expect(categories.length).toBeLessThanOrEqual(3);
      for (const attribute of service.attributes) {
        const term = terms.get(attribute.taxonomy_term_id);
        expect(term, attribute.taxonomy_term_id).toBeDefined();
        expect(attribute.taxonomy_term).toEqual(term);
        expect(attribute.link_id).toBe(service.id);
      }
    }
    const audiences = services.filter((s) => s.attributes.some((a) => a.link_type === 'audience'));
    expect(audiences.length).toBeGreaterThan(services.length / 5);
    const aged = audiences.filter((s) => s.minimum_age !== undefined || s.maximum_age !== undefined);
    expect(aged.length).toBeGreaterThan(0);
  });

  it('has a three-level taxonomy and a flat one, every term in a listed taxonomy', () => {
    const taxonomyIds = new Set(dataset.taxonomies.map((t) => t.id));
    const depth = (term: SyntheticTaxonomyTerm): number =>
      term.parent_id ? 1 + depth(terms.get(term.parent_id)!) : 1;
    const depths = new Map<string, Set<number>>();
    for (const term of dataset.taxonomyTerms) {
      expect(taxonomyIds.has(term.taxonomy_id)).toBe(true);
      expect(term.taxonomy_detail.id).toBe(term.taxonomy_id);
      if (term.parent_id) expect(terms.get(term.parent_id)!.taxonomy_id).toBe(term.taxonomy_id);
      const set = depths.get(term.taxonomy_id) ?? new Set();
      set.add(depth(term));
      depths.set(term.taxonomy_id, set);
    }
    const [tree, flat] = dataset.taxonomies;
    expect([...depths.get(tree!.id)!].sort()).toEqual([1, 2, 3]);
    expect([...depths.get(flat!.id)!]).toEqual([1]);
    const top = dataset.taxonomyTerms.filter((t) => t.taxonomy_id === tree!.id && !t.parent_id);
    expect(top.length).toBe(8);
    const food = top.find((t) => t.name === 'Food')!;
    const foodBanks = dataset.taxonomyTerms.find((t) => t.parent_id === food.id && t.name === 'Food banks')!;
    expect(
      dataset.taxonomyTerms.some((t) => t.parent_id === foodBanks.id && t.name === 'Emergency food parcels'),
    ).toBe(true);
  });

  it('names and describes services in words a search can find', () => {
    const foodBanks = services.filter((s) => /food bank/i.test(`${s.name} ${s.description}`));
    expect(foodBanks.length).toBeGreaterThan(5);
    for (const service of foodBanks) {
      const names = service.attributes.map((a) => a.taxonomy_term.name);
      expect(names.some((n) => /food|baby/i.test(n))).toBe(true);
    }
    expect(new Set(services.map((s) => s.name)).size).toBeGreaterThan(services.length / 4);
  });

  it('fills schedules, phones, languages and cost options', () => {
    const weekly = services.flatMap((s) => [
      ...s.schedules,
      ...s.service_at_locations.flatMap((sal) => sal.schedules),
    ]);
    expect(weekly.length).toBeGreaterThan(services.length);
    for (const schedule of weekly) {
      expect(schedule.freq).toBe('WEEKLY');
      expect(schedule.byday).toMatch(/^(MO|TU|WE|TH|FR|SA|SU)(,(MO|TU|WE|TH|FR|SA|SU))*$/);
      expect(schedule.opens_at < schedule.closes_at).toBe(true);
    }
    expect(services.every((s) => s.phones.length > 0 && s.languages.some((l) => l.code === 'en'))).toBe(true);
    expect(services.some((s) => s.languages.length > 1)).toBe(true);
    const paid = services.filter((s) => s.cost_options.some((c) => c.amount > 0));
    expect(paid.length / services.length).toBeGreaterThan(0.15);
    expect(paid.every((s) => s.cost_options.every((c) => c.currency === 'GBP'))).toBe(true);
  });
});
