/**
 * Every list and record endpoint against a real engine holding a synthetic directory: shapes
 * validated by the official HSDS schemas, the Page rules across every page, NDJSON equal to the
 * union of the pages, POST twins equal to GET, filters combined with AND.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ServiceFull } from '../../src/hsds/index.ts';
import { F } from '../../src/index-mapping/fields.ts';
import { STORED_LIST_ITEMS } from '../../src/index-mapping/sources.query.ts';
import { generateDataset } from '../../src/synthetic/generate.ts';
import {
  allPages,
  expectProblem,
  getJson,
  getNdjson,
  getPage,
  type JsonObject,
  sortedById,
} from '../support/api-requests.ts';
import { createTestApp, createTestEngine, dropTestIndices } from '../support/engine.ts';
import { assertHsds } from '../support/hsds-validator.ts';
import { seedReadIndices } from '../support/seed.ts';

const engine = createTestEngine('api-lists');
const app = createTestApp(engine);
const dataset = generateDataset({ services: 120, seed: 'api-lists' });
const services = [...dataset.services()] as ServiceFull[];
const plain = <T>(value: T): T => JSON.parse(JSON.stringify(value)) as T;

const termIdsOf = (s: ServiceFull) =>
  (s.attributes ?? []).map((a) => a.taxonomy_term_id ?? a.taxonomy_term?.id);
const taxonomyIdsOf = (s: ServiceFull) => (s.attributes ?? []).map((a) => a.taxonomy_term?.taxonomy_id);
const idsOf = (items: JsonObject[]) => items.map((i) => i.id as string).sort();
const serviceIds = (predicate: (s: ServiceFull) => boolean) =>
  services
    .filter(predicate)
    .map((s) => s.id)
    .sort();

/** The most used value of a list-valued property, so a filter test keeps several but not all. */
function mostCommon(values: (string | undefined)[]): string {
  const counts = new Map<string, number>();
  for (const v of values) if (v) counts.set(v, (counts.get(v) ?? 0) + 1);
  return [...counts.entries()].sort((a, b) => b[1] - a[1])[0]![0];
}

beforeAll(async () => {
  await seedReadIndices(engine, {
    services,
    taxonomies: dataset.taxonomies,
    taxonomyTerms: dataset.taxonomyTerms,
    organizations: [...dataset.organizations()],
  });
});
afterAll(() => dropTestIndices(engine));

