/**
 * A write's audit cannot be lost while its change survives (src/ingest/write/write.ts): the API process
 * is killed after a PUT has published its change but before its audit entries are written (the
 * audit index refuses writes, so the write stops exactly there), and the next API process writes
 * the entries from the intent the write stored first.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { newToken } from '../../src/api/http/auth.ts';
import {
  type ApiProcess,
  baseEnv,
  engineUrl,
  servedServiceIds,
  sleep,
  startApi,
  usePublishedDirectory,
} from './support.ts';

const prefix = usePublishedDirectory('write-audit', 3);
const writer = newToken('council-crm', ['write']);
const env = () => baseEnv(prefix, { API_TOKENS: writer.entry });
const started: ApiProcess[] = [];
afterAll(async () => {
  await Promise.all(started.map((api) => api.stop()));
  await blockAudit(false);
});

const blockAudit = (block: boolean) =>
  fetch(`${engineUrl()}/${prefix}-audit/_settings`, {
    method: 'PUT',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ index: { blocks: { write: block } } }),
  });

const put = (api: ApiProcess, path: string, body: unknown) =>
  fetch(`${api.url}${path}`, {
    method: 'PUT',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${writer.token}` },
    body: JSON.stringify(body),
  });

type Entry = { field_name: string; replacement_value: string; updated_by: string };
const trail = async (api: ApiProcess, path: string): Promise<Entry[]> => {
  const res = await fetch(`${api.url}${path}?audit=all`);
  expect(res.status).toBe(200);
  return ((await res.json()) as { metadata: Entry[] }).metadata;
};

describe('an API process killed between publishing a write and writing its audit', () => {
  it('leaves an intent that the next API process turns into the audit entries', async () => {
    const first = await startApi(env());
    started.push(first);
    const [id] = await servedServiceIds(first.url);
    const path = `/services/${id}`;
    const record = (await (await fetch(`${first.url}${path}`)).json()) as Record<string, unknown>;
    // A first write makes the audit index; its entries are there.
    const audited = await put(first, path, { ...record, name: 'Audited Name' });
    expect(audited.status, await audited.clone().text()).toBe(200);
    expect((await trail(first, path)).map((e) => e.replacement_value)).toContain('Audited Name');

    // The audit index refuses writes: the next write publishes, then fails at its audit.
    expect((await blockAudit(true)).status).toBe(200);
    const lost = await put(first, path, { ...record, name: 'Published Before The Kill' });
    expect(lost.status).toBe(500);
    const exited = new Promise((resolve) => first.child.once('exit', resolve));
    first.child.kill('SIGKILL');
    await exited;
    started.splice(started.indexOf(first), 1);

    expect((await blockAudit(false)).status).toBe(200);
    const second = await startApi(env());
    started.push(second);
    // The change survived the kill...
    const served = (await (await fetch(`${second.url}${path}`)).json()) as { name: string };
    expect(served.name).toBe('Published Before The Kill');
    // ...and the new process writes its audit from the intent (at start, without another write).
    const deadline = Date.now() + 30_000;
    let entries = await trail(second, path);
    while (!entries.some((e) => e.replacement_value === 'Published Before The Kill')) {
      expect(Date.now(), JSON.stringify(entries)).toBeLessThan(deadline);
      await sleep(250);
      entries = await trail(second, path);
    }
    const name = entries.filter((e) => e.field_name === 'name');
    expect(name.map((e) => e.replacement_value)).toEqual(['Published Before The Kill', 'Audited Name']);
    expect(name[0]?.updated_by).toBe('council-crm');
    // Completed once: another write finds no intent left, and adds only its own entries.
    const next = await put(second, path, { ...record, name: 'After Recovery' });
    expect(next.status).toBe(200);
    const after = (await trail(second, path)).filter((e) => e.field_name === 'name');
    expect(after.map((e) => e.replacement_value)).toEqual([
      'After Recovery',
      'Published Before The Kill',
      'Audited Name',
    ]);
  });
});
