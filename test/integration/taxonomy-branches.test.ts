/**
 * The publisher's taxonomy as meaning (src/semantic/term-branches.ts), against the real engine and
 * embedding model: a search that means a term finds the services filed under the terms below it,
 * where the feed links each term to its top-level facet only and its AIRS code spells the rest (as
 * Miami 211 publishes); a search that means nothing the directory offers still finds nothing.
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createEmbedder } from '../../src/semantic/embedder.ts';
import { shippedNeeds } from '../../src/semantic/needs.ts';
import { createUnderstanding, type Understanding } from '../../src/semantic/understanding.ts';
import { getPage } from '../support/api-requests.ts';
import { createTestApp, createTestEngine, dropTestIndices } from '../support/engine.ts';
import { fixtureService, seedReadIndices } from '../support/seed.ts';

const engine = createTestEngine('taxonomy-branches');
const taxonomy = { id: randomUUID(), name: 'AIRS', description: 'The 211 LA County taxonomy.' };
const basicId = randomUUID();
// Each term's parent is the top-level facet; the code, its own or (as an import of an HSDS 1.1
// feed keeps it) the publisher's id in its metadata, says where below that it sits.
const term = (code: string, name: string, where: 'code' | 'metadata' = 'code') => {
  const id = randomUUID();
  return {
    id,
    name,
    description: name,
    taxonomy_id: taxonomy.id,
    ...(code === 'B' ? {} : { parent_id: basicId }),
    ...(where === 'code'
      ? { code }
      : {
          metadata: [
            {
              id: randomUUID(),
              resource_id: id,
              resource_type: 'taxonomy_term',
              last_action_date: '2024-01-01',
              last_action_type: 'id migrated',
              field_name: 'id',
              previous_value: code,
              replacement_value: id,
              updated_by: 'import',
            },
          ],
        }),
  };
};
const terms = {
  basic: { ...term('B', 'Basic Needs'), id: basicId },
  emergencyFood: term('BD-1800', 'Emergency Food'),
  vouchers: term('BD-1800.2250', 'Grocery Vouchers', 'metadata'),
  kosher: term('BD-1800.8200-380', 'Kosher Meals'),
  clothing: term('BM-6500.1500', 'Clothing'),
};
const service = (name: string, description: string, filed: (typeof terms)[keyof typeof terms][]) =>
  fixtureService(name, description, { name: `${name} Inc`, description: 'A charity.' }, filed);
const fixtures = {
  vouchers: service('Market Cards', 'Cards to spend at local stores, for families on a low income.', [
    terms.vouchers,
  ]),
  kosher: service('Shabbat Table', 'Friday dinners delivered to the homebound.', [terms.kosher]),
  coats: service('Warm Coats', 'Winter coats for children.', [terms.clothing]),
};

let understanding: Understanding;
let app: ReturnType<typeof createTestApp>;

beforeAll(async () => {
  await seedReadIndices(engine, {
    services: Object.values(fixtures),
    taxonomies: [taxonomy],
    taxonomyTerms: Object.values(terms),
  });
  understanding = await createUnderstanding({
    engine,
    embedder: await createEmbedder(),
    needs: shippedNeeds(),
    settings: { heldWordsTimeoutMs: 10_000 },
  });
  app = createTestApp(engine, {}, { understanding });
});
afterAll(async () => {
  await understanding?.close();
  await dropTestIndices(engine);
});

async function searchIds(text: string): Promise<string[]> {
  const page = await getPage(app, `/services?search=${encodeURIComponent(text)}&per_page=10`, null);
  return page.contents.map((s) => s.id as string);
}

describe('a parent term a search means', () => {
  it('finds the services filed under the terms below it, by their AIRS codes', async () => {
    const ids = await searchIds('emergency food');
    expect(new Set(ids)).toEqual(new Set([fixtures.vouchers.id, fixtures.kosher.id]));
  });

  it('does not widen a search that means nothing the directory offers', async () => {
    expect(await searchIds('theme park tickets')).toEqual([]);
  });
});
