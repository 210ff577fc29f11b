/**
 * HSDS 3.2 and 3.3 data against the real engine: a 3.3 feed imported, written by PUT and served
 * back with schedule `group`, service `operating_hours` and `events` (which open_at reads), still
 * valid 3.1.1; and GET / with `data_guide` and `publisher.additional_websites`.
 */
import { randomUUID } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newToken } from '../../src/api/http/auth.ts';
import { getJson, getPage, type JsonObject } from '../support/api-requests.ts';
import { createTestApp, createTestEngine, dropTestIndices } from '../support/engine.ts';
import { createFeeds, type Feeds } from '../support/feeds.ts';
import { assertHsds } from '../support/hsds-validator.ts';

const engine = createTestEngine('hsds-33');
const writer = newToken('council-crm', ['write']);
const app = createTestApp(engine, {
  API_TOKENS: writer.entry,
  DATA_GUIDE_URL: 'https://example.org/data-guide',
  PUBLISHER_NAME: 'Example Council',
  PUBLISHER_ADDITIONAL_WEBSITES: 'https://example.org/directory, https://example.org/about',
});
let feeds: Feeds;

const serviceId = randomUUID();
const schedule = (fields: Record<string, unknown>) => ({ id: randomUUID(), ...fields });
const service = {
  id: serviceId,
  name: 'Youth club',
  status: 'active',
  schedules: [
    schedule({
      service_id: serviceId,
      freq: 'WEEKLY',
      byday: 'MO',
      opens_at: '16:00',
      closes_at: '18:00',
      group: 'Term time',
    }),
  ],
  operating_hours: [schedule({ freq: 'WEEKLY', byday: 'SA', opens_at: '10:00', closes_at: '12:00' })],
  events: [
    schedule({ dtstart: '2026-03-11', opens_at: '18:00', closes_at: '20:00', description: 'Open evening' }),
  ],
};

beforeAll(async () => {
  feeds = await createFeeds(engine, 'hsds-33');
  await feeds.importFile('feed.json', [service]);
});
afterAll(async () => {
  await feeds.remove();
  await dropTestIndices(engine);
});

const openAt = async (at: string) =>
  (await getPage(app, `/services?open_at=${at}`, 'service_list_item')).contents.map((s) => s.id);

describe('a 3.3 feed', () => {
  it('is imported and served with group, operating_hours and events, valid 3.1.1', async () => {
    const { status, body } = await getJson(app, `/services/${serviceId}`);
    expect(status).toBe(200);
    assertHsds('service', body);
    expect((body.schedules as JsonObject[])[0]).toMatchObject({ group: 'Term time' });
    expect(body.operating_hours).toEqual([expect.objectContaining({ byday: 'SA' })]);
    expect(body.events).toEqual([expect.objectContaining({ description: 'Open evening' })]);
    expect(await openAt('2026-03-07T11:00:00Z')).toEqual([serviceId]);
    expect(await openAt('2026-03-11T19:00:00Z')).toEqual([serviceId]);
  });

  it('is written by PUT and served back as written, and open_at follows at once', async () => {
    const { body: served } = await getJson(app, `/services/${serviceId}`);
    const edited = {
      ...served,
      schedules: [{ ...(served.schedules as JsonObject[])[0], group: 'School holidays' }],
      operating_hours: [schedule({ freq: 'WEEKLY', byday: 'SU', opens_at: '10:00', closes_at: '12:00' })],
    };
    const res = await app.request(`/services/${serviceId}`, {
      method: 'PUT',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${writer.token}` },
      body: JSON.stringify(edited),
    });
    expect(res.status).toBeLessThan(300);
    const { body } = await getJson(app, `/services/${serviceId}`);
    assertHsds('service', body);
    expect((body.schedules as JsonObject[])[0]).toMatchObject({ group: 'School holidays' });
    expect(body.operating_hours).toEqual([expect.objectContaining({ byday: 'SU' })]);
    expect(await openAt('2026-03-08T11:00:00Z')).toEqual([serviceId]);
    expect(await openAt('2026-03-07T11:00:00Z')).toEqual([]);
  });
});

describe('a messy 3.3 feed', () => {
  it('keeps the service, repairs operating_hours and events as schedules are, and reports each repair', async () => {
    const messyId = randomUUID();
    const messy = {
      id: messyId,
      name: 'Advice drop-in',
      status: 'active',
      // A single schedule where a list belongs, with a time written the way people write it.
      operating_hours: { freq: 'weekly', byday: 'TU', opens_at: '9:30am', closes_at: '12:00', valid_to: '' },
      events: [
        'every other Friday',
        {
          id: randomUUID(),
          dtstart: '2026-05-01',
          opens_at: '10:00',
          closes_at: '12:00',
          freq: 'FORTNIGHTLY',
        },
      ],
    };
    const { reportFile } = await feeds.importFile('messy-33.json', [messy]);
    const report = JSON.parse(await readFile(reportFile, 'utf8')) as {
      issues: { kind: string; path: string; severity: string }[];
    };
    const { status, body } = await getJson(app, `/services/${messyId}`);
    expect(status).toBe(200);
    assertHsds('service', body);
    expect(body.operating_hours).toEqual([
      { freq: 'WEEKLY', byday: 'TU', opens_at: '09:30', closes_at: '12:00' },
    ]);
    const events = body.events as JsonObject[];
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({ dtstart: '2026-05-01', opens_at: '10:00' });
    expect(events[0]!.freq).toBeUndefined();
    const paths = report.issues.map((i) => `${i.kind} ${i.path}`);
    expect(paths).toEqual(
      expect.arrayContaining([
        'repaired operating_hours',
        'repaired operating_hours[0].freq',
        'repaired operating_hours[0].opens_at',
        'dropped-field events[0]',
        'dropped-field events[1].freq',
      ]),
    );
    // The repaired hours are the ones open_at reads: Tuesday 10:00 (UTC, the default zone).
    expect(await openAt('2026-03-10T10:00:00Z')).toContain(messyId);
    expect(await openAt('2026-03-10T13:00:00Z')).not.toContain(messyId);
  });
});

describe('GET /', () => {
  it('says where the data guide is and the publisher’s other websites', async () => {
    const { body } = await getJson(app, '/');
    expect(body).toMatchObject({
      data_guide: 'https://example.org/data-guide',
      publisher: {
        name: 'Example Council',
        additional_websites: [{ url: 'https://example.org/directory' }, { url: 'https://example.org/about' }],
      },
    });
  });
});
