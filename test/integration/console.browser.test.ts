/**
 * The operator console at /admin in a real Chromium (playwright-core, the system's browser),
 * against the real API on a socket and the real engine: a wrong token refused, sign-in, an import
 * of the demo dataset with its progress bar reaching 100% and the demo then served, an uploaded
 * feed whose rejected record opens with its path and value, the report downloaded, the sources'
 * health, axe-core's check on every page, and a phone's width. Every page must throw no error,
 * break no Content-Security-Policy rule, call nothing but this server, and never put the token in
 * a URL. Screenshots go to test-results/console/ (git-ignored).
 */
import { mkdirSync, readFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import { type ServerType, serve } from '@hono/node-server';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createImportJobs } from '../../src/cli/import-jobs.ts';
import { chromiumForTests, launchChromium } from '../support/browser.ts';
import { createTestApp, createTestEngine, dropTestIndices } from '../support/engine.ts';

const chromium = chromiumForTests();
const shots = fileURLToPath(new URL('../../test-results/console/', import.meta.url));
const axeSource = readFileSync(fileURLToPath(import.meta.resolve('axe-core/axe.min.js')), 'utf8');

const TOKEN = 'console-browser-admin-token-0123456789';
const DEMO_SERVICES = 20;

// An uploaded feed: one good service, one without its required name (rejected).
const organization = {
  id: '0a000000-0000-4000-8000-0000000000c1',
  name: 'Console Test Trust',
  description: 'A charity that tests consoles.',
};
const UPLOAD = [
  {
    id: '0d000000-0000-4000-8000-0000000000c1',
    name: 'Console Food Bank',
    status: 'active',
    organization_id: organization.id,
    organization,
  },
  {
    id: '0d000000-0000-4000-8000-0000000000c2',
    status: 'active',
    organization_id: organization.id,
    organization,
  },
]
  .map((line) => JSON.stringify(line))
  .join('\n');

const engine = createTestEngine('console-browser');
let server: ServerType;
let base: string;
let browser: Browser;

type Watched = { page: Page; context: BrowserContext; problems: string[] };
let open: Watched[] = [];

async function openPage(viewport = { width: 1280, height: 900 }): Promise<Watched> {
  const context = await browser.newContext({ viewport, acceptDownloads: true });
  const page = await context.newPage();
  const problems: string[] = [];
  page.on('pageerror', (error) => problems.push(`page error: ${error.message}`));
  page.on('console', (message) => {
    if (message.type() === 'error' && /Content.Security.Policy/i.test(message.text())) {
      problems.push(`CSP: ${message.text()}`);
    }
  });
  page.on('request', (request) => {
    const url = request.url();
    if (!url.startsWith(`${base}/`) && !url.startsWith('data:') && !url.startsWith('blob:')) {
      problems.push(`request to ${url}`);
    }
    if (url.includes(TOKEN)) problems.push(`token in a URL: ${url}`);
  });
  const watched = { page, context, problems };
  open.push(watched);
  return watched;
}

async function signIn(page: Page, token = TOKEN) {
  await page.goto(`${base}/admin`);
  await page.getByLabel('Admin token').fill(token);
  await page.getByRole('button', { name: 'Sign in' }).click();
}

async function expectAccessible(page: Page) {
  // Evaluated through the DevTools protocol, which the page's CSP does not govern.
  await page.evaluate(axeSource);
  const result = await page.evaluate(() =>
    (
      globalThis as unknown as {
        axe: {
          run: (
            options: object,
          ) => Promise<{ violations: { id: string; impact: string; nodes: unknown[] }[] }>;
        };
      }
    ).axe.run({
      runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'best-practice'] },
    }),
  );
  const serious = result.violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => `${v.id} (${v.impact}: ${JSON.stringify(v.nodes[0])?.slice(0, 300)})`);
  expect(serious).toEqual([]);
}

/** Runs an import from the Run page and waits for it to end; the final status line. */
async function runImport(page: Page, setUp: () => Promise<void> = async () => {}) {
  await page.goto(`${base}/admin#run`);
  await page.getByRole('heading', { name: 'Run an import' }).waitFor();
  await setUp();
  await page.getByRole('button', { name: 'Start import' }).click();
  const status = page.locator('.job-state');
  await status.filter({ hasText: /^(Finished|Failed|Cancelled)/ }).waitFor({ timeout: 280_000 });
  return status.textContent();
}

