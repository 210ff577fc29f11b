/**
 * Operator synonym rules (/admin/vocabulary/rules) on the real engine: a rule added by an
 * administrator turns a search that found nothing into a hit at once, with no reindex; it is
 * stored in the engine, so a later full build (a reindex) searches with it too; deleting it serves
 * the vocabulary without it; a bad rule and a missing token are refused with problem+json.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { getJson, getPage } from '../support/api-requests.ts';
import { createTestApp, createTestEngine, dropTestIndices } from '../support/engine.ts';
import { fixtureService, seedReadIndices } from '../support/seed.ts';

const TOKEN = 'vocabulary-rules-admin-token-0123456789';
const engine = createTestEngine('vocabulary-rules');
const app = createTestApp(engine, { ADMIN_TOKEN: TOKEN });
const admin = { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json' };

const services = [
  fixtureService('Harbour Food Bank', 'Emergency parcels for people in crisis.', {
    name: 'Harbour Trust',
    description: 'A charity.',
  }),
];
// A word no shipped rule knows: nothing is found for it until an operator says what it means.
const TYPED = 'scran parcels';

beforeAll(() => seedReadIndices(engine, { services }));
afterAll(() => dropTestIndices(engine));

async function found(search: string): Promise<number> {
  const page = await getPage(app, `/services?search=${encodeURIComponent(search)}&per_page=5`, null);
  return page.total_items as number;
}

const addRule = (rule: unknown, headers: Record<string, string> = admin) =>
  app.request('/admin/vocabulary/rules', { method: 'POST', headers, body: JSON.stringify({ rule }) });

describe('operator vocabulary rules', () => {
  let id: string;

  it('turns a zero-result search into a hit at once, without a reindex', async () => {
    expect(await found(TYPED)).toBe(0);
    const response = await addRule('scran  ,grub => food bank');
    expect(response.status).toBe(201);
    const body = (await response.json()) as { id: string; rule: string; served: boolean };
    expect(body).toMatchObject({ rule: 'scran, grub => food bank', served: true });
    expect(response.headers.get('location')).toBe(`/admin/vocabulary/rules/${body.id}`);
    id = body.id;
    expect(await found(TYPED)).toBe(1);

    const { status, body: listed } = await getJson<{ rules: { id: string; rule: string }[] }>(
      app,
      '/admin/vocabulary/rules',
      { headers: admin },
    );
    expect(status).toBe(200);
    expect(listed.rules.map((r) => [r.id, r.rule])).toEqual([[id, 'scran, grub => food bank']]);
  }, 60_000);

  it('is kept by a full rebuild of the indices (a reindex)', async () => {
    await seedReadIndices(engine, { services });
    expect(await found(TYPED)).toBe(1);
  }, 60_000);

  it('is removed by a delete, and the search finds nothing again', async () => {
    const response = await app.request(`/admin/vocabulary/rules/${id}`, { method: 'DELETE', headers: admin });
    expect(response.status).toBe(204);
    expect(await found(TYPED)).toBe(0);
    const again = await app.request(`/admin/vocabulary/rules/${id}`, { method: 'DELETE', headers: admin });
    expect(again.status).toBe(404);
    expect(again.headers.get('content-type')).toContain('application/problem+json');
  }, 60_000);

  it('refuses a bad rule with 400 naming the reason, and stores nothing', async () => {
    for (const [rule, reason] of [
      ['a => b => c', 'more than one "=>"'],
      ['lonely', 'one term alone says nothing'],
      ['a, , b', 'an empty term'],
      ['# a comment', 'a rule is needed'],
      ['a, b\nc, d', 'one rule, not several lines'],
    ]) {
      const response = await addRule(rule);
      expect(response.status, rule).toBe(400);
      expect(response.headers.get('content-type')).toContain('application/problem+json');
      const problem = (await response.json()) as { detail: string; errors: { parameter: string }[] };
      expect(problem.detail, rule).toContain(reason);
      expect(problem.errors.map((e) => e.parameter)).toEqual(['rule']);
    }
    expect((await addRule(42)).status).toBe(400);
    const { body } = await getJson<{ rules: unknown[] }>(app, '/admin/vocabulary/rules', { headers: admin });
    expect(body.rules).toEqual([]);
  });

  it('needs the admin token', async () => {
    expect((await addRule('scran => food bank', { 'content-type': 'application/json' })).status).toBe(401);
    expect((await app.request('/admin/vocabulary/rules')).status).toBe(401);
    expect((await app.request('/admin/vocabulary/rules/x', { method: 'DELETE' })).status).toBe(401);
  });

  it('answers 503 when the engine is down', async () => {
    const down = createTestApp(createTestEngine('vocabulary-rules-down', 'http://127.0.0.1:9'), {
      ADMIN_TOKEN: TOKEN,
    });
    const response = await down.request('/admin/vocabulary/rules', { headers: admin });
    expect(response.status).toBe(503);
    expect(response.headers.get('content-type')).toContain('application/problem+json');
  }, 60_000);
});
