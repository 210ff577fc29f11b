/**
 * `open_at` and `open_now` against the real engine: each rule of docs/api.md's "Open now" (weekly,
 * interval from dtstart, monthly by weekday ordinal and by month day, count, until,
 * valid_from/valid_to, past midnight, `timezone`, an offset in `opens_at`, DIRECTORY_TIMEZONE,
 * service_at_location versus service schedules, HSDS 3.3 operating hours and events, no
 * schedule), on /services and /service_at_locations, GET and POST, pages and NDJSON, both profiles.
 *
 * 2026-03-02 is a Monday.
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { ServiceFull } from '../../src/hsds/index.ts';
import { expectProblem, getNdjson, getPage, type JsonObject } from '../support/api-requests.ts';
import { createTestApp, createTestEngine, dropTestIndices } from '../support/engine.ts';
import { seedReadIndices } from '../support/seed.ts';

const engine = createTestEngine('open-now');
const app = createTestApp(engine);
const newYork = createTestApp(engine, { DIRECTORY_TIMEZONE: 'America/New_York' });
const uk = createTestApp(engine, { HSDS_PROFILE: 'oruk' });

type Schedule = Record<string, unknown>;
const schedule = (fields: Schedule): Schedule => ({ id: randomUUID(), ...fields });

function service(name: string, schedules: Schedule[], extra: Record<string, unknown> = {}): ServiceFull {
  const id = randomUUID();
  const location = { id: randomUUID(), location_type: 'physical', name: `${name} hall` };
  return {
    id,
    name,
    status: 'active',
    schedules: schedules.map((s) => ({ ...s, service_id: id })),
    service_at_locations: [
      {
        id: randomUUID(),
        service_id: id,
        location_id: location.id,
        location,
        description: `${name} at its hall`,
      },
    ],
    ...extra,
  } as ServiceFull;
}

const weekly = (byday: string, opens: string, closes: string, extra: Schedule = {}) =>
  schedule({ freq: 'WEEKLY', byday, opens_at: opens, closes_at: closes, ...extra });

const hubId = randomUUID();
const ownSal = { id: randomUUID(), service_id: hubId, description: 'Hub on Tuesdays' };
const inheritingSal = { id: randomUUID(), service_id: hubId, description: 'Hub as the service' };
const hub = {
  id: hubId,
  name: 'Hub',
  status: 'active',
  schedules: [weekly('MO', '09:00', '12:00', { service_id: hubId })],
  service_at_locations: [
    { ...ownSal, schedules: [weekly('TU', '09:00', '12:00', { service_at_location_id: ownSal.id })] },
    inheritingSal,
  ],
} as ServiceFull;

const services = [
  service('Weekly', [weekly('MO,WE', '09:00', '17:00')]),
  service('Fortnightly', [weekly('TU', '10:00', '12:00', { interval: 2, dtstart: '2026-03-03' })]),
  service('First Monday', [
    schedule({ freq: 'MONTHLY', byday: '1MO', opens_at: '09:00', closes_at: '12:00' }),
  ]),
  service('Last Friday', [
    schedule({ freq: 'MONTHLY', byday: '-1FR', opens_at: '14:00', closes_at: '16:00' }),
  ]),
  service('Fifteenth', [
    schedule({ freq: 'MONTHLY', bymonthday: '15', opens_at: '08:00', closes_at: '10:00' }),
  ]),
  service('Month end', [
    schedule({ freq: 'MONTHLY', bymonthday: '-1', opens_at: '08:00', closes_at: '10:00' }),
  ]),
  service('Counted', [weekly('TH', '10:00', '11:00', { dtstart: '2026-03-05', count: 2 })]),
  service('Until', [weekly('FR', '10:00', '11:00', { until: '2026-03-13' })]),
  service('Valid', [weekly('SA', '10:00', '11:00', { valid_from: '2026-03-07', valid_to: '2026-03-14' })]),
  service('Night shelter', [weekly('MO', '20:00', '08:00')]),
  service('Offset by timezone', [weekly('MO', '09:00', '10:00', { timezone: -5 })]),
  service('Offset in opens_at', [weekly('MO', '09:00-05:00', '10:00-05:00')]),
  service('Always', [weekly('MO,TU,WE,TH,FR,SA,SU', '00:00', '24:00')]),
  service('No schedule', []),
  service('Notes only', [schedule({ description: 'Ring to ask' })]),
  // Days but no times: the hours are unknown, not all day (it used to be "open" at 3 a.m.).
  service('Days only', [schedule({ freq: 'WEEKLY', byday: 'MO,TU,WE,TH,FR,SA,SU', description: 'Drop in' })]),
  service('Operating hours', [], {
    operating_hours: [schedule({ freq: 'WEEKLY', byday: 'SU', opens_at: '10:00', closes_at: '12:00' })],
  }),
  service('Event', [], {
    events: [schedule({ dtstart: '2026-03-11', opens_at: '18:00', closes_at: '20:00' })],
  }),
  hub,
];

beforeAll(async () => {
  await seedReadIndices(engine, { services });
});
afterAll(() => dropTestIndices(engine));

const namesOf = (items: Record<string, unknown>[]) =>
  items.map((item) => String(item.name ?? (item.service as { name: string }).name)).sort();

/** The services open at the instant, "Always" left out. */
async function openServices(at: string, on = app): Promise<string[]> {
  const page = await getPage(
    on,
    `/services?per_page=100&open_at=${encodeURIComponent(at)}`,
    'service_list_item',
  );
  return namesOf(page.contents).filter((name) => name !== 'Always');
}