describe.skipIf(!chromium)('/admin in Chromium', () => {
  beforeAll(async () => {
    const app = createTestApp(
      engine,
      { ADMIN_TOKEN: TOKEN },
      { imports: createImportJobs(engine, { demoServices: DEMO_SERVICES }) },
    );
    await new Promise<void>((resolve) => {
      server = serve({ fetch: app.fetch, port: 0, hostname: '127.0.0.1' }, (info: AddressInfo) => {
        base = `http://127.0.0.1:${info.port}`;
        resolve();
      });
    });
    browser = await launchChromium(chromium!);
    mkdirSync(shots, { recursive: true });
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

  it('refuses a wrong token with a clear message, and keeps the right one for the tab only', async () => {
    const { page } = await openPage();
    await page.goto(`${base}/admin`);
    await expectAccessible(page);
    await signIn(page, 'not-the-token');
    await expect(page.getByRole('alert').textContent()).resolves.toMatch(/token was refused/);
    expect(await page.evaluate(() => sessionStorage.length)).toBe(0);
    await page.getByLabel('Admin token').fill(TOKEN);
    // Keyboard only: Enter in the field signs in.
    await page.getByLabel('Admin token').press('Enter');
    await page
      .getByRole('navigation', { name: 'Console pages' })
      .getByRole('link', { name: 'Run' })
      .waitFor();
    expect(await page.evaluate(() => localStorage.length)).toBe(0);
    expect(page.url()).not.toContain(TOKEN);
    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.getByLabel('Admin token').waitFor();
    expect(await page.evaluate(() => sessionStorage.length)).toBe(0);
  });

  it('imports the demo dataset with a progress bar reaching 100%, then serves it', {
    timeout: 300_000,
  }, async () => {
    const { page } = await openPage();
    await signIn(page);
    await page.getByRole('heading', { name: 'Sources' }).waitFor();
    const seen = new Set<string>();
    page.on('response', async (response) => {
      if (/\/admin\/imports\/import-/.test(response.url()) && response.request().method() === 'GET') {
        const body = await response.json().catch(() => undefined);
        if (body?.progress) seen.add(body.progress.phase);
      }
    });
    await expect(runImport(page)).resolves.toBe('Finished: 100%');
    expect(await page.evaluate("document.getElementById('job-progress').value")).toBe(100);
    expect(seen.has('done')).toBe(true);
    await expect(page.locator('.records').textContent()).resolves.not.toBe('0');
    await page.screenshot({ path: `${shots}run.png` });
    await expectAccessible(page);

    const served = (await (await fetch(`${base}/services?per_page=1`)).json()) as { total_items: number };
    expect(served.total_items).toBe(DEMO_SERVICES);
  });

  it('opens a rejected record of an uploaded feed with its path and value, and downloads the report', {
    timeout: 300_000,
  }, async () => {
    const { page } = await openPage();
    await signIn(page);
    const status = await runImport(page, async () => {
      await page.getByLabel('A file from this computer').check();
      await page.getByLabel('File', { exact: true }).setInputFiles({
        name: 'console-upload.ndjson',
        mimeType: 'application/x-ndjson',
        buffer: Buffer.from(UPLOAD),
      });
    });
    expect(status).toBe('Finished: 100%');
    await page.getByRole('link', { name: /See its report/ }).click();
    await page.getByRole('heading', { name: 'upload:console-upload.ndjson' }).waitFor();
    // The record without a name, and what it nested, skipped with it.
    const rejected = page.locator('button.issue');
    await rejected.first().waitFor();
    expect(await rejected.count()).toBe(2);
    await page.getByRole('button', { name: /: name: required field is missing/ }).click();
    const detail = page.locator('.issue-detail');
    await expect(detail.textContent()).resolves.toMatch(/Rejected: not imported as published/);
    await expect(detail.locator('dd').first().textContent()).resolves.toMatch(
      /^name in .*console-upload\.ndjson:2$/,
    );
    await page.screenshot({ path: `${shots}imports.png` });
    await expectAccessible(page);

    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('button', { name: /Download the report/ }).click(),
    ]);
    const report = JSON.parse(readFileSync((await download.path())!, 'utf8')) as { rejected: number };
    expect(report.rejected).toBe(1);
  });

  it("shows each source's health, and every page reads at a phone's width", async () => {
    const { page } = await openPage({ width: 390, height: 844 });
    await signIn(page);
    const table = page.getByRole('table');
    await table.waitFor();
    await expect(table.textContent()).resolves.toMatch(/demo/);
    await expectAccessible(page);
    await page.screenshot({ path: `${shots}sources-phone.png`, fullPage: true });
    for (const hash of ['sources', 'run', 'imports']) {
      await page.goto(`${base}/admin#${hash}`);
      await page.locator('h1').waitFor();
      // Nothing wider than the screen but a table, which scrolls in its own box.
      const width = await page.evaluate('document.documentElement.scrollWidth');
      expect(width, hash).toBeLessThanOrEqual(390);
    }
  });
});