describe('GET /services', () => {
  it('pages through every service with the Page rules, each a valid HSDS list item with organization', async () => {
    const { items, pages } = await allPages(app, '/services', 7, 'service_list_item');
    expect(idsOf(items)).toEqual(serviceIds(() => true));
    expect(pages).toHaveLength(Math.ceil(120 / 7));
    const first = items[0]!;
    expect(first.organization).toMatchObject({ id: expect.any(String), name: expect.any(String) });
    // List items carry direct fields only: no child arrays.
    for (const item of items) {
      for (const child of ['phones', 'schedules', 'service_at_locations', 'attributes', 'contacts']) {
        expect(item).not.toHaveProperty(child);
      }
      expect(item.organization).not.toHaveProperty('phones');
    }
  });

  it('defaults to page 1 of 50, alphabetically', async () => {
    const page = await getPage(app, '/services', 'service_list_item');
    expect(page).toMatchObject({
      page_number: 1,
      size: 50,
      total_items: 120,
      total_pages: 3,
      first_page: true,
    });
    const names = page.contents.map((s) => String(s.name).toLowerCase());
    expect(names).toEqual([...names].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0)));
  });

  it('answers a page past the end with an empty last page and the right totals', async () => {
    const page = await getPage(app, '/services?page=99&per_page=10', 'service_list_item');
    expect(page).toMatchObject({
      total_items: 120,
      total_pages: 12,
      page_number: 99,
      size: 0,
      first_page: false,
      last_page: true,
      empty: true,
      contents: [],
    });
  });

  it('answers an empty result as one first-and-last empty page', async () => {
    const page = await getPage(
      app,
      '/services?taxonomy_term_id=00000000-0000-4000-8000-000000000000',
      'service_list_item',
    );
    expect(page).toMatchObject({
      total_items: 0,
      total_pages: 0,
      page_number: 1,
      size: 0,
      first_page: true,
      last_page: true,
      empty: true,
    });
  });

  it('streams every service as NDJSON, equal to the union of the pages', async () => {
    const { items } = await allPages(app, '/services', 25, null);
    const lines = await getNdjson(app, '/services?format=ndjson&page=3&per_page=2');
    expect(sortedById(lines)).toEqual(sortedById(items));
    const full = await getNdjson(app, '/services?format=ndjson&full=true');
    expect(full).toHaveLength(120);
    for (const line of full) assertHsds('service', line);
  });

  it('gives fully nested services with full=true, as /services/{id} does', async () => {
    const page = await getPage(app, '/services?full=true&per_page=5', 'service');
    for (const item of page.contents) {
      const { body } = await getJson(app, `/services/${item.id}`);
      expect(item).toEqual(body);
    }
  });

  it('filters by taxonomy term, taxonomy, organization and modified_after, and combines them with AND', async () => {
    const term = mostCommon(services.flatMap(termIdsOf));
    const byTerm = await allPages(app, `/services?taxonomy_term_id=${term}`, 20, 'service_list_item');
    expect(idsOf(byTerm.items)).toEqual(serviceIds((s) => termIdsOf(s).includes(term)));

    const taxonomy = mostCommon(services.flatMap(taxonomyIdsOf));
    const byTaxonomy = await allPages(app, `/services?taxonomy_id=${taxonomy}`, 50, null);
    expect(idsOf(byTaxonomy.items)).toEqual(serviceIds((s) => taxonomyIdsOf(s).includes(taxonomy)));

    const organization = mostCommon(services.map((s) => s.organization_id));
    const byOrganization = await allPages(app, `/services?organization_id=${organization}`, 2, null);
    expect(idsOf(byOrganization.items)).toEqual(serviceIds((s) => s.organization_id === organization));
    expect(byOrganization.items.length).toBeGreaterThan(1);

    const cutoff = [...services.map((s) => s.last_modified as string)].sort()[60]!;
    const recent = await allPages(app, `/services?modified_after=${encodeURIComponent(cutoff)}`, 50, null);
    expect(idsOf(recent.items)).toEqual(serviceIds((s) => (s.last_modified as string) >= cutoff));

    const both = await allPages(
      app,
      `/services?taxonomy_id=${taxonomy}&modified_after=${encodeURIComponent(cutoff)}&taxonomy_term_id=${term}`,
      50,
      null,
    );
    expect(idsOf(both.items)).toEqual(
      serviceIds(
        (s) =>
          taxonomyIdsOf(s).includes(taxonomy) &&
          termIdsOf(s).includes(term) &&
          (s.last_modified as string) >= cutoff,
      ),
    );
  });

  it('accepts a date alone for modified_after', async () => {
    const page = await getPage(app, '/services?modified_after=2025-01-01&per_page=1', null);
    expect(page.total_items).toBe(services.filter((s) => (s.last_modified as string) >= '2025-01-01').length);
  });

  it('lists every service id and last_modified in one page with minimal=true, ignoring paging', async () => {
    const page = await getPage(app, '/services?minimal=true&per_page=5&page=3', null);
    expect(page).toMatchObject({
      total_items: 120,
      size: 120,
      page_number: 1,
      first_page: true,
      last_page: true,
    });
    expect(sortedById(page.contents)).toEqual(
      sortedById(services.map((s) => ({ id: s.id, last_modified: s.last_modified }))),
    );
    const lines = await getNdjson(app, '/services?minimal=true&format=ndjson&modified_after=2025-01-01');
    expect(idsOf(lines)).toEqual(serviceIds((s) => (s.last_modified as string) >= '2025-01-01'));
    expect(Object.keys(lines[0]!).sort()).toEqual(['id', 'last_modified']);
    const none = await getJson(
      app,
      '/services?minimal=true&organization_id=00000000-0000-4000-8000-000000000000',
    );
    expect(none.body).toEqual({
      total_items: 0,
      total_pages: 0,
      page_number: 1,
      size: 0,
      first_page: true,
      last_page: true,
      empty: true,
      contents: [],
    });
  });

  it('ignores parameters it does not know', async () => {
    const page = await getPage(app, '/services?per_page=3&utm_source=x&api_key=y&_=123', 'service_list_item');
    expect(page.size).toBe(3);
  });
});

