/**
 * Everyday words and abbreviations of UK and US services (vocabulary/everyday/uk-us-services.txt)
 * against the real analyzers: what people type for a programme finds the services filed under its
 * official name, and an abbreviation left out of the list (a common word) does not.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { getPage } from '../support/api-requests.ts';
import { createTestApp, createTestEngine, dropTestIndices } from '../support/engine.ts';
import { fixtureService, seedReadIndices } from '../support/seed.ts';

const engine = createTestEngine('everyday-words');
const app = createTestApp(engine);

const service = (name: string, description: string) =>
  fixtureService(name, description, { name: `${name} Agency`, description: 'A public body.' });

const fixtures = {
  vouchers: service('Rental Subsidies', 'Housing Choice Voucher programme for low income families.'),
  energy: service('Home Energy Help', 'Low Income Home Energy Assistance: help paying heating and cooling.'),
  therapies: service('Mind Matters', 'NHS talking therapies for anxiety and depression, self referral.'),
  youngMinds: service('Young Minds Team', 'Child and adolescent mental health for under 18s.'),
  injuries: service('Riverside Unit', 'Minor injuries unit: cuts, sprains and burns, no appointment.'),
  taxes: service(
    'Tax Time',
    'Volunteer Income Tax Assistance: free tax preparation for low income households.',
  ),
  parking: service('Permits Office', 'Disabled parking permits for residents.'),
};

beforeAll(async () => {
  await seedReadIndices(engine, { services: Object.values(fixtures) });
});
afterAll(() => dropTestIndices(engine));

async function searchIds(search: string): Promise<string[]> {
  const page = await getPage(app, `/services?search=${encodeURIComponent(search)}&per_page=50`, null);
  return page.contents.map((s) => s.id as string);
}

describe('everyday words and abbreviations', () => {
  it('finds US programmes by what people call them', async () => {
    expect(await searchIds('Section 8')).toEqual([fixtures.vouchers.id]);
    expect(await searchIds('LIHEAP')).toEqual([fixtures.energy.id]);
    expect(await searchIds('VITA')).toEqual([fixtures.taxes.id]);
  });

  it('finds UK services by their abbreviations and everyday names', async () => {
    expect(await searchIds('IAPT')).toEqual([fixtures.therapies.id]);
    expect(await searchIds('CAMHS')).toEqual([fixtures.youngMinds.id]);
    expect(await searchIds('MIU')).toEqual([fixtures.injuries.id]);
    expect(await searchIds('blue badge')).toEqual([fixtures.parking.id]);
  });

  it('leaves an ambiguous abbreviation as the word typed', async () => {
    // MS (multiple sclerosis, or a title) is left out of the list: it finds nothing here.
    expect(await searchIds('MS')).toEqual([]);
  });
});
