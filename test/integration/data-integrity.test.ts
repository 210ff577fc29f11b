/**
 * Data-integrity defects of issue 35, each against the real engine:
 * - a deletion (and a replacement) takes children by their parent's type and id, not by a bare id
 *   that a record of another type may share;
 * - ids are stored in lower case on every write path and import: an id in another case names the
 *   same record, never a second one;
 * - URI fields hold http, https, mailto and tel only (a `javascript:` URL is dropped at import and
 *   refused by a write).
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newToken } from '../../src/api/http/auth.ts';
import { recordsIndex, refreshRecords } from '../../src/engine/records.ts';
import type { RecordType, ServiceFull } from '../../src/hsds/index.ts';
import { toRecordStoreDocument, toSingleDocument } from '../../src/index-mapping/record-store.document.ts';
import type { ImportReport } from '../../src/ingest/import/import-report.ts';
import { checkIdCase, fixIdCase, formatIdCaseReport } from '../../src/ingest/maintenance/id-case.ts';
import { reindex } from '../../src/ingest/publish/reindex.ts';
import { parentIdsOf } from '../../src/ingest/records/nesting.ts';
import { generateDataset } from '../../src/synthetic/generate.ts';
import { getJson, getNdjson, getPage, type JsonObject } from '../support/api-requests.ts';
import { createTestApp, createTestEngine, dropTestIndices } from '../support/engine.ts';
import { createFeeds, type Feeds } from '../support/feeds.ts';

const engine = createTestEngine('data-integrity');
const writer = newToken('council-crm', ['write']);
let app: ReturnType<typeof createTestApp>;
let feeds: Feeds;
const dataset = generateDataset({ services: 8, seed: 'data-integrity' });
const services = JSON.parse(JSON.stringify([...dataset.services()])) as ServiceFull[];

const headers = { 'content-type': 'application/json', authorization: `Bearer ${writer.token}` };
const put = (path: string, body: unknown) =>
  app.request(path, { method: 'PUT', headers, body: JSON.stringify(body) });
const del = (path: string) => app.request(path, { method: 'DELETE', headers });
const read = async (path: string) => (await getJson(app, path)).body;
const readReport = async (file: string) => JSON.parse(await readFile(file, 'utf8')) as ImportReport;

// What a service nests by its id: what a deletion by a bare id took from it.
const collections = [
  'phones',
  'schedules',
  'service_areas',
  'service_at_locations',
  'languages',
  'cost_options',
  'contacts',
  'attributes',
] as const;
const countsOf = (service: JsonObject) =>
  Object.fromEntries(collections.map((key) => [key, ((service[key] as unknown[]) ?? []).length]));

beforeAll(async () => {
  app = createTestApp(engine, { API_TOKENS: writer.entry });
  feeds = await createFeeds(engine, 'data-integrity');
  await feeds.importFile('feed.json', services);
});
afterAll(async () => {
  await feeds.remove();
  await dropTestIndices(engine);
});

describe('children belong to a parent of one type', () => {
  it("deleting an organization whose id is a service's id leaves the service whole", async () => {
    const service = services[2]!;
    const path = `/services/${service.id}`;
    const before = await read(path);
    expect(Object.values(countsOf(before)).every((n) => n > 0)).toBe(true);
    const created = await put(`/organizations/${service.id}`, {
      id: service.id,
      name: 'Namesake Trust',
      description: 'An organization that shares its id with a service.',
    });
    expect(created.status, await created.clone().text()).toBe(201);
    expect((await del(`/organizations/${service.id}`)).status).toBe(204);
    expect((await app.request(`/organizations/${service.id}`)).status).toBe(404);
    const after = await read(path);
    expect(countsOf(after)).toEqual(countsOf(before));
    expect(after).toEqual(before);
  });

  it("replacing an organization's attributes leaves those of a service with its id", async () => {
    const service = services[1]!;
    const path = `/services/${service.id}`;
    const before = await read(path);
    expect((before.attributes as unknown[]).length).toBeGreaterThan(0);
    const body = { id: service.id, name: 'Namesake Trust', description: 'Shares an id.', attributes: [] };
    expect((await put(`/organizations/${service.id}`, body)).status).toBe(201);
    expect((await put(`/organizations/${service.id}`, body)).status).toBe(200);
    expect(await read(path)).toEqual(before);
    expect((await del(`/organizations/${service.id}`)).status).toBe(204);
    expect(await read(path)).toEqual(before);
  });
});

describe('ids name the same record in any case', () => {
  it('a PUT under the upper-case id replaces the record; a DELETE of the lower-case id removes it', async () => {
    const service = services[0]!;
    const upper = service.id.toUpperCase();
    const current = await read(`/services/${service.id}`);
    const res = await put(`/services/${upper}`, { ...current, id: upper, name: 'Upper Case Quince Advice' });
    expect(res.status, await res.clone().text()).toBe(200);
    const found = await getPage(app, '/services?search=quince', 'service_list_item');
    expect(found.contents.map((s) => s.id)).toEqual([service.id]);
    const all = await getNdjson(app, '/services?format=ndjson&minimal=true');
    expect(all.filter((s) => (s.id as string).toLowerCase() === service.id)).toHaveLength(1);
    expect((await read(`/services/${service.id}`)).name).toBe('Upper Case Quince Advice');

    expect((await del(`/services/${service.id}`)).status).toBe(204);
    expect((await app.request(`/services/${upper}`)).status).toBe(404);
    expect((await app.request(`/services/${service.id}`)).status).toBe(404);
  });

  it('an import stores ids and references in lower case, and reports each id it changed', async () => {
    const template = services[3]!;
    const shouting = JSON.parse(
      JSON.stringify(template, (key, value) =>
        (key === 'id' || key.endsWith('_id')) && typeof value === 'string' ? value.toUpperCase() : value,
      ),
    ) as ServiceFull;
    const { reportFile } = await feeds.importFile('shouting.json', [shouting]);
    const report = await readReport(reportFile);
    const lowered = report.issues.filter(
      (i) => i.kind === 'repaired' && i.record_id === template.id && i.path === 'id',
    );
    expect(lowered).toHaveLength(1);
    expect(lowered[0]).toMatchObject({ severity: 'info', value: `string "${template.id.toUpperCase()}"` });
    expect(lowered[0]!.reason).toMatch(/lower case/);
    // The same records as the lower-case feed brought: one service, its links whole.
    const all = await getNdjson(app, '/services?format=ndjson&minimal=true');
    expect(all.map((s) => s.id as string).filter((id) => id.toLowerCase() === template.id)).toEqual([
      template.id,
    ]);
    const served = await read(`/services/${template.id}`);
    expect(served.id).toBe(template.id);
    expect((served.organization as JsonObject).id).toBe(template.organization_id);
    expect(countsOf(served)).toEqual(countsOf(template as unknown as JsonObject));
    expect(JSON.stringify(served)).not.toMatch(
      /[0-9A-F]{8}-[0-9A-F]{4}-[0-9A-F]{4}-[0-9A-F]{4}-[0-9A-F]{12}/,
    );
  });
});

describe('hsds check-ids: a store written before ids were lower-cased', () => {
  // Single store documents as an earlier version wrote them, ids as published.
  async function storeAsPublished(
    records: { type: string; record: Record<string, unknown>; source?: string }[],
  ) {
    const run = Date.now();
    for (const { type, record, source = 'legacy-feed.json' } of records) {
      const doc = toRecordStoreDocument(
        type,
        record.id as string,
        record,
        parentIdsOf(type as RecordType, record),
        source,
      );
      await engine.client.index({
        index: recordsIndex(engine),
        id: doc.key,
        body: toSingleDocument(doc, run, true),
      } as never);
    }
    await refreshRecords(engine);
    await reindex(engine);
  }

  it('lists records whose ids are not lower case, and --fix stores them in lower case, one record per id', async () => {
    const copied = services[6]!;
    const upper = copied.id.toUpperCase();
    const { organization: _, ...fields } = services[7]!;
    const fresh = {
      id: '9A3F7C1E-2B4D-4E6F-8A0B-1C2D3E4F5A6B',
      phone: 'a1b2c3d4-0000-4000-8000-0000000000ff',
    };
    await storeAsPublished([
      // The copy a PUT under the upper-case id made, written after the original; from the same
      // source, whose bundle of the original holds the service's phones, schedules and the rest.
      {
        type: 'service',
        source: join(feeds.dir, 'feed.json'),
        record: {
          id: upper,
          organization_id: copied.organization_id,
          name: 'Shouted Copy Of A Service',
          status: 'active',
        },
      },
      // A service known only in upper case, its organization named in upper case too, and a phone
      // whose own id is lower case but whose link to the service is not.
      {
        type: 'service',
        record: {
          id: fresh.id,
          organization_id: fields.organization_id!.toUpperCase(),
          name: 'Legacy Upper Case Service',
          status: 'active',
        },
      },
      { type: 'phone', record: { id: fresh.phone, service_id: fresh.id, number: '01224 111222' } },
    ]);

    const found = await checkIdCase(engine);
    expect(found.recordsRead).toBeGreaterThan(100);
    expect(
      found.findings.map((f) => [f.key, f.fields.map((field) => field.field), f.collidesWith]).sort(),
    ).toEqual(
      [
        [`phone:${fresh.phone}`, ['service_id'], []],
        [`service:${fresh.id}`, ['id', 'organization_id'], []],
        [`service:${upper}`, ['id'], [`service:${copied.id}`]],
      ].sort(),
    );
    expect(formatIdCaseReport(found)).toContain('1 are one id stored in two cases');

    const fixed = await fixIdCase(engine);
    expect(fixed.restored.sort()).toEqual(
      [`phone:${fresh.phone}`, `service:${fresh.id.toLowerCase()}`, `service:${copied.id}`].sort(),
    );
    expect(fixed.deleted.sort()).toEqual([`service:${fresh.id}`, `service:${upper}`].sort());
    expect((await checkIdCase(engine)).findings).toEqual([]);

    // One service per id, the copy written last kept; the legacy one served in lower case, whole.
    const all = await getNdjson(app, '/services?format=ndjson&minimal=true');
    expect(all.filter((s) => (s.id as string).toLowerCase() === copied.id).map((s) => s.id)).toEqual([
      copied.id,
    ]);
    const kept = await read(`/services/${copied.id}`);
    expect(kept.name).toBe('Shouted Copy Of A Service');
    expect(countsOf(kept)).toEqual(countsOf(copied as unknown as JsonObject));
    const legacy = await read(`/services/${fresh.id.toLowerCase()}`);
    expect(legacy.id).toBe(fresh.id.toLowerCase());
    expect((legacy.organization as JsonObject).id).toBe(fields.organization_id);
    expect((legacy.phones as JsonObject[]).map((p) => p.id)).toEqual([fresh.phone]);
  });
});

describe('URI fields hold web, mail and phone links only', () => {
  it('an import drops a javascript: URL and a data: logo, each reported', async () => {
    const service = {
      ...services[4]!,
      url: 'javascript:alert(document.cookie)',
      organization: { ...services[4]!.organization!, logo: 'data:text/html,<script>alert(1)</script>' },
    };
    const { reportFile } = await feeds.importFile('schemes.json', [service]);
    const report = await readReport(reportFile);
    const dropped = report.issues.filter((i) => i.kind === 'dropped-field');
    expect(dropped.map((i) => i.path).sort()).toEqual(['organization.logo', 'url']);
    expect(dropped.find((i) => i.path === 'url')).toMatchObject({
      severity: 'warning',
      value: 'string "javascript:alert(document.cookie)"',
    });
    expect(dropped.find((i) => i.path === 'url')!.reason).toMatch(/http, https, mailto or tel/);
    const served = await read(`/services/${service.id}`);
    expect(served.url).toBeUndefined();
    expect((served.organization as JsonObject).logo).toBeUndefined();
    expect(served.name).toBe(service.name);
  });

  it('a write with a javascript: URL is refused with 400 naming the field, and changes nothing', async () => {
    const service = services[5]!;
    const path = `/services/${service.id}`;
    const before = await read(path);
    const res = await put(path, { ...before, url: 'JavaScript:alert(1)' });
    expect(res.status).toBe(400);
    const problem = (await res.json()) as { errors: { parameter: string; reason: string }[] };
    expect(problem.errors.map((e) => e.parameter)).toEqual(['url']);
    expect(problem.errors[0]!.reason).toMatch(/http, https, mailto or tel/);
    expect(await read(path)).toEqual(before);
    // The schemes HSDS links use are accepted.
    const ok = await put(path, { ...before, url: 'https://example.org/help', email: undefined });
    expect(ok.status, await ok.clone().text()).toBe(200);
  });
});
