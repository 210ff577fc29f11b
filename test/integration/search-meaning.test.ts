/**
 * Search by meaning against the real engine and the real embedding model (src/semantic): what a
 * person says of their situation finds the services that meet it; a crisis puts the matching
 * crisis services first, recognised from paraphrases that vocabulary/needs.txt does not hold; a
 * search that found nothing as typed is relaxed and says so; a search with nothing searchable in it
 * finds nothing.
 */
import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ENGLISH_STOP_WORDS, FILLER_WORDS, SEARCH_ANALYZER } from '../../src/index-mapping/analysis.ts';
import { isEmptyWord } from '../../src/index-mapping/text.query.ts';
import { createEmbedder } from '../../src/semantic/embedder.ts';
import { NEEDS_FILE, shippedNeeds } from '../../src/semantic/needs.ts';
import { createUnderstanding, type Understanding } from '../../src/semantic/understanding.ts';
import { getPage } from '../support/api-requests.ts';
import { createTestApp, createTestEngine, dropTestIndices } from '../support/engine.ts';
import { fixtureService, seedReadIndices } from '../support/seed.ts';

const engine = createTestEngine('search-meaning');
const taxonomy = { id: randomUUID(), name: 'Needs', description: 'What people come for.' };
const term = (name: string, description: string) => ({
  id: randomUUID(),
  name,
  description,
  taxonomy_id: taxonomy.id,
});
const terms = {
  crisis: term('Crisis helplines', 'Phone and text lines for people at risk, day and night.'),
  abuse: term('Domestic abuse', 'Safety and refuge for people harmed by a partner or family member.'),
  food: term('Food banks', 'Emergency food parcels.'),
  walking: term('Walking groups', 'Led walks for health and company.'),
  digital: term('Digital inclusion', 'Free internet access, devices and computer skills.'),
};
const service = (name: string, description: string, filed: (typeof terms)[keyof typeof terms][]) =>
  fixtureService(name, description, { name: `${name} Trust`, description: 'A charity.' }, filed);
const fixtures = {
  lifeline: service('Lifeline Listening Service', 'Talk to a trained volunteer about suicidal feelings.', [
    terms.crisis,
  ]),
  refuge: service('Safe Haven Refuge', 'Safe housing and support for women leaving a violent partner.', [
    terms.abuse,
    terms.crisis,
  ]),
  pantry: service('Riverside Pantry', 'Free groceries on Tuesdays.', [terms.food]),
  walks: service('Ending the Day Walks', 'Gentle evening walks that end at the café: all welcome.', [
    terms.walking,
  ]),
  tenancy: service('Tenancy Relief Fund', 'Grants toward rent arrears for tenants facing eviction.', []),
  carScheme: service('Village Car Scheme', 'Volunteer drivers take you to hospital in their own car.', []),
  webClasses: service('Connected Tuesdays', 'Email, video calls and forms on the web, with a tutor.', [
    terms.digital,
  ]),
  homeCare: service('Respite Care at Home', 'Trained care workers sit with the person you look after.', []),
  detox: service(
    'Harbour Drug Service',
    'Naloxone, detox and same-day help after an overdose or poisoning.',
    [],
  ),
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
    // These tests are about what the word look-up decides, not how soon: on a loaded CI machine a
    // cold look-up passed the served 300 ms and the search did without it ("car" found "care" too).
    settings: { heldWordsTimeoutMs: 10_000 },
  });
  app = createTestApp(engine, {}, { understanding });
});
afterAll(async () => {
  await understanding?.close();
  await dropTestIndices(engine);
});

async function search(text: string) {
  const page = await getPage(app, `/services?search=${encodeURIComponent(text)}&per_page=10`, null);
  const relaxed = (page as { relaxed?: unknown }).relaxed;
  return { ids: page.contents.map((s) => s.id as string), total: page.total_items, relaxed };
}

// Paraphrases of risk, none of them a phrasing of vocabulary/needs.txt (checked below).
const SUICIDE = [
  "I don't see the point in living any more",
  'thinking about taking my own life',
  "I can't go on living like this",
];
const ABUSE = ['my husband beats me', "I'm frightened of my boyfriend, he gets violent"];
// Someone else's risk, told by a friend or a relative.
const THIRD_PERSON = ['my mate says he is going to end things'];
const OVERDOSE = ["he took way too many pills and I can't wake him"];
// A plan told by its means: far from every need's phrasings (the closest suicide phrasing about
// 0.54 away, below the loose need threshold), so it once read as out of scope and found nothing.
const IMMINENT = ['thinking of jumping off the multi storey car park', 'gonna hang myself tonight'];
const linesOf = (page: object) => (page as { crisis_lines?: unknown }).crisis_lines;
const LINES = 'Samaritans: 116 123; Shout: https://giveusashout.org';

