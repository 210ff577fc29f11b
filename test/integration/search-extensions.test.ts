/**
 * The search extensions against the real engine: facet counts for the current search and filters
 * (opt-in, absent otherwise), on services and service-at-locations, and "did you mean" for a
 * search that found nothing. Pages stay valid HSDS pages with the extension fields.
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ServiceFull } from '../../src/hsds/index.ts';
import { expectProblem, getPage } from '../support/api-requests.ts';
import { createTestApp, createTestEngine, dropTestIndices } from '../support/engine.ts';
import { seedReadIndices } from '../support/seed.ts';

const engine = createTestEngine('search-extensions');
const app = createTestApp(engine);

const taxonomy = { id: randomUUID(), name: 'Needs', description: 'What people need.' };
const term = (name: string) => ({ id: randomUUID(), name, description: name, taxonomy_id: taxonomy.id });
const food = term('Food');
const housing = term('Housing');
const organization = (name: string) => ({ id: randomUUID(), name, description: `${name}.` });
const trust = organization('Torry Community Trust');
const council = organization('City Council');

function service(name: string, org: ReturnType<typeof organization>, terms: ReturnType<typeof term>[]) {
  const id = randomUUID();
  const location = {
    id: randomUUID(),
    location_type: 'physical',
    name: `${name} hall`,
    latitude: 57.13,
    longitude: -2.1,
  };
  return {
    id,
    name,
    description: `${name} for local people.`,
    status: 'active',
    organization_id: org.id,
    organization: org,
    attributes: terms.map((t) => ({ id: randomUUID(), taxonomy_term_id: t.id, taxonomy_term: t })),
    service_at_locations: [{ id: randomUUID(), service_id: id, location_id: location.id, location }],
  } as ServiceFull;
}

const services = [
  service('Food Bank', trust, [food]),
  service('Community Pantry', trust, [food]),
  service('Debt Advice', council, [housing]),
  service('Housing Options', council, [housing]),
  service('Food and Housing Hub', council, [food, housing]),
];

beforeAll(async () => {
  await seedReadIndices(engine, { services, taxonomies: [taxonomy], taxonomyTerms: [food, housing] });
});
afterAll(() => dropTestIndices(engine));

type Facets = Record<string, { id: string; name?: string; count: number }[]>;
const facetsOf = (page: Record<string, unknown>) => page.facets as Facets;

describe('facets', () => {
  it('are absent unless asked for', async () => {
    const page = await getPage(app, '/services?search=food', 'service_list_item');
    expect(page).not.toHaveProperty('facets');
    expect(page).not.toHaveProperty('did_you_mean');
  });

  it('count every match of the search and filters per value, with names, most frequent first', async () => {
    const all = await getPage(
      app,
      '/services?facets=taxonomy_term,organization,taxonomy&per_page=1',
      'service_list_item',
    );
    expect(facetsOf(all).taxonomy_term).toEqual(
      [
        { id: food.id, name: 'Food', count: 3 },
        { id: housing.id, name: 'Housing', count: 3 },
      ].sort((a, b) => b.count - a.count || a.id.localeCompare(b.id)),
    );
    expect(facetsOf(all).organization).toEqual([
      { id: council.id, name: 'City Council', count: 3 },
      { id: trust.id, name: 'Torry Community Trust', count: 2 },
    ]);
    expect(facetsOf(all).taxonomy).toEqual([{ id: taxonomy.id, name: 'Needs', count: 5 }]);

    const searched = await getPage(
      app,
      `/services?search=food&organization_id=${council.id}&facets=taxonomy_term`,
      'service_list_item',
    );
    expect(searched.total_items).toBe(1);
    expect(facetsOf(searched)).toEqual({
      taxonomy_term: expect.arrayContaining([
        { id: food.id, name: 'Food', count: 1 },
        { id: housing.id, name: 'Housing', count: 1 },
      ]),
    });
  });

  it('work on service-at-locations and in POST bodies', async () => {
    const page = await getPage(
      app,
      `/service_at_locations?taxonomy_term_id=${food.id}&facets=organization`,
      'service_at_location_list_item',
    );
    expect(facetsOf(page).organization).toEqual([
      { id: trust.id, name: 'Torry Community Trust', count: 2 },
      { id: council.id, name: 'City Council', count: 1 },
    ]);
    const posted = await getPage(app, '/services', 'service_list_item', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ facets: 'organization', search: 'housing' }),
    });
    expect(facetsOf(posted).organization).toEqual([{ id: council.id, name: 'City Council', count: 3 }]);
  });

  it('refuse an unknown facet with a problem naming the parameter', async () => {
    await expectProblem(app, '/services?facets=colour', 400, 'facets');
  });
});

describe('did you mean', () => {
  it('offers the search with its unknown words corrected when it found nothing', async () => {
    // Two typos in one word: beyond what search forgives, within what a suggestion corrects.
    const page = await getPage(app, '/services?search=hawsing%20options', 'service_list_item');
    expect(page.total_items).toBe(0);
    expect((page as Record<string, unknown>).did_you_mean).toBe('housing options');
    const corrected = await getPage(
      app,
      `/services?search=${encodeURIComponent((page as Record<string, unknown>).did_you_mean as string)}`,
      null,
    );
    expect(corrected.contents.map((s) => s.name)).toContain('Housing Options');
  });

  it('offers nothing when nothing close exists, or when the search found something', async () => {
    expect(await getPage(app, '/services?search=xylophone', null)).not.toHaveProperty('did_you_mean');
    expect(await getPage(app, '/services?search=housing', null)).not.toHaveProperty('did_you_mean');
  });
});
