/**
 * The rules duplicate marks keep on the real engine (src/duplicates): a `same` mark never chains
 * nor cycles (A→B beside B→C, C→A are refused with 409 naming the mark in the way, even when two
 * arrive at once), so no record leaves every list for good and no URL redirects in a loop; and a
 * kept record that is deleted (a DELETE through the write API, `hsds delete`, a sync that drops it)
 * takes its marks with it: the record it kept merged away is served again, and the change feed
 * lists it again, not as deleted.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newToken } from '../../src/api/http/auth.ts';
import { createDuplicates } from '../../src/duplicates/index.ts';
import type { ServiceFull } from '../../src/hsds/index.ts';
import { deleteRecords } from '../../src/ingest/publish/pipeline.ts';
import { generateDataset } from '../../src/synthetic/generate.ts';
import { getJson } from '../support/api-requests.ts';
import { createTestApp, createTestEngine, dropTestIndices } from '../support/engine.ts';
import { createFeeds, type Feeds } from '../support/feeds.ts';

const engine = createTestEngine('duplicate-marks');
const admin = newToken('ops', ['admin']);
const writer = newToken('crm', ['write']);
const app = createTestApp(
  engine,
  { API_TOKENS: [admin.entry, writer.entry].join(',') },
  { duplicates: createDuplicates(engine) },
);
const dataset = generateDataset({ services: 16, seed: 'duplicate-marks' });
const services = JSON.parse(JSON.stringify([...dataset.services()])) as ServiceFull[];
const ids = services.map((s) => s.id.toLowerCase());
let feeds: Feeds;

const asAdmin = { authorization: `Bearer ${admin.token}` };

const mark = (body: { ids: [string, string]; decision: 'same' | 'distinct'; keep?: string }) =>
  getJson<{ status?: number; detail?: string; type?: string; key?: string }>(app, '/admin/duplicates/marks', {
    method: 'POST',
    headers: { ...asAdmin, 'content-type': 'application/json' },
    body: JSON.stringify({ type: 'service', ...body }),
  });

async function listedIds(): Promise<string[]> {
  const { body } = await getJson<{ contents: { id: string }[] }>(app, '/services?per_page=100');
  return body.contents.map((s) => s.id);
}

/** What GET /services/{id} ends at, following redirects (at most 5): the status and the ids passed. */
async function follow(id: string): Promise<{ status: number; path: string[] }> {
  const path = [id];
  for (let hop = 0; hop < 5; hop += 1) {
    const res = await app.request(`/services/${path.at(-1)}`);
    if (res.status !== 301) return { status: res.status, path };
    path.push(res.headers.get('location')!.split('?')[0]!);
  }
  return { status: 301, path };
}

/** The change feed since `since`: each service listed, deleted or not. */
async function feed(since: string): Promise<Map<string, boolean>> {
  const { body } = await getJson<{ contents: { id: string; deleted?: boolean }[] }>(
    app,
    `/services?include_deleted=true&modified_after=${encodeURIComponent(since)}&per_page=100`,
  );
  return new Map(body.contents.map((s) => [s.id, s.deleted === true]));
}

const marks = async () =>
  (
    await getJson<{ marks: { key: string; keep?: string }[] }>(app, '/admin/duplicates/marks', {
      headers: asAdmin,
    })
  ).body.marks;

beforeAll(async () => {
  feeds = await createFeeds(engine, 'duplicate-marks');
  await feeds.importFile('feed.json', services, { sourceName: 'feed' });
}, 120_000);

afterAll(async () => {
  await feeds.remove();
  await dropTestIndices(engine);
});

