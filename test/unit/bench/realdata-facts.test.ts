import { describe, expect, it } from 'vitest';
import {
  countMojibake,
  countNestedFacts,
  countStoredFacts,
  countTabularFacts,
  holdsTimeOfDay,
  looksLikeUrl,
  publishedId,
  type StoredRecord,
} from '../../../bench/lib/realdata-facts.ts';

// Tiny feeds written here, each reproducing a pattern the real feeds publish (bench:realdata):
// the counts must be what the publisher meant, whatever the import makes of them.

const tables = {
  services: [
    { id: 's1', organization_id: 'o1', name: 'The directorGÇÖs food bank', url: 'foodbank.example.org' },
    { id: 's2', organization_id: 'o1', name: 'Shelter', url: '' },
    { id: 's3', organization_id: 'o9', name: 'Clinic', url: '', eligibility_description: 'Adults' },
  ],
  organizations: [{ id: 'o1', name: 'Helpers', url: 'https://helpers.example.org' }],
  locations: [{ id: 'l1', organization_id: 'o1', name: 'Hall' }],
  physical_addresses: [
    { id: 'a1', location_id: 'l1', address_1: '1 Main St', country: '   ' },
    // A row without a street is no address (the Miami feed has 35 of them).
    { id: 'a2', location_id: 'l1', address_1: '', country: '' },
  ],
  // Miami: every schedule row has an empty id; times as `9:00am`.
  regular_schedules: [
    { id: '', service_id: 's1', weekday: 'Monday', opens_at: '9:00am', closes_at: '5:00pm' },
    { id: '', service_id: 's1', weekday: 'Tuesday', opens_at: '9:00am', closes_at: '5:00pm' },
    { id: '', service_id: 's2', weekday: 'Sunday', opens_at: '', closes_at: '' },
  ],
  // DC: times in date columns, one row for a list of services, one for a service the feed lacks.
  schedules: [
    { id: '7', service_id: 's1, s2', location_id: '', valid_from: '8:30AM', valid_to: '5:30PM' },
    // A row for a service the feed lacks is not counted through its location.
    { id: '8', service_id: 's404', location_id: 'l1', valid_from: '8:30AM', valid_to: '' },
    {
      id: '9',
      service_id: '',
      location_id: 'l1',
      valid_from: '',
      valid_to: '',
      description: 'By appointment',
    },
    // Miami: a weekday row without times, its hours only in the service's prose.
    { id: '', service_id: 's3', weekday: 'Tuesday', opens_at: '', original_text: '8:30am-5:00pm, Tue, Fri' },
  ],
  phones: [
    { id: 'p1', service_id: 's1,s2,s3', location_id: 'l1', number: '555-0100' },
    { id: 'p2', service_id: '', location_id: 'l1', number: '555-0101' },
    { id: 'p3', service_id: 's1', location_id: '', number: '' },
  ],
  // Miami: one id reused for each of a location's languages; a blank language is no fact.
  languages: [
    { id: 'x', service_id: 's1', location_id: 'l1', language: 'English' },
    { id: 'x', service_id: 's1', location_id: 'l1', language: 'Spanish' },
    { id: 'x', service_id: 's2', location_id: 'l1', language: 'english' },
    { id: 'y', service_id: 's2', location_id: 'l1', language: '' },
  ],
  services_taxonomy: [
    { id: 't1', service_id: 's1', taxonomy_id: 'BD-1800' },
    { id: 't2', service_id: 's404', taxonomy_id: 'BD-1800' },
  ],
  contacts: [{ id: 'c1', service_id: 's3', name: 'Ann' }],
  // Miami: eligibility rows that name no service.
  eligibility: [{ id: '', service_id: '', eligibility: 'Girls 5-17' }],
  service_areas: [{ id: 'sa1', service_id: 's2', service_area: 'Ward 8' }],
};

