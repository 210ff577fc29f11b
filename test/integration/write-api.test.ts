/**
 * The write API against a real engine: PUT and DELETE of each record type, seen by every read
 * endpoint when the answer comes; tokens and scopes (nothing changes without the right one); a
 * body that breaks the schema (400 naming each field, nothing changes); If-Match (one of two
 * writers with the same ETag gets 412); revalidation (304); the audit trail of three edits.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newToken } from '../../src/api/http/auth.ts';
import { acquireLease } from '../../src/engine/control.ts';
import { getRecords } from '../../src/engine/records.ts';
import type { ServiceFull } from '../../src/hsds/index.ts';
import { generateDataset } from '../../src/synthetic/generate.ts';
import { expectProblem, getJson, getNdjson, getPage, type JsonObject } from '../support/api-requests.ts';
import { createTestApp, createTestEngine, dropTestIndices } from '../support/engine.ts';
import { createFeeds, type Feeds } from '../support/feeds.ts';
import { assertHsds } from '../support/hsds-validator.ts';

const engine = createTestEngine('write-api');
const writer = newToken('council-crm', ['write']);
const other = newToken('charity-sync', ['write']);
const adminOnly = newToken('ops', ['admin']);
const config = {
  API_TOKENS: [writer.entry, other.entry, adminOnly.entry].join(','),
  WRITE_MAX_BODY_BYTES: '20000',
};
let app: ReturnType<typeof createTestApp>;
let feeds: Feeds;
const dataset = generateDataset({ services: 12, seed: 'write-api' });
const services = JSON.parse(JSON.stringify([...dataset.services()])) as ServiceFull[];

const bearer = (token: string) => ({ authorization: `Bearer ${token}` });
const json = { 'content-type': 'application/json' };

function put(path: string, body: unknown, headers: Record<string, string> = bearer(writer.token)) {
  return app.request(path, { method: 'PUT', headers: { ...json, ...headers }, body: JSON.stringify(body) });
}
function del(path: string, headers: Record<string, string> = bearer(writer.token)) {
  return app.request(path, { method: 'DELETE', headers });
}
const read = async (path: string) => (await getJson(app, path)).body;
const etagOf = async (path: string) => (await app.request(path)).headers.get('etag');

beforeAll(async () => {
  app = createTestApp(engine, config);
  feeds = await createFeeds(engine, 'write');
  await feeds.importFile('feed.json', services);
});
afterAll(async () => {
  await feeds.remove();
  await dropTestIndices(engine);
});

describe('who may write', () => {
  it('refuses a write without a token, with an unknown token, and with a token lacking the scope; nothing changes', async () => {
    const service = services[0]!;
    const path = `/services/${service.id}`;
    const before = await etagOf(path);
    const edited = { ...(await read(path)), name: 'Unauthorised Name' };

    const none = await put(path, edited, {});
    expect(none.status).toBe(401);
    expect(none.headers.get('content-type')).toContain('application/problem+json');
    expect(none.headers.get('www-authenticate')).toMatch(/^Bearer realm="hsds"/);

    const wrong = await put(path, edited, bearer('not-a-configured-token'));
    expect(wrong.status).toBe(401);
    expect(wrong.headers.get('www-authenticate')).toContain('error="invalid_token"');

    const lacking = await put(path, edited, bearer(adminOnly.token));
    expect(lacking.status).toBe(403);
    expect(lacking.headers.get('www-authenticate')).toContain('error="insufficient_scope"');
    expect(((await lacking.json()) as { detail: string }).detail).toContain('write');

    expect((await del(path, bearer(adminOnly.token))).status).toBe(403);
    // The admin routes want the admin scope: a write token is refused there.
    const admin = await app.request('/admin/jobs/none', { headers: bearer(writer.token) });
    expect(admin.status).toBe(403);
    // An admin token passes (this test app runs no reindex jobs: 503).
    expect((await app.request('/admin/jobs/none', { headers: bearer(adminOnly.token) })).status).toBe(503);
    expect((await del(path, {})).status).toBe(401);
    expect(await etagOf(path)).toBe(before);
    expect((await read(path)).name).toBe(service.name);
  });

  it('refuses a body over WRITE_MAX_BODY_BYTES with 413', async () => {
    const service = services[0]!;
    const huge = { ...(await read(`/services/${service.id}`)), description: 'x'.repeat(30_000) };
    const res = await put(`/services/${service.id}`, huge);
    expect(res.status).toBe(413);
    expect((await read(`/services/${service.id}`)).description).toBe(service.description);
  });

  it('limits writes per token (WRITE_RATE_LIMIT a minute) with 429 and Retry-After', async () => {
    const limited = createTestApp(engine, { ...config, WRITE_RATE_LIMIT: '2' });
    const statuses: number[] = [];
    let last: Response | undefined;
    for (let i = 0; i < 3; i++) {
      last = await limited.request(`/services/${services[1]!.id}`, {
        method: 'PUT',
        headers: { ...json, ...bearer(other.token) },
        body: JSON.stringify({ id: services[1]!.id }),
      });
      statuses.push(last.status);
    }
    expect(statuses).toEqual([400, 400, 429]);
    expect(Number(last!.headers.get('retry-after'))).toBeGreaterThan(0);
    // The limit's own headers (IETF draft 7) on the refusal, as on the answers before it.
    expect(last!.headers.get('ratelimit-policy')).toBe('2;w=60');
    expect(last!.headers.get('ratelimit')).toMatch(/limit=2, remaining=0, reset=\d+/);
    // Another token has its own allowance.
    const own = await limited.request(`/services/${services[1]!.id}`, {
      method: 'PUT',
      headers: { ...json, ...bearer(writer.token) },
      body: JSON.stringify({ id: services[1]!.id }),
    });
    expect(own.status).toBe(400);
  });
});

describe('a body that breaks the schema', () => {
  it('answers 400 naming each field, as an import reports it, and writes nothing', async () => {
    const service = services[2]!;
    const path = `/services/${service.id}`;
    const before = await etagOf(path);
    const body = await read(path);
    // Two phones without the number HSDS requires: each is named (an import would skip them and
    // keep the service; a write is refused whole).
    const broken = {
      ...body,
      phones: [
        { id: 'a5b3c1d2-0000-4000-8000-000000000001', type: 'voice' },
        { id: 'a5b3c1d2-0000-4000-8000-000000000002', number: '01224 000000' },
        { id: 'a5b3c1d2-0000-4000-8000-000000000003' },
      ],
    };
    const res = await put(path, broken);
    expect(res.status).toBe(400);
    expect(res.headers.get('content-type')).toContain('application/problem+json');
    const problem = (await res.json()) as {
      errors: { parameter: string; in: string; kind: string; reason: string }[];
    };
    const fields = problem.errors.map((e) => e.parameter);
    expect(fields).toEqual(['phones[0].number', 'phones[2].number']);
    for (const error of problem.errors) {
      expect(error.in).toBe('body');
      expect(error.kind).toBe('invalid');
    }
    expect(await etagOf(path)).toBe(before);
    // A bad field of the record itself: named, with the value found.
    const status = await put(path, { ...body, status: 'sometimes' });
    expect(status.status).toBe(400);
    const statusProblem = (await status.json()) as { errors: { parameter: string; value?: string }[] };
    expect(statusProblem.errors[0]).toMatchObject({ parameter: 'status', value: 'string "sometimes"' });
    expect(await etagOf(path)).toBe(before);
  });

  it('refuses a body whose id is not the one in the path', async () => {
    const service = services[2]!;
    await expectProblem(app, `/services/${service.id}`, 400, 'id', {
      method: 'PUT',
      headers: { ...json, ...bearer(writer.token) },
      body: JSON.stringify({ ...(await read(`/services/${service.id}`)), id: services[3]!.id }),
    });
  });
});

describe('writes are served by every read endpoint when the answer comes', () => {
  it('creates a service (201, Location, ETag) seen by /services, search, /service_at_locations and its organization', async () => {
    const template = services[4]!;
    const id = '0b6f5a3e-1c2d-4e5f-8a9b-0c1d2e3f4a5b';
    const salId = '1c7a6b4f-2d3e-4f60-9b0c-1d2e3f4a5b6c';
    const body = {
      id,
      organization_id: template.organization_id,
      name: 'Quillwort Benefits Surgery',
      description: 'Help with benefit claims, by appointment.',
      status: 'active',
      phones: [{ id: '2d8b7c5a-3e4f-4a71-8c1d-2e3f4a5b6c7d', number: '01224 000111' }],
      service_at_locations: [
        { id: salId, service_id: id, location_id: template.service_at_locations![0]!.location_id },
      ],
    };
    const res = await put(`/services/${id}`, body);
    expect(res.status, await res.clone().text()).toBe(201);
    expect(res.headers.get('location')).toBe(`/services/${id}`);
    expect(res.headers.get('etag')).toBeTruthy();
    const created = (await res.json()) as JsonObject;
    assertHsds('service', created);
    expect(created.name).toBe('Quillwort Benefits Surgery');
    expect(typeof created.last_modified).toBe('string');
    expect(res.headers.get('etag')).toBe(await etagOf(`/services/${id}`));

    const search = await getPage(app, '/services?search=quillwort', 'service_list_item');
    expect(search.contents.map((s) => s.id)).toEqual([id]);
    const sal = await read(`/service_at_locations/${salId}`);
    expect((sal.service as JsonObject).name).toBe('Quillwort Benefits Surgery');
    const organization = await read(`/organizations/${template.organization_id}`);
    expect((organization.services as JsonObject[]).map((s) => s.id)).toContain(id);
  });

  it('replaces a service: new fields served, a phone the body no longer lists gone, its service_at_locations agree', async () => {
    const service = services[5]!;
    const path = `/services/${service.id}`;
    const current = await read(path);
    const phones = (current.phones as JsonObject[]) ?? [];
    const kept = { id: '3e9c8d6b-4f50-4b82-9d2e-3f4a5b6c7d8e', number: '0800 123 4567' };
    const res = await put(path, { ...current, name: 'Renamed By The Council', phones: [kept] });
    expect(res.status, await res.clone().text()).toBe(200);
    const after = await read(path);
    assertHsds('service', after);
    expect(after.name).toBe('Renamed By The Council');
    expect((after.phones as JsonObject[]).map((p) => p.id)).toEqual([kept.id]);
    for (const phone of phones) expect(JSON.stringify(after)).not.toContain(phone.id as string);
    // The audit says what the write took away and what it added, field by field.
    const trail = (await read(`${path}?audit=last`)).metadata as JsonObject[];
    const actions = (id: unknown) =>
      new Set(trail.filter((m) => m.resource_id === id).map((m) => m.last_action_type));
    expect(phones.length).toBeGreaterThan(0);
    for (const phone of phones) expect(actions(phone.id)).toEqual(new Set(['delete']));
    expect(actions(kept.id)).toEqual(new Set(['create']));
    expect(actions(service.id)).toEqual(new Set(['update']));
    for (const sal of service.service_at_locations ?? []) {
      expect(((await read(`/service_at_locations/${sal.id}`)).service as JsonObject).name).toBe(
        'Renamed By The Council',
      );
    }
    // A collection the body leaves out stays.
    const { schedules: _, ...withoutSchedules } = after;
    expect((await put(path, { ...withoutSchedules, name: 'Renamed Again' })).status).toBe(200);
    expect((await read(path)).schedules).toEqual(after.schedules);
  });

  it('deletes a service: 204, then 404 everywhere, and a tombstone in the change feed; a second delete is 404', async () => {
    const service = services[6]!;
    const since = new Date(Date.now() - 60_000).toISOString();
    expect((await del(`/services/${service.id}`)).status).toBe(204);
    expect((await app.request(`/services/${service.id}`)).status).toBe(404);
    for (const sal of service.service_at_locations ?? []) {
      expect((await app.request(`/service_at_locations/${sal.id}`)).status).toBe(404);
    }
    const feed = await getNdjson(
      app,
      `/services?modified_after=${encodeURIComponent(since)}&include_deleted=true&format=ndjson`,
    );
    expect(feed.find((s) => s.id === service.id)?.deleted).toBe(true);
    expect((await del(`/services/${service.id}`)).status).toBe(404);
  });

  it('writes an organization, a service_at_location, a taxonomy and a taxonomy term, and deletes them', async () => {
    const organizationId = services[7]!.organization_id!;
    // The GET shape sent back as is: its brief `services` are read-only and leave the services whole.
    const organization = await read(`/organizations/${organizationId}`);
    const before = await read(`/services/${services[7]!.id}`);
    const orgRes = await put(`/organizations/${organizationId}`, {
      ...organization,
      description: 'Edited through the API.',
    });
    expect(orgRes.status, await orgRes.clone().text()).toBe(200);
    // The answer's ETag is the next GET's (an organization is served with its services, brief).
    expect(orgRes.headers.get('etag')).toBe(await etagOf(`/organizations/${organizationId}`));
    expect((await read(`/organizations/${organizationId}`)).description).toBe('Edited through the API.');
    const ofService = await read(`/services/${services[7]!.id}`);
    expect((ofService.organization as JsonObject).description).toBe('Edited through the API.');
    expect({ ...ofService, organization: null }).toEqual({ ...before, organization: null });

    const sal = services[8]!.service_at_locations![0]!;
    const salBody = await read(`/service_at_locations/${sal.id}`);
    const salRes = await put(`/service_at_locations/${sal.id}`, {
      ...salBody,
      description: 'Ring the bell.',
    });
    expect(salRes.status, await salRes.clone().text()).toBe(200);
    expect(salRes.headers.get('etag')).toBe(await etagOf(`/service_at_locations/${sal.id}`));
    expect((await read(`/service_at_locations/${sal.id}`)).description).toBe('Ring the bell.');

    const taxonomyId = '4fad9e7c-5061-4c93-ae3f-4a5b6c7d8e9f';
    const termId = '50be0f8d-6172-4da4-bf40-5b6c7d8e9f00';
    const taxRes = await put(`/taxonomies/${taxonomyId}`, {
      id: taxonomyId,
      name: 'Council Needs',
      description: 'The council’s own needs list.',
      uri: 'https://example.org/needs',
    });
    expect(taxRes.status, await taxRes.clone().text()).toBe(201);
    const termRes = await put(`/taxonomy_terms/${termId}`, {
      id: termId,
      name: 'Winter fuel',
      description: 'Help with heating costs.',
      taxonomy_id: taxonomyId,
      code: 'WF',
    });
    expect(termRes.status, await termRes.clone().text()).toBe(201);
    expect(termRes.headers.get('etag')).toBe(await etagOf(`/taxonomy_terms/${termId}`));
    expect(taxRes.headers.get('etag')).toBe(await etagOf(`/taxonomies/${taxonomyId}`));
    const term = await read(`/taxonomy_terms/${termId}`);
    assertHsds('taxonomy_term', term);
    expect(term.name).toBe('Winter fuel');
    const terms = await getPage(app, `/taxonomy_terms?taxonomy_id=${taxonomyId}`, 'taxonomy_term');
    expect(terms.contents.map((t) => t.id)).toEqual([termId]);

    expect((await del(`/taxonomy_terms/${termId}`)).status).toBe(204);
    expect((await app.request(`/taxonomy_terms/${termId}`)).status).toBe(404);
    expect((await del(`/taxonomies/${taxonomyId}`)).status).toBe(204);
    expect((await app.request(`/taxonomies/${taxonomyId}`)).status).toBe(404);
    expect((await del(`/service_at_locations/${sal.id}`)).status).toBe(204);
    expect((await app.request(`/service_at_locations/${sal.id}`)).status).toBe(404);
    const service = await read(`/services/${services[8]!.id}`);
    expect(((service.service_at_locations as JsonObject[]) ?? []).map((s) => s.id)).not.toContain(sal.id);
    // An organization deleted takes its services along.
    const newOrg = '61cf1a9e-7283-4eb5-8051-6c7d8e9f0011';
    const newService = '72d02baf-8394-4fc6-9162-7d8e9f001122';
    expect(
      (
        await put(`/organizations/${newOrg}`, {
          id: newOrg,
          name: 'Short-Lived Trust',
          description: 'Gone soon.',
        })
      ).status,
    ).toBe(201);
    expect(
      (
        await put(`/services/${newService}`, {
          id: newService,
          organization_id: newOrg,
          name: 'Short-Lived Service',
          status: 'active',
        })
      ).status,
    ).toBe(201);
    expect((await del(`/organizations/${newOrg}`)).status).toBe(204);
    expect((await app.request(`/organizations/${newOrg}`)).status).toBe(404);
    expect((await app.request(`/services/${newService}`)).status).toBe(404);
  });
});

describe('concurrency and HTTP caching', () => {
  it('answers 304 to a revalidation with the ETag, or with If-Modified-Since', async () => {
    const path = `/services/${services[9]!.id}`;
    const first = await app.request(path);
    const tag = first.headers.get('etag')!;
    expect(tag).toMatch(/^"[\w-]+"$/);
    expect(first.headers.get('last-modified')).toBeTruthy();
    expect(first.headers.get('cache-control')).toContain('must-revalidate');
    const again = await app.request(path, { headers: { 'if-none-match': tag } });
    expect(again.status).toBe(304);
    expect(await again.text()).toBe('');
    expect((await app.request(path, { headers: { 'if-none-match': '"other"' } })).status).toBe(200);
    const since = await app.request(path, {
      headers: { 'if-modified-since': first.headers.get('last-modified')! },
    });
    expect(since.status).toBe(304);
    expect((await app.request('/services')).headers.get('cache-control')).toBe('public, max-age=60');
  });

  it('lets one of two writers holding the same ETag write; the other gets 412 and changes nothing', async () => {
    const path = `/services/${services[10]!.id}`;
    const tag = (await etagOf(path))!;
    const body = await read(path);
    const [a, b] = await Promise.all([
      put(path, { ...body, name: 'Writer A' }, { ...bearer(writer.token), 'if-match': tag }),
      put(path, { ...body, name: 'Writer B' }, { ...bearer(other.token), 'if-match': tag }),
    ]);
    expect([a.status, b.status].sort()).toEqual([200, 412]);
    const winner = a.status === 200 ? 'Writer A' : 'Writer B';
    expect((await read(path)).name).toBe(winner);
    const loser = a.status === 412 ? a : b;
    expect(loser.headers.get('content-type')).toContain('application/problem+json');
    // If-None-Match: * creates only.
    expect((await put(path, body, { ...bearer(writer.token), 'if-none-match': '*' })).status).toBe(412);
    expect((await read(path)).name).toBe(winner);
  });
});

describe('a record the body holds twice', () => {
  it('refuses two copies that differ (an edit made in one place of the GET shape), naming both; the same edit in both is written', async () => {
    const path = `/services/${services[2]!.id}`;
    const body = await read(path);
    const sal = (body.service_at_locations as JsonObject[])[0]!;
    const location = sal.location as JsonObject;
    const organization = body.organization as JsonObject | undefined;
    const copies = ((organization?.locations as JsonObject[] | undefined) ?? []).filter(
      (l) => l.id === location.id,
    );
    // The GET shape holds the location twice: under the service_at_location and the organization.
    expect(copies).toHaveLength(1);
    const renamed = (name: string, both: boolean) => ({
      ...body,
      service_at_locations: [{ ...sal, location: { ...location, name } }],
      organization: {
        ...organization,
        locations: (organization!.locations as JsonObject[]).map((l) =>
          both && l.id === location.id ? { ...l, name } : l,
        ),
      },
    });
    const problem = await expectProblem(app, path, 400, undefined, {
      method: 'PUT',
      headers: { ...json, ...bearer(writer.token) },
      body: JSON.stringify(renamed('Edited In One Place', false)),
    });
    const errors = (problem as { errors?: { parameter?: string; reason?: string }[] }).errors ?? [];
    expect(errors.map((e) => e.reason).join(' ')).toMatch(
      /is also at service_at_locations\[0\]\.location with other content/,
    );
    expect(((await read(path)).service_at_locations as JsonObject[])[0]!.location).toEqual(location);

    const written = await put(path, renamed('Edited In Both Places', true));
    expect(written.status, await written.clone().text()).toBe(200);
    const served = (await read(path)).service_at_locations as JsonObject[];
    expect((served.find((x) => x.id === sal.id)!.location as JsonObject).name).toBe('Edited In Both Places');
  });
});

describe('a record listed twice with the same content', () => {
  it('keeps the parents of both copies: a phone of the service and of its contact is served under both', async () => {
    const path = `/services/${services[3]!.id}`;
    const body = await read(path);
    const phone = { id: '8de1324a-94a5-4fd7-a273-8e9fa0b1c2d3', number: '01224 333444' };
    const contact = { id: '9ef2435b-a5b6-4fe8-b384-9fa0b1c2d3e4', name: 'Duty desk', phones: [phone] };
    const res = await put(path, { ...body, phones: [phone], contacts: [contact] });
    expect(res.status, await res.clone().text()).toBe(200);
    const served = await read(path);
    assertHsds('service', served);
    expect((served.phones as JsonObject[]).map((p) => p.id)).toEqual([phone.id]);
    const contacts = served.contacts as JsonObject[];
    expect(contacts.map((c) => c.id)).toEqual([contact.id]);
    expect((contacts[0]!.phones as JsonObject[]).map((p) => p.id)).toEqual([phone.id]);
  });
});

describe('concurrent writes without preconditions (one writer per record, lease across processes)', () => {
  it('two PUTs of one record both answer 200 with their own version; the record served is one of them whole', async () => {
    const path = `/services/${services[7]!.id}`;
    const body = await read(path);
    const phones = (body.phones as JsonObject[]) ?? [];
    const version = (name: string, number: string) => ({
      ...body,
      name,
      phones: phones.slice(0, 1).map((p) => ({ ...p, number })),
    });
    const [a, b] = await Promise.all([
      put(path, version('Concurrent A', '01224 111111')),
      put(path, version('Concurrent B', '01224 222222'), bearer(other.token)),
    ]);
    expect([a.status, b.status]).toEqual([200, 200]);
    const answers = [(await a.json()) as JsonObject, (await b.json()) as JsonObject];
    expect(answers.map((x) => x.name).sort()).toEqual(['Concurrent A', 'Concurrent B']);
    for (const answer of answers) {
      const number = answer.name === 'Concurrent A' ? '01224 111111' : '01224 222222';
      expect((answer.phones as JsonObject[]).map((p) => p.number)).toEqual(phones.length > 0 ? [number] : []);
    }
    // Served: the later write whole, never one's name with the other's phone.
    const served = await read(path);
    const later = answers.find((x) => x.name === served.name)!;
    expect(served.phones).toEqual(later.phones);
    const trail = (await read(`${path}?audit=all`)).metadata as JsonObject[];
    expect(new Set(trail.map((m) => m.updated_by))).toEqual(new Set(['council-crm', 'charity-sync']));
  });

  it('two PUTs of services sharing a location, each renaming it: both served, the location one name everywhere', async () => {
    const [first, second] = [services[8]!, services[11]!];
    const bodies = await Promise.all([first, second].map((s) => read(`/services/${s.id}`)));
    const location = (bodies[0]!.service_at_locations as JsonObject[])[0]!.location as JsonObject;
    const at = (x: JsonObject) => (x.location as JsonObject | undefined)?.id ?? x.location_id;
    const salIds = ['4fad9e7c-5061-4c93-ae3f-4a5b6c7d8e9f', '5abe0f8d-6172-4da4-bf40-5b6c7d8e9fa0'];
    const writes = [first, second].map((service, i) => {
      const name = `Shared Hall ${'AB'[i]}`;
      const sal = {
        id: salIds[i],
        service_id: service.id,
        location_id: location.id,
        location: { ...location, name },
      };
      // Without the nested organization: its `locations` hold the location too, and a body whose
      // two copies of a record differ is refused (see 'a record the body holds twice').
      const { organization: _, ...body } = bodies[i]!;
      return put(
        `/services/${service.id}`,
        {
          ...body,
          service_at_locations: [
            ...((body.service_at_locations as JsonObject[]) ?? []).filter(
              (x) => x.location_id !== location.id,
            ),
            sal,
          ],
        },
        bearer(i === 0 ? writer.token : other.token),
      );
    });
    const answers = await Promise.all(writes);
    for (const res of answers) expect(res.status, await res.clone().text()).toBe(200);
    const names = await Promise.all(
      salIds.map(async (id) => ((await read(`/service_at_locations/${id}`)).location as JsonObject).name),
    );
    expect(names[0]).toBe(names[1]);
    expect(['Shared Hall A', 'Shared Hall B']).toContain(names[0]);
    for (const service of [first, second]) {
      const served = await read(`/services/${service.id}`);
      const atShared = (served.service_at_locations as JsonObject[]).filter((x) => at(x) === location.id);
      expect(atShared.map((x) => (x.location as JsonObject).name)).toEqual(atShared.map(() => names[0]));
    }
  });

  it('a service naming an organization nobody holds is served with a placeholder organization', async () => {
    const id = '6bcf109e-7283-4eb5-8051-6c7d8e9fa0b1';
    const organizationId = '7cd0210f-8394-4fc6-9162-7d8e9fa0b1c2';
    const res = await put(`/services/${id}`, {
      id,
      organization_id: organizationId,
      name: 'Larkspur Tenancy Advice',
      status: 'active',
    });
    expect(res.status, await res.clone().text()).toBe(201);
    const organization = await read(`/organizations/${organizationId}`);
    assertHsds('organization', organization);
    expect(organization.name).toBe('Unknown organization');
    expect((organization.services as JsonObject[]).map((s) => s.id)).toEqual([id]);
  });
});

describe('the audit trail', () => {
  it('records three edits field by field, with who made them; ?audit=last and ?audit=all', async () => {
    const service = services[11]!;
    const path = `/services/${service.id}`;
    const original = await read(path);
    await put(path, { ...original, name: 'Edit One' });
    await put(
      path,
      { ...(await read(path)), name: 'Edit Two', email: 'two@example.org' },
      bearer(other.token),
    );
    await put(path, { ...(await read(path)), description: 'Edit three.' });

    const plain = await read(path);
    expect(JSON.stringify(plain.metadata ?? [])).not.toContain('Edit One');
    const all = await read(`${path}?audit=all`);
    assertHsds('service', all);
    const trail = (all.metadata as JsonObject[]).filter((m) => m.resource_id === service.id);
    const changes = trail.map((m) => [m.updated_by, m.field_name, m.previous_value, m.replacement_value]);
    expect(changes).toEqual([
      ['council-crm', 'description', original.description, 'Edit three.'],
      ['charity-sync', 'email', original.email ?? '', 'two@example.org'],
      ['charity-sync', 'name', 'Edit One', 'Edit Two'],
      ['council-crm', 'name', original.name, 'Edit One'],
    ]);
    for (const entry of trail) {
      expect(entry.resource_type).toBe('service');
      expect(entry.last_action_type).toBe('update');
      expect(Number.isNaN(Date.parse(entry.last_action_date as string))).toBe(false);
    }
    const last = await read(`${path}?audit=last`);
    expect(
      (last.metadata as JsonObject[]).filter((m) => m.resource_id === service.id).map((m) => m.field_name),
    ).toEqual(['description']);
    await expectProblem(app, `${path}?audit=some`, 400, 'audit');
  });
});

describe('reliability: preconditions, bodies, limits (issue 35)', () => {
  // An app taking bodies up to the default WRITE_MAX_BODY_BYTES (1 MB), as a server does.
  const roomy = () => createTestApp(engine, { API_TOKENS: config.API_TOKENS });
  const putText = (target: ReturnType<typeof createTestApp>, path: string, body: string | Uint8Array) =>
    target.request(path, { method: 'PUT', headers: { ...json, ...bearer(writer.token) }, body });
  type Problem = {
    detail: string;
    errors: { parameter: string; reason: string }[];
    errors_total?: number;
  };

  it('compares If-Match strongly: a weak tag of the current version gets 412; If-None-Match stays weak', async () => {
    const path = `/services/${services[3]!.id}`;
    const tag = (await etagOf(path))!;
    const body = await read(path);
    const weak = await put(
      path,
      { ...body, name: 'Weakly Matched' },
      { ...bearer(writer.token), 'if-match': `W/${tag}` },
    );
    expect(weak.status).toBe(412);
    expect(await etagOf(path)).toBe(tag);
    // A revalidation compares weakly (RFC 9110 13.1.2): a weak copy of the same tag is current.
    expect((await app.request(path, { headers: { 'if-none-match': `W/${tag}` } })).status).toBe(304);
    const strong = await put(
      path,
      { ...body, name: 'Strongly Matched' },
      { ...bearer(writer.token), 'if-match': tag },
    );
    expect(strong.status, await strong.clone().text()).toBe(200);
    // The answer's ETag is the one the next GET gives.
    expect(strong.headers.get('etag')).toBe(await etagOf(path));
    expect(strong.headers.get('etag')).not.toBe(tag);
  });

  it('answers a body of 240,000 empty phones at once with a small problem, and writes nothing', async () => {
    const path = `/services/${services[0]!.id}`;
    const before = await etagOf(path);
    const body = JSON.stringify({
      ...(await read(path)),
      phones: Array.from({ length: 240_000 }, () => ({})),
    });
    expect(body.length).toBeGreaterThan(700_000);
    const started = performance.now();
    const res = await putText(roomy(), path, body);
    const text = await res.text();
    const ms = performance.now() - started;
    expect(res.status, text.slice(0, 500)).toBe(413);
    expect(res.headers.get('content-type')).toContain('application/problem+json');
    expect(text.length).toBeLessThan(4096);
    expect((JSON.parse(text) as Problem).detail).toMatch(/more than 10000 array elements/);
    expect(ms).toBeLessThan(1500);
    // Nested 200,000 deep (400 KB): refused before anything recurses into it (it was a 500).
    const deep = `{"id":"${services[0]!.id}","phones":${'['.repeat(200_000)}${']'.repeat(200_000)}}`;
    const deepRes = await putText(roomy(), path, deep);
    expect(deepRes.status).toBe(400);
    expect(((await deepRes.json()) as Problem).detail).toContain('deeper than 64 levels');
    expect(await etagOf(path)).toBe(before);
  });

  it('lists at most 100 errors of a body, with errors_total and how many more in detail', async () => {
    const path = `/services/${services[0]!.id}`;
    const before = await etagOf(path);
    // 250 phones without an id or a number: two errors each.
    const body = { ...(await read(path)), phones: Array.from({ length: 250 }, () => ({ type: 'voice' })) };
    const res = await putText(roomy(), path, JSON.stringify(body));
    expect(res.status).toBe(400);
    const problem = (await res.json()) as Problem;
    expect(problem.errors).toHaveLength(100);
    expect(problem.errors_total).toBe(500);
    expect(problem.detail).toContain('and 400 more');
    expect(problem.detail.length).toBeLessThan(20_000);
    expect(await etagOf(path)).toBe(before);
  });

  it('counts WRITE_RATE_LIMIT per token across every write route, PUT and DELETE', async () => {
    const limited = createTestApp(engine, { ...config, WRITE_RATE_LIMIT: '2' });
    const as = { ...json, ...bearer(other.token) };
    const statuses = [
      (
        await limited.request(`/services/${services[1]!.id}`, {
          method: 'PUT',
          headers: as,
          body: JSON.stringify({ id: services[1]!.id }),
        })
      ).status,
      (
        await limited.request(`/organizations/${services[1]!.organization_id}`, {
          method: 'PUT',
          headers: as,
          body: JSON.stringify({ id: services[1]!.organization_id }),
        })
      ).status,
      (
        await limited.request('/taxonomies/83e13cb0-94a5-4fd7-a273-8e9f00112233', {
          method: 'DELETE',
          headers: as,
        })
      ).status,
    ];
    expect(statuses).toEqual([400, 400, 429]);
  });

  it('refuses __proto__ and constructor keys with a 400 naming where they are; nothing is written', async () => {
    const path = `/services/${services[0]!.id}`;
    const before = await etagOf(path);
    const body = await read(path);
    // JSON text, as a client sends it: an object literal with __proto__ would set a prototype instead.
    const polluted = JSON.stringify({ ...body, name: 'Polluted' }).replace(
      /^\{/,
      '{"__proto__":{"polluted":"yes"},',
    );
    const res = await putText(app, path, polluted);
    expect(res.status, (await res.clone().text()).slice(0, 300)).toBe(400);
    const problem = (await res.json()) as Problem;
    expect(problem.errors.map((e) => e.parameter)).toEqual(['__proto__']);
    const nested = {
      ...body,
      phones: [{ id: 'a5b3c1d2-0000-4000-8000-0000000000aa', number: '1', constructor: 'x' }],
    };
    const second = await putText(app, path, JSON.stringify(nested));
    expect(second.status).toBe(400);
    expect(((await second.json()) as Problem).errors.map((e) => e.parameter)).toEqual([
      'phones[0].constructor',
    ]);
    expect(await etagOf(path)).toBe(before);
    expect((await read(path)).polluted).toBeUndefined();
  });

  it('refuses a body that is not UTF-8 with a 400 naming the byte offset of the first invalid byte', async () => {
    const path = `/services/${services[0]!.id}`;
    const before = await etagOf(path);
    const [head, tail] = JSON.stringify({ ...(await read(path)), name: 'Café MARK' }).split('MARK') as [
      string,
      string,
    ];
    const bytes = Buffer.concat([Buffer.from(head), Buffer.from([0xff]), Buffer.from(tail)]);
    const offset = Buffer.byteLength(head);
    const res = await putText(app, path, bytes);
    expect(res.status, (await res.clone().text()).slice(0, 300)).toBe(400);
    expect(res.headers.get('content-type')).toContain('application/problem+json');
    const problem = (await res.json()) as Problem;
    expect(problem.detail).toContain(`byte ${offset}`);
    expect(problem.errors[0]).toMatchObject({ parameter: '(body)' });
    expect(await etagOf(path)).toBe(before);
  });

  it('answers 503 with Retry-After when a write waits for a publish beyond WRITE_QUEUE_WAIT_MS; nothing is written', async () => {
    const service = services[0]!;
    const path = `/services/${service.id}`;
    const before = await etagOf(path);
    const body = await read(path);
    const waiting = createTestApp(engine, { ...config, WRITE_QUEUE_WAIT_MS: '1000' });
    // An import publishing: it holds the publish lease.
    const lease = await acquireLease(engine, 'publish', { purpose: 'publish changes' });
    let res: Response | undefined;
    const started = Date.now();
    try {
      res = await Promise.race([
        putText(waiting, path, JSON.stringify({ ...body, name: 'Waited Too Long' })),
        new Promise<undefined>((resolve) => setTimeout(() => resolve(undefined), 10_000)),
      ]);
    } finally {
      await lease.release();
    }
    expect(res?.status).toBe(503);
    expect(Date.now() - started).toBeLessThan(5000);
    expect(Number(res!.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(((await res!.json()) as Problem).detail).toContain('publish');
    // Nothing stored either (a stored write would be published by the next publish).
    const stored = await getRecords(engine, [`service:${service.id}`]);
    expect(stored.get(`service:${service.id}`)?.record.name).toBe(service.name);
    expect(await etagOf(path)).toBe(before);
  });
});