describe('open_at: the rules', () => {
  it('weekly: on its days, from opens_at up to (not at) closes_at', async () => {
    expect(await openServices('2026-03-02T10:00:00Z')).toEqual(['First Monday', 'Hub', 'Weekly']);
    expect(await openServices('2026-03-04T16:59:00Z')).toEqual(['Weekly']);
    expect(await openServices('2026-03-04T17:00:00Z')).toEqual([]);
  });

  it('interval: every other week counted from dtstart, never before it', async () => {
    expect(await openServices('2026-03-03T11:00:00Z')).toContain('Fortnightly');
    expect(await openServices('2026-03-10T11:00:00Z')).not.toContain('Fortnightly');
    expect(await openServices('2026-03-17T11:00:00Z')).toContain('Fortnightly');
    expect(await openServices('2026-02-17T11:00:00Z')).not.toContain('Fortnightly');
  });

  it('monthly by weekday ordinal: the first Monday and the last Friday', async () => {
    expect(await openServices('2026-03-09T10:00:00Z')).not.toContain('First Monday');
    expect(await openServices('2026-04-06T10:00:00Z')).toContain('First Monday');
    expect(await openServices('2026-03-27T15:00:00Z')).toEqual(['Last Friday']);
    expect(await openServices('2026-03-20T15:00:00Z')).toEqual([]);
  });

  it('monthly by month day, counted from the end with a negative day', async () => {
    expect(await openServices('2026-04-15T08:30:00Z')).toEqual(['Fifteenth']);
    expect(await openServices('2026-04-16T08:30:00Z')).toEqual([]);
    expect(await openServices('2026-02-28T09:00:00Z')).toEqual(['Month end']);
    expect(await openServices('2026-03-30T09:00:00Z')).not.toContain('Month end');
    expect(await openServices('2026-03-31T09:00:00Z')).toContain('Month end');
  });

  it('count: the first count occurrences only', async () => {
    expect(await openServices('2026-03-05T10:30:00Z')).toEqual(['Counted']);
    expect(await openServices('2026-03-12T10:30:00Z')).toEqual(['Counted']);
    expect(await openServices('2026-03-19T10:30:00Z')).toEqual([]);
  });

  it('until: up to and including its date', async () => {
    expect(await openServices('2026-03-13T10:30:00Z')).toEqual(['Until']);
    expect(await openServices('2026-03-20T10:30:00Z')).toEqual([]);
  });

  it('valid_from and valid_to bound the dates', async () => {
    expect(await openServices('2026-02-28T10:30:00Z')).toEqual([]);
    expect(await openServices('2026-03-07T10:30:00Z')).toEqual(['Valid']);
    expect(await openServices('2026-03-14T10:30:00Z')).toEqual(['Valid']);
    expect(await openServices('2026-03-21T10:30:00Z')).toEqual([]);
  });

  it('past midnight: closes_at before opens_at closes the next morning', async () => {
    expect(await openServices('2026-03-02T23:00:00Z')).toEqual(['Night shelter']);
    expect(await openServices('2026-03-03T07:59:00Z')).toEqual(['Night shelter']);
    expect(await openServices('2026-03-03T08:00:00Z')).toEqual([]);
    expect(await openServices('2026-03-03T23:00:00Z')).toEqual([]);
    expect(await openServices('2026-03-02T07:00:00Z')).toEqual([]);
  });

  it('timezone and an offset in opens_at: 09:00-10:00 at UTC-5 is 14:00-15:00 UTC', async () => {
    const offsets = ['Offset by timezone', 'Offset in opens_at'];
    const withOffset = async (at: string) => (await openServices(at)).filter((n) => offsets.includes(n));
    expect(await withOffset('2026-03-02T14:30:00Z')).toEqual(offsets);
    expect(await withOffset('2026-03-02T09:30:04-05:00')).toEqual(offsets);
    expect(await withOffset('2026-03-02T15:00:00Z')).toEqual([]);
    expect(await withOffset('2026-03-02T09:30:00Z')).toEqual([]);
  });

  it('DIRECTORY_TIMEZONE: schedules without an offset and an open_at without one are local there', async () => {
    // 09:00-12:00 in New York (UTC-5 on 2 March) is 14:00-17:00 UTC.
    expect(await openServices('2026-03-02T15:00:00Z', newYork)).toContain('Hub');
    expect(await openServices('2026-03-02T10:00:00Z', newYork)).not.toContain('Hub');
    expect(await openServices('2026-03-02T10:00', newYork)).toContain('Hub');
    // After the change to summer time (8 March), UTC-4: 09:00 local is 13:00 UTC.
    expect(await openServices('2026-03-09T13:30:00Z', newYork)).toContain('Hub');
    // Schedules with an offset keep it.
    expect(await openServices('2026-03-02T14:30:00Z', newYork)).toEqual(
      expect.arrayContaining(['Offset by timezone', 'Offset in opens_at']),
    );
  });

  it('HSDS 3.3 operating_hours count as schedules; events on their own dates', async () => {
    expect(await openServices('2026-03-08T11:00:00Z')).toEqual(['Operating hours']);
    expect(await openServices('2026-03-11T19:00:00Z')).toEqual(['Event']);
    expect(await openServices('2026-03-18T19:00:00Z')).toEqual([]);
  });

  it('a record with no schedule (or none with a day or date, or days without times) is never returned', async () => {
    for (const at of ['2026-03-02T10:00:00Z', '2026-03-07T03:00:00Z', '2026-06-14T23:30:00Z']) {
      const names = await openServices(at);
      expect(names).not.toContain('No schedule');
      expect(names).not.toContain('Notes only');
      expect(names).not.toContain('Days only');
    }
  });
});

