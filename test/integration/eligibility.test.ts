/**
 * Who a service is for and how it is reached, against the real engine: `age`, `language`, `free`
 * and `accessibility` on /services and /service_at_locations, in both profiles, and each as a facet.
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ServiceFull } from '../../src/hsds/index.ts';
import { getPage } from '../support/api-requests.ts';
import { createTestApp, createTestEngine, dropTestIndices } from '../support/engine.ts';
import { seedReadIndices } from '../support/seed.ts';

const engine = createTestEngine('eligibility');
const app = createTestApp(engine);
const uk = createTestApp(engine, { HSDS_PROFILE: 'oruk' });

function service(name: string, fields: Record<string, unknown> = {}, location: Record<string, unknown> = {}) {
  const id = randomUUID();
  const locationId = randomUUID();
  return {
    id,
    name,
    status: 'active',
    ...fields,
    service_at_locations: [
      {
        id: randomUUID(),
        service_id: id,
        location_id: locationId,
        location: { id: locationId, location_type: 'physical', name: `${name} hall`, ...location },
      },
    ],
  } as ServiceFull;
}

const language = (fields: Record<string, unknown>) => ({ id: randomUUID(), ...fields });

const services = [
  service('Toddlers', {
    minimum_age: 0,
    maximum_age: 4,
    languages: [language({ code: 'en', name: 'English' })],
    cost_options: [{ id: randomUUID(), amount: 0, currency: 'GBP' }],
  }),
  service(
    'Teens',
    { minimum_age: 12, maximum_age: 17, fees_description: 'Free of charge' },
    { languages: [language({ code: 'pl', name: 'Polish' })] },
  ),
  service('Adults', {
    minimum_age: 18,
    phones: [{ id: randomUUID(), number: '01224 000000', languages: [language({ name: 'Welsh' })] }],
    cost_options: [{ id: randomUUID(), amount: 5, currency: 'GBP' }],
  }),
  service(
    'Everyone',
    {},
    {
      accessibility: [
        {
          id: randomUUID(),
          description: 'Wheelchair accessible entrance',
          details: 'Ramps at the side door',
        },
      ],
    },
  ),
  service('Not free', { cost_options: [{ id: randomUUID(), option: 'Not free: £3 a session' }] }),
];

beforeAll(async () => {
  await seedReadIndices(engine, { services });
});
afterAll(() => dropTestIndices(engine));

const names = async (query: string, on = app, profile: 'hsds' | 'oruk' = 'hsds') => {
  const page = await getPage(on, `/services?per_page=50&${query}`, 'service_list_item', undefined, profile);
  return page.contents.map((item) => String(item.name)).sort();
};

describe('age', () => {
  it('keeps services whose range takes the age; an unstated bound takes any', async () => {
    expect(await names('age=3')).toEqual(['Everyone', 'Not free', 'Toddlers']);
    expect(await names('age=17')).toEqual(['Everyone', 'Not free', 'Teens']);
    expect(await names('age=30')).toEqual(['Adults', 'Everyone', 'Not free']);
  });

  it('under the UK profile too, beside its minimum_age and maximum_age', async () => {
    expect(await names('age=3', uk, 'oruk')).toEqual(['Everyone', 'Not free', 'Toddlers']);
    expect(await names('minimum_age=12', uk, 'oruk')).toEqual(['Adults', 'Teens']);
  });
});

describe('language', () => {
  it('by code or name, any case, of the service, its locations and their phones', async () => {
    expect(await names('language=en')).toEqual(['Toddlers']);
    expect(await names('language=POLISH')).toEqual(['Teens']);
    expect(await names('language=pl')).toEqual(['Teens']);
    expect(await names('language=welsh')).toEqual(['Adults']);
    expect(await names('language=fr')).toEqual([]);
  });

  it('on /service_at_locations, by the location of each', async () => {
    const page = await getPage(app, '/service_at_locations?language=pl', 'service_at_location_list_item');
    expect(page.contents.map((item) => (item.service as { name: string }).name)).toEqual(['Teens']);
  });
});

describe('free', () => {
  it('keeps a zero cost option or a "free" of the fees, never "not free"; false filters nothing', async () => {
    expect(await names('free=true')).toEqual(['Teens', 'Toddlers']);
    expect(await names('free=false')).toHaveLength(services.length);
  });
});

describe('accessibility', () => {
  it('matches every word given, stemmed, in the locations’ records', async () => {
    expect(await names('accessibility=wheelchair')).toEqual(['Everyone']);
    expect(await names('accessibility=ramp')).toEqual(['Everyone']);
    expect(await names('accessibility=wheelchair+lift')).toEqual([]);
    const page = await getPage(
      app,
      '/service_at_locations?accessibility=wheelchair',
      'service_at_location_list_item',
    );
    expect(page.contents).toHaveLength(1);
  });
});

describe('facets', () => {
  it('count age bands, languages, free and accessibility records for the current filters', async () => {
    const page = await getPage(
      app,
      '/services?per_page=1&facets=age,language,free,accessibility',
      'service_list_item',
    );
    const facets = (page as Record<string, unknown>).facets as Record<
      string,
      { id: string; count: number }[]
    >;
    expect(facets.age).toEqual([
      { id: '0-4', count: 3 },
      { id: '5-11', count: 2 },
      { id: '12-17', count: 3 },
      { id: '18-24', count: 3 },
      { id: '25-64', count: 3 },
      { id: '65+', count: 3 },
    ]);
    expect(facets.language).toEqual(
      expect.arrayContaining([
        { id: 'en', count: 1 },
        { id: 'pl', count: 1 },
        { id: 'welsh', count: 1 },
      ]),
    );
    expect(facets.free).toEqual(
      expect.arrayContaining([
        { id: 'true', count: 2 },
        { id: 'false', count: 2 },
      ]),
    );
    expect(facets.accessibility).toEqual(
      expect.arrayContaining([{ id: 'wheelchair accessible entrance', count: 1 }]),
    );
    const filtered = await getPage(app, '/services?free=true&facets=age', 'service_list_item');
    expect(
      ((filtered as Record<string, unknown>).facets as Record<string, { id: string; count: number }[]>)
        .age?.[0],
    ).toEqual({
      id: '0-4',
      count: 1,
    });
  });
});
