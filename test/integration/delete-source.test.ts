/**
 * `hsds delete --source NAME` (src/ingest/maintenance/delete-source.ts): a source removed whole, as --sync
 * would remove what it no longer provides; what another source also provides stays served.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { deleteSource } from '../../src/ingest/maintenance/delete-source.ts';
import { importAndReindex } from '../../src/ingest/publish/pipeline.ts';
import { getJson } from '../support/api-requests.ts';
import { createTestApp, createTestEngine, dropTestIndices } from '../support/engine.ts';

const engine = createTestEngine('delete-source');
const app = createTestApp(engine);
let dir = '';

const id = (n: number) => `5d000000-0000-4000-8000-${String(n).padStart(12, '0')}`;
const organization = { id: id(1), name: 'Shared Trust', description: 'Runs services for both feeds.' };
const service = (n: number, phone: number) => ({
  id: id(n),
  name: `Service ${n}`,
  status: 'active',
  organization,
  phones: [{ id: id(phone), number: `0100 ${phone}` }],
});

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'hsds-delete-source-'));
  await writeFile(join(dir, 'a.json'), JSON.stringify([service(10, 11), service(20, 21)]));
  await writeFile(join(dir, 'b.json'), JSON.stringify([service(30, 31)]));
  await importAndReindex(engine, join(dir, 'a.json'), { sourceName: 'council-a', reportFile: false });
  await importAndReindex(engine, join(dir, 'b.json'), { sourceName: 'council-b', reportFile: false });
}, 120_000);

afterAll(async () => {
  await dropTestIndices(engine);
  await rm(dir, { recursive: true, force: true });
});

const status = async (path: string) => (await getJson(app, path)).status;

describe('provenance (?provenance=true)', () => {
  it('names the sources whose copy provides a record, only when asked', async () => {
    const org = await getJson(app, `/organizations/${id(1)}?provenance=true`);
    expect(org.body['x-sources']).toEqual(['council-a', 'council-b']);
    const service = await getJson(app, `/services/${id(30)}?provenance=true`);
    expect(service.body['x-sources']).toEqual(['council-b']);
    expect((await getJson(app, `/services/${id(30)}`)).body).not.toHaveProperty('x-sources');
  });
});

describe('deleting a source whole', () => {
  it('says in a dry run what would go and what stays, and changes nothing', async () => {
    const result = await deleteSource(engine, 'council-a', { dryRun: true });
    expect([...result.removed].sort()).toEqual(
      [`phone:${id(11)}`, `phone:${id(21)}`, `service:${id(10)}`, `service:${id(20)}`].sort(),
    );
    expect(result.kept).toBe(1); // the organization: council-b provides it too
    expect(await status(`/services/${id(10)}`)).toBe(200);
  });

  it('removes what only it provided, from every read endpoint, and keeps what another source provides', async () => {
    const result = await deleteSource(engine, 'council-a');
    expect(result.removed.size).toBe(4);
    expect(result.publish ?? result.reindex).toBeDefined();
    expect(await status(`/services/${id(10)}`)).toBe(404);
    expect(await status(`/services/${id(20)}`)).toBe(404);
    expect(await status(`/services/${id(30)}`)).toBe(200);
    const org = await getJson(app, `/organizations/${id(1)}`);
    expect(org.status).toBe(200);
    expect(await deleteSource(engine, 'council-a')).toMatchObject({ documents: 0 });
  });
});
