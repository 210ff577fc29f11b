/**
 * GET /suggest against the real engine: service, organization and taxonomy term names from their
 * completion fields, places from the postcode index, and bad input as problems.
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  activatePostcodeIndex,
  createPostcodeIndex,
  loadPostcodes,
  type PostcodeEntry,
} from '../../src/engine/postcodes.ts';
import type { ServiceFull } from '../../src/hsds/index.ts';
import { expectProblem, getJson } from '../support/api-requests.ts';
import { createTestApp, createTestEngine, dropTestIndices } from '../support/engine.ts';
import { seedReadIndices } from '../support/seed.ts';

const engine = createTestEngine('suggest');
const app = createTestApp(engine);

const taxonomy = { id: randomUUID(), name: 'Needs', description: 'What people need.' };
const foodTerm = {
  id: randomUUID(),
  name: 'Food banks and pantries',
  description: 'Food.',
  taxonomy_id: taxonomy.id,
};
const trust = { id: randomUUID(), name: 'Torry Community Trust', description: 'A trust.' };
const church = { id: randomUUID(), name: 'Food for Thought Church', description: 'A church.' };

function service(name: string, organization: typeof trust): ServiceFull {
  return {
    id: randomUUID(),
    name,
    description: `${name}.`,
    status: 'active',
    organization_id: organization.id,
    organization,
  } as ServiceFull;
}

async function* places(): AsyncGenerator<PostcodeEntry> {
  yield { key: 'AB10', kind: 'outcode', lat: 57.14, lon: -2.11 };
  yield { key: 'AB10 1AB', kind: 'postcode', lat: 57.148, lon: -2.096 };
  yield { key: 'AB10 1AF', kind: 'postcode', lat: 57.148, lon: -2.097 };
  yield { key: 'AB11 5QN', kind: 'postcode', lat: 57.14, lon: -2.09 };
}

beforeAll(async () => {
  await seedReadIndices(engine, {
    services: [
      service('Torry Foodbank', trust),
      service('Food Bank', trust),
      service('Food Bank', church),
      service('Debt Advice', trust),
    ],
    taxonomies: [taxonomy],
    taxonomyTerms: [foodTerm],
  });
  const index = await createPostcodeIndex(engine);
  await loadPostcodes(engine, index, places());
  await activatePostcodeIndex(engine, index);
});
afterAll(() => dropTestIndices(engine));

type Suggestions = {
  q: string;
  services: string[];
  organizations: { id: string; name: string }[];
  taxonomy_terms: { id: string; name: string }[];
  places: { postcode: string; kind: string }[];
};

const suggestFor = async (q: string, extra = '') => {
  const { status, body } = await getJson<Suggestions>(app, `/suggest?q=${encodeURIComponent(q)}${extra}`);
  expect(status).toBe(200);
  return body;
};

describe('GET /suggest', () => {
  it('offers service names (each once), organizations and taxonomy terms that start with the text', async () => {
    const food = await suggestFor('foo');
    expect(food.services.sort()).toEqual(['Food Bank', 'Torry Foodbank']);
    expect(food.organizations).toEqual([{ id: church.id, name: 'Food for Thought Church' }]);
    expect(food.taxonomy_terms).toEqual([{ id: foodTerm.id, name: 'Food banks and pantries' }]);
    expect(food.places).toEqual([]);
  });

  it('matches from any word of a name, and forgives a typo in a longer prefix', async () => {
    expect((await suggestFor('communi')).organizations.map((o) => o.name)).toEqual(['Torry Community Trust']);
    expect((await suggestFor('deby adv')).services).toEqual(['Debt Advice']);
  });

  it('offers outcodes, then postcodes, from the postcode index', async () => {
    expect((await suggestFor('ab10')).places).toEqual([
      { postcode: 'AB10', kind: 'outcode' },
      { postcode: 'AB10 1AB', kind: 'postcode' },
      { postcode: 'AB10 1AF', kind: 'postcode' },
    ]);
    expect((await suggestFor('ab101a', '&size=1')).places).toEqual([
      { postcode: 'AB10 1AB', kind: 'postcode' },
    ]);
  });

  it('refuses a missing, empty or too long text, and a bad size, naming the parameter', async () => {
    await expectProblem(app, '/suggest', 400, 'q');
    await expectProblem(app, '/suggest?q=%20', 400, 'q');
    await expectProblem(app, `/suggest?q=${'x'.repeat(101)}`, 400, 'q');
    await expectProblem(app, '/suggest?q=food&size=0', 400, 'size');
  });
});
