/**
 * Keeping the directory current, against a real engine: an import publishes what changed straight
 * to the live read indices (no reindex), deletions (--sync, hsds delete) leave every endpoint and
 * appear in the change feed, a change published while a full reindex runs survives its swap, and a
 * second directory that harvests the first with `--since` ends identical to it.
 */
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { serve } from '@hono/node-server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readAliasTargets } from '../../src/engine/indices.ts';
import type { ServiceFull } from '../../src/hsds/index.ts';
import { F } from '../../src/index-mapping/fields.ts';
import { readIndexMappings } from '../../src/index-mapping/read-indices.mapping.ts';
import { deleteRecords, importAndReindex, type PipelineOptions } from '../../src/ingest/publish/pipeline.ts';
import { reindex } from '../../src/ingest/publish/reindex.ts';
import { generateDataset } from '../../src/synthetic/generate.ts';
import { getJson, getNdjson, getPage, type JsonObject } from '../support/api-requests.ts';
import { createTestApp, createTestEngine, dropTestIndices } from '../support/engine.ts';
import { type FakePostcodesIo, startFakePostcodesIo } from '../support/fake-postcodes-io.ts';
import { createFeeds, type Feeds } from '../support/feeds.ts';
import { assertHsds } from '../support/hsds-validator.ts';

const engine = createTestEngine('publish');
const mirror = createTestEngine('publish-mirror');
let fake: FakePostcodesIo;
let app: ReturnType<typeof createTestApp>;
let feeds: Feeds;
const dataset = generateDataset({ services: 60, seed: 'publish' });
// Plain JSON, edited by the tests as a publisher would edit its feed.
const services = JSON.parse(JSON.stringify([...dataset.services()])) as ServiceFull[];
const now = () => new Date().toISOString();

const importFile = (name: string, content: unknown, options: PipelineOptions = {}) =>
  feeds.importFile(name, content, options);

const served = async (url: string) => (await getJson(app, url)).body;
const ndjsonIds = async (url: string) => (await getNdjson(app, url)).map((line) => line.id as string);
const nearAb101ab = async () =>
  (await getNdjson(app, '/service_at_locations?postcode=AB10%201AB&proximity=20000&format=ndjson')).map(
    (line) => line.id as string,
  );

beforeAll(async () => {
  fake = await startFakePostcodesIo();
  app = createTestApp(engine, { GEOCODERS: 'postcodes-io', POSTCODES_IO_URL: fake.url });
  feeds = await createFeeds(engine, 'publish');
  const first = await importFile('directory.json', services);
  // A first load is published by a full build.
  expect(first.reindex?.counts.services).toBe(60);
  expect(first.publish).toBeUndefined();
});
afterAll(async () => {
  await fake?.close();
  await feeds.remove();
  await dropTestIndices(engine);
  await dropTestIndices(mirror);
});

