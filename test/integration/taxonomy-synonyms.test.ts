/**
 * A licensee's own taxonomy synonyms, loaded with their taxonomy, against a real engine: a term's
 * `x-alternate_names` find the services filed under it once an import publishes the term (no
 * reindex), keep doing so through a full reindex, stop when a later import takes them away, and
 * messy values are cleaned and reported, never a failed import nor a lost record.
 */
import { readFile } from 'node:fs/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readAliasTargets } from '../../src/engine/indices.ts';
import { servedVocabulary } from '../../src/engine/vocabulary.ts';
import type { ServiceFull, TaxonomyTermFull } from '../../src/hsds/index.ts';
import { shippedVocabulary } from '../../src/index-mapping/vocabulary-files.ts';
import type { ImportReport } from '../../src/ingest/import/import-report.ts';
import { reindex } from '../../src/ingest/publish/reindex.ts';
import { generateDataset } from '../../src/synthetic/generate.ts';
import { getJson, getPage } from '../support/api-requests.ts';
import { createTestApp, createTestEngine, dropTestIndices } from '../support/engine.ts';
import { createFeeds, type Feeds } from '../support/feeds.ts';
import { assertHsds } from '../support/hsds-validator.ts';

const engine = createTestEngine('taxonomy-synonyms');
const app = createTestApp(engine);
let feeds: Feeds;
const services = JSON.parse(
  JSON.stringify([...generateDataset({ services: 30, seed: 'taxonomy-synonyms' }).services()]),
) as ServiceFull[];

const importFile = (name: string, content: unknown) => feeds.importFile(name, content);

/**
 * The term that the index-th most services are filed under (ties by id), as a licensee's own
 * taxonomy file would carry it, and those services.
 */
function termOf(index: number): { term: TaxonomyTermFull; carriers: string[] } {
  const terms = new Map<string, { term: TaxonomyTermFull; carriers: Set<string> }>();
  for (const s of services) {
    for (const a of s.attributes ?? []) {
      if (!a.taxonomy_term) continue;
      const entry = terms.get(a.taxonomy_term.id) ?? { term: a.taxonomy_term, carriers: new Set<string>() };
      entry.carriers.add(s.id);
      terms.set(a.taxonomy_term.id, entry);
    }
  }
  const chosen = [...terms.values()].sort(
    (a, b) => b.carriers.size - a.carriers.size || a.term.id.localeCompare(b.term.id),
  )[index]!;
  const term = { ...chosen.term };
  delete (term as Record<string, unknown>).taxonomy_detail;
  return { term, carriers: [...chosen.carriers].sort() };
}

const found = async (search: string) =>
  (
    await getPage(app, `/services?search=${encodeURIComponent(search)}&per_page=100`, 'service_list_item')
  ).contents
    .map((s) => s.id as string)
    .sort();

beforeAll(async () => {
  feeds = await createFeeds(engine, 'taxonomy-synonyms');
  const first = await importFile('directory.json', services);
  expect(first.reindex?.counts.services).toBe(30);
});
afterAll(async () => {
  await feeds.remove();
  await dropTestIndices(engine);
});