describe('a crisis', () => {
  it('is written as paraphrases the needs file does not hold', () => {
    const shipped = readFileSync(NEEDS_FILE, 'utf8').toLowerCase();
    for (const text of [...SUICIDE, ...ABUSE, ...THIRD_PERSON, ...OVERDOSE, ...IMMINENT])
      expect(shipped).not.toContain(text.toLowerCase());
  });

  it.each(THIRD_PERSON)('puts the crisis line first for someone else\'s risk: "%s"', async (text) => {
    expect((await search(text)).ids[0]).toBe(fixtures.lifeline.id);
  });

  it.each(OVERDOSE)(
    'finds the drug service first for an overdose, not only suicide lines: "%s"',
    async (text) => {
      expect((await search(text)).ids[0]).toBe(fixtures.detox.id);
    },
  );

  it('carries the configured crisis lines on a crisis page, and only there', async () => {
    const withLines = createTestApp(engine, { CRISIS_LINES: LINES }, { understanding });
    const crisisPage = await getPage(
      withLines,
      `/services?search=${encodeURIComponent(THIRD_PERSON[0]!)}`,
      null,
    );
    expect(linesOf(crisisPage)).toEqual([
      { name: 'Samaritans', phone: '116 123' },
      { name: 'Shout', url: 'https://giveusashout.org' },
    ]);
    const plain = await getPage(withLines, '/services?search=free%20groceries', null);
    expect(linesOf(plain)).toBeUndefined();
  });

  it.each(SUICIDE)('puts the crisis line first for "%s"', async (text) => {
    const { ids } = await search(text);
    expect(ids[0]).toBe(fixtures.lifeline.id);
    // The walks whose name says "ending" are not what a person at risk is offered first.
    expect(ids.indexOf(fixtures.walks.id)).not.toBe(0);
  });

  it.each(IMMINENT)('puts the crisis line first for a plan told by its means: "%s"', async (text) => {
    const { ids, total } = await search(text);
    expect(total).toBeGreaterThan(0);
    expect(ids[0]).toBe(fixtures.lifeline.id);
  });

  it.each(ABUSE)('puts the refuge first for "%s"', async (text) => {
    expect((await search(text)).ids[0]).toBe(fixtures.refuge.id);
  });

  it("counts only the operator's crisis terms when CRISIS_TAXONOMY_TERMS names them", async () => {
    const restricted = await createUnderstanding({
      engine,
      embedder: await createEmbedder(),
      needs: shippedNeeds(),
      settings: { crisisTerms: ['domestic abuse'] },
    });
    try {
      const meaning = await restricted.understand(SUICIDE[1]!);
      expect(meaning?.crisis?.restricted).toBe(true);
      expect(meaning?.crisis?.onlyTermIds).toEqual([terms.abuse.id]);
    } finally {
      await restricted.close();
    }
  });
});

describe('a crisis in a directory that holds no crisis service', () => {
  const bare = createTestEngine('search-meaning-no-crisis');
  let bareUnderstanding: Understanding;
  beforeAll(async () => {
    await seedReadIndices(bare, {
      services: [fixtures.pantry, fixtures.walks],
      taxonomies: [taxonomy],
      taxonomyTerms: [terms.food, terms.walking],
    });
    bareUnderstanding = await createUnderstanding({
      engine: bare,
      embedder: await createEmbedder(),
      needs: shippedNeeds(),
      settings: { heldWordsTimeoutMs: 10_000 },
    });
  });
  afterAll(async () => {
    await bareUnderstanding?.close();
    await dropTestIndices(bare);
  });

  it('still answers with the crisis lines the operator configures', async () => {
    const bareApp = createTestApp(bare, { CRISIS_LINES: LINES }, { understanding: bareUnderstanding });
    const page = await getPage(bareApp, `/services?search=${encodeURIComponent(SUICIDE[1]!)}`, null);
    expect(linesOf(page)).toEqual([
      { name: 'Samaritans', phone: '116 123' },
      { name: 'Shout', url: 'https://giveusashout.org' },
    ]);
  });
});

describe('a need put as a situation', () => {
  it('finds the service that meets it though no word of the search is in it', async () => {
    const { ids } = await search("I'm behind with what I owe my landlord");
    expect(ids[0]).toBe(fixtures.tenancy.id);
  });
});

describe('a need the directory files under a term', () => {
  it("finds the services under the term the need's words are close to, though none of them is in the services", async () => {
    // "how do I go online" means the need for digital help; the need's words ("digital skills,
    // computer help, internet access") are close to the term "Digital inclusion", and appear in no
    // service, nor does any word of the search.
    const meaning = await understanding.understand('how do I go online');
    expect(meaning?.terms.map((t) => t.id)).toContain(terms.digital.id);
    expect((await search('how do I go online')).ids[0]).toBe(fixtures.webClasses.id);
  });
});