describe('service_at_locations', () => {
  const openSals = async (at: string) => {
    const page = await getPage(
      app,
      `/service_at_locations?per_page=100&open_at=${encodeURIComponent(at)}`,
      'service_at_location_list_item',
    );
    return page.contents.map((item) => String(item.id));
  };

  it('by their own schedules, else by their service’s; a service by its own and its locations’', async () => {
    const monday = await openSals('2026-03-02T10:00:00Z');
    expect(monday).toContain(inheritingSal.id);
    expect(monday).not.toContain(ownSal.id);
    const tuesday = await openSals('2026-03-03T09:30:00Z');
    expect(tuesday).toContain(ownSal.id);
    expect(tuesday).not.toContain(inheritingSal.id);
    expect(await openServices('2026-03-03T09:30:00Z')).toEqual(['Hub']);
  });

  it('inherit every rule of their service (a night shelter past midnight)', async () => {
    const page = await getPage(
      app,
      '/service_at_locations?per_page=100&open_at=2026-03-03T07:00:00Z',
      'service_at_location_list_item',
    );
    expect(namesOf(page.contents).filter((n) => n !== 'Always')).toEqual(['Night shelter']);
  });
});

describe('open_now, POST, NDJSON, the UK profile', () => {
  it('open_now keeps what is open at the time of the request', async () => {
    const page = await getPage(app, '/services?per_page=100&open_now=true', 'service_list_item');
    const names = namesOf(page.contents);
    expect(names).toContain('Always');
    expect(names).not.toContain('No schedule');
    const sals = await getPage(
      app,
      '/service_at_locations?per_page=100&open_now=true',
      'service_at_location_list_item',
    );
    expect(namesOf(sals.contents)).toContain('Always');
  });

  it('POST bodies and NDJSON dumps filter alike', async () => {
    const posted = await getPage(app, '/services', 'service_list_item', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ open_at: '2026-03-27T15:00:00Z', per_page: 100 }),
    });
    expect(namesOf(posted.contents)).toEqual(['Always', 'Last Friday']);
    const lines = await getNdjson(app, '/service_at_locations?format=ndjson&open_at=2026-03-27T15:00:00Z');
    expect(namesOf(lines)).toEqual(['Always', 'Last Friday']);
  });

  it('the UK profile takes them too', async () => {
    const page = await getPage(
      uk,
      '/services?per_page=100&open_at=2026-03-27T15:00:00Z',
      'service_list_item',
      undefined,
      'oruk',
    );
    expect(namesOf(page.contents)).toEqual(['Always', 'Last Friday']);
  });

  it('refuses an instant that is none, and open_at with open_now', async () => {
    await expectProblem(app, '/services?open_at=next+tuesday', 400, 'open_at');
    await expectProblem(app, '/services?open_at=2026-02-30T10:00:00Z', 400, 'open_at');
    await expectProblem(app, '/services?open_at=2026-03-02T10:00:00Z&open_now=true', 400, 'open_now');
  });
});

