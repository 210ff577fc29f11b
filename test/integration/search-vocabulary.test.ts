/**
 * The search vocabulary against the real analyzers: the shipped rules (needs, compounds,
 * abbreviations, spellings), and an operator's own file taking effect through a reload, with no
 * reindex: these read indices are seeded directly, with no records store a reindex could read.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readAliasTargets } from '../../src/engine/indices.ts';
import { reloadVocabulary } from '../../src/engine/vocabulary.ts';
import { FILLER_FILTER, SEARCH_ANALYZER } from '../../src/index-mapping/analysis.ts';
import { loadVocabulary, shippedVocabulary } from '../../src/index-mapping/vocabulary-files.ts';
import { getPage } from '../support/api-requests.ts';
import { createTestApp, createTestEngine, dropTestIndices } from '../support/engine.ts';
import { fixtureService, seedReadIndices } from '../support/seed.ts';

const engine = createTestEngine('search-vocabulary');
const app = createTestApp(engine);

const service = (name: string, description: string) =>
  fixtureService(name, description, { name: `${name} Trust`, description: 'A charity.' });

const fixtures = {
  foodBank: service('Harbour Food Bank', 'Emergency parcels for people in crisis.'),
  shelter: service('Winter Night Shelter', 'Emergency beds from 8pm, November to March.'),
  surgery: service('Rosemount Medical Practice', 'General practice: appointments and repeat prescriptions.'),
  counseling: service('Community Counseling Center', 'Talking therapies on a sliding scale.'),
  rent: service('Tenancy Support', 'Help with rent arrears and repairs.'),
  walkIn: service('City Walk-in Centre', 'See a nurse without an appointment.'),
  walks: service('Health Walks', 'Short group walks led by volunteers.'),
  stoke: service('Stoke-on-Trent Carers', 'Breaks and advice for unpaid carers.'),
  toddlers: service('Little Steps', 'Songs and play for toddlers and their grown-ups.'),
  lunchClub: service('Silver Threads Lunch Club', 'A hot meal and company for pensioners on Wednesdays.'),
};

beforeAll(async () => {
  await seedReadIndices(engine, { services: Object.values(fixtures) });
});
afterAll(() => dropTestIndices(engine));

async function searchIds(search: string): Promise<string[]> {
  const page = await getPage(app, `/services?search=${encodeURIComponent(search)}&per_page=50`, null);
  return page.contents.map((s) => s.id as string);
}

describe('the shipped vocabulary', () => {
  it('joins compounds, spellings and abbreviations to the words services use', async () => {
    expect(await searchIds('foodbank')).toEqual([fixtures.foodBank.id]);
    expect(await searchIds('counselling centre')).toEqual([fixtures.counseling.id]);
    expect(await searchIds('GP')).toEqual([fixtures.surgery.id]);
  });

  it('finds services for needs put in everyday words, whatever else is typed around them', async () => {
    expect(await searchIds("can't pay rent")).toEqual([fixtures.rent.id]);
    expect(await searchIds('I need somewhere to sleep tonight')).toEqual([fixtures.shelter.id]);
  });

  it('reads age groups as people say them', async () => {
    for (const typed of ['under 5s', 'under fives', 'play for under 5s'])
      expect(await searchIds(typed), typed).toEqual([fixtures.toddlers.id]);
    for (const typed of ['over 60s', 'over 50s', 'for the over 65s'])
      expect(await searchIds(typed), typed).toEqual([fixtures.lunchClub.id]);
  });

  it('reads a verb and particle joined by a hyphen as one word: a walk-in centre is not a walk', async () => {
    for (const typed of ['walk-in', 'walkin', 'walk in centre'])
      expect(await searchIds(typed), typed).toEqual([fixtures.walkIn.id]);
    // Typed apart, "walk" is still a word of its own, found after the walk-in centre.
    expect(await searchIds('walk in')).toEqual([fixtures.walkIn.id, fixtures.walks.id]);
    expect((await searchIds('walks'))[0]).toBe(fixtures.walks.id);
    // A place name keeps its words: the particle sits between two hyphens.
    expect(await searchIds('stoke on trent')).toEqual([fixtures.stoke.id]);
  });
});

describe("an operator's vocabulary", () => {
  it('changes what search finds after a reload, without a reindex', async () => {
    expect(await searchIds('grub')).toEqual([]);
    const before = await readAliasTargets(engine);
    const file = join(mkdtempSync(join(tmpdir(), 'hsds-vocabulary-')), 'synonyms.txt');
    writeFileSync(file, '# ours\ngrub => food\n');
    const rules = loadVocabulary({ shipped: true, file });
    expect(rules).toHaveLength(shippedVocabulary().length + 1);

    await reloadVocabulary(engine, rules);

    expect(await searchIds('grub')).toEqual([fixtures.foodBank.id]);
    // The shipped rules still apply, and the data is the same documents, served from clones.
    expect(await searchIds('foodbank')).toEqual([fixtures.foodBank.id]);
    expect((await getPage(app, '/services?per_page=50', null)).total_items).toBe(
      Object.keys(fixtures).length,
    );
    const after = await readAliasTargets(engine);
    expect(after.current.services).not.toBe(before.current.services);
    // The version served before is kept for a rollback.
    expect(after.previous.services).toBe(before.current.services);
  });

  it("brings indices built by an earlier version up to today's filler words", async () => {
    // An index built when "really" was no filler word: its search analyzer keeps it.
    const served = (await readAliasTargets(engine)).current.services as string;
    const dropsReally = async (index: string) => {
      const { body } = await engine.client.indices.analyze({
        index,
        body: { analyzer: SEARCH_ANALYZER, text: 'really' },
      });
      return (body.tokens ?? []).length === 0;
    };
    await engine.client.indices.close({ index: served });
    await engine.client.indices.putSettings({
      index: served,
      body: { [`index.analysis.filter.${FILLER_FILTER}`]: { type: 'stop', stopwords: ['i', 'me'] } },
    });
    await engine.client.indices.open({ index: served, wait_for_active_shards: 1 } as never);
    expect(await dropsReally(served)).toBe(false);

    await reloadVocabulary(engine, shippedVocabulary());

    const reloaded = (await readAliasTargets(engine)).current.services as string;
    expect(reloaded).not.toBe(served);
    expect(await dropsReally(reloaded)).toBe(true);
  });
});
