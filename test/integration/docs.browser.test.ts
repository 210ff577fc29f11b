/**
 * `/docs` in a real Chromium (playwright-core, the system's browser) with every request that
 * does not go to this server aborted, as on a machine without the internet: the reference must
 * still show the API's operations, load nothing from elsewhere and break no CSP rule.
 */
import type { AddressInfo } from 'node:net';
import { type ServerType, serve } from '@hono/node-server';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chromiumForTests, launchChromium } from '../support/browser.ts';
import { createTestApp, createTestEngine, dropTestIndices } from '../support/engine.ts';

const chromium = chromiumForTests();

describe.skipIf(!chromium)('/docs in a browser without the internet', () => {
  const engine = createTestEngine('docs-browser');
  const app = createTestApp(engine);
  let server: ServerType;
  let base: string;
  let browser: Browser;

  beforeAll(async () => {
    base = await new Promise<string>((resolve) => {
      server = serve({ fetch: app.fetch, port: 0, hostname: '127.0.0.1' }, (info: AddressInfo) =>
        resolve(`http://127.0.0.1:${info.port}`),
      );
    });
    browser = await launchChromium(chromium!);
  }, 60_000);

  afterAll(async () => {
    await browser?.close();
    server?.close();
    await dropTestIndices(engine);
  });

  it('renders every operation of the OpenAPI document, fetching nothing but this server', async () => {
    const context = await browser.newContext();
    const elsewhere: string[] = [];
    await context.route('**', (route) => {
      const url = new URL(route.request().url());
      if (url.hostname === '127.0.0.1') return route.continue();
      elsewhere.push(url.href);
      return route.abort('internetdisconnected');
    });
    const page = await context.newPage();
    const problems: string[] = [];
    page.on('pageerror', (error) => problems.push(error.message));
    page.on('console', (message) => {
      if (message.type() === 'error') problems.push(message.text());
    });
    const response = await page.goto(`${base}/docs`, { waitUntil: 'load' });
    expect(response?.status()).toBe(200);

    const document = (await (await fetch(`${base}/openapi.json`)).json()) as {
      paths: Record<string, Record<string, { operationId: string }>>;
    };
    const operations = Object.entries(document.paths).flatMap(([path, item]) =>
      Object.keys(item).map((method) => `${method.toUpperCase()} ${path}`),
    );
    expect(operations.length).toBeGreaterThan(5);
    const main = page.locator('main');
    const shown = await main
      .locator('.operation h3')
      .evaluateAll((headings) => headings.map((h) => (h.textContent ?? '').replace(/\s+/g, ' ').trim()));
    expect(new Set(shown)).toEqual(new Set(operations));
    await expect.poll(() => main.getByText('per_page', { exact: true }).count()).toBeGreaterThan(0);
    // The inline style applied (its CSP hash matches): a method badge is white on colour.
    expect(await page.evaluate('getComputedStyle(document.querySelector(".method")).color')).toBe(
      'rgb(255, 255, 255)',
    );
    expect(elsewhere).toEqual([]);
    expect(problems).toEqual([]);
    await context.close();
  }, 60_000);
});