describe('an import publishes what changed, without a reindex', () => {
  it('serves a renamed service from every endpoint, and touches only its documents', async () => {
    const service = services[0]!;
    service.name = 'Zebracorn Debt Advice';
    service.last_modified = now();
    const result = await importFile('directory.json', services);
    expect(result.reindex).toBeUndefined();
    expect(result.publish?.indices.services.written).toBeGreaterThanOrEqual(1);
    // The service alone: nothing else nests it.
    expect(result.publish?.indices.services.written).toBeLessThan(5);
    expect(result.publish?.indices.service_at_locations.written).toBe(service.service_at_locations!.length);

    const record = await served(`/services/${service.id}`);
    assertHsds('service', record);
    expect(record.name).toBe('Zebracorn Debt Advice');
    const search = await getPage(app, '/services?search=zebracorn', 'service_list_item');
    expect(search.contents.map((s) => s.id)).toEqual([service.id]);
    const sal = service.service_at_locations![0]!;
    const atLocation = await served(`/service_at_locations/${sal.id}`);
    expect((atLocation.service as JsonObject).name).toBe('Zebracorn Debt Advice');
    const organization = await served(`/organizations/${service.organization_id}`);
    expect((organization.services as JsonObject[]).find((s) => s.id === service.id)?.name).toBe(
      'Zebracorn Debt Advice',
    );
    const lines = await getNdjson(app, '/services?format=ndjson&search=zebracorn');
    expect(lines.map((l) => l.name)).toEqual(['Zebracorn Debt Advice']);
  });

  it('importing the same feed again publishes nothing', async () => {
    const result = await importFile('directory.json', services);
    expect(result.publish?.changed_records).toBe(0);
  });

  it('moves every service at a location that moved out of postcode results', async () => {
    const before = await nearAb101ab();
    const sal = services
      .flatMap((s) => s.service_at_locations ?? [])
      .find((x) => before.includes(x.id) && x.location)!;
    expect(sal).toBeDefined();
    const locationId = sal.location!.id;
    const atLocation = services.filter((s) =>
      (s.service_at_locations ?? []).some((x) => x.location?.id === locationId),
    );
    for (const s of atLocation) {
      for (const x of s.service_at_locations ?? []) {
        if (x.location?.id !== locationId) continue;
        x.location.latitude = 51.5074;
        x.location.longitude = -0.1278;
        // Areas around Aberdeen would still cover the postcode: the service is moved whole.
        x.service_areas = [];
      }
      s.service_areas = [];
      s.last_modified = now();
    }
    const result = await importFile('directory.json', services);
    expect(result.publish).toBeDefined();
    const after = await nearAb101ab();
    const salsThere = atLocation.flatMap((s) =>
      (s.service_at_locations ?? []).filter((x) => x.location?.id === locationId).map((x) => x.id),
    );
    for (const id of salsThere) expect(after).not.toContain(id);
    for (const s of atLocation) {
      const record = await served(`/services/${s.id}`);
      const nested = (record.service_at_locations as { location: { id: string; latitude: number } }[]).find(
        (x) => x.location.id === locationId,
      );
      expect(nested?.location.latitude).toBe(51.5074);
    }
  });

  it('renames a taxonomy term in the term and in every service that carries it', async () => {
    const attribute = services.flatMap((s) => s.attributes ?? []).find((a) => a.taxonomy_term)!;
    const term = { ...attribute.taxonomy_term!, name: 'Renamed Lighthouse Term' };
    delete (term as Record<string, unknown>).taxonomy_detail;
    const carriers = services
      .filter((s) => (s.attributes ?? []).some((a) => a.taxonomy_term_id === term.id))
      .map((s) => s.id)
      .sort();
    const result = await importFile('taxonomy_terms.json', [term]);
    expect(result.publish).toBeDefined();
    const served1 = await served(`/taxonomy_terms/${term.id}`);
    expect(served1.name).toBe('Renamed Lighthouse Term');
    const filtered = await getNdjson(app, `/services?taxonomy_term_id=${term.id}&format=ndjson&full=true`);
    expect(filtered.map((s) => s.id).sort()).toEqual(carriers);
    for (const s of filtered) {
      const names = (s.attributes as { taxonomy_term?: { id: string; name: string } }[])
        .filter((a) => a.taxonomy_term?.id === term.id)
        .map((a) => a.taxonomy_term!.name);
      expect(names).toEqual(['Renamed Lighthouse Term']);
    }
    const search = await getPage(app, '/services?search=lighthouse&per_page=100', 'service_list_item');
    expect(search.contents.map((s) => s.id).sort()).toEqual(carriers);
  });
});

