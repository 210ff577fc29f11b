/**
 * The record-level repairs of real feeds (issue 50; fixtures in test/fixtures/real-world, see its
 * README) imported into the real engine and served: what each keeps, and that the served JSON,
 * extensions included, is still valid HSDS by the official schemas.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { importAndReindex } from '../../src/ingest/publish/pipeline.ts';
import { getJson, getPage, type JsonObject } from '../support/api-requests.ts';
import { createTestApp, createTestEngine, dropTestIndices } from '../support/engine.ts';
import { assertHsds } from '../support/hsds-validator.ts';

const fixtures = 'test/fixtures/real-world';
const engine = createTestEngine('record-repairs');
const app = createTestApp(engine);
afterAll(async () => dropTestIndices(engine));

beforeAll(async () => {
  for (const name of ['wrapped-ids.json', 'oruk-1.0-extensions.json'])
    await importAndReindex(engine, `${fixtures}/${name}`, { reportFile: false });
  await importAndReindex(engine, `${fixtures}/mojibake-blank-country-1.1`, {
    reportFile: false,
    defaultCountry: 'CA',
  });
}, 120_000);

describe('record-level repairs, served', () => {
  it('serves ORUK extensions as published and the publisher’s modified date, as valid HSDS', async () => {
    const { status, body } = await getJson(app, '/services/3f0c2a4e-1b7d-4e58-9a61-0c2d5e7f8a90');
    expect(status).toBe(200);
    expect(body).toMatchObject({
      last_modified: '2021-01-06T00:00:00Z',
      pc_metadata: { date_created: '2020-03-02', date_modified: '2021-01-06' },
      pc_targetAudience: [
        { id: 'OlderPeople', audienceType: 'Older people' },
        { id: '22538', audienceType: 'Long Term Health Conditions' },
      ],
      organization: { website: 'https://hillside-trust.example.org' },
    });
    assertHsds('service', body);
    // modified_after goes by the publisher's date, not the day of the import.
    const since = await getPage(app, '/services?modified_after=2023-01-01T00:00:00Z', 'service_list_item');
    const names = (since.contents as JsonObject[]).map((s) => s.name);
    expect(names).toContain('Hillside Walking Group');
    expect(names).not.toContain('Hillside Lunch Club');
  });

  it('serves the wrapped-id services with their locations and phones', async () => {
    const page = await getPage(app, '/services?per_page=100', 'service_list_item');
    const names = (page.contents as JsonObject[]).map((s) => s.name);
    expect(names).toEqual(
      expect.arrayContaining(['Door-to-door Rides', 'Family Support Group', 'Peer Recovery Coaching']),
    );
    const rides = (page.contents as JsonObject[]).find((s) => s.name === 'Door-to-door Rides')!;
    const { body } = await getJson(app, `/services/${String(rides.id)}`);
    assertHsds('service', body);
    expect(body.status).toBe('active');
    expect(body.organization).toMatchObject({ name: 'Palm Shore Transit' });
    // The feed nests locations under organizations: served there, with their phones.
    const org = await getJson(
      app,
      `/organizations/${String((body.organization as JsonObject).id)}?full=true`,
    );
    assertHsds('organization', org.body);
    expect(org.body.locations).toMatchObject([
      { name: 'Transit Center', location_type: 'physical', phones: [{ number: '321-555-0199' }] },
    ]);
  });

  it('serves the repaired package: countries, https links, text without mojibake', async () => {
    const page = await getPage(app, '/services?search=advocacy', 'service_list_item');
    const advocacy = (page.contents as JsonObject[]).find((s) => s.name === 'Victim Advocacy')!;
    const { body } = await getJson(app, `/services/${String(advocacy.id)}`);
    assertHsds('service', body);
    expect(body).toMatchObject({
      url: 'https://baysidelegal.org/victims',
      description: 'Select ‘About the office’, then ‘Victims Advocacy’.',
      organization: { description: 'The director’s office answers calls “on the same day”.' },
    });
    const sal = (body.service_at_locations as JsonObject[])[0]!;
    expect((sal.location as JsonObject).addresses).toMatchObject([{ country: 'US', state_province: 'FL' }]);
  });
});
