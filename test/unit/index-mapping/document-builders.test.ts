import type { Polygon } from 'geojson';
import { describe, expect, it } from 'vitest';
import { toOrganizationDocument } from '../../../src/index-mapping/organization.document.ts';
import { toSearchText } from '../../../src/index-mapping/search-text.ts';
import {
  toGeoPoint,
  toScheduleSlots,
  toServiceDocument,
  toWeekdays,
} from '../../../src/index-mapping/service.document.ts';
import {
  coverageOf,
  toCoverage,
  toServiceAtLocationDocument,
} from '../../../src/index-mapping/service-at-location.document.ts';
import { listItemText, STORED_LIST_ITEMS } from '../../../src/index-mapping/sources.query.ts';
import { toTaxonomyDocument, toTaxonomyTermDocument } from '../../../src/index-mapping/taxonomy.document.ts';
import { geometryFromExtent } from '../../../src/ingest/publish/read-indices.writer.ts';
import {
  officialOrganization,
  officialService,
  officialTaxonomy,
  officialTerm,
  syntheticServices,
} from '../ingest/fixtures.ts';

const square = (lon: number, lat: number, size = 0.01): Polygon => ({
  type: 'Polygon',
  coordinates: [
    [
      [lon, lat],
      [lon + size, lat],
      [lon + size, lat + size],
      [lon, lat + size],
      [lon, lat],
    ],
  ],
});

describe('toServiceDocument', () => {
  it('keeps the fully nested service as the record and derives the search fields', () => {
    const service = officialService();
    const doc = toServiceDocument(service);
    expect(doc.record).toBe(service);
    expect(doc).toMatchObject({
      id: 'ac148810-d857-441c-9679-408f346de14b',
      name: 'Community Counselling',
      alternate_name: 'MyCity Counselling Services',
      organization_id: 'd9d5e0f5-d3ce-4f73-9a2f-4dd0ecc6c610',
      organization_name: 'Example Organization Inc.',
      program_id: 'e7ec2e57-4540-43fa-b2c7-6be5a0ef7f42',
      taxonomy_term_ids: ['3f7b145d-84af-42d7-8fae-eaca714b02b2'],
      taxonomy_term_names: ['name'],
      taxonomy_ids: ['5c4d79d7-cc55-470e-9f1f-8cad074e4892'],
      status: 'active',
      last_modified: '2023-03-15T10:30:45.123Z',
      minimum_age: 12,
      maximum_age: 100,
      // The one schedule is listed under the service and its service-at-location: one slot.
      schedules: [{ byday: ['TH', 'FR'], opens_at: '10:00', closes_at: '18:00' }],
      // Its opening rule (open_at): 10:00-18:00 at UTC+3 is 07:00-15:00 UTC; dtstart and until are
      // both 2005-01-01 (day 12784).
      opening: [
        {
          days: ['W:TH', 'W:FR'],
          phase: '1',
          first_day: 12784,
          last_day: 12784,
          start: 420,
          end: 900,
          zoned: false,
        },
      ],
      // latitude 100 is not a position: no point rather than a document the engine refuses.
      location_points: [],
    });
  });

  it('gives one point per distinct located service-at-location', () => {
    const [service] = syntheticServices(1);
    const doc = toServiceDocument(service!);
    const located = (service!.service_at_locations ?? []).filter((s) => s.location?.latitude !== undefined);
    expect(doc.location_points.length).toBeGreaterThan(0);
    expect(doc.location_points.length).toBeLessThanOrEqual(located.length);
    for (const p of doc.location_points) expect(Math.abs(p.lat)).toBeLessThanOrEqual(90);
  });

  it('leaves out what the service does not have, so the mapping never sees undefined', () => {
    const doc = toServiceDocument({
      id: 'f0b3c4d2-1111-4c8a-9a51-58a0a1f9b001',
      name: 'Bare',
      status: 'active',
    });
    expect(doc).toEqual({
      id: 'f0b3c4d2-1111-4c8a-9a51-58a0a1f9b001',
      name: 'Bare',
      status: 'active',
      taxonomy_term_names: [],
      taxonomy_term_ids: [],
      taxonomy_ids: [],
      schedules: [],
      opening: [],
      suggest: { input: ['Bare'] },
      location_points: [],
      nested_ids: ['f0b3c4d2-1111-4c8a-9a51-58a0a1f9b001'],
      record: { id: 'f0b3c4d2-1111-4c8a-9a51-58a0a1f9b001', name: 'Bare', status: 'active' },
      list_item: '{"id":"f0b3c4d2-1111-4c8a-9a51-58a0a1f9b001","name":"Bare","status":"active"}',
    });
  });
});

