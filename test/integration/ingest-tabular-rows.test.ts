/**
 * Tabular rows whose id column does not name their record alone, and schedules whose days and
 * hours sit where opening rules do not read them (test/fixtures/real-world: legacy-rows-miami, as
 * Miami 211 publishes HSDS 1.1; hsds-2.0-shared-schedules, as DC publishes HSDS 2.0 CSVs),
 * imported into the real engine: what people ask of them, `open_at` and `language`, answers.
 *
 * 2026-03-02 is a Monday; DIRECTORY_TIMEZONE is UTC.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { migrateId } from '../../src/ingest/migrate/legacy-ids.ts';
import { importAndReindex } from '../../src/ingest/publish/pipeline.ts';
import { getJson, getPage } from '../support/api-requests.ts';
import { createTestApp, createTestEngine, dropTestIndices } from '../support/engine.ts';

const fixtures = 'test/fixtures/real-world';
const miami = createTestEngine('tabular-rows-miami');
const dc = createTestEngine('tabular-rows-dc');

beforeAll(async () => {
  await importAndReindex(miami, `${fixtures}/legacy-rows-miami`, { reportFile: false });
  await importAndReindex(dc, `${fixtures}/hsds-2.0-shared-schedules`, { reportFile: false });
});
afterAll(async () => {
  await dropTestIndices(miami);
  await dropTestIndices(dc);
});

async function names(engine: typeof miami, query: string): Promise<string[]> {
  const page = await getPage(createTestApp(engine), `/services?per_page=100&${query}`, 'service_list_item');
  return page.contents.map((s) => String(s.name)).sort();
}

const at = (instant: string) => `open_at=${encodeURIComponent(instant)}`;

describe('Miami: schedules without ids, one language id per location', () => {
  it('open_at finds the services open at the time their rows say', async () => {
    expect(await names(miami, at('2026-03-02T12:00:00Z'))).toEqual([
      'BAYSIDE YOUTH COUNCIL',
      'VICTIM COMPENSATION',
    ]);
    expect(await names(miami, at('2026-03-03T12:00:00Z'))).toEqual(['BAYSIDE YOUTH COUNCIL']);
    expect(await names(miami, at('2026-03-03T17:30:00Z'))).toEqual([]);
  });

  it('open_at reads hours written only in the text, a lunch break closed', async () => {
    const tenant = async (instant: string) => (await names(miami, at(instant))).includes('TENANT ADVICE');
    expect(await tenant('2026-03-03T11:00:00Z')).toBe(true);
    expect(await tenant('2026-03-03T12:30:00Z')).toBe(false);
    expect(await tenant('2026-03-03T13:30:00Z')).toBe(true);
    expect(await tenant('2026-03-03T15:30:00Z')).toBe(false);
    expect(await names(miami, at('2026-03-07T10:00:00Z'))).toEqual(['TENANT ADVICE']);
  });

  it('language finds a service by each language of its location', async () => {
    expect(await names(miami, 'language=Spanish')).toEqual(['BAYSIDE YOUTH COUNCIL']);
    expect(await names(miami, 'language=English')).toEqual(['BAYSIDE YOUTH COUNCIL', 'VICTIM COMPENSATION']);
  });
});

describe('DC: shared schedule ids, id lists, times in date columns, day names in freq', () => {
  it('open_at a weekday noon finds every service whose hours include it', async () => {
    // Adult Counselling (id 44, Mon-Fri 9-5), English Classes (id 44 shared, Mon-Fri 9-5), Dental
    // Care (id 256 list, Mon & Wed 10-2); Saturday Breakfast (id 256 list too) opens Mondays.
    expect(await names(dc, at('2026-03-02T12:00:00Z'))).toEqual([
      'Adult Counselling',
      'Dental Care',
      'English Classes',
      'Saturday Breakfast',
    ]);
  });

  it("language finds a phone's named languages, not the numbers DC writes beside them", async () => {
    // Phone 3's language is `136,Spanish,`: 136 is an id into a languages table, not a language.
    expect(await names(dc, 'language=Spanish')).toEqual(['Dental Care']);
    expect(await names(dc, 'language=136')).toEqual([]);
  });

  it('shows a phone listed for several services once at its one location and organization', async () => {
    // Phone 4: services 11 and 12 listed, location 21 and organization 1 named once.
    const app = createTestApp(dc);
    const numbers = (phones: unknown) =>
      (Array.isArray(phones) ? phones : [])
        .map((p: { number?: string }) => p.number)
        .filter((n) => n === '(202) 555-0104');
    for (const service of ['700000000000011', '700000000000012']) {
      const { body } = await getJson(app, `/services/${migrateId('service', service)}`);
      expect(numbers(body.phones)).toHaveLength(1);
      const elm = (body.service_at_locations as { location?: { name?: string; phones?: unknown } }[]).find(
        (sal) => sal.location?.name === 'Elm Street Centre',
      );
      expect(numbers(elm?.location?.phones)).toHaveLength(1);
    }
    const { body } = await getJson(app, `/organizations/${migrateId('organization', '700000000000001')}`);
    expect(numbers(body.phones)).toHaveLength(1);
  });

  it('open_at a Saturday finds the services of the Saturday rows', async () => {
    // 08:00: Saturday Breakfast (7-11); 13:00: English Classes (freq "Saturday", 12:30-2:15).
    expect(await names(dc, at('2026-03-07T08:00:00Z'))).toEqual(['Saturday Breakfast']);
    expect(await names(dc, at('2026-03-07T13:00:00Z'))).toEqual(['Adult Counselling', 'English Classes']);
  });
});
