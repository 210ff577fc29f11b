/**
 * What the /explore page tells a person, from HSDS records: distances, addresses, phone links,
 * opening times as a week, ages, costs and service area shapes (src/explore/format.js).
 */
import { describe, expect, it } from 'vitest';
import {
  areaNames,
  areaShapes,
  contactLine,
  emailOf,
  formatAddress,
  formatAges,
  formatCost,
  formatDistance,
  linkHref,
  schedulesOf,
  servedAreas,
  shownOrganization,
  summariseOpening,
  telHref,
  toResult,
  weekTable,
} from '../../../src/explore/format.js';
import { PLACEHOLDER_FIELD } from '../../../src/hsds/index.ts';
import { placeholderOrganization } from '../../../src/ingest/import/placeholder-organizations.ts';

const weekly = (byday: string, opens_at: string, closes_at: string, extra: Record<string, unknown> = {}) => ({
  id: 'x',
  freq: 'WEEKLY',
  byday,
  opens_at,
  closes_at,
  ...extra,
});

describe('linkHref', () => {
  it('links web, mail and phone URLs only, as the browser reads them', () => {
    expect(linkHref('https://example.org/help?x=1')).toBe('https://example.org/help?x=1');
    expect(linkHref('HTTP://Example.org')).toBe('http://example.org/');
    expect(linkHref('mailto:help@example.org')).toBe('mailto:help@example.org');
    expect(linkHref('tel:+441224000000')).toBe('tel:+441224000000');
    for (const value of [
      'javascript:alert(1)',
      'JavaScript:alert(1)',
      'java\tscript:alert(1)',
      '\u0001javascript:alert(1)',
      ' javascript:alert(1)',
      'data:text/html,<script>alert(1)</script>',
      'vbscript:msgbox(1)',
      // Not absolute: it would point into this site.
      'example.org/help',
      '//evil.example/x',
      'see our facebook page',
      '',
      undefined,
      42,
    ]) {
      expect(linkHref(value), String(value)).toBe('');
    }
  });
});

describe('formatDistance', () => {
  it('says metres to the nearest 10 under a kilometre, then kilometres', () => {
    expect(formatDistance(54.2)).toBe('50 m');
    expect(formatDistance(996)).toBe('1000 m');
    expect(formatDistance(1234)).toBe('1.2 km');
    expect(formatDistance(5000)).toBe('5 km');
    expect(formatDistance(14_400)).toBe('14 km');
    expect(formatDistance(undefined)).toBe('');
  });
});

describe('formatAddress', () => {
  it('joins street, area, town and postcode, leaving out blanks and repeats', () => {
    expect(
      formatAddress({
        address_1: '81 Crown Street',
        address_2: 'Holburn',
        city: 'Aberdeen',
        postal_code: 'AB10 1FF',
      }),
    ).toBe('81 Crown Street, Holburn, Aberdeen AB10 1FF');
    expect(formatAddress({ address_1: 'Town Hall', address_2: ' ', city: 'Aberdeen' })).toBe(
      'Town Hall, Aberdeen',
    );
    expect(formatAddress(undefined)).toBe('');
  });
});

describe('telHref', () => {
  it('keeps digits and a leading plus', () => {
    expect(telHref('01224 123 456')).toBe('tel:01224123456');
    expect(telHref('+44 (0)1224 123456')).toBe('tel:+4401224123456');
    expect(telHref('ask at reception')).toBe('');
  });
});

describe('weekTable', () => {
  it('puts weekly hours on their days, Monday first, and marks the other days closed', () => {
    const table = weekTable([weekly('MO,WE,FR', '10:00', '14:00'), weekly('SA', '09:00', '12:00')]);
    expect(table.rows.map((row) => [row.short, row.times, row.closed])).toEqual([
      ['Mon', ['10:00–14:00'], false],
      ['Tue', [], true],
      ['Wed', ['10:00–14:00'], false],
      ['Thu', [], true],
      ['Fri', ['10:00–14:00'], false],
      ['Sat', ['09:00–12:00'], false],
      ['Sun', [], true],
    ]);
    expect(table.empty).toBe(false);
  });

  it('keeps two sessions on one day and says when a schedule runs every other week', () => {
    const table = weekTable([
      weekly('TU', '09:00', '12:00'),
      weekly('TU', '18:00', '20:00', { interval: 2 }),
    ]);
    expect(table.rows[1]?.times).toEqual(['09:00–12:00', '18:00–20:00 (every 2 weeks)']);
  });

  it('gives schedules that are not weekly as notes in their own words, and then claims no day is closed', () => {
    const table = weekTable([
      weekly('MO', '10:00', '12:00'),
      { id: 'y', freq: 'MONTHLY', description: 'First Saturday of the month, 10am to 1pm.' },
    ]);
    expect(table.notes).toEqual(['First Saturday of the month, 10am to 1pm.']);
    expect(table.rows.some((row) => row.closed)).toBe(false);
  });

  it('is empty without schedules', () => {
    expect(weekTable([]).empty).toBe(true);
    expect(weekTable(undefined).empty).toBe(true);
  });
});

describe('schedulesOf', () => {
  it("takes a place's own schedules, else the service's, its 3.3 operating_hours, else the location's", () => {
    const own = [weekly('MO', '09:00', '12:00')];
    const service = [weekly('TU', '09:00', '12:00')];
    const hours = [weekly('WE', '09:00', '12:00')];
    const location = [weekly('TH', '09:00', '12:00')];
    expect(
      schedulesOf({ schedules: own, service: { schedules: service }, location: { schedules: location } }),
    ).toBe(own);
    expect(schedulesOf({ schedules: [], service: { schedules: service, operating_hours: hours } })).toBe(
      service,
    );
    expect(schedulesOf({ service: { operating_hours: hours }, location: { schedules: location } })).toBe(
      hours,
    );
    expect(schedulesOf({ service: {}, location: { schedules: location } })).toBe(location);
    expect(schedulesOf({})).toEqual([]);
  });
});

