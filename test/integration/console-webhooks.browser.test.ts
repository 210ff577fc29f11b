/**
 * The console's Webhooks page in a real Chromium (playwright-core) against the real API and
 * engine: register a target on loopback (the server allows private targets, as the webhook tests
 * do), see its secret once, pause it, resume it, rotate its secret (a new one shown once), and
 * its state read back through the admin route each time; axe-core finds nothing serious, and the
 * page reads at a phone's 390 px width. No error, no CSP breach, no call but this server, no token
 * in a URL.
 */
import { mkdirSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import { type ServerType, serve } from '@hono/node-server';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createImportJobs } from '../../src/cli/import-jobs.ts';
import { recordAttempts } from '../../src/engine/webhooks.ts';
import { createWebhookAdmin } from '../../src/webhooks/index.ts';
import { expectAccessible } from '../support/axe.ts';
import { chromiumForTests, launchChromium } from '../support/browser.ts';
import { createTestApp, createTestEngine, dropTestIndices } from '../support/engine.ts';

const chromium = chromiumForTests();
const shots = fileURLToPath(new URL('../../test-results/console/', import.meta.url));
const TOKEN = 'console-webhooks-admin-token-0123456789';
// Nothing listens there: registration checks the address, not the receiver (no worker runs here).
const TARGET = 'http://127.0.0.1:9/console-hook';

const engine = createTestEngine('console-webhooks');
let server: ServerType;
let base: string;
let browser: Browser;
let open: { context: BrowserContext; problems: string[] }[] = [];

async function openPage(viewport: { width: number; height: number }): Promise<Page> {
  const context = await browser.newContext({ viewport });
  const page = await context.newPage();
  const problems: string[] = [];
  page.on('pageerror', (error) => problems.push(`page error: ${error.message}`));
  page.on('console', (message) => {
    if (message.type() === 'error' && /Content.Security.Policy/i.test(message.text()))
      problems.push(`CSP: ${message.text()}`);
  });
  page.on('request', (request) => {
    const url = request.url();
    if (!url.startsWith(`${base}/`) && !url.startsWith('data:')) problems.push(`request to ${url}`);
    if (url.includes(TOKEN)) problems.push(`token in a URL: ${url}`);
  });
  open.push({ context, problems });
  return page;
}

const auth = () => ({ authorization: `Bearer ${TOKEN}` });
const idOf = async () => {
  const listed = (await (await fetch(`${base}/admin/webhooks`, { headers: auth() })).json()) as {
    webhooks: { id: string; url: string }[];
  };
  return listed.webhooks.find((w) => w.url === TARGET)?.id ?? '';
};

/** The target's state read by id (the list is a search, a moment behind a change). */
const stateOf = async () => {
  const id = await idOf();
  const target = (await (await fetch(`${base}/admin/webhooks/${id}`, { headers: auth() })).json()) as {
    state: string;
  };
  return target.state;
};

