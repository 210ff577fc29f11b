/**
 * The console's Search gaps page closing a gap in a real Chromium (playwright-core), against the
 * real API on a socket and the real engine: a search that found nothing is listed, the operator
 * adds a synonym beside it, the page searches again and shows it answered; a bad rule is refused
 * at the field with the parser's reason; the rule is listed and deleted; axe-core finds no serious
 * violation with the form open. Same setup as console.browser.test.ts (which covers the rest).
 */
import type { AddressInfo } from 'node:net';
import { type ServerType, serve } from '@hono/node-server';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createImportJobs } from '../../src/cli/import-jobs.ts';
import { refreshSearchLog } from '../../src/engine/search-log.ts';
import { createSearchRecorder } from '../../src/search-report/search-recorder.ts';
import { expectAccessible } from '../support/axe.ts';
import { chromiumForTests, launchChromium } from '../support/browser.ts';
import { createTestApp, createTestEngine, dropTestIndices, testLogger } from '../support/engine.ts';
import { fixtureService, seedReadIndices } from '../support/seed.ts';

const chromium = chromiumForTests();

const TOKEN = 'console-synonyms-admin-token-0123456789';
// A word no shipped rule knows: nothing is found for it until an operator says what it means.
const GAP = 'scran parcels';

const engine = createTestEngine('console-synonyms');
const recorder = createSearchRecorder(engine, {
  retentionDays: 30,
  minDays: 1,
  logger: testLogger,
  flushIntervalMs: 3_600_000,
});
let server: ServerType;
let base: string;
let browser: Browser;

type Watched = { page: Page; context: BrowserContext; problems: string[] };
let open: Watched[] = [];

async function openPage(): Promise<Watched> {
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
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
    if (!url.startsWith(`${base}/`) && !url.startsWith('data:')) problems.push(`request to ${url}`);
    if (url.includes(TOKEN)) problems.push(`token in a URL: ${url}`);
  });
  const watched = { page, context, problems };
  open.push(watched);
  return watched;
}

describe.skipIf(!chromium)('/admin Search gaps: add a synonym', () => {
  beforeAll(async () => {
    await seedReadIndices(engine, {
      services: [
        fixtureService('Harbour Food Bank', 'Emergency parcels for people in crisis.', {
          name: 'Harbour Trust',
          description: 'A charity.',
        }),
      ],
    });
    // Sign-in checks the token against /admin/imports, so the server has its import jobs.
    const app = createTestApp(
      engine,
      { ADMIN_TOKEN: TOKEN, SEARCH_LOG_MIN_DAYS: '1' },
      { searchLog: recorder, imports: createImportJobs(engine, { demoServices: 1 }) },
    );
    await new Promise<void>((resolve) => {
      server = serve({ fetch: app.fetch, port: 0, hostname: '127.0.0.1' }, (info: AddressInfo) => {
        base = `http://127.0.0.1:${info.port}`;
        resolve();
      });
    });
    browser = await launchChromium(chromium!);
  }, 120_000);

  afterEach(async () => {
    const problems = open.flatMap((w) => w.problems);
    await Promise.all(open.map((w) => w.context.close()));
    open = [];
    expect(problems).toEqual([]);
  });

  afterAll(async () => {
    await recorder.stop();
    await browser?.close();
    await new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve()));
    await dropTestIndices(engine);
  });

  it('adds a synonym that turns a zero-result query into a hit, then deletes it', {
    timeout: 120_000,
  }, async () => {
    await fetch(`${base}/services?search=${encodeURIComponent(GAP)}`);
    await recorder.flush();
    await refreshSearchLog(engine);

    const { page } = await openPage();
    await page.goto(`${base}/admin`);
    await page.getByLabel('Admin token').fill(TOKEN);
    await page.getByLabel('Admin token').press('Enter');
    await page.getByRole('heading', { name: 'Sources' }).waitFor();
    await page.goto(`${base}/admin#gaps`);
    const zero = page.locator('table.zero');
    await zero.waitFor();
    await expect(zero.textContent()).resolves.toContain(GAP);
    await page.getByText('None yet.').waitFor();

    // Keyboard only: the button opens the form with the text already typed and the cursor in it.
    await zero.getByRole('button', { name: `Add a synonym for ${GAP}` }).press('Enter');
    const field = page.getByLabel(`Synonym rule for “${GAP}”`);
    await expect(field.inputValue()).resolves.toBe(`${GAP} => `);
    expect(await page.evaluate('document.activeElement?.id')).toBe('synonym-rule');

    // A rule the parser refuses: its reason at the field, nothing stored.
    await field.press('Enter');
    await page.locator('#synonym-error', { hasText: 'an empty term' }).waitFor();
    await expect(field.getAttribute('aria-invalid')).resolves.toBe('true');
    await expectAccessible(page);

    await field.fill(`${GAP} => emergency parcels`);
    await field.press('Enter');
    await zero.getByText('Now: 1 services found').waitFor({ timeout: 60_000 });
    const rules = page.locator('ul.vocabulary-rules');
    await expect(rules.textContent()).resolves.toContain(`${GAP} => emergency parcels`);
    await expectAccessible(page);

    // Served to everyone, not only the console.
    const served = (await (await fetch(`${base}/services?search=${encodeURIComponent(GAP)}`)).json()) as {
      total_items: number;
    };
    expect(served.total_items).toBe(1);

    await rules.getByRole('button', { name: `Delete the rule ${GAP} => emergency parcels` }).click();
    await page.getByText('None yet.').waitFor({ timeout: 60_000 });
    await zero.getByRole('button', { name: `Search again for ${GAP}` }).click();
    await zero.getByText('Now: still nothing found').waitFor();
  });
});