describe('facts of a tabular feed, as the publisher meant them', () => {
  const { facts, unattached, servicesByLanguage, timesInTextOnly } = countTabularFacts(tables);

  it('counts records and field facts once each', () => {
    expect(facts.services).toBe(3);
    expect(facts.organizations).toBe(1);
    expect(facts.locations).toBe(1);
    expect(facts.urls).toBe(2);
    expect(facts.eligibility).toBe(1);
    expect(facts.addresses).toBe(1);
  });

  it('counts the text values with mojibake', () => {
    expect(countTabularFacts(tables).mojibake).toBe(1);
  });

  it('counts a row without an id, once per service a link column lists', () => {
    // 3 weekday rows + (s1, s2) + the location's row + s3's; the row for a service the feed lacks is unattached.
    expect(facts.schedules).toBe(7);
    expect(facts['opening times']).toBe(5);
    expect(timesInTextOnly).toBe(1);
    expect(unattached.schedules).toBe(1);
    // p1 for three services, p2 for its location; p3 has no number.
    expect(facts.phones).toBe(4);
    expect(facts['taxonomy links']).toBe(1);
    expect(unattached['taxonomy links']).toBe(1);
    expect(facts.contacts).toBe(1);
    expect(facts['service areas']).toBe(1);
  });

  it('counts every language row with a name, and which services speak each', () => {
    expect(facts.languages).toBe(3);
    expect(servicesByLanguage).toEqual({ english: 2, spanish: 1 });
  });

  it('sets apart an eligibility row that names no service', () => {
    expect(unattached.eligibility).toBe(1);
  });
});

describe('a child at several locations', () => {
  // DC: one schedule row for a service at the locations its location_id lists.
  const feed = {
    services: [{ id: 's1' }],
    locations: [{ id: 'l1' }, { id: 'l2' }],
    schedules: [
      { id: '101', service_id: 's1', location_id: 'l1,l2', dtstart: '8:30AM', until: '4:30PM' },
      { id: '102', service_id: '', location_id: 'l1, l2', dtstart: '9:00AM', until: '' },
    ],
    phones: [{ id: '1', service_id: 's1', location_id: 'l1,l2', number: '(202) 232-6100' }],
  };

  it('is a fact at each location, in the source, when it is hours', () => {
    expect(countTabularFacts(feed).facts.schedules).toBe(4);
    // A number for a service at two locations is one number of the service's.
    expect(countTabularFacts(feed).facts.phones).toBe(1);
  });

  it('is as many in the store, split into one record a location or not', () => {
    const stored = (schedules: StoredRecord[]) =>
      countStoredFacts(
        [
          { type: 'service', id: 's1', parent_ids: [], record: { id: 's1' } },
          { type: 'location', id: 'l1', parent_ids: [], record: { id: 'l1' } },
          { type: 'location', id: 'l2', parent_ids: [], record: { id: 'l2' } },
          ...schedules,
        ],
        () => false,
      ).facts.schedules;
    const record = (id: string, parents: string[]) => ({
      type: 'schedule',
      id,
      parent_ids: parents,
      record: { id, ...(parents.includes('s1') ? { service_id: 's1' } : {}), opens_at: '09:00' },
    });
    expect(stored([record('a', ['s1', 'l1']), record('b', ['s1', 'l2']), record('c', ['l1', 'l2'])])).toBe(4);
    expect(
      stored([
        record('a', ['s1', 'l1']),
        record('b', ['s1', 'l2']),
        record('c', ['l1']),
        record('d', ['l2']),
      ]),
    ).toBe(4);
  });
});

describe('hours for locations the feed lacks', () => {
  it('are one fact, however an import splits them', () => {
    const source = countTabularFacts({
      services: [{ id: 's1' }],
      schedules: [
        {
          id: '18',
          service_id: 's1',
          location_id: 'lx,ly,lz',
          weekday: 'Monday - Friday',
          dtstart: '9:00AM',
        },
      ],
    });
    expect(source.facts.schedules).toBe(1);
    const copy = (id: string, location: string): StoredRecord => ({
      type: 'schedule',
      id,
      parent_ids: ['s1', location],
      record: { id, service_id: 's1', location_id: location, byday: 'MO,TU,WE,TH,FR', opens_at: '09:00' },
    });
    const stored = countStoredFacts(
      [
        { type: 'service', id: 's1', parent_ids: [], record: { id: 's1' } },
        copy('a', 'lx'),
        copy('b', 'ly'),
        copy('c', 'lz'),
      ],
      () => false,
    );
    expect(stored.facts.schedules).toBe(1);
    expect(stored.facts['opening times']).toBe(1);
  });
});