describe('list items', () => {
  it('keep the list item fields in the record order: direct fields, and those of organization and program', () => {
    const record = {
      name: 'Food bank',
      id: 'svc',
      phones: [{ id: 'p1', number: '01224 000000' }],
      organization: { name: 'Org', id: 'org', phones: [{ id: 'p2' }], x_extension: 1 },
      program: {},
      x_local_code: 'A1',
      status: 'active',
    };
    expect(listItemText('services', record)).toBe(
      '{"name":"Food bank","id":"svc","organization":{"name":"Org","id":"org"},"status":"active"}',
    );
  });

  it('are stored by services, service_at_locations and organizations only', () => {
    expect(listItemText('service_at_locations', { id: 's', service: { id: 'v', phones: [] } })).toBe(
      '{"id":"s","service":{"id":"v"}}',
    );
    expect(listItemText('organizations', { id: 'o', services: [] })).toBe('{"id":"o"}');
    expect(Object.keys(STORED_LIST_ITEMS)).toEqual(['services', 'service_at_locations', 'organizations']);
  });
});

describe('schedule slots and points', () => {
  it('reads RRULE days, ordinal or not, and keeps times to HH:MM', () => {
    expect(toWeekdays('MO,TU')).toEqual(['MO', 'TU']);
    expect(toWeekdays('1MO,-1fr, SA')).toEqual(['MO', 'FR', 'SA']);
    expect(toWeekdays('')).toEqual([]);
    expect(
      toScheduleSlots([
        { id: 'a', byday: 'WE', opens_at: '09:30:00', closes_at: '17:00+01:00' },
        { id: 'b', description: 'by appointment' },
      ]),
    ).toEqual([{ byday: ['WE'], opens_at: '09:30', closes_at: '17:00' }]);
  });

  it('accepts WGS84 positions only', () => {
    expect(toGeoPoint({ latitude: 57.14, longitude: -2.1 })).toEqual({ lat: 57.14, lon: -2.1 });
    expect(toGeoPoint({ latitude: 100, longitude: 101 })).toBeUndefined();
    expect(toGeoPoint({ latitude: 57.14 })).toBeUndefined();
    expect(toGeoPoint(undefined)).toBeUndefined();
  });
});

describe('toServiceAtLocationDocument', () => {
  it('nests the location and the service without its service_at_locations, as the official example', () => {
    const service = officialService();
    const sal = service.service_at_locations![0]!;
    const doc = toServiceAtLocationDocument(sal, service, undefined);
    expect(doc).toMatchObject({
      id: 'e94c9f38-1e8f-4564-91d4-d53501ab1765',
      service_id: service.id,
      location_id: '3a19ff88-4620-4d17-9830-ac1d859eb5d5',
      name: 'Community Counselling',
      has_coverage: false,
    });
    expect(doc).not.toHaveProperty('coverage');
    expect(doc).not.toHaveProperty('location_point');
    const record = doc.record as { location: { id: string }; service: Record<string, unknown> };
    expect(record.location.id).toBe('3a19ff88-4620-4d17-9830-ac1d859eb5d5');
    expect(record.service.id).toBe(service.id);
    expect(record.service).not.toHaveProperty('service_at_locations');
    expect(Object.keys(record.service).sort()).toEqual(
      Object.keys(service)
        .filter((k) => k !== 'service_at_locations')
        .sort(),
    );
  });

  it('covers with its own service areas, else its service areas, else nothing', () => {
    const a = square(-2.1, 57.1);
    const b = square(-2.2, 57.2);
    const c = square(-2.3, 57.3);
    const geometries = new Map([
      ['own', a],
      ['s1', b],
      ['s2', c],
    ]);
    const geometryOf = (area: { id: string }) => geometries.get(area.id);
    const service = { service_areas: [{ id: 's1' }, { id: 's2' }, { id: 'text-only' }] };
    expect(coverageOf({ service_areas: [{ id: 'own' }] }, service, geometryOf)).toEqual(a);
    expect(coverageOf({ service_areas: [] }, service, geometryOf)).toEqual({
      type: 'GeometryCollection',
      geometries: [b, c],
    });
    // An area without usable geometry does not count as the service-at-location's own.
    expect(coverageOf({ service_areas: [{ id: 'text-only' }] }, service, geometryOf)).toEqual(
      toCoverage([b, c]),
    );
    expect(coverageOf({}, {}, geometryOf)).toBeUndefined();
  });

  it('sets has_coverage and location_point from real synthetic areas and locations', () => {
    const service = syntheticServices(10).find((s) => (s.service_areas ?? []).length > 0)!;
    const sal = service.service_at_locations![0]!;
    const doc = toServiceAtLocationDocument(sal, service, coverageOf(sal, service, geometryFromExtent));
    expect(doc.has_coverage).toBe(true);
    expect(doc.coverage).toBeDefined();
    expect(doc.location_point).toEqual({ lat: sal.location!.latitude, lon: sal.location!.longitude });
  });
});