describe('POST twins', () => {
  const expected = async (query: string) => (await getJson(app, `/services?${query}`)).body;

  it('take the parameters as JSON, form or query string, and answer what GET answers', async () => {
    const term = mostCommon(services.flatMap(termIdsOf));
    const want = await expected(`taxonomy_term_id=${term}&per_page=3&page=2`);
    const json = await getJson(app, '/services', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ taxonomy_term_id: term, per_page: 3, page: '2' }),
    });
    expect(json.body).toEqual(want);
    const form = await getJson(app, '/services', {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ taxonomy_term_id: term, per_page: '3', page: '2' }).toString(),
    });
    expect(form.body).toEqual(want);
    const query = await getJson(app, `/services?taxonomy_term_id=${term}&per_page=3&page=2`, {
      method: 'POST',
    });
    expect(query.body).toEqual(want);
    const mixed = await getJson(app, `/services?per_page=3&page=9`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ taxonomy_term_id: term, page: 2 }),
    });
    expect(mixed.body).toEqual(want);
  });

  it('exist for every list endpoint', async () => {
    for (const path of [
      '/services',
      '/service_at_locations',
      '/organizations',
      '/taxonomies',
      '/taxonomy_terms',
    ]) {
      const get = await getJson(app, `${path}?per_page=4&page=2`);
      const post = await getJson(app, path, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ per_page: 4, page: 2 }),
      });
      expect(post.status).toBe(200);
      expect(post.body).toEqual(get.body);
    }
  });

  it('refuse a bad value in the body as a 400 naming it, and a body that is not JSON', async () => {
    await expectProblem(app, '/services', 400, 'per_page', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ per_page: 5000 }),
    });
    await expectProblem(app, '/services', 400, undefined, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{"per_page": ',
    });
    await expectProblem(app, '/services', 400, 'full', {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: 'full=perhaps',
    });
  });
});

describe('GET /services/{id}', () => {
  it('returns the fully nested service as loaded', async () => {
    const service = services[17]!;
    const { status, body } = await getJson(app, `/services/${service.id}`);
    expect(status).toBe(200);
    expect(body).toEqual(plain(service));
    assertHsds('service', body);
  });

  it('answers concurrent lookups each with its own record, an unknown id among them with 404', async () => {
    // Lookups that arrive together go to the engine as one multi-get (src/engine/search.ts).
    const unknown = '00000000-0000-4000-8000-00000000abcd';
    const asked = [...services.slice(0, 40).map((s) => s.id), unknown, services[3]!.id.toUpperCase()];
    const answers = await Promise.all(asked.map((id) => getJson(app, `/services/${id}`)));
    answers.slice(0, 40).forEach(({ status, body }, i) => {
      expect(status).toBe(200);
      expect(body).toEqual(plain(services[i]));
    });
    expect(answers[40]!.status).toBe(404);
    // An id in another case is looked up again as stored, alone.
    expect(answers[41]!.status).toBe(200);
    expect(answers[41]!.body).toEqual(plain(services[3]));
  });

  it('answers 404 for an unknown id and 400 for a malformed one', async () => {
    await expectProblem(app, '/services/00000000-0000-4000-8000-000000000000', 404);
    await expectProblem(app, '/services/not-an-id', 400, 'id');
    await expectProblem(app, `/services/${'9'.repeat(40)}`, 400, 'id');
  });
});

