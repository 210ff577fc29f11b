/** The plain-language lines of a search result: what the record says, and no line for what it does not. */
import { describe, expect, it } from 'vitest';
import { placeholderOrganization } from '../../../src/ingest/import/placeholder-organizations.ts';
import {
  describeService,
  openingTimesOf,
  summariseService,
  summariseServiceAtLocation,
} from '../../../src/mcp/service-text.ts';

const base = 'https://directory.example.org';

describe('summariseServiceAtLocation', () => {
  it('takes the nearest holder of phones and schedules, and the physical address', () => {
    const summary = summariseServiceAtLocation(
      {
        id: 'sal-1',
        distance: 1234.4,
        phones: [],
        location: {
          name: 'Town hall',
          addresses: [
            { address_type: 'postal', address_1: 'PO Box 1', city: 'Leeds', postal_code: 'LS1 1AA' },
            { address_type: 'physical', address_1: '1 Park Row', city: 'Leeds', postal_code: 'LS1 5AB' },
          ],
          phones: [{ number: '0113 000 0000', extension: 12 }],
        },
        service: {
          id: 'svc-1',
          name: 'Advice',
          organization: { name: 'Leeds Advice', phones: [{ number: '0800 000 000' }] },
          schedules: [{ description: 'Weekdays, mornings only' }],
        },
      },
      base,
    );
    expect(summary).toEqual({
      service_id: 'svc-1',
      service_at_location_id: 'sal-1',
      name: 'Advice',
      organization: 'Leeds Advice',
      location: 'Town hall',
      address: '1 Park Row, Leeds, LS1 5AB',
      phone: '0113 000 0000 (ext. 12)',
      opening_times: 'Weekdays, mornings only',
      distance_m: 1234,
      url: `${base}/services/svc-1`,
    });
    expect(describeService(summary!, 'LS1 1AA')).toBe(
      [
        'Advice (Leeds Advice)',
        'Location: Town hall',
        'Address: 1 Park Row, Leeds, LS1 5AB',
        'Phone: 0113 000 0000 (ext. 12)',
        'Opening times: Weekdays, mornings only',
        'Distance: 1.2 km from LS1 1AA',
        `Record: ${base}/services/svc-1`,
      ].join('\n'),
    );
  });

  it('says nothing of what the record leaves out', () => {
    const summary = summariseServiceAtLocation(
      { id: 'sal-2', service: { id: 'svc-2', name: 'Helpline' } },
      base,
    );
    expect(describeService(summary!)).toBe(`Helpline\nRecord: ${base}/services/svc-2`);
    expect(summariseServiceAtLocation({ id: 'sal-3' }, base)).toBeUndefined();
  });
});

describe('a service without a place', () => {
  it("is told by what it says instead: areas served, its contact's phone and e-mail, its website", () => {
    const summary = summariseService(
      {
        id: 'svc-5',
        name: 'Food bank',
        url: 'https://food.example.org',
        organization: { name: 'Food Trust' },
        contacts: [{ name: 'Sam', email: 'sam@example.org', phones: [{ number: '0117 000 0001' }] }],
        service_areas: [{ name: 'Southmead' }, { name: 'Henbury' }],
      },
      base,
    );
    expect(describeService(summary)).toBe(
      [
        'Food bank (Food Trust)',
        'Areas served: Southmead, Henbury',
        'Phone: 0117 000 0001',
        'Email: sam@example.org',
        'Website: https://food.example.org',
        `Record: ${base}/services/svc-5`,
      ].join('\n'),
    );
  });
});

describe('a placeholder organization', () => {
  it('is not read out as if it were a name: the service is told without one', () => {
    const placeholder = placeholderOrganization('0a000000-0000-4000-8000-000000000001');
    const summary = summariseServiceAtLocation(
      { id: 'sal-4', service: { id: 'svc-4', name: 'Tax help', organization: placeholder } },
      base,
    );
    expect(summary).not.toHaveProperty('organization');
    expect(describeService(summary!)).toBe(`Tax help\nRecord: ${base}/services/svc-4`);
    const full = summariseService({ id: 'svc-4', name: 'Tax help', organization: placeholder }, base);
    expect(full).not.toHaveProperty('organization');
    // One stored before the mark existed is told by its name and description.
    const { 'x-placeholder': _, ...unmarked } = placeholder;
    expect(
      summariseService({ id: 'svc-4', name: 'Tax help', organization: unmarked }, base),
    ).not.toHaveProperty('organization');
  });
});

describe('openingTimesOf', () => {
  it('reads days and hours when a schedule has no description', () => {
    expect(
      openingTimesOf([
        { byday: 'MO,TU', opens_at: '09:00:00', closes_at: '12:30:00' },
        { byday: 'SA', opens_at: '10:00' },
      ]),
    ).toBe('Monday, Tuesday 09:00-12:30; Saturday from 10:00');
    expect(openingTimesOf([], undefined, [{ freq: 'WEEKLY' }])).toBeUndefined();
  });
});