describe('summariseOpening', () => {
  it('puts days with the same hours together, consecutive days as a range', () => {
    expect(
      summariseOpening([weekly('MO,TU,WE,TH,FR', '09:00', '17:00'), weekly('SA', '10:00', '12:00')]),
    ).toBe('Mon–Fri 09:00–17:00; Sat 10:00–12:00');
    expect(summariseOpening([weekly('MO,WE,FR', '10:00', '14:00'), weekly('SA', '09:30', '12:00')])).toBe(
      'Mon, Wed, Fri 10:00–14:00; Sat 09:30–12:00',
    );
    expect(summariseOpening([{ id: 'y', description: 'By appointment.' }])).toBe('By appointment.');
  });
});

describe('formatAges and formatCost', () => {
  it('phrases age limits', () => {
    expect(formatAges(60, undefined)).toBe('60 and over');
    expect(formatAges(16, 25)).toBe('16 to 25');
    expect(formatAges(undefined, 18)).toBe('up to 18');
    expect(formatAges(undefined, undefined)).toBe('');
  });

  it('phrases a cost option with its currency', () => {
    expect(
      formatCost({ option: 'Lunch', amount: 3.5, currency: 'GBP', amount_description: 'per meal' }),
    ).toBe('Lunch – £3.50 – per meal');
    expect(formatCost({ amount_description: 'Free' })).toBe('Free');
  });
});

describe('service areas', () => {
  const polygon = {
    type: 'Polygon',
    coordinates: [
      [
        [0, 0],
        [1, 0],
        [1, 1],
        [0, 0],
      ],
    ],
  };
  it('draws GeoJSON extents only, and skips one that is not JSON', () => {
    expect(
      areaShapes([
        { id: 'a', name: 'Ours', extent: JSON.stringify(polygon), extent_type: 'geojson' },
        { id: 'b', name: 'Text', extent: 'Aberdeen City', extent_type: 'other' },
        { id: 'c', name: 'Broken', extent: '{not json', extent_type: 'geojson' },
      ]),
    ).toEqual([{ name: 'Ours', shape: polygon }]);
  });

  it("uses a service at a location's own areas, else its service's", () => {
    const own = [{ id: 'own' }];
    const service = [{ id: 'service' }];
    expect(servedAreas({ service_areas: own, service: { service_areas: service } })).toBe(own);
    expect(servedAreas({ service_areas: [], service: { service_areas: service } })).toBe(service);
  });
});

describe('shownOrganization', () => {
  it('shows a real organization, and none for a placeholder the directory made up', () => {
    const real = { id: 'o1', name: 'Southmead Food Trust', description: '' };
    expect(shownOrganization(real)).toBe(real);
    expect(shownOrganization(undefined)).toBeUndefined();
    expect(shownOrganization({ id: 'o2', name: '' })).toBeUndefined();
    // The placeholder as the import stores it (the page's twin of src/hsds agrees)...
    const placeholder = placeholderOrganization('0a000000-0000-4000-8000-000000000001');
    expect(placeholder[PLACEHOLDER_FIELD]).toBe(true);
    expect(shownOrganization(placeholder)).toBeUndefined();
    // ...and as stored before the mark existed: told by its name and description.
    const { [PLACEHOLDER_FIELD]: _, ...unmarked } = placeholder;
    expect(shownOrganization(unmarked)).toBeUndefined();
    // A real organization that happens to be called so is shown.
    expect(
      shownOrganization({ id: 'o3', name: 'Unknown organization', description: 'A band.' }),
    ).toBeDefined();
  });
});

describe('toResult', () => {
  const service = {
    id: 's1',
    name: 'Food bank',
    email: '',
    contacts: [
      { name: 'Sam Jones', title: 'Coordinator', email: 'sam@example.org', phones: [{ number: '01' }] },
    ],
    service_areas: [{ name: 'Southmead' }, { name: 'Henbury' }, { name: 'Southmead' }],
  };

  it('reads a service without a place: its areas, its contact, its contact phone and e-mail', () => {
    const result = toResult(service);
    expect(result).toMatchObject({ id: 's1', service, location: {}, areas: service.service_areas });
    expect(areaNames(result.areas)).toBe('Southmead, Henbury');
    expect(contactLine(service.contacts)).toBe('Sam Jones, Coordinator');
    expect(emailOf(service)).toBe('sam@example.org');
    expect(result.phoneHolders.find((holder) => holder?.phones?.length)?.phones[0].number).toBe('01');
  });

  it('reads a service with places by its first place with coordinates', () => {
    const located = { location: { id: 'l2', latitude: 51.4, longitude: -2.5 } };
    const result = toResult({ ...service, service_at_locations: [{ location: { id: 'l1' } }, located] });
    expect(result.location.id).toBe('l2');
  });

  it('reads a service at a location as before: its place, its distance, its areas', () => {
    const result = toResult({ id: 'sal', distance: 12, service, location: { id: 'l1' } });
    expect(result).toMatchObject({ id: 'sal', service, distance: 12, location: { id: 'l1' } });
    expect(result.areas).toBe(service.service_areas);
  });
});