describe('GET /service_at_locations', () => {
  const sals = services.flatMap((s) => (s.service_at_locations ?? []).map((sal) => ({ sal, service: s })));

  it('pages through every service-at-location with location and service (with organization)', async () => {
    const { items } = await allPages(app, '/service_at_locations', 40, 'service_at_location_list_item');
    expect(idsOf(items)).toEqual(sals.map((x) => x.sal.id).sort());
    const withLocation = items.find((i) => i.location);
    expect(withLocation?.location).toMatchObject({ id: expect.any(String), name: expect.any(String) });
    expect(items[0]?.service).toMatchObject({
      id: expect.any(String),
      organization: { id: expect.any(String) },
    });
    expect(items[0]?.service).not.toHaveProperty('phones');
    expect(withLocation?.location).not.toHaveProperty('addresses');
  });

  it('filters by organization and streams as NDJSON', async () => {
    const organization = mostCommon(services.map((s) => s.organization_id));
    const lines = await getNdjson(app, `/service_at_locations?format=ndjson&organization_id=${organization}`);
    expect(idsOf(lines)).toEqual(
      sals
        .filter((x) => x.service.organization_id === organization)
        .map((x) => x.sal.id)
        .sort(),
    );
  });

  it('gives fully nested items with full=true, and the record by id', async () => {
    const page = await getPage(app, '/service_at_locations?full=true&per_page=3', 'service_at_location');
    const item = page.contents[0]!;
    expect(item.service).toMatchObject({ id: expect.any(String), name: expect.any(String) });
    const { body } = await getJson(app, `/service_at_locations/${item.id}`);
    expect(body).toEqual(item);
    assertHsds('service_at_location', body);
    assertHsds('service', body.service);
    await expectProblem(app, '/service_at_locations/00000000-0000-4000-8000-000000000000', 404);
  });

  it('refuses proximity without a postcode', async () => {
    await expectProblem(app, '/service_at_locations?proximity=1000', 400, 'proximity');
    await expectProblem(app, '/service_at_locations?proximity=-5&postcode=AB10%201AB', 400, 'proximity');
  });
});

describe('GET /organizations', () => {
  const organizations = [...dataset.organizations()];
  const servicesOf = (id: string) => services.filter((s) => s.organization_id === id);

  it('pages through every organization, each a valid list item', async () => {
    const { items } = await allPages(app, '/organizations', 9, 'organization_list_item');
    expect(idsOf(items)).toEqual(organizations.map((o) => o.id).sort());
    expect(items[0]).not.toHaveProperty('services');
  });

  it('nests services: id, name and status with full=true; fully nested with full_service=true', async () => {
    const page = await getPage(app, '/organizations?full=true&per_page=10', 'organization');
    for (const org of page.contents) {
      const nested = org.services as JsonObject[];
      expect(idsOf(nested)).toEqual(
        servicesOf(org.id as string)
          .map((s) => s.id)
          .sort(),
      );
      for (const s of nested) expect(Object.keys(s).sort()).toEqual(['id', 'name', 'status']);
    }
    const full = await getNdjson(app, '/organizations?format=ndjson&full_service=true');
    expect(full).toHaveLength(organizations.length);
    for (const org of full) {
      assertHsds('organization', org);
      const nested = org.services as JsonObject[];
      expect(nested).toHaveLength(servicesOf(org.id as string).length);
      for (const s of nested) assertHsds('service', s);
    }
  });

  it('serves one organization with its service ids, or its full services', async () => {
    const org = organizations[3]!;
    const { body } = await getJson(app, `/organizations/${org.id}`);
    assertHsds('organization', body);
    expect(body).toMatchObject({ id: org.id, name: org.name });
    expect(idsOf(body.services as JsonObject[])).toEqual(
      servicesOf(org.id)
        .map((s) => s.id)
        .sort(),
    );
    const full = await getJson(app, `/organizations/${org.id}?full_service=true`);
    const nested = sortedById(full.body.services as JsonObject[]);
    expect(nested).toEqual(sortedById(plain(servicesOf(org.id)) as unknown as JsonObject[]));
    await expectProblem(app, '/organizations/00000000-0000-4000-8000-000000000000', 404);
    await expectProblem(app, `/organizations/${org.id}?full_service=sometimes`, 400, 'full_service');
  });

  it('filters organizations by the taxonomy terms of their services', async () => {
    const term = mostCommon(services.flatMap(termIdsOf));
    const { items } = await allPages(app, `/organizations?taxonomy_term_id=${term}`, 50, null);
    const expected = [
      ...new Set(services.filter((s) => termIdsOf(s).includes(term)).map((s) => s.organization_id)),
    ];
    expect(idsOf(items)).toEqual((expected as string[]).sort());
  });
});

