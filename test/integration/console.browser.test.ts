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
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import { type ServerType, serve } from '@hono/node-server';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createImportJobs } from '../../src/cli/import-jobs.ts';
import { createReindexJobs } from '../../src/cli/reindex-jobs.ts';
import { createDuplicates } from '../../src/duplicates/index.ts';
import { acquireLease } from '../../src/engine/control.ts';
import { refreshSearchLog } from '../../src/engine/search-log.ts';
import { createSearchRecorder } from '../../src/search-report/search-recorder.ts';
import { expectAccessible } from '../support/axe.ts';
import { chromiumForTests, launchChromium } from '../support/browser.ts';
import { createTestApp, createTestEngine, dropTestIndices, testLogger } from '../support/engine.ts';

const chromium = chromiumForTests();
const shots = fileURLToPath(new URL('../../test-results/console/', import.meta.url));

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
    phones: [{ id: '0c000000-0000-4000-8000-0000000000c1', number: '01224 000111' }],
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
// Another source's copy of the good service, under its own id: a likely duplicate.
const SECOND = JSON.stringify({
  id: '0d000000-0000-4000-8000-0000000000c3',
  name: 'Console Food Bank',
  status: 'active',
  organization_id: organization.id,
  organization,
  phones: [{ id: '0c000000-0000-4000-8000-0000000000c3', number: '01224 000111' }],
});