describe('marks never chain nor cycle', () => {
  const [a, b, c, d] = ids as [string, string, string, string];

  it('refuses B→C and C→A beside A→B, and a second home for A, naming the mark in the way', async () => {
    expect((await mark({ ids: [a, b], decision: 'same', keep: b })).status).toBe(200);
    // B is kept: merging it into C would hide A with it.
    const chain = await mark({ ids: [b, c], decision: 'same', keep: c });
    expect(chain.status).toBe(409);
    expect(chain.body.type).toContain('duplicate-mark-conflict');
    expect(chain.body.detail).toContain(`service:${[a, b].sort().join('|')}`);
    // A is merged away: it cannot be the kept record of C.
    const cycle = await mark({ ids: [c, a], decision: 'same', keep: a });
    expect(cycle.status).toBe(409);
    expect(cycle.body.detail).toContain(`service:${[a, b].sort().join('|')}`);
    // Nor merged a second time, into another record.
    expect((await mark({ ids: [a, d], decision: 'same', keep: d })).status).toBe(409);
    // One kept record may keep several: C merged into B is allowed.
    expect((await mark({ ids: [b, c], decision: 'same', keep: b })).status).toBe(200);
    // The pair's own mark may be turned round once nothing else leans on it.
    expect((await mark({ ids: [b, c], decision: 'distinct' })).status).toBe(200);
    expect((await mark({ ids: [a, b], decision: 'same', keep: a })).status).toBe(200);
    expect((await marks()).map((m) => m.key).sort()).toEqual(
      [`service:${[a, b].sort().join('|')}`, `service:${[b, c].sort().join('|')}`].sort(),
    );
    // Every marked id ends at a served record within one redirect; none loops.
    for (const id of [a, b, c, d]) {
      const { status, path } = await follow(id);
      expect({ id, status }).toEqual({ id, status: 200 });
      expect(path.length).toBeLessThanOrEqual(2);
    }
    expect(await listedIds()).toEqual(expect.arrayContaining([a, c, d]));
    expect(await listedIds()).not.toContain(b);
  }, 180_000);

  it('lets one of two concurrent marks that would chain through, and refuses the other', async () => {
    const [, , , , x, y, z] = ids as string[];
    const answers = await Promise.all([
      mark({ ids: [x!, y!], decision: 'same', keep: y! }),
      mark({ ids: [y!, z!], decision: 'same', keep: z! }),
    ]);
    expect(answers.map((r) => r.status).sort()).toEqual([200, 409]);
    for (const id of [x!, y!, z!]) expect((await follow(id)).status).toBe(200);
  }, 180_000);
});

describe('deleting a kept record frees what it kept', () => {
  const served = async (id: string) => (await app.request(`/services/${id}`)).status;

  async function expectFreed(kept: string, merged: string, since: string) {
    expect(await served(kept)).toBe(404);
    expect(await served(merged)).toBe(200);
    expect(await listedIds()).toContain(merged);
    const listed = await feed(since);
    expect(listed.get(kept)).toBe(true);
    // Announced as back, not deleted: a harvester of the feed serves it again.
    expect(listed.get(merged)).toBe(false);
    expect((await marks()).some((m) => m.keep === kept)).toBe(false);
  }

  it('DELETE through the write API', async () => {
    const [kept, merged] = [ids[7]!, ids[8]!];
    expect((await mark({ ids: [kept, merged], decision: 'same', keep: kept })).status).toBe(200);
    expect(await served(merged)).toBe(301);
    const since = new Date().toISOString();
    const res = await app.request(`/services/${kept}`, {
      method: 'DELETE',
      headers: { authorization: `Bearer ${writer.token}` },
    });
    expect(res.status).toBe(204);
    await expectFreed(kept, merged, since);
  }, 180_000);

  it('hsds delete', async () => {
    const [kept, merged] = [ids[9]!, ids[10]!];
    expect((await mark({ ids: [kept, merged], decision: 'same', keep: kept })).status).toBe(200);
    const since = new Date().toISOString();
    await deleteRecords(engine, [{ type: 'service', id: kept }]);
    await expectFreed(kept, merged, since);
  }, 180_000);

  it('a sync of the source that drops it', async () => {
    const [kept, merged] = [ids[11]!, ids[12]!];
    expect((await mark({ ids: [kept, merged], decision: 'same', keep: kept })).status).toBe(200);
    const since = new Date().toISOString();
    const gone = new Set([ids[7], ids[9], kept]);
    await feeds.importFile(
      'feed.json',
      services.filter((s) => !gone.has(s.id.toLowerCase())),
      { sourceName: 'feed', sync: true },
    );
    await expectFreed(kept, merged, since);
  }, 120_000);
});
