/**
 * A broad category finds the services filed under its narrower terms, by default (issue 54: a
 * top-level term found 0 services while its child found 3): `taxonomy_term_id` and `taxonomy_id`
 * take the terms below, on /services, /service_at_locations and /organizations;
 * `include_child_terms=false` matches the term alone.
 *
 * Food > Food banks > Emergency parcels (three levels), Food > Lunch clubs (a term that names no
 * taxonomy, as ORUK feeds' child terms often do), and Money, with no children. One service filed
 * under each term, each with a place and an organization of its own.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { App } from '../../src/api/types.ts';
import { getPage, type JsonObject } from '../support/api-requests.ts';
import { createTestApp, createTestEngine, dropTestIndices } from '../support/engine.ts';
import { seedReadIndices } from '../support/seed.ts';

const engine = createTestEngine('child-terms');
let app: App;

const uuid = (group: number, n: number) =>
  `${group.toString(16).padStart(8, '0')}-0000-4000-8000-${n.toString(16).padStart(12, '0')}`;
const TAXONOMY = {
  id: uuid(9, 1),
  name: 'Local categories',
  description: 'A council list',
  uri: 'https://example.org/t',
};
const term = (n: number, name: string, parent?: string, ofTaxonomy = true) => ({
  id: uuid(8, n),
  name,
  description: name,
  ...(parent ? { parent_id: parent } : {}),
  ...(ofTaxonomy ? { taxonomy_id: TAXONOMY.id } : {}),
});
const FOOD = term(1, 'Food');
const BANKS = term(2, 'Food banks', FOOD.id);
const PARCELS = term(3, 'Emergency parcels', BANKS.id);
const LUNCH = term(4, 'Lunch clubs', FOOD.id, false);
const MONEY = term(5, 'Money');
const TERMS = [FOOD, BANKS, PARCELS, LUNCH, MONEY];

function service(n: number, name: string, filed: { id: string; name: string }) {
  const org = uuid(n, 2);
  return {
    id: uuid(n, 1),
    name,
    description: `${name} in Bristol.`,
    status: 'active',
    organization_id: org,
    organization: { id: org, name: `${name} Trust`, description: 'x' },
    attributes: [{ id: uuid(n, 3), taxonomy_term_id: filed.id, taxonomy_term: filed }],
    service_at_locations: [
      {
        id: uuid(n, 4),
        location: { id: uuid(n, 5), location_type: 'physical', name, latitude: 51.45, longitude: -2.58 },
      },
    ],
  };
}
const PANTRY = service(1, 'Pantry', FOOD);
const FOOD_BANK = service(2, 'Food bank', BANKS);
const PARCEL_RUN = service(3, 'Parcel run', PARCELS);
const LUNCH_CLUB = service(4, 'Lunch club', LUNCH);
const ADVICE = service(5, 'Money advice', MONEY);

const names = (items: JsonObject[]) => items.map((item) => item.name as string).sort();
const servicesOf = async (query: string) =>
  names((await getPage(app, `/services?${query}`, 'service_list_item')).contents);

beforeAll(async () => {
  app = createTestApp(engine);
  await seedReadIndices(engine, {
    services: [PANTRY, FOOD_BANK, PARCEL_RUN, LUNCH_CLUB, ADVICE],
    taxonomies: [TAXONOMY],
    taxonomyTerms: TERMS,
  });
});
afterAll(async () => {
  await dropTestIndices(engine);
});

describe('taxonomy_term_id', () => {
  it("finds a parent term's services with its children's and grandchildren's, by default", async () => {
    expect(await servicesOf(`taxonomy_term_id=${FOOD.id}`)).toEqual([
      'Food bank',
      'Lunch club',
      'Pantry',
      'Parcel run',
    ]);
    expect(await servicesOf(`taxonomy_term_id=${BANKS.id}`)).toEqual(['Food bank', 'Parcel run']);
    // The id in another case is the same term, as the filter itself reads it.
    expect(await servicesOf(`taxonomy_term_id=${FOOD.id.toUpperCase()}`)).toHaveLength(4);
  });

  it('with include_child_terms=false, finds only the services filed under the term itself', async () => {
    expect(await servicesOf(`taxonomy_term_id=${FOOD.id}&include_child_terms=false`)).toEqual(['Pantry']);
    expect(await servicesOf(`taxonomy_term_id=${BANKS.id}&include_child_terms=false`)).toEqual(['Food bank']);
  });

  it('finds the same for a term without children either way', async () => {
    expect(await servicesOf(`taxonomy_term_id=${MONEY.id}`)).toEqual(['Money advice']);
    expect(await servicesOf(`taxonomy_term_id=${MONEY.id}&include_child_terms=false`)).toEqual([
      'Money advice',
    ]);
    expect(await servicesOf(`taxonomy_term_id=${PARCELS.id}`)).toEqual(['Parcel run']);
  });

  it('does the same on /service_at_locations, /organizations and the POST twin', async () => {
    const places = await getPage(
      app,
      `/service_at_locations?taxonomy_term_id=${BANKS.id}`,
      'service_at_location_list_item',
    );
    expect(places.total_items).toBe(2);
    const alone = await getPage(
      app,
      `/service_at_locations?taxonomy_term_id=${BANKS.id}&include_child_terms=false`,
      'service_at_location_list_item',
    );
    expect(alone.total_items).toBe(1);
    const orgs = await getPage(app, `/organizations?taxonomy_term_id=${FOOD.id}`, 'organization_list_item');
    expect(names(orgs.contents)).toEqual([
      'Food bank Trust',
      'Lunch club Trust',
      'Pantry Trust',
      'Parcel run Trust',
    ]);
    const orgsAlone = await getPage(
      app,
      `/organizations?taxonomy_term_id=${FOOD.id}&include_child_terms=false`,
      'organization_list_item',
    );
    expect(names(orgsAlone.contents)).toEqual(['Pantry Trust']);
    const posted = await app.request('/services', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ taxonomy_term_id: FOOD.id }),
    });
    expect(((await posted.json()) as { total_items: number }).total_items).toBe(4);
  });
});

describe('taxonomy_id', () => {
  it("also finds the services filed under terms below the taxonomy's own that name no taxonomy", async () => {
    expect(await servicesOf(`taxonomy_id=${TAXONOMY.id}`)).toEqual([
      'Food bank',
      'Lunch club',
      'Money advice',
      'Pantry',
      'Parcel run',
    ]);
    expect(await servicesOf(`taxonomy_id=${TAXONOMY.id}&include_child_terms=false`)).not.toContain(
      'Lunch club',
    );
  });
});

describe('the taxonomy tree', () => {
  /** Searches of the taxonomy_terms index while `run` runs. */
  async function treeReads(run: () => Promise<unknown>): Promise<number> {
    const search = vi.spyOn(engine.client, 'search');
    try {
      await run();
      return search.mock.calls.filter(([params]) =>
        String((params as { index?: unknown } | undefined)?.index ?? '').includes('taxonomy_terms'),
      ).length;
    } finally {
      search.mockRestore();
    }
  }

  it('is read once, and not again while the served data stays as it is', async () => {
    await servicesOf(`taxonomy_term_id=${FOOD.id}`);
    const reads = await treeReads(async () => {
      await servicesOf(`taxonomy_term_id=${BANKS.id}`);
      await servicesOf(`taxonomy_id=${TAXONOMY.id}`);
      await getPage(app, `/organizations?taxonomy_term_id=${FOOD.id}`, 'organization_list_item');
    });
    expect(reads).toBe(0);
  });

  it('is read again once the served data changed', async () => {
    // Emergency parcels moves under Money: Food no longer finds the parcel run.
    await seedReadIndices(engine, {
      services: [PANTRY, FOOD_BANK, PARCEL_RUN, LUNCH_CLUB, ADVICE],
      taxonomies: [TAXONOMY],
      taxonomyTerms: [FOOD, BANKS, { ...PARCELS, parent_id: MONEY.id }, LUNCH, MONEY],
    });
    // The served data's change time is read at most once a second.
    await new Promise((resolve) => setTimeout(resolve, 1100));
    const reads = await treeReads(async () => {
      expect(await servicesOf(`taxonomy_term_id=${MONEY.id}`)).toEqual(['Money advice', 'Parcel run']);
    });
    expect(reads).toBe(1);
    expect(await servicesOf(`taxonomy_term_id=${FOOD.id}`)).toEqual(['Food bank', 'Lunch club', 'Pantry']);
  });
});