describe('facts of nested items', () => {
  const organization = { id: 'o1', name: 'Helpers', url: 'https://helpers.example.org' };
  const shared = { id: 'sched-1', description: 'Monday - Friday, 9:00 a.m. - 5:00 p.m.' };

  it('counts an organization nested in every service once, and ORUK extensions', () => {
    const items = [
      {
        id: 's1',
        name: 'A',
        url: 'a.example.org',
        organization,
        pc_metadata: { date_modified: '2024-12-10' },
      },
      {
        id: 's2',
        name: 'B',
        url: '',
        organization,
        pc_targetAudience: [],
        pc_attendingAccess_additionalInfo: 'Ring',
      },
      // The same item again (pages overlapping): one service.
      {
        id: 's2',
        name: 'B',
        url: '',
        organization,
        pc_targetAudience: [],
        pc_attendingAccess_additionalInfo: 'Ring',
      },
      // The same id on a service that differs: another service.
      { id: 's2', name: 'B (evenings)', url: '', organization },
    ];
    const { facts } = countNestedFacts(items);
    expect(facts.services).toBe(3);
    expect(facts.organizations).toBe(1);
    expect(facts.urls).toBe(2);
    // pc_metadata and pc_attendingAccess_additionalInfo; an empty list says nothing.
    expect(facts.extensions).toBe(2);
    // The publisher's modified date, in pc_metadata.
    expect(facts['modified dates']).toBe(1);
  });

  it('reads nested organizations with array-wrapped ids and a schedule shared by id', () => {
    const feed = {
      id: '1',
      name: '211',
      website: '',
      locations: [
        {
          id: 'l1',
          url: 'www.example.org',
          schedules: [shared],
          phones: [{ id: 'ph1', number: '321-555-0100' }],
          addresss: [{ id: 'ad1', address_1: '1 US Highway 1', country: '' }],
        },
        { id: 'l2', schedules: [{ ...shared, description: '' }] },
      ],
      services: [
        {
          id: [{ id: '2152' }],
          name: 'Recovery',
          eligibility_description: 'Adults',
          languages: [{ name: 'English' }, { name: 'Spanish' }],
          schedules: [shared],
        },
      ],
    };
    expect(publishedId(feed.services[0]!.id)).toBe('2152');
    const { facts, servicesByLanguage, timesInTextOnly } = countNestedFacts([feed]);
    expect(facts.organizations).toBe(1);
    expect(facts.services).toBe(1);
    expect(facts.locations).toBe(2);
    expect(facts.addresses).toBe(1);
    // Under l1 and under the service; l2's copy says nothing but its id.
    expect(facts.schedules).toBe(2);
    expect(facts['opening times']).toBe(2);
    expect(timesInTextOnly).toBe(2);
    expect(facts.phones).toBe(1);
    expect(facts.languages).toBe(2);
    expect(servicesByLanguage).toEqual({ english: 1, spanish: 1 });
    expect(facts.eligibility).toBe(1);
    expect(facts.urls).toBe(1);
  });
});