describe('deletions', () => {
  let syncStarted: string;

  it('--sync deletes what the source no longer provides, from every endpoint', async () => {
    const gone = services[5]!;
    const kept = services.filter((s) => s.id !== gone.id);
    const salIds = (gone.service_at_locations ?? []).map((x) => x.id);
    expect(await ndjsonIds('/services?format=ndjson')).toContain(gone.id);
    syncStarted = now();
    const result = await importFile('directory.json', kept, { sync: true });
    expect(result.import.summary.removed).toBeGreaterThan(0);
    expect(result.publish?.indices.services.deleted).toBe(1);

    expect((await getJson(app, `/services/${gone.id}`)).status).toBe(404);
    expect(await ndjsonIds('/services?format=ndjson')).not.toContain(gone.id);
    expect(await ndjsonIds('/services?format=ndjson')).toHaveLength(59);
    const sals = await ndjsonIds('/service_at_locations?format=ndjson');
    for (const id of salIds) {
      expect(sals).not.toContain(id);
      expect((await getJson(app, `/service_at_locations/${id}`)).status).toBe(404);
    }
    expect(await nearAb101ab()).not.toEqual(expect.arrayContaining(salIds.length > 0 ? salIds : ['-']));
    const organization = await getJson(app, `/organizations/${gone.organization_id}`);
    if (organization.status === 200) {
      expect((organization.body.services as JsonObject[]).map((s) => s.id)).not.toContain(gone.id);
    }
    const page = await getPage(app, `/services?organization_id=${gone.organization_id}&per_page=100`, null);
    expect(page.contents.map((s) => s.id)).not.toContain(gone.id);
  });

  it('lists the deletion in the change feed, in pages and in NDJSON, and nowhere without asking', async () => {
    const gone = services[5]!;
    const feed = await getPage(
      app,
      `/services?modified_after=${encodeURIComponent(syncStarted)}&include_deleted=true&per_page=100`,
      null,
    );
    const tombstone = feed.contents.find((s) => s.id === gone.id);
    expect(tombstone).toMatchObject({ id: gone.id, deleted: true });
    expect(Date.parse(tombstone!.deleted_at as string)).toBeGreaterThanOrEqual(Date.parse(syncStarted));
    // The live records of the feed are still valid HSDS list items.
    for (const item of feed.contents.filter((s) => s.deleted !== true)) assertHsds('service_list_item', item);
    const lines = await getNdjson(
      app,
      `/services?modified_after=${encodeURIComponent(syncStarted)}&include_deleted=true&format=ndjson`,
    );
    expect(lines.find((s) => s.id === gone.id)).toMatchObject({ deleted: true });
    const minimal = await getJson<{ contents: JsonObject[] }>(
      app,
      `/services?include_deleted=true&minimal=true&modified_after=${encodeURIComponent(syncStarted)}`,
    );
    expect(minimal.body.contents.find((s) => s.id === gone.id)).toMatchObject({ deleted: true });
    // Plain clients see nothing new.
    expect(
      await ndjsonIds(`/services?modified_after=${encodeURIComponent(syncStarted)}&format=ndjson`),
    ).not.toContain(gone.id);
    // A later time leaves it out.
    const later = await getPage(
      app,
      `/services?modified_after=${encodeURIComponent(now())}&include_deleted=true`,
      null,
    );
    expect(later.contents.map((s) => s.id)).not.toContain(gone.id);
  });

  it('a sync keeps what another source still provides', async () => {
    const shared = services[7]!;
    await importFile('other-feed.json', [shared]);
    const rest = services.filter((s) => s.id !== services[5]!.id && s.id !== shared.id);
    const result = await importFile('directory.json', rest, { sync: true });
    expect(result.publish?.indices.services.deleted ?? 0).toBe(0);
    expect((await getJson(app, `/services/${shared.id}`)).status).toBe(200);
    // Put it back in the main feed for the tests below.
    await importFile(
      'directory.json',
      services.filter((s) => s.id !== services[5]!.id),
      { sync: true },
    );
  });

  it('refuses to sync from a source that brought nothing valid', async () => {
    const servedBefore = (await ndjsonIds('/services?format=ndjson')).length;
    const result = await importFile('directory.json', [{ id: 'not-a-service' }], { sync: true });
    expect(Object.keys(result.import.summary.by_reason).some((r) => r.startsWith('sync-skipped'))).toBe(true);
    expect(await ndjsonIds('/services?format=ndjson')).toHaveLength(servedBefore);
  });

  it('a deleted service that comes back is served again and leaves the change feed', async () => {
    const back = services[5]!;
    back.last_modified = now();
    await importFile('directory.json', services, { sync: true });
    expect((await getJson(app, `/services/${back.id}`)).status).toBe(200);
    const feed = await getNdjson(app, '/services?include_deleted=true&format=ndjson');
    expect(feed.filter((s) => s.id === back.id)).toEqual([expect.not.objectContaining({ deleted: true })]);
  });

  it('hsds delete of an organization takes its services, and says so in the change feed', async () => {
    const organizationId = services[10]!.organization_id!;
    const ofIt = services.filter((s) => s.organization_id === organizationId).map((s) => s.id);
    const started = now();
    const result = await deleteRecords(engine, [{ type: 'organization', id: organizationId }]);
    expect(result.missing).toEqual([]);
    expect([...result.keys].filter((k) => k.startsWith('service:')).length).toBe(ofIt.length);
    expect((await getJson(app, `/organizations/${organizationId}`)).status).toBe(404);
    const page = await getPage(app, `/services?organization_id=${organizationId}`, null);
    expect(page.total_items).toBe(0);
    for (const id of ofIt) expect((await getJson(app, `/services/${id}`)).status).toBe(404);
    const feed = await getNdjson(app, `/organizations?include_deleted=true&format=ndjson`);
    expect(feed.find((o) => o.id === organizationId)).toMatchObject({ deleted: true });
    const services2 = await getNdjson(
      app,
      `/services?include_deleted=true&modified_after=${encodeURIComponent(started)}&format=ndjson`,
    );
    expect(
      services2
        .filter((s) => s.deleted === true)
        .map((s) => s.id)
        .sort(),
    ).toEqual([...ofIt].sort());
    for (const id of ofIt)
      services.splice(
        services.findIndex((s) => s.id === id),
        1,
      );
  });
});