describe("a licensee's taxonomy synonyms", () => {
  // A name no synthetic service uses, so that the term's services are all a search for it finds.
  const { term, carriers } = termOf(0);
  const named = { ...term, name: 'Harbourlight Befriending' };

  it('find the services filed under the term once an import publishes it, without a reindex', async () => {
    expect(carriers.length).toBeGreaterThan(0);
    await importFile('terms.json', [named]);
    expect(await found('Harbourlight Befriending')).toEqual(carriers);
    expect(await found('zorbleberry')).toEqual([]);

    const before = await readAliasTargets(engine);
    const result = await importFile('terms.json', [{ ...named, 'x-alternate_names': ['Zorbleberry Club'] }]);
    expect(result.reindex).toBeUndefined();
    expect(result.publish?.changed_records).toBeGreaterThan(0);

    expect(await found('zorbleberry club')).toEqual(carriers);
    expect(await found('zorbleberry clubs')).toEqual(carriers);
    // The term is served with its alternate names, as HSDS (an extension field).
    const served = (await getJson(app, `/taxonomy_terms/${term.id}`)).body;
    assertHsds('taxonomy_term', served);
    expect(served['x-alternate_names']).toEqual(['Zorbleberry Club']);
    // The rules were reloaded into clones of the served indices; the shipped ones still apply.
    expect((await readAliasTargets(engine)).current.services).not.toBe(before.current.services);
    const rules = await servedVocabulary(engine);
    expect(rules).toHaveLength(shippedVocabulary().length + 1);
    expect(rules?.at(-1)).toBe('Zorbleberry Club => Zorbleberry Club, Harbourlight Befriending');
  });

  it('are kept by a full reindex, which builds them in before its swap', async () => {
    const report = await reindex(engine);
    expect(report.counts.services).toBe(30);
    expect(await found('zorbleberry club')).toEqual(carriers);
  });

  it('stop matching when a later import takes them away, and cost no reload when unchanged', async () => {
    const same = await importFile('terms.json', [{ ...named, 'x-alternate_names': ['Zorbleberry Club'] }]);
    expect(same.publish?.changed_records ?? 0).toBe(0);

    const result = await importFile('terms.json', [named]);
    expect(result.reindex).toBeUndefined();
    expect(await found('zorbleberry club')).toEqual([]);
    expect(await found('Harbourlight Befriending')).toEqual(carriers);
    expect(await servedVocabulary(engine)).toHaveLength(shippedVocabulary().length);
  });

  it('are cleaned and reported when messy, and the term is kept', async () => {
    const { term: other, carriers: otherCarriers } = termOf(1);
    const messy = {
      ...other,
      name: 'Quayside Lunch Club',
      'x-alternate_names': [
        '',
        '   ',
        '<em>Quuxfruit</em> &amp; Co',
        'QUUXFRUIT & co',
        'Quayside Lunch Club',
        'a'.repeat(300),
        42,
        { nested: true },
        'Plumbob, => Pantry',
        ...Array.from({ length: 80 }, (_, i) => `Filler ${i}`),
      ],
    };
    const result = await importFile('messy.json', [messy]);
    expect(result.import.summary.rejected).toBe(0);
    const report = JSON.parse(await readFile(result.reportFile, 'utf8')) as ImportReport;
    const repairs = report.issues.filter((i) => i.path.endsWith('x-alternate_names'));
    expect(repairs).toHaveLength(1);
    expect(repairs[0]!.reason).toMatch(/blank.*over 100 characters.*duplicate.*beyond the first 50/s);

    const served = (await getJson(app, `/taxonomy_terms/${other.id}`)).body;
    const names = served['x-alternate_names'] as string[];
    expect(names).toHaveLength(50);
    expect(names.slice(0, 3)).toEqual(['Quuxfruit & Co', '42', 'Plumbob Pantry']);
    expect(await found('quuxfruit & co')).toEqual(otherCarriers);
    expect(await found('plumbob pantry')).toEqual(otherCarriers);
  });

  it('read one text of names separated by ; or | (a CSV cell) as a list', async () => {
    const { term: third, carriers: thirdCarriers } = termOf(2);
    await importFile('csv-like.json', [
      { ...third, name: 'Wickerbay Advice', 'x-alternate_names': 'Snorkelwick | Grindlefoot Help;' },
    ]);
    const served = (await getJson(app, `/taxonomy_terms/${third.id}`)).body;
    expect(served['x-alternate_names']).toEqual(['Snorkelwick', 'Grindlefoot Help']);
    expect(await found('snorkelwick')).toEqual(thirdCarriers);
    expect(await found('grindlefoot help')).toEqual(thirdCarriers);
  });
});