describe('stored list items', () => {
  // List pages read each record's list item as stored at indexing, not filtered from the record by
  // the engine: both must give the same item, for every document of every index that stores one.
  it('are the records filtered to the list item fields, as the engine filters them', async () => {
    for (const [index, paths] of Object.entries(STORED_LIST_ITEMS)) {
      const { body } = await engine.client.search({
        index: engine.name(index),
        body: {
          size: 1000,
          query: { match_all: {} },
          _source: { includes: [...(paths ?? [])] },
          stored_fields: [F.listItem],
        },
      });
      type Hit = { _source: { record: unknown }; fields?: Record<string, string[]> };
      const hits = body.hits.hits as unknown as Hit[];
      expect(hits.length, index).toBeGreaterThanOrEqual(index === 'organizations' ? 10 : 120);
      for (const hit of hits) {
        const stored = hit.fields?.[F.listItem]?.[0];
        expect(stored, index).toBeTypeOf('string');
        expect(JSON.parse(stored as string), index).toEqual(hit._source.record);
      }
    }
  });

  it('are not required: a page or stream holding a document without one (from an earlier version) is read from records', async () => {
    const byId = (items: JsonObject[]) => [...items].sort((a, b) => (String(a.id) < String(b.id) ? -1 : 1));
    const before = await getPage(app, '/service_at_locations?per_page=30', 'service_at_location_list_item');
    const streamBefore = byId(await getNdjson(app, '/service_at_locations?format=ndjson'));
    expect(streamBefore.length).toBeGreaterThan(30);
    const id = before.contents[3]!.id as string;
    const index = engine.name('service_at_locations');
    const { body } = await engine.client.get({ index, id });
    // Indexed again without its list item, as an earlier version wrote it: the document has none.
    const { [F.listItem]: _, ...earlier } = body._source as Record<string, unknown>;
    await engine.client.index({ index, id, body: earlier, refresh: true });
    const { body: again } = await engine.client.get({ index, id, stored_fields: F.listItem });
    expect(again.fields).toBeUndefined();
    const after = await getPage(app, '/service_at_locations?per_page=30', 'service_at_location_list_item');
    expect(after.contents).toEqual(before.contents);
    expect(byId(await getNdjson(app, '/service_at_locations?format=ndjson'))).toEqual(streamBefore);
  });
});

