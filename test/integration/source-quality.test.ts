/**
 * Each source's quality and freshness (src/ingest/maintenance/source-quality.ts): `hsds sources` and
 * GET /admin/sources, on two named feeds imported side by side.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type SourceQuality, sourceQuality } from '../../src/ingest/maintenance/source-quality.ts';
import { importAndReindex } from '../../src/ingest/publish/pipeline.ts';
import { createTestApp, createTestEngine, dropTestIndices } from '../support/engine.ts';

const engine = createTestEngine('source-quality');
const TOKEN = 'test-admin-token-0123456789';
let sources: SourceQuality[] = [];

beforeAll(async () => {
  await importAndReindex(engine, 'test/fixtures/real-world/numeric-ids.json', {
    sourceName: 'transformer',
    reportFile: false,
  });
  await importAndReindex(engine, 'test/fixtures/real-world/enum-case-and-types.json', {
    sourceName: 'council',
    reportFile: false,
  });
  // As of a day the fixtures' dates are from: 2025-03-01..09 is within a year of 2025-06-01.
  sources = await sourceQuality(engine, new Date('2025-06-01T00:00:00Z'));
}, 120_000);
afterAll(() => dropTestIndices(engine));

const named = (name: string) => sources.find((s) => s.source === name)!;

describe('the quality of each source', () => {
  it('names its last import with what the import counted', () => {
    expect(sources.map((s) => s.source)).toEqual(['council', 'transformer']);
    expect(named('transformer').last_import).toMatchObject({
      state: 'complete',
      counts: { items: 10, records: 168, repaired: 84, rejected: 0 },
    });
    expect(named('council').last_import?.counts).toMatchObject({ records: 8, rejected: 1 });
  });

  it('counts its records and its services by the age of last_modified and assured_date', () => {
    const transformer = named('transformer');
    expect(transformer.records).toMatchObject({ organization: 10, service: 18, metadata: 84 });
    expect(transformer.services).toBe(18);
    expect(transformer.last_modified).toEqual({ within_30_days: 0, within_365_days: 18, older: 0, none: 0 });
    expect(transformer.assured_date).toEqual({ within_30_days: 0, within_365_days: 0, older: 0, none: 18 });
  });

  it('gives the share of services with a phone, an e-mail, opening times, a located address and an area', () => {
    // Every service of the numeric-id feed has a phone and a location with coordinates; no
    // e-mail, schedule or service area.
    expect(named('transformer').shares).toEqual({
      phone: 1,
      email: 0,
      schedule: 0,
      located_address: 1,
      service_area: 0,
    });
  });

  it('is served to an admin at GET /admin/sources, as JSON and as a page', async () => {
    const app = createTestApp(engine, { ADMIN_TOKEN: TOKEN });
    const auth = { authorization: `Bearer ${TOKEN}` };
    expect((await app.request('/admin/sources')).status).toBe(401);
    const res = await app.request('/admin/sources', { headers: auth });
    expect(res.status).toBe(200);
    const body = (await res.json()) as { sources: SourceQuality[] };
    expect(body.sources.map((s) => [s.source, s.services])).toEqual([
      ['council', named('council').services],
      ['transformer', 18],
    ]);
    const page = await app.request('/admin/sources', { headers: { ...auth, accept: 'text/html' } });
    expect(page.headers.get('content-type')).toMatch(/^text\/html/);
    expect(await page.text()).toContain('<th scope="row">transformer</th>');
  });
});