describe('facts in the records store', () => {
  const stored: StoredRecord[] = [
    {
      type: 'service',
      id: 's1',
      parent_ids: [],
      record: { id: 's1', url: 'https://a.example.org', last_modified: '2024-12-10T00:00:00Z' },
    },
    // Stamped by the import: no date of the publisher's.
    {
      type: 'service',
      id: 's2',
      parent_ids: [],
      record: { id: 's2', minimum_age: 5, last_modified: '2026-12-07T10:00:00Z' },
    },
    {
      type: 'organization',
      id: 'o1',
      parent_ids: [],
      record: { id: 'o1', name: 'Helpers', website: 'https://h.example.org' },
    },
    { type: 'organization', id: 'o2', parent_ids: [], record: { id: 'o2', name: 'Unknown organization' } },
    { type: 'service', id: 's3', parent_ids: [], record: { id: 's3', organization_id: 'o2' } },
    // A contact of ids alone is no fact, in the store as in the source.
    { type: 'contact', id: 'c1', parent_ids: ['s1'], record: { id: 'c1', service_id: 's1' } },
    { type: 'contact', id: 'c2', parent_ids: ['s1'], record: { id: 'c2', service_id: 's1', name: 'Ann' } },
    { type: 'location', id: 'l1', parent_ids: ['o1'], record: { id: 'l1' } },
    // One schedule kept for two services (links united), one whose service is gone.
    { type: 'schedule', id: 'h1', parent_ids: ['s1', 's2'], record: { id: 'h1', opens_at: '09:00' } },
    {
      type: 'schedule',
      id: 'h2',
      parent_ids: ['s404', 'l1'],
      record: { id: 'h2', service_id: 's404', byday: 'MO' },
    },
    { type: 'language', id: 'g1', parent_ids: ['s1', 'l1'], record: { id: 'g1', name: 'English' } },
    { type: 'language', id: 'g2', parent_ids: ['l1'], record: { id: 'g2', name: 'Polish' } },
    { type: 'phone', id: 'p1', parent_ids: ['l1'], record: { id: 'p1', number: '555' } },
    { type: 'address', id: 'a1', parent_ids: ['l1'], record: { id: 'a1', address_1: '1 Main St' } },
    { type: 'attribute', id: 'at1', parent_ids: ['s2'], record: { id: 'at1', taxonomy_term_id: 't1' } },
  ];
  const { facts, unattached, placeholderOrganizations, servicesUnderPlaceholders, servicesByLanguage } =
    countStoredFacts(
      stored,
      (organization) => organization.name === 'Unknown organization',
      Date.parse('2026-12-07T09:00:00Z'),
    );

  it('counts by the source rules, placeholders apart', () => {
    expect(facts.services).toBe(3);
    expect(facts.organizations).toBe(1);
    expect(placeholderOrganizations).toBe(1);
    expect(servicesUnderPlaceholders).toBe(1);
    expect(facts.contacts).toBe(1);
    expect(facts.schedules).toBe(2);
    expect(facts['opening times']).toBe(2);
    expect(unattached.schedules).toBe(1);
    expect(facts.languages).toBe(2);
    expect(servicesByLanguage).toEqual({ english: 1, polish: 0 });
    expect(facts.phones).toBe(1);
    expect(facts.addresses).toBe(1);
    expect(facts['taxonomy links']).toBe(1);
    expect(facts.ages).toBe(1);
    expect(facts.urls).toBe(2);
    expect(facts['modified dates']).toBe(1);
  });
});

describe('a URL as publishers write them', () => {
  it.each([
    'https://helpers.example.org',
    'http://1625ip.co.uk',
    'unitedwaymiami.org',
    'www.facebook.com/LifePointeMinistries/',
    'Guardianangelshomehelp.co.uk',
  ])('%s is one', (value) => expect(looksLikeUrl(value)).toBe(true));
  it.each(['Warmley Community Centre', 'releasethesilence', 'info@example.org', ''])('%j is none', (value) =>
    expect(looksLikeUrl(value)).toBe(false),
  );
});

describe('mojibake', () => {
  it.each([
    ['directorGÇÖs', 1],
    ['directorâ€™s', 1],
    ['cafÃ©', 1],
    ['café, director’s', 0],
    [{ a: ['GÇ£quotedGÇ¥', 'plain'], b: { c: 'GÇÖ' } }, 2],
  ])('in %j: %i', (value, n) => expect(countMojibake(value)).toBe(n));
});

describe('a time of day anywhere in a schedule', () => {
  it.each([
    '9:00am',
    '8:30AM',
    '5 p.m.',
    '17:00',
    '09:00:00',
    'Monday - Friday, 9:00 a.m. - 5:00 p.m.',
    '24 Hours',
    '12 noon',
  ])('finds %s', (value) => expect(holdsTimeOfDay([value])).toBe(true));
  it.each(['By appointment', 'Call', '2024-06-17', 'Monday'])('finds none in %s', (value) =>
    expect(holdsTimeOfDay([value])).toBe(false),
  );
});