describe('toOrganizationDocument', () => {
  it('drops nested services, lists their ids and unions taxonomy links', () => {
    const organization = officialOrganization();
    expect(organization.services).toHaveLength(1);
    const doc = toOrganizationDocument(organization, {
      service_ids: ['ac148810-d857-441c-9679-408f346de14b'],
      taxonomy_term_ids: ['3f7b145d-84af-42d7-8fae-eaca714b02b2'],
      taxonomy_ids: ['5c4d79d7-cc55-470e-9f1f-8cad074e4892'],
      last_modified: '2023-03-15T10:30:45.123Z',
    });
    expect(doc.record).not.toHaveProperty('services');
    expect(doc.record).toHaveProperty('locations');
    expect(doc).toMatchObject({
      id: 'd9d5e0f5-d3ce-4f73-9a2f-4dd0ecc6c610',
      name: 'Example Organization Inc.',
      service_ids: ['ac148810-d857-441c-9679-408f346de14b'],
      taxonomy_term_ids: ['3f7b145d-84af-42d7-8fae-eaca714b02b2'],
      last_modified: '2023-03-15T10:30:45.123Z',
    });
  });
});

describe('taxonomy documents', () => {
  it('nests the taxonomy in the term as taxonomy_detail, preferring the one given', () => {
    const term = officialTerm();
    const taxonomy = officialTaxonomy();
    const doc = toTaxonomyTermDocument(term, { ...taxonomy, name: 'Given' });
    expect(doc).toMatchObject({
      id: term.id,
      name: 'name',
      code: 'code',
      parent_id: '0bc248fa-dc27-4650-9ba4-8f1a24ef16a2',
      taxonomy_id: '5c4d79d7-cc55-470e-9f1f-8cad074e4892',
    });
    expect(doc.record).toHaveProperty('taxonomy_detail.name', 'Given');
    expect(toTaxonomyTermDocument(term).record).toHaveProperty('taxonomy_detail.name', 'name');
    expect(toTaxonomyDocument(taxonomy)).toMatchObject({ id: taxonomy.id, name: 'name', record: taxonomy });
  });
});

describe('searchable text', () => {
  it('strips tags and decodes references, and leaves plain text alone', () => {
    expect(
      toSearchText('<p>Free <strong>debt advice</strong>.&nbsp;Call&nbsp;us.</p><p>Rent &amp; tax.</p>'),
    ).toBe('Free debt advice . Call us. Rent & tax.');
    expect(toSearchText('<ul><li>Benefit checks</li><li>Form&nbsp;filling</li></ul>')).toBe(
      'Benefit checks Form filling',
    );
    expect(toSearchText('Since 1985 &ndash; open &#8220;daily&#8221;<!-- hidden -->')).toBe(
      'Since 1985 – open “daily”',
    );
    expect(toSearchText('<style>p { color: red }</style>Help')).toBe('Help');
    // A `<` that opens no tag is text.
    expect(toSearchText('For ages < 5 & their carers')).toBe('For ages < 5 & their carers');
    const plain = 'Food parcels on referral. ';
    expect(toSearchText(plain)).toBe(plain);
  });

  it('is what services and organizations index, while their records keep what was published', () => {
    const description = '<p>Advice&nbsp;on <strong>debt</strong></p>';
    const service = { ...officialService(), description };
    const doc = toServiceDocument(service);
    expect(doc.description).toBe('Advice on debt');
    expect(doc.record.description).toBe(description);
    const organization = toOrganizationDocument(
      { ...officialOrganization(), name: 'Smith &amp; Sons', description },
      { service_ids: [], taxonomy_term_ids: [], taxonomy_ids: [] },
    );
    expect([organization.name, organization.description]).toEqual(['Smith & Sons', 'Advice on debt']);
    expect(organization.record.description).toBe(description);
  });
});