const engine = createTestEngine('console-browser');
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
      { ADMIN_TOKEN: TOKEN, SEARCH_LOG_MIN_DAYS: '1' },
      {
        imports: createImportJobs(engine, { demoServices: DEMO_SERVICES }),
        duplicates: createDuplicates(engine),
        searchLog: recorder,
        jobs: createReindexJobs(engine),
      },
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
    await recorder.stop();
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
    for (const hash of ['sources', 'run', 'imports', 'duplicates', 'gaps', 'records', 'validate']) {
      await page.goto(`${base}/admin#${hash}`);
      await page.locator('h1').waitFor();
      // Nothing wider than the screen but a table, which scrolls in its own box.
      const width = await page.evaluate('document.documentElement.scrollWidth');
      expect(width, hash).toBeLessThanOrEqual(390);
    }
  });

  it('shows a duplicate pair side by side, marks it the same record, and one record is served', {
    timeout: 300_000,
  }, async () => {
    const auth = { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json' };
    const started = await fetch(`${base}/admin/imports`, {
      method: 'POST',
      headers: auth,
      body: JSON.stringify({ from: 'file', name: 'second.ndjson', content: SECOND, source: 'second-source' }),
    });
    expect(started.status).toBe(202);
    const { id } = (await started.json()) as { id: string };
    for (let state = 'running'; state === 'running'; await new Promise((r) => setTimeout(r, 500))) {
      ({ state } = (await (await fetch(`${base}/admin/imports/${id}`, { headers: auth })).json()) as {
        state: string;
      });
    }
    // How many of the two copies are served as records of their own (a merged one redirects).
    const named = async () => {
      const ids = ['0d000000-0000-4000-8000-0000000000c1', '0d000000-0000-4000-8000-0000000000c3'];
      const answers = await Promise.all(
        ids.map((id) => fetch(`${base}/services/${id}`, { redirect: 'manual' })),
      );
      return answers.filter((answer) => answer.status === 200).length;
    };
    expect(await named()).toBe(2);

    const { page } = await openPage();
    await signIn(page);
    await page.goto(`${base}/admin#duplicates`);
    const pair = page.locator('.pair').first();
    await pair.waitFor();
    await expect(pair.textContent()).resolves.toMatch(/second-source/);
    await expect(pair.getByRole('table').textContent()).resolves.toMatch(/phone/);
    await expectAccessible(page);
    await page.screenshot({ path: `${shots}duplicates.png` });
    await pair.getByRole('button', { name: 'Same record: keep A' }).click();
    await page.locator('#notice', { hasText: /Marked the same record/ }).waitFor();
    expect(await named()).toBe(1);
    const merged = await fetch(`${base}/services/0d000000-0000-4000-8000-0000000000c3`, {
      redirect: 'manual',
    });
    expect(merged.status).toBe(301);

    // Undo: both served again.
    await page.getByRole('button', { name: /Undo the mark/ }).click();
    await page.locator('#notice', { hasText: /Mark undone/ }).waitFor();
    expect(await named()).toBe(2);
  });

  it('lists the searches that found nothing, and searches one again', async () => {
    for (const text of ['xylophone repair', 'xylophone repair', 'Console Food Bank']) {
      await fetch(`${base}/services?search=${encodeURIComponent(text)}`);
    }
    await recorder.flush();
    await refreshSearchLog(engine);
    const { page } = await openPage();
    await signIn(page);
    await page.goto(`${base}/admin#gaps`);
    const zero = page.locator('table.zero');
    await zero.waitFor();
    await expect(zero.textContent()).resolves.toMatch(/xylophone repair/);
    await expect(page.locator('table.top').textContent()).resolves.toMatch(/console food bank/);
    await expectAccessible(page);
    await page.screenshot({ path: `${shots}gaps.png` });
    await zero.getByRole('button', { name: 'Search again for xylophone repair' }).click();
    await zero.getByText('Now: still nothing found').waitFor();
    await page
      .locator('table.top')
      .getByRole('button', { name: 'Search again for console food bank' })
      .click();
    await page
      .locator('table.top')
      .getByText(/Now: \d+ services? found/)
      .waitFor();
  });

  it('edits a service with errors at their field, serves and audits the change, and explains a conflict', async () => {
    const { page } = await openPage();
    await signIn(page);
    await page.goto(`${base}/admin#records`);
    await page.getByLabel('Find a service').fill('Console Food Bank');
    await page.getByRole('button', { name: 'Find' }).click();
    await page.getByRole('button', { name: 'Console Food Bank' }).first().click();
    await page.getByRole('heading', { name: 'Edit Console Food Bank' }).waitFor();
    const id = (await page.locator('section .hint code').textContent())!;

    // No name (HSDS requires one): refused, the error shown at its field.
    await page.getByLabel('Name').fill('');
    await page.getByRole('button', { name: 'Save' }).click();
    const field = page.locator('.field.has-error');
    await field.waitFor();
    await expect(field.locator('label').textContent()).resolves.toBe('Name');
    expect(await page.getByLabel('Name').getAttribute('aria-invalid')).toBe('true');
    await expectAccessible(page);

    await page.getByLabel('Name').fill('Console Food Bank');
    await page.getByLabel('E-mail').fill('help@console.example.org');
    await page.getByLabel('Description').fill('Food parcels on Tuesdays.');
    await page.getByRole('button', { name: 'Save' }).click();
    await page.locator('#notice', { hasText: 'Saved' }).waitFor();
    const served = (await (await fetch(`${base}/services/${id}`)).json()) as {
      description: string;
      email: string;
    };
    expect(served).toMatchObject({
      description: 'Food parcels on Tuesdays.',
      email: 'help@console.example.org',
    });
    const audit = page.locator('table.audit');
    await expect(audit.textContent()).resolves.toMatch(/description/);
    await expect(audit.textContent()).resolves.toMatch(/admin/);
    await page.screenshot({ path: `${shots}records.png`, fullPage: true });

    // Someone else writes in between: the page's version is stale, and it says so.
    const current = await fetch(`${base}/services/${id}`);
    const body = (await current.json()) as Record<string, unknown>;
    delete body.metadata;
    const other = await fetch(`${base}/services/${id}`, {
      method: 'PUT',
      headers: {
        authorization: `Bearer ${TOKEN}`,
        'content-type': 'application/json',
        'if-match': current.headers.get('etag')!,
      },
      body: JSON.stringify({ ...body, description: 'Changed by someone else.' }),
    });
    expect(other.status).toBe(200);
    await page.getByLabel('Description').fill('My change.');
    await page.getByRole('button', { name: 'Save' }).click();
    await page
      .getByRole('alert')
      .filter({ hasText: /Someone else changed this record/ })
      .waitFor();
    await page.getByRole('button', { name: 'Reload the record' }).click();
    await expect.poll(() => page.getByLabel('Description').inputValue()).toBe('Changed by someone else.');
  });

  it('validates an uploaded feed: the verdict in three words and each finding readable', async () => {
    const { page } = await openPage();
    await signIn(page);
    await page.goto(`${base}/admin#validate`);
    await page.getByLabel('File', { exact: true }).setInputFiles({
      name: 'check.ndjson',
      mimeType: 'application/x-ndjson',
      buffer: Buffer.from(UPLOAD),
    });
    await page.getByRole('button', { name: 'Validate' }).click();
    const verdict = page.getByRole('heading', { name: 'Not importable' });
    await verdict.waitFor();
    const finding = page.locator('.issues li', { hasText: 'required field is missing' }).first();
    await expect(finding.textContent()).resolves.toMatch(/Rejected:\s+service\s+\S+c2,\s+name/);
    await expectAccessible(page);
    await page.screenshot({ path: `${shots}validate.png` });
    // Nothing was imported.
    expect((await fetch(`${base}/services/0d000000-0000-4000-8000-0000000000c2`)).status).toBe(404);
  });

  it('rebuilds the read indices from the Run page, to 100%', async () => {
    const { page } = await openPage();
    await signIn(page);
    await page.goto(`${base}/admin#run`);
    await page.getByRole('button', { name: 'Start a reindex' }).click();
    await page.locator('.reindex-state', { hasText: /^(Finished|Failed)/ }).waitFor({ timeout: 120_000 });
    await expect(page.locator('.reindex-state').textContent()).resolves.toBe('Finished: 100%');
  });

  // Last: a cancelled import stays unfinished, as an interrupted `hsds import` does.
  it('names who holds the import when busy, and cancels a running import', async () => {
    const { page } = await openPage();
    await signIn(page);
    // Another process (a CLI import) holds the import lease: the page says who, and starts nothing.
    const lease = await acquireLease(engine, 'import', { purpose: 'hsds import of a council feed' });
    try {
      await page.goto(`${base}/admin#run`);
      await page.getByRole('button', { name: 'Start import' }).click();
      await page
        .getByRole('alert')
        .filter({ hasText: /^Busy: .*hsds import of a council feed/ })
        .waitFor();
    } finally {
      await lease.release();
    }

    // A feed that never answers: the import waits in its reading phase until cancelled.
    const stalled = createServer(() => {});
    await new Promise<void>((resolve) => stalled.listen(0, '127.0.0.1', resolve));
    try {
      const { port } = stalled.address() as AddressInfo;
      await page.getByLabel('A feed or an HSDS API at a URL').check();
      await page.getByLabel('URL', { exact: true }).fill(`http://127.0.0.1:${port}/hsds`);
      await page.getByRole('button', { name: 'Start import' }).click();
      await page.locator('.job-state', { hasText: /^Reading the feed/ }).waitFor();
      await page.getByRole('button', { name: 'Cancel import' }).click();
      await page.locator('.job-state', { hasText: /^Cancelled/ }).waitFor();
      await expect(page.locator('.job .error').textContent()).resolves.toMatch(/cancelled by an operator/);
    } finally {
      stalled.closeAllConnections();
      stalled.close();
    }
  });
});
