/**
 * Constraints read from a search against the real engine (src/semantic/constraints.ts, issue 51):
 * a place the directory's addresses name filters, a language filters, an age excludes services
 * whose stated range does not take it, a place that empties the answer is relaxed and said so,
 * and the page says what was understood, which `understand=false` and `ignore_understood` remove.
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ServiceFull } from '../../src/hsds/index.ts';
import { createTestApp, createTestEngine, dropTestIndices } from '../support/engine.ts';
import { seedReadIndices } from '../support/seed.ts';

const engine = createTestEngine('constraints');
const app = createTestApp(engine);

function service(
  name: string,
  city: string,
  fields: Record<string, unknown> = {},
  location: Record<string, unknown> = {},
) {
  const id = randomUUID();
  const locationId = randomUUID();
  return {
    id,
    name,
    description: fields.description ?? `${name}.`,
    status: 'active',
    ...fields,
    service_at_locations: [
      {
        id: randomUUID(),
        service_id: id,
        location_id: locationId,
        location: {
          id: locationId,
          location_type: 'physical',
          name: `${name} site`,
          addresses: [
            {
              id: randomUUID(),
              location_id: locationId,
              address_1: '1 Main Street',
              city,
              state_province: 'FL',
              postal_code: city === 'Hialeah' ? '33010' : '33157',
              country: 'US',
              address_type: 'physical',
            },
          ],
          ...location,
        },
      },
    ],
  } as ServiceFull;
}

const creole = { languages: [{ id: randomUUID(), code: 'ht', name: 'Creole' }] };
const services = [
  service('Little Haiti Food Pantry', 'Miami', { description: 'Food pantry: groceries every week.' }, creole),
  service('Hialeah Community Food Pantry', 'Hialeah', { description: 'Food pantry for families.' }),
  service('Hialeah Hospital', 'Miami', { description: 'Emergency room and inpatient care.' }),
  service('Teen Food Pantry', 'Miami', {
    description: 'Food pantry run by young people.',
    minimum_age: 13,
    maximum_age: 19,
  }),
  service('Homestead Legal Aid', 'Homestead', { description: 'Legal advice.' }),
];

beforeAll(async () => {
  await seedReadIndices(engine, { services });
});
afterAll(() => dropTestIndices(engine));

type Page = { contents: { name: string }[]; understood?: Record<string, unknown>; relaxed?: string };
const search = async (query: string): Promise<Page> => {
  const res = await app.request(`/services?per_page=20&search=${query}`);
  expect(res.status).toBe(200);
  return (await res.json()) as Page;
};
const names = (page: Page) => page.contents.map((s) => s.name).sort();

describe('a place the directory serves', () => {
  it('keeps the services there, and says so', async () => {
    const page = await search('food%20pantry%20in%20Hialeah');
    expect(names(page)).toEqual(['Hialeah Community Food Pantry']);
    expect(page.understood).toEqual({
      place: { text: 'in Hialeah', place: 'hialeah', applied: 'filter' },
    });
  });

  it('by a ZIP code too', async () => {
    expect(names(await search('food%20pantry%2033010'))).toEqual(['Hialeah Community Food Pantry']);
  });

  it('is not read inside a name', async () => {
    const page = await search('Hialeah%20Hospital');
    expect(page.contents[0]?.name).toBe('Hialeah Hospital');
    expect(page.understood).toBeUndefined();
  });

  it('is relaxed when it would empty the answer, and the page says so', async () => {
    const page = await search('food%20pantry%20in%20Homestead');
    expect(page.relaxed).toBe('constraints');
    expect(page.understood).toEqual({
      place: { text: 'in Homestead', place: 'homestead', applied: 'relaxed' },
    });
    expect(names(page)).toContain('Hialeah Community Food Pantry');
  });

  it('is removed with understand=false or ignore_understood=place', async () => {
    for (const off of ['understand=false', 'ignore_understood=place']) {
      const page = await search(`food%20pantry%20in%20Hialeah&${off}`);
      expect(page.understood).toBeUndefined();
      expect(names(page)).toContain('Hialeah Community Food Pantry');
    }
  });
});

describe('a place the directory only names in words', () => {
  it('ranks the services naming it first, without leaving out the others', async () => {
    const page = await search('food%20pantry%20in%20Little%20Haiti');
    expect(page.contents[0]?.name).toBe('Little Haiti Food Pantry');
    expect(names(page)).toContain('Hialeah Community Food Pantry');
    expect(page.understood).toEqual({
      place: { text: 'in Little Haiti', place: 'little haiti', applied: 'boost' },
    });
  });

  it('stays a word of the search when no service names it', async () => {
    const page = await search('food%20pantry%20in%20Atlantis');
    expect(page.understood).toBeUndefined();
  });
});

describe('a language and an age', () => {
  it('keeps the services speaking the language', async () => {
    const page = await search('Creole%20speaking%20food%20pantry');
    expect(names(page)).toEqual(['Little Haiti Food Pantry']);
    expect(page.understood).toEqual({
      language: { text: 'Creole speaking', language: 'creole', applied: 'filter' },
    });
  });

  it('leaves out services whose stated ages do not take it', async () => {
    const page = await search('food%20pantry%20for%20seniors');
    expect(names(page)).not.toContain('Teen Food Pantry');
    expect(names(page)).toContain('Little Haiti Food Pantry');
    expect(page.understood).toMatchObject({ age: { minimum_age: 60, maximum_age: 120, applied: 'filter' } });
  });

  it('refuses an unknown kind to ignore with a 400', async () => {
    const res = await app.request('/services?search=food&ignore_understood=colour');
    expect(res.status).toBe(400);
  });
});