describe('a change published while a full reindex runs', () => {
  it('is served after the swap', async () => {
    const target = services[1]!;
    let published: Promise<unknown> | undefined;
    let publishedBeforeSwap = false;
    let swapped = false;
    const rebuilding = reindex(engine, {
      batchSize: 5,
      onProgress: (p) => {
        if (p.phase === 'services' && !published) {
          target.name = 'Published mid-reindex';
          target.last_modified = now();
          published = importFile('directory.json', services).then(() => {
            publishedBeforeSwap = !swapped;
          });
        }
        if (p.phase === 'swapped') swapped = true;
      },
    });
    await rebuilding;
    await published;
    expect(published).toBeDefined();
    expect((await served(`/services/${target.id}`)).name).toBe('Published mid-reindex');
    const sal = target.service_at_locations![0]!;
    expect(((await served(`/service_at_locations/${sal.id}`)).service as JsonObject).name).toBe(
      'Published mid-reindex',
    );
    // Informative: the interesting order is the one where the publish went to the old indices.
    console.info(`publish finished ${publishedBeforeSwap ? 'before' : 'after'} the swap`);
  });
});

describe('an import after an upgrade', () => {
  /** Serves a copy of a read index as an earlier version built it: without `omit`, with `changed`, in its mapping. */
  async function serveEarlier(
    kind: 'services' | 'service_at_locations',
    omit: string[],
    changed: Record<string, unknown> = {},
  ): Promise<string> {
    const { current } = await readAliasTargets(engine);
    const served = current[kind] as string;
    const earlier = `${served}-earlier`;
    const { body: settings } = await engine.client.indices.getSettings({ index: served });
    const properties = Object.fromEntries(
      Object.entries({ ...readIndexMappings[kind].properties, ...changed }).filter(
        ([field]) => !omit.includes(field),
      ),
    );
    await engine.client.indices.create({
      index: earlier,
      body: {
        settings: {
          analysis: (Object.values(settings)[0] as { settings: { index: { analysis: never } } }).settings
            .index.analysis,
        },
        mappings: { dynamic: 'strict', properties },
      },
    });
    // `_source` holds every field: what the earlier version did not write is taken out of it.
    const script = omit.map((field) => `ctx._source.remove('${field}')`).join('; ');
    await engine.client.reindex({
      body: {
        source: { index: served },
        dest: { index: earlier },
        ...(script ? { script: { source: script } } : {}),
      },
      refresh: true,
    });
    await engine.client.indices.updateAliases({
      body: {
        actions: [
          { remove: { index: served, alias: engine.name(kind) } },
          { add: { index: earlier, alias: engine.name(kind) } },
        ],
      },
    });
    return earlier;
  }

  it('publishes into indices built without stored list items by a full reindex, after which lists read them', async () => {
    await serveEarlier('services', [F.listItem]);
    const service = services[2]!;
    service.name = 'Quokka Welfare Rights';
    service.last_modified = now();
    const result = await importFile('directory.json', services);
    // Written to the live index, the new documents would be refused by its strict mapping.
    expect(result.publish).toBeUndefined();
    expect(result.reindex?.counts.services).toBeGreaterThan(50);
    const page = await getPage(app, '/services?search=quokka', 'service_list_item');
    expect(page.contents.map((s) => s.name)).toEqual(['Quokka Welfare Rights']);
    const { body } = await engine.client.get({
      index: engine.name('services'),
      id: service.id,
      stored_fields: F.listItem,
    });
    expect(JSON.parse((body.fields as Record<string, string[]>)[F.listItem]![0]!)).toEqual(page.contents[0]);
  });

  it('answers postcode searches from indices built before coverage cells alike, and a full reindex adds them', async () => {
    const urls = ['AB10 1AB', 'AB11 8BU', 'AB15 4YE', 'AB16 5ST', 'AB12 3FG'].flatMap((postcode) =>
      ['', '&proximity=1500', '&proximity=5000'].map(
        (proximity) =>
          `/service_at_locations?postcode=${encodeURIComponent(postcode)}${proximity}&per_page=50`,
      ),
    );
    const answers = async () =>
      Promise.all(
        urls.map(async (url) =>
          (await getPage(app, url, 'service_at_location_list_item')).contents.map((item) => item.id),
        ),
      );
    const withCells = await answers();
    // Enough of them find services with an area: the answers below ask the coverage.
    expect(withCells.flat().length).toBeGreaterThan(20);

    // As earlier versions built it: the whole coverage indexed as a shape, no cells, no edge.
    await serveEarlier('service_at_locations', [F.coverageCells, F.coverageEdge], {
      [F.coverage]: { type: 'geo_shape' },
    });
    expect(await answers()).toEqual(withCells);

    // A change that leaves every answer's order alone (names break ties between equal distances).
    services[3]!.description = 'Quokka advice, by phone and in person.';
    services[3]!.last_modified = now();
    const result = await importFile('directory.json', services);
    expect(result.publish).toBeUndefined();
    expect(result.reindex?.counts.service_at_locations).toBeGreaterThan(50);
    const { body: edged } = await engine.client.count({
      index: engine.name('service_at_locations'),
      body: { query: { exists: { field: F.coverageEdge } } },
    });
    expect(edged.count).toBeGreaterThan(0);
    expect(await answers()).toEqual(withCells);
  });
});