describe.skipIf(!chromium)('/admin#webhooks in Chromium', () => {
  beforeAll(async () => {
    const app = createTestApp(
      engine,
      { ADMIN_TOKEN: TOKEN },
      // Sign-in checks the token against GET /admin/imports, which needs the import jobs.
      { webhooks: createWebhookAdmin(engine, { allowPrivate: true }), imports: createImportJobs(engine) },
    );
    await new Promise<void>((resolve) => {
      server = serve({ fetch: app.fetch, port: 0, hostname: '127.0.0.1' }, (info: AddressInfo) => {
        base = `http://127.0.0.1:${info.port}`;
        resolve();
      });
    });
    browser = await launchChromium(chromium!);
  });
  afterEach(async () => {
    const problems = open.flatMap((w) => w.problems);
    await Promise.all(open.map((w) => w.context.close()));
    open = [];
    expect(problems).toEqual([]);
  });
  afterAll(async () => {
    await browser?.close();
    await new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve()));
    await dropTestIndices(engine);
  });

  it('registers a target, pauses, resumes it and rotates its secret, each secret shown once', async () => {
    const page = await openPage({ width: 1280, height: 900 });
    await page.goto(`${base}/admin#webhooks`);
    await page.getByLabel('Admin token').fill(TOKEN);
    await page.getByLabel('Admin token').press('Enter');
    await page.getByRole('heading', { name: 'Webhooks', level: 1 }).waitFor();
    await expect(
      page
        .getByRole('navigation', { name: 'Console pages' })
        .getByRole('link', { name: 'Webhooks' })
        .getAttribute('aria-current'),
    ).resolves.toBe('page');

    await page.getByLabel('Target URL').fill(TARGET);
    await page.getByLabel('Description (optional)').fill('Console test receiver');
    await page.getByRole('button', { name: 'Register target' }).click();
    const secret = page.locator('#hook-secret');
    await secret.waitFor();
    const first = await secret.textContent();
    expect(first).toMatch(/^whsec_/);
    expect(await stateOf()).toBe('active');
    await expectAccessible(page);

    await page.getByRole('button', { name: `Pause ${TARGET}` }).click();
    await page
      .getByRole('status')
      .filter({ hasText: /^Paused/ })
      .waitFor();
    await expect(page.locator('#hook-secret').count()).resolves.toBe(0);
    await page.getByText(/^Paused since/).waitFor();
    expect(await stateOf()).toBe('paused');

    await page.getByRole('button', { name: `Resume ${TARGET}` }).click();
    await page
      .getByRole('status')
      .filter({ hasText: /^Resumed/ })
      .waitFor();
    expect(await stateOf()).toBe('active');

    await page.getByRole('button', { name: `Rotate secret of ${TARGET}` }).click();
    await page
      .getByRole('status')
      .filter({ hasText: /^New secret/ })
      .waitFor();
    const second = await page.locator('#hook-secret').textContent();
    expect(second).toMatch(/^whsec_/);
    expect(second).not.toBe(first);

    // Two attempts at one change as the worker records them: a refusal, then the retry delivered.
    const id = await idOf();
    const attempt = (n: number, ok: boolean) => ({
      id: `${id}:1:${n}`,
      webhook_id: id,
      event_id: 'msg_console_1',
      seq: 1,
      record_type: 'service' as const,
      record_id: '0d000000-0000-4000-8000-0000000000f1',
      action: 'updated' as const,
      attempt: n,
      at: new Date(Date.UTC(2026, 11, 7, 12, n)).toISOString(),
      ok,
      status: ok ? 204 : 500,
      duration_ms: 12,
    });
    await recordAttempts(engine, [attempt(1, false), attempt(2, true)]);
    await page.getByRole('button', { name: `Deliveries to ${TARGET}` }).click();
    const deliveries = page.getByRole('table');
    await deliveries.waitFor();
    await expect(deliveries.textContent()).resolves.toMatch(/2 attempts, newest first: 1 failed/);
    await expect(deliveries.textContent()).resolves.toMatch(/Failed: answered 500/);
    await expect(deliveries.textContent()).resolves.toMatch(/Delivered \(204\)/);
    await expectAccessible(page);
    mkdirSync(shots, { recursive: true });
    await page.screenshot({ path: `${shots}webhooks.png`, fullPage: true });
  });

  it("reads at a phone's width, with nothing but a table scrolling sideways", async () => {
    const page = await openPage({ width: 390, height: 844 });
    await page.goto(`${base}/admin#webhooks`);
    await page.getByLabel('Admin token').fill(TOKEN);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('heading', { name: TARGET }).waitFor();
    await page.getByRole('button', { name: `Rotate secret of ${TARGET}` }).click();
    await page.locator('#hook-secret').waitFor();
    await page.getByRole('button', { name: `Deliveries to ${TARGET}` }).click();
    await page.getByRole('table').waitFor();
    await expectAccessible(page);
    const width = await page.evaluate('document.documentElement.scrollWidth');
    expect(width).toBeLessThanOrEqual(390);
  });
});