describe('GET /taxonomies and /taxonomy_terms', () => {
  it('list and serve taxonomies', async () => {
    const { items } = await allPages(app, '/taxonomies', 1, 'taxonomy');
    expect(idsOf(items)).toEqual(dataset.taxonomies.map((t) => t.id).sort());
    const { body } = await getJson(app, `/taxonomies/${dataset.taxonomies[0]!.id}`);
    expect(body).toEqual(plain(dataset.taxonomies[0]));
    await expectProblem(app, '/taxonomies/00000000-0000-4000-8000-000000000000', 404);
  });

  it('list terms with their taxonomy, filtered by taxonomy, top level and parent', async () => {
    const terms = dataset.taxonomyTerms;
    const { items } = await allPages(app, '/taxonomy_terms', 40, 'taxonomy_term');
    expect(idsOf(items)).toEqual(terms.map((t) => t.id).sort());
    expect(items[0]?.taxonomy_detail).toMatchObject({ id: expect.any(String) });

    const taxonomy = dataset.taxonomies[0]!.id;
    const byTaxonomy = await allPages(app, `/taxonomy_terms?taxonomy_id=${taxonomy}`, 50, null);
    expect(idsOf(byTaxonomy.items)).toEqual(
      terms
        .filter((t) => t.taxonomy_id === taxonomy)
        .map((t) => t.id)
        .sort(),
    );

    const top = await allPages(app, '/taxonomy_terms?top_only=true', 50, null);
    expect(idsOf(top.items)).toEqual(
      terms
        .filter((t) => !t.parent_id)
        .map((t) => t.id)
        .sort(),
    );
    const notTop = await getPage(app, '/taxonomy_terms?top_only=false&per_page=1', null);
    expect(notTop.total_items).toBe(terms.length);

    const parent = mostCommon(terms.map((t) => t.parent_id));
    const children = await allPages(app, `/taxonomy_terms?parent_id=${parent}`, 50, null);
    expect(idsOf(children.items)).toEqual(
      terms
        .filter((t) => t.parent_id === parent)
        .map((t) => t.id)
        .sort(),
    );

    const { body } = await getJson(app, `/taxonomy_terms/${terms[5]!.id}`);
    expect(body).toEqual(plain(terms[5]));
    assertHsds('taxonomy_term', body);
  });

  it('finds a term by its code', async () => {
    const term = dataset.taxonomyTerms.find((t) => t.code && t.parent_id)!;
    const page = await getPage(
      app,
      `/taxonomy_terms?search=${encodeURIComponent(term.code!)}`,
      'taxonomy_term',
    );
    expect(page.contents[0]?.id).toBe(term.id);
  });
});

describe('bad parameters', () => {
  it('answer 400 problem+json naming the parameter', async () => {
    const cases: [string, string][] = [
      ['/services?page=0', 'page'],
      ['/services?page=-1', 'page'],
      ['/services?page=1.5', 'page'],
      ['/services?per_page=1001', 'per_page'],
      ['/services?per_page=abc', 'per_page'],
      ['/services?full=yes', 'full'],
      ['/services?minimal=2', 'minimal'],
      ['/services?modified_after=yesterday', 'modified_after'],
      ['/services?modified_after=2024-13-45', 'modified_after'],
      ['/services?format=xml', 'format'],
      ['/services?taxonomy_term_id=food', 'taxonomy_term_id'],
      ['/service_at_locations?full=1', 'full'],
      ['/organizations?full_service=x', 'full_service'],
      ['/taxonomy_terms?top_only=maybe', 'top_only'],
      ['/taxonomy_terms?parent_id=abc', 'parent_id'],
      ['/taxonomies?format=csv', 'format'],
      ['/taxonomies/abc', 'id'],
    ];
    for (const [url, parameter] of cases) await expectProblem(app, url, 400, parameter);
  });

  it('never cause a 500, whatever the search text: a 200, or a 400 beyond 500 characters', async () => {
    const inputs = [
      '"',
      '""',
      '"unterminated phrase',
      'food AND (bank OR',
      'a:b c:"d" [x TO y] {z} ~1 ^2 * ? \\ / !',
      '<script>alert(1)</script>',
      '\u0000\u0001\uFFFF',
      '🍲 foodbank',
      'the of and',
      'x'.repeat(500),
      'x'.repeat(5000),
      Array.from({ length: 100 }, (_, i) => `w${i}`).join(' '),
      Array.from({ length: 300 }, (_, i) => `word${i}`).join(' '),
      '%',
      'SELECT * FROM services;',
    ];
    for (const search of inputs) {
      for (const path of [
        '/services',
        '/service_at_locations',
        '/organizations',
        '/taxonomies',
        '/taxonomy_terms',
      ]) {
        const res = await app.request(`${path}?search=${encodeURIComponent(search)}`);
        expect({ path, search: search.slice(0, 30), status: res.status }).toEqual({
          path,
          search: search.slice(0, 30),
          status: search.length > 500 ? 400 : 200,
        });
      }
    }
  });
});