describe('a second directory that harvests the first with --since', () => {
  it('ends identical after edits and deletions', async () => {
    const server = serve({ fetch: app.fetch, port: 0, hostname: '127.0.0.1' });
    await new Promise((resolve) => server.once('listening', resolve));
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    try {
      const mirrorApp = createTestApp(mirror);
      const report = join(feeds.dir, 'mirror.report.json');
      const first = await importAndReindex(mirror, url, { reportFile: report });
      expect(first.reindex).toBeDefined();
      const since = now();
      // Edits and deletions on the first directory.
      const edited = services[2]!;
      edited.name = 'Edited after the harvest';
      edited.last_modified = now();
      await importFile('directory.json', services);
      const removed = services[3]!;
      await deleteRecords(engine, [{ type: 'service', id: removed.id }]);

      const again = await importAndReindex(mirror, url, { reportFile: report, harvest: { since } });
      expect(again.publish).toBeDefined();
      // Only what changed came over (organizations and taxonomies are listed whole by this API).
      expect(again.import.summary.by_type.service?.imported ?? 0).toBeLessThan(5);

      const dump = async (target: typeof app, path: string) =>
        (await getNdjson(target, path)).sort((a, b) => String(a.id).localeCompare(String(b.id)));
      for (const path of [
        '/services?format=ndjson&full=true',
        '/service_at_locations?format=ndjson&full=true',
        '/organizations?format=ndjson&full=true',
        '/taxonomies?format=ndjson',
        '/taxonomy_terms?format=ndjson',
      ]) {
        expect(await dump(mirrorApp, path), path).toEqual(await dump(app, path));
      }
      expect((await getJson(mirrorApp, `/services/${removed.id}`)).status).toBe(404);
    } finally {
      await new Promise((resolve) => server.close(resolve));
    }
  });
});
