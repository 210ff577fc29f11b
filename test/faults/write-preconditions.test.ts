/**
 * The write API's preconditions across processes: two API processes (as `npx hsds serve` runs
 * them) share one engine, each with its record cache. A writer that read a record through one
 * process and writes it back with If-Match must get 412 when another process changed it meanwhile,
 * however fresh the first process's cached copy looks.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newToken } from '../../src/api/http/auth.ts';
import {
  type ApiProcess,
  baseEnv,
  servedServiceIds,
  sleep,
  startApi,
  usePublishedDirectory,
} from './support.ts';

const prefix = usePublishedDirectory('write-pre', 5);
const crm = newToken('council-crm', ['write']);
const sync = newToken('charity-sync', ['write']);
let a: ApiProcess;
let b: ApiProcess;

beforeAll(async () => {
  // A long stale window makes the trial deterministic: A's cached copy is still trusted when its
  // writer comes back. The default (1 s) gives the same answer to a writer that comes back
  // within that second.
  const env = baseEnv(prefix, {
    API_TOKENS: [crm.entry, sync.entry].join(','),
    RECORD_CACHE_MAX_STALE_MS: '30000',
  });
  [a, b] = await Promise.all([startApi(env), startApi(env)]);
});
afterAll(async () => {
  await Promise.all([a?.stop(), b?.stop()]);
});

const put = (
  api: ApiProcess,
  path: string,
  body: unknown,
  token: string,
  headers: Record<string, string> = {},
) =>
  fetch(`${api.url}${path}`, {
    method: 'PUT',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${token}`, ...headers },
    body: JSON.stringify(body),
  });

describe('If-Match across two API processes', () => {
  it('gives 412 to a writer whose ETag, read through process A, predates a write made through process B', async () => {
    const [id] = await servedServiceIds(a.url);
    const path = `/services/${id}`;
    // Read through A twice: the second read is answered from A's record cache.
    await (await fetch(`${a.url}${path}`)).text();
    await sleep(300);
    const first = await fetch(`${a.url}${path}`);
    const e0 = first.headers.get('etag')!;
    const record = (await first.json()) as Record<string, unknown>;
    expect(e0).toMatch(/^"[\w-]+"$/);

    const other = await put(b, path, { ...record, name: 'Changed Through B' }, sync.token);
    expect(other.status, await other.clone().text()).toBe(200);
    const e1 = other.headers.get('etag');
    expect(e1).not.toBe(e0);

    const stale = await put(a, path, { ...record, name: 'Stale Write Through A' }, crm.token, {
      'if-match': e0,
    });
    expect(stale.status, (await stale.clone().text()).slice(0, 300)).toBe(412);
    expect(stale.headers.get('content-type')).toContain('application/problem+json');

    // B's acknowledged change stands, through either process (A's cache was emptied by its own
    // write attempt or checks the engine within its window; B wrote it).
    const served = (await (await fetch(`${b.url}${path}`)).json()) as { name: string };
    expect(served.name).toBe('Changed Through B');

    // The ETag B answered with is the current version: a write through A naming it passes.
    const fresh = await put(a, path, { ...record, name: 'Fresh Write Through A' }, crm.token, {
      'if-match': e1!,
    });
    expect(fresh.status, await fresh.clone().text()).toBe(200);
    expect(fresh.headers.get('etag')).toBe((await fetch(`${a.url}${path}`)).headers.get('etag'));
  });
});
