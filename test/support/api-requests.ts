/**
 * Requests to an app under test, and the checks every list response must pass: the Page rules of
 * src/api/lists/paging.ts and the official HSDS schemas.
 */
import { expect } from 'vitest';
import type { PageEnvelope } from '../../src/api/lists/paging.ts';
import type { App } from '../../src/api/types.ts';
import { assertHsdsPage, type HsdsShape } from './hsds-validator.ts';

export type JsonObject = Record<string, unknown>;

export type Page = PageEnvelope<JsonObject>;

export async function getJson<T = JsonObject>(
  app: App,
  url: string,
  init?: RequestInit,
): Promise<{ status: number; body: T; contentType: string }> {
  const res = await app.request(url, init);
  const contentType = res.headers.get('content-type') ?? '';
  const text = await res.text();
  let body: T;
  try {
    body = JSON.parse(text) as T;
  } catch {
    throw new Error(`${url}: ${res.status} ${contentType} is not JSON: ${text.slice(0, 300)}`);
  }
  return { status: res.status, body, contentType };
}

/** A 200 page, checked against the Page rules and the official schemas. */
export async function getPage(
  app: App,
  url: string,
  itemShape: Exclude<HsdsShape, 'page'> | null,
  init?: RequestInit,
  profile: 'hsds' | 'oruk' = 'hsds',
): Promise<Page> {
  const { status, body, contentType } = await getJson<Page & { detail?: string }>(app, url, init);
  if (status !== 200) throw new Error(`${url}: ${status} ${body.detail ?? JSON.stringify(body)}`);
  expect(contentType).toContain('application/json');
  checkPageRules(body);
  if (itemShape) assertHsdsPage(itemShape, body, profile);
  return body;
}

/** The Page rules that can be checked from one page. */
export function checkPageRules(page: Page): void {
  expect(page.size).toBe(page.contents.length);
  expect(page.empty).toBe(page.contents.length === 0);
  expect(page.first_page).toBe(page.page_number === 1);
  expect(page.last_page).toBe(page.page_number >= page.total_pages);
  if (page.page_number < page.total_pages) expect(page.size).toBeGreaterThan(0);
}

/** Every page of a list, checking across pages: full pages until the last, exact totals, no repeats. */
export async function allPages(
  app: App,
  path: string,
  perPage: number,
  itemShape: Exclude<HsdsShape, 'page'> | null,
): Promise<{ items: JsonObject[]; pages: Page[] }> {
  const items: JsonObject[] = [];
  const pages: Page[] = [];
  const join = path.includes('?') ? '&' : '?';
  for (let page = 1; ; page++) {
    const body = await getPage(app, `${path}${join}page=${page}&per_page=${perPage}`, itemShape);
    pages.push(body);
    expect(body.page_number).toBe(page);
    expect(body.total_items).toBe(pages[0]?.total_items);
    expect(body.total_pages).toBe(Math.ceil(body.total_items / perPage));
    if (!body.last_page) expect(body.size).toBe(perPage);
    items.push(...body.contents);
    if (body.last_page) break;
    if (page > 10_000) throw new Error('runaway paging');
  }
  expect(items).toHaveLength(pages[0]?.total_items ?? 0);
  expect(new Set(items.map((i) => i.id)).size).toBe(items.length);
  return { items, pages };
}

/** Every line of an NDJSON response. */
export async function getNdjson(app: App, url: string, init?: RequestInit): Promise<JsonObject[]> {
  const res = await app.request(url, init);
  const text = await res.text();
  if (res.status !== 200) throw new Error(`${url}: ${res.status} ${text.slice(0, 300)}`);
  expect(res.headers.get('content-type')).toBe('application/x-ndjson');
  if (text === '') return [];
  expect(text.endsWith('\n')).toBe(true);
  return text
    .slice(0, -1)
    .split('\n')
    .map((line) => JSON.parse(line) as JsonObject);
}

/** A problem+json answer naming the parameter. */
export async function expectProblem(
  app: App,
  url: string,
  status: number,
  parameter?: string,
  init?: RequestInit,
) {
  const {
    status: actual,
    body,
    contentType,
  } = await getJson<{
    status: number;
    errors?: { parameter: string }[];
  }>(app, url, init);
  expect({ url, status: actual }).toEqual({ url, status });
  expect(contentType).toContain('application/problem+json');
  expect(body.status).toBe(status);
  if (parameter) expect(body.errors?.map((e) => e.parameter)).toContain(parameter);
  return body;
}

const byId = (a: JsonObject, b: JsonObject) => String(a.id).localeCompare(String(b.id));

/** Items sorted by id: to compare sets of records whatever their order. */
export const sortedById = (items: JsonObject[]) => [...items].sort(byId);
