/**
 * The Open Referral UK profile (HSDS_PROFILE=oruk): its /services filters (ages, day and opening
 * times, one schedule slot matching all together), and responses valid against the UK schemas.
 */
import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ServiceFull } from '../../src/hsds/index.ts';
import { allPages, expectProblem, getJson, getPage } from '../support/api-requests.ts';
import { createTestApp, createTestEngine, dropTestIndices } from '../support/engine.ts';
import { assertHsds } from '../support/hsds-validator.ts';
import { seedReadIndices } from '../support/seed.ts';

const engine = createTestEngine('api-oruk');
const app = createTestApp(engine, { HSDS_PROFILE: 'oruk' });
const hsdsApp = createTestApp(engine);

const example = (name: string) =>
  JSON.parse(readFileSync(new URL(`../fixtures/hsds/oruk/examples/${name}`, import.meta.url), 'utf8'));

const slot = (byday: string, opens_at: string, closes_at: string) => ({
  id: randomUUID(),
  freq: 'WEEKLY',
  byday,
  opens_at,
  closes_at,
});

function service(name: string, ages: [number, number], schedules: ReturnType<typeof slot>[]): ServiceFull {
  const organizationId = randomUUID();
  return {
    id: randomUUID(),
    name,
    description: `${name}.`,
    status: 'active',
    minimum_age: ages[0],
    maximum_age: ages[1],
    organization_id: organizationId,
    organization: { id: organizationId, name: `${name} Trust`, description: 'A charity.' },
    schedules,
    service_at_locations: [
      {
        id: randomUUID(),
        location: {
          id: randomUUID(),
          location_type: 'physical',
          name: `${name} hall`,
          latitude: 57.14,
          longitude: -2.1,
        },
      },
    ],
  } as ServiceFull;
}

const children = service('Play Club', [0, 11], [slot('MO', '09:00', '12:00')]);
const teens = service('Youth Club', [12, 18], [slot('MO', '18:00', '20:00'), slot('FR', '09:00', '17:00')]);
const adults = service('Adult Learning', [18, 99], []);
const official = example('service_full.json') as ServiceFull;

beforeAll(async () => {
  await seedReadIndices(engine, {
    services: [children, teens, adults, official],
    taxonomies: [example('taxonomy.json')],
    taxonomyTerms: [example('taxonomy_term.json')],
  });
});
afterAll(() => dropTestIndices(engine));

async function names(query: string): Promise<string[]> {
  const page = await getPage(app, `/services?${query}&per_page=50`, 'service_list_item', undefined, 'oruk');
  return page.contents.map((s) => s.name as string).sort();
}

describe('UK profile /services filters', () => {
  it('keep services with a minimum age of at least minimum_age, a maximum age of at most maximum_age', async () => {
    expect(await names('minimum_age=12')).toEqual(['Adult Learning', official.name, 'Youth Club'].sort());
    expect(await names('maximum_age=18')).toEqual(['Play Club', 'Youth Club']);
    expect(await names('minimum_age=12&maximum_age=18')).toEqual(['Youth Club']);
  });

  it('match the day and opening times within one schedule slot', async () => {
    expect(await names('day=MO')).toEqual(['Play Club', 'Youth Club']);
    expect(await names('day=monday&start_time=17:00')).toEqual(['Youth Club']);
    // Friday opens at 09:00 and Monday at 18:00: no single slot is Friday from 17:00.
    expect(await names('day=FR&start_time=17:00')).toEqual([]);
    expect(await names('end_time=12:00')).toEqual(['Play Club']);
    expect(await names('day=TH')).toEqual([official.name]);
  });

  it('apply to service_at_locations too', async () => {
    const page = await getPage(
      app,
      '/service_at_locations?minimum_age=12&maximum_age=18',
      'service_at_location_list_item',
      undefined,
      'oruk',
    );
    expect(page.contents.map((s) => (s.service as { name: string }).name)).toEqual(['Youth Club']);
  });

  it('refuse bad values naming the parameter', async () => {
    await expectProblem(app, '/services?minimum_age=old', 400, 'minimum_age');
    await expectProblem(app, '/services?day=someday', 400, 'day');
    await expectProblem(app, '/services?start_time=9am', 400, 'start_time');
  });

  it('are unknown, hence ignored, under plain HSDS', async () => {
    const page = await getPage(hsdsApp, '/services?minimum_age=12&day=MO', 'service_list_item');
    expect(page.total_items).toBe(4);
  });
});

describe('UK profile responses', () => {
  it('are valid against the UK schemas', async () => {
    const { items } = await allPages(app, '/services', 2, null);
    for (const item of items) assertHsds('service_list_item', item, 'oruk');
    for (const item of items) {
      const { body } = await getJson(app, `/services/${item.id}`);
      assertHsds('service', body, 'oruk');
    }
    const sal = await getPage(app, '/service_at_locations?full=true', null);
    for (const item of sal.contents) assertHsds('service_at_location', item, 'oruk');
    const taxonomies = await getPage(app, '/taxonomies', 'taxonomy', undefined, 'oruk');
    expect(taxonomies.total_items).toBe(1);
    const terms = await getPage(app, '/taxonomy_terms', 'taxonomy_term', undefined, 'oruk');
    expect(terms.total_items).toBe(1);
    const { body } = await getJson(app, '/');
    expect(body.version).toBe('HSDS-UK-3.0');
  });
});