describe('punctuation around the words', () => {
  // The model reads "online)" or "[how" as other words than the bare ones; near a threshold that
  // changed what a search means (a need at 0.66 became none).
  it.each(['(how do I go online)', '[how do I go online]', 'how do I go online???', '*how* do I go online!'])(
    'leaves what "%s" means, and finds, as the bare words do',
    async (text) => {
      const bare = 'how do I go online';
      const meant = await understanding.understand(bare);
      expect(meant?.terms.map((t) => t.id)).toContain(terms.digital.id);
      expect(await understanding.understand(text)).toEqual(meant);
      expect((await search(text)).ids).toEqual((await search(bare)).ids);
    },
  );
});

describe('a situation told in two parts', () => {
  // Embedded whole, the text means debt, and is not close enough to hunger; its second part,
  // understood on its own, means hunger.
  const text = 'the bailiffs came this morning and now we have no food in the house';

  it('means the need of each part', async () => {
    const meaning = await understanding.understand(text);
    expect(meaning?.needs.map((n) => n.name)).toEqual(expect.arrayContaining(['debt', 'hunger']));
  });

  it('finds the services that meet each part', async () => {
    const { ids } = await search(text);
    expect(ids.slice(0, 2)).toEqual(expect.arrayContaining([fixtures.tenancy.id, fixtures.pantry.id]));
  });

  it('does not take what a few words mean on their surface when the whole text is far from it', async () => {
    // "I can't stop crying" alone is close to "I can't stop drinking"; the whole text is not.
    const meaning = await understanding.understand("I can't stop crying and feel low all the time");
    expect(meaning?.needs.map((n) => n.name)).not.toContain('drinking');
  });
});

describe('relaxation', () => {
  it('never serves half the words of a search that means nothing the directory offers', async () => {
    // Half its words found the pantry ("riverside", "tuesdays"), as half of "luxury hotel Miami
    // Beach" found every service of Miami Beach: a search for what the directory does not offer.
    const { total, relaxed } = await search('riverside tuesdays hovercraft zeppelin');
    expect(total).toBe(0);
    expect(relaxed).toBeUndefined();
  });

  it('requires no word that only says how much ("very", "really", "so", "much", "many", "lots")', async () => {
    // Counted, "really" and "so" would be two of three required words: the search as typed would
    // find nothing and need relaxing, though every word that names something matches.
    const plain = await search('riverside groceries');
    expect(plain.ids).toContain(fixtures.pantry.id);
    for (const text of ['really so very much riverside groceries', 'lots and lots of riverside groceries']) {
      const { ids, relaxed } = await search(text);
      expect(ids, text).toEqual(plain.ids);
      expect(relaxed, text).toBeUndefined();
    }
  });

  it('never relaxes one or two words: what the directory does not offer stays empty', async () => {
    for (const text of ['cheap flights', 'ferrari dealership', 'quantum physics']) {
      const { total, relaxed } = await search(text);
      expect(total, text).toBe(0);
      expect(relaxed, text).toBeUndefined();
    }
  });
});

describe('typos', () => {
  it('takes a word the directory holds as typed, and forgives one typo in a word it does not hold', async () => {
    // Without the look-up, "car" is one typo from "care" and finds the care service too.
    const wordsAlone = await getPage(createTestApp(engine), '/services?search=car&per_page=10', null);
    expect(wordsAlone.contents.map((s) => s.id)).toEqual(
      expect.arrayContaining([fixtures.carScheme.id, fixtures.homeCare.id]),
    );
    expect((await search('car')).ids).toEqual([fixtures.carScheme.id]);
    expect((await search('Car')).ids).toEqual([fixtures.carScheme.id]);
    expect((await search('carre')).ids).toContain(fixtures.homeCare.id);
    expect((await search('vilage car')).ids).toEqual([fixtures.carScheme.id]);
  });
});

describe('a search with nothing searchable in it', () => {
  it.each(['the', 'of and', '!!!', '😀', 'needs', 'wanted feeling'])(
    'finds nothing for "%s", not the whole directory',
    async (text) => {
      expect((await search(text)).total).toBe(0);
    },
  );

  it("counts no word the engine's search analyzer drops, in any form, among the words required", async () => {
    // A dropped word's clause matches every service: counted, it stands in for a required word.
    // Endings on words of three letters or more: "ies" is no form of "i".
    const forms = [...ENGLISH_STOP_WORDS, ...FILLER_WORDS].flatMap((w) =>
      (w.length < 3 ? [''] : ['', 's', 'es', 'ed', 'ing', 'ly', "'s"]).map((ending) => `${w}${ending}`),
    );
    const dropped: string[] = [];
    for (const form of forms) {
      const { body } = await engine.client.indices.analyze({
        index: engine.name('services'),
        body: { analyzer: SEARCH_ANALYZER, text: form },
      });
      if ((body.tokens ?? []).length === 0) dropped.push(form);
    }
    expect(dropped.length).toBeGreaterThan(FILLER_WORDS.length);
    expect(dropped.filter((word) => !isEmptyWord(word))).toEqual([]);
  });

  it('is still a listing when the text is blank', async () => {
    expect((await search('  ')).total).toBe(Object.keys(fixtures).length);
  });
});