describe('next_opening', () => {
  // The clock of the request (Date alone: the engine client's timers run as ever): Monday
  // 2 March 2026, 10:00 UTC.
  beforeAll(() => {
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(new Date('2026-03-02T10:00:00Z'));
  });
  afterAll(() => {
    vi.useRealTimers();
  });

  type Next = { open_now: boolean; until?: string; opens_at?: string };
  const nextByName = (items: JsonObject[]) =>
    new Map(
      items.map((item) => [
        String(item.name ?? (item.service as { name: string }).name),
        item.next_opening as Next | undefined,
      ]),
    );

  it('says when each service next opens, or until when it is open, by the rules of open_at', async () => {
    const page = await getPage(app, '/services?per_page=100&full=true&next_opening=true', 'service');
    const next = nextByName(page.contents);
    expect(next.get('Weekly')).toEqual({ open_now: true, until: '2026-03-02T17:00:00.000Z' });
    expect(next.get('Hub')).toEqual({ open_now: true, until: '2026-03-02T12:00:00.000Z' });
    expect(next.get('Fortnightly')).toEqual({ open_now: false, opens_at: '2026-03-03T10:00:00.000Z' });
    expect(next.get('Last Friday')).toEqual({ open_now: false, opens_at: '2026-03-27T14:00:00.000Z' });
    expect(next.get('Fifteenth')).toEqual({ open_now: false, opens_at: '2026-03-15T08:00:00.000Z' });
    expect(next.get('Counted')).toEqual({ open_now: false, opens_at: '2026-03-05T10:00:00.000Z' });
    expect(next.get('Offset by timezone')).toEqual({ open_now: false, opens_at: '2026-03-02T14:00:00.000Z' });
    expect(next.get('Night shelter')).toEqual({ open_now: false, opens_at: '2026-03-02T20:00:00.000Z' });
    expect(next.get('Event')).toEqual({ open_now: false, opens_at: '2026-03-11T18:00:00.000Z' });
    expect(next.get('Operating hours')).toEqual({ open_now: false, opens_at: '2026-03-08T10:00:00.000Z' });
    expect(next.has('No schedule')).toBe(true);
    expect(next.get('No schedule')).toBeUndefined();
    expect(next.get('Notes only')).toBeUndefined();
    // It agrees with open_now at the same instant.
    const open = namesOf((await getPage(app, '/services?per_page=100&open_now=true', null)).contents);
    expect(
      [...next]
        .filter(([, n]) => n?.open_now)
        .map(([name]) => name)
        .sort(),
    ).toEqual(open);
  });

  it('reads a service-at-location by its own schedules, else by its service’s, in pages and NDJSON', async () => {
    const page = await getPage(
      app,
      '/service_at_locations?per_page=100&full=true&next_opening=true',
      'service_at_location',
    );
    const byId = new Map(page.contents.map((item) => [item.id, item.next_opening]));
    expect(byId.get(ownSal.id)).toEqual({ open_now: false, opens_at: '2026-03-03T09:00:00.000Z' });
    expect(byId.get(inheritingSal.id)).toEqual({ open_now: true, until: '2026-03-02T12:00:00.000Z' });
    const lines = await getNdjson(app, '/service_at_locations?format=ndjson&full=true&next_opening=true');
    expect(new Map(lines.map((item) => [item.id, item.next_opening]))).toEqual(byId);
  });

  it('is absent unless asked for; a list item is read by the schedules it holds', async () => {
    const plain = await getPage(app, '/services?per_page=100', 'service_list_item');
    expect(plain.contents.some((item) => 'next_opening' in item)).toBe(false);
    const list = nextByName((await getPage(app, '/services?per_page=100&next_opening=true', null)).contents);
    // A list item holds the service's operating_hours and events, not its schedules.
    expect(list.get('Operating hours')).toEqual({ open_now: false, opens_at: '2026-03-08T10:00:00.000Z' });
    expect(list.get('Weekly')).toBeUndefined();
  });
});
