/**
 * The /explore page in a real Chromium (playwright-core, the system's browser), against the real
 * API on a socket and the real engine: postcode search nearest first, a taxonomy filter, a
 * selected result's service area on the map, the record page's week of opening times, an unknown
 * postcode's message, the page under a proxy path, a phone's width, axe-core's check, the
 * opening-time, age, language and free controls, each result's next opening, and the print view.
 *
 * The fixture is a handful of services around AB10 1AB whose order can be worked out on paper.
 * Base map tiles are configured at an address the browser is never allowed to reach, as on a
 * machine without the internet: markers and shapes must draw without them. Each page must throw
 * no error, break no Content-Security-Policy rule and call nothing but the API and the tiles.
 * Screenshots go to test-results/explore/ (git-ignored).
 */
import { mkdirSync, readFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import { type ServerType, serve } from '@hono/node-server';
import * as turf from '@turf/turf';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { App } from '../../src/api/types.ts';
import { formatDistance } from '../../src/explore/format.js';
import { importPostcodeRows } from '../../src/ingest/import/postcode-import.ts';
import { loadUkPlaces } from '../../src/synthetic/uk-places.ts';
import { expectAccessible } from '../support/axe.ts';
import { chromiumForTests, launchChromium } from '../support/browser.ts';
import { createTestApp, createTestEngine, dropTestIndices } from '../support/engine.ts';
import { seedReadIndices } from '../support/seed.ts';

const chromium = chromiumForTests();
const shots = fileURLToPath(new URL('../../test-results/explore/', import.meta.url));

const TILES = 'https://tiles.invalid';
const AB10_1AB = { lat: 57.149606, lon: -2.096916 };
type Place = { lat: number; lon: number };

const uuid = (group: number, n: number) =>
  `${group.toString(16).padStart(8, '0')}-0000-4000-8000-${n.toString(16).padStart(12, '0')}`;

function offset(from: Place, metres: number, bearing: number): Place {
  const [lon, lat] = turf.destination([from.lon, from.lat], metres / 1000, bearing).geometry.coordinates;
  return { lat: lat!, lon: lon! };
}

const circle = (centre: Place, metres: number) =>
  turf.circle([centre.lon, centre.lat], metres / 1000, { steps: 48 }).geometry;

const taxonomy = { id: uuid(900, 1), name: 'Kinds of help', description: 'What a service helps with.' };
const term = (n: number, name: string) => ({
  id: uuid(900, 10 + n),
  name,
  description: name,
  taxonomy_id: taxonomy.id,
});
const FOOD = term(1, 'Food');
const DEBT = term(2, 'Debt advice');

type Spec = {
  n: number;
  name: string;
  at: Place;
  kind: ReturnType<typeof term>;
  area?: ReturnType<typeof circle>;
};

const organization = { id: uuid(800, 1), name: 'Aberdeen Community Trust', description: 'A local charity.' };

function service(spec: Spec) {
  const { n } = spec;
  return {
    id: uuid(n, 1),
    name: spec.name,
    description: `${spec.name} helps people in Aberdeen.`,
    status: 'active',
    organization_id: organization.id,
    organization,
    last_modified: '2025-06-01T00:00:00.000Z',
    eligibility_description: n === 1 ? 'Anyone who lives in Aberdeen City.' : undefined,
    minimum_age: n === 1 ? 16 : undefined,
    fees_description: n === 1 ? 'Free. Donations welcome.' : undefined,
    cost_options: n === 1 ? [{ id: uuid(n, 20), option: 'Hot lunch', amount: 2.5, currency: 'GBP' }] : [],
    languages: n === 1 ? [{ id: uuid(n, 21), name: 'Polish', code: 'pl' }] : [],
    phones: [{ id: uuid(n, 22), number: `01224 00000${n}` }],
    attributes: [{ id: uuid(n, 23), taxonomy_term_id: spec.kind.id, taxonomy_term: spec.kind }],
    schedules:
      n === 1
        ? [
            { id: uuid(n, 24), freq: 'WEEKLY', byday: 'MO,WE,FR', opens_at: '10:00', closes_at: '14:00' },
            { id: uuid(n, 25), freq: 'WEEKLY', byday: 'SA', opens_at: '09:30', closes_at: '12:00' },
          ]
        : [],
    service_areas: spec.area
      ? [
          {
            id: uuid(n, 26),
            name: `${spec.name} area`,
            extent: JSON.stringify(spec.area),
            extent_type: 'geojson',
          },
        ]
      : [],
    service_at_locations: [
      {
        id: uuid(n, 3),
        location: {
          id: uuid(n, 2),
          location_type: 'physical',
          name: `${spec.name} hall`,
          latitude: spec.at.lat,
          longitude: spec.at.lon,
          addresses: [
            {
              id: uuid(n, 27),
              address_1: `${n} Union Street`,
              city: 'Aberdeen',
              postal_code: 'AB10 1AB',
              country: 'GB',
              address_type: 'physical',
              state_province: 'Aberdeen City',
            },
          ],
          accessibility:
            n === 1 ? [{ id: uuid(n, 28), description: 'Step-free entrance from Union Street.' }] : [],
        },
      },
    ],
  };
}

const unionStreet = offset(AB10_1AB, 300, 90);
const bridgeOfDon = offset(AB10_1AB, 6_000, 10);
const specs: Spec[] = [
  { n: 1, name: 'Union Street Food Bank', at: unionStreet, kind: FOOD, area: circle(unionStreet, 2_000) },
  {
    n: 2,
    name: 'Holburn Debt Advice',
    at: offset(AB10_1AB, 800, 200),
    kind: DEBT,
    area: circle(AB10_1AB, 5_000),
  },
  { n: 3, name: 'Torry Community Pantry', at: offset(AB10_1AB, 1_500, 160), kind: FOOD },
  { n: 4, name: 'Bridge of Don Money Help', at: bridgeOfDon, kind: DEBT, area: circle(bridgeOfDon, 10_000) },
  { n: 5, name: 'Bucksburn Food Share', at: offset(AB10_1AB, 8_000, 300), kind: FOOD },
  // Serves Manchester only: never offered in Aberdeen, however near its (odd) office is.
  {
    n: 6,
    name: 'Manchester Food Club',
    at: offset(AB10_1AB, 100, 0),
    kind: FOOD,
    area: circle({ lat: 53.48, lon: -2.24 }, 5_000),
  },
];
const NEAREST_FIRST = specs.slice(0, 5).map((s) => s.name);
const FOOD_NEAREST_FIRST = ['Union Street Food Bank', 'Torry Community Pantry', 'Bucksburn Food Share'];

const engine = createTestEngine('explore-browser');
let app: App;
let server: ServerType;
let proxy: ServerType;
let base: string;
let proxied: string;
let browser: Browser;

const listen = (fetch: (request: Request) => Response | Promise<Response>) =>
  new Promise<{ server: ServerType; url: string }>((resolve) => {
    const started = serve({ fetch, port: 0, hostname: '127.0.0.1' }, (info: AddressInfo) =>
      resolve({ server: started, url: `http://127.0.0.1:${info.port}` }),
    );
  });

const close = (s: ServerType | undefined) =>
  new Promise<void>((resolve) => (s ? s.close(() => resolve()) : resolve()));

type Watched = { page: Page; context: BrowserContext; problems: string[] };
let open: Watched[] = [];

/** A page that records every error, CSP violation and request to anywhere but `origin` or the tiles. */
async function openPage(origin = base, viewport = { width: 1280, height: 900 }): Promise<Watched> {
  const context = await browser.newContext({ viewport });
  const problems: string[] = [];
  await context.route(`${TILES}/**`, (route) => route.abort('internetdisconnected'));
  const page = await context.newPage();
  page.on('pageerror', (error) => problems.push(`page error: ${error.message}`));
  page.on('console', (message) => {
    if (message.type() === 'error' && /Content.Security.Policy/i.test(message.text())) {
      problems.push(`CSP: ${message.text()}`);
    }
  });
  page.on('request', (request) => {
    const url = request.url();
    if (!url.startsWith(`${origin}/`) && !url.startsWith(`${TILES}/`) && !url.startsWith('data:')) {
      problems.push(`request to ${url}`);
    }
  });
  const watched = { page, context, problems };
  open.push(watched);
  return watched;
}

const resultNames = (page: Page) => page.locator('.result h3').allTextContents();

async function searchResults(page: Page, query: string) {
  await page.goto(`${base}/explore${query}`);
  await page.locator('.status', { hasText: /services?|places?|No services/ }).waitFor();
}

async function apiPage(query: string) {
  const response = await fetch(`${base}/service_at_locations${query}`);
  return (await response.json()) as {
    total_items: number;
    contents: { id: string; distance?: number; service: { name: string } }[];
    detail?: string;
  };
}

describe.skipIf(!chromium)('/explore in Chromium', () => {
  beforeAll(async () => {
    await seedReadIndices(engine, {
      services: specs.map(service),
      taxonomies: [taxonomy],
      taxonomyTerms: [FOOD, DEBT],
    });
    await importPostcodeRows(engine, loadUkPlaces());
    app = createTestApp(engine, {
      GEOCODERS: 'postcode-index',
      EXPLORE_TILE_URL: `${TILES}/{z}/{x}/{y}.png`,
    });
    ({ server, url: base } = await listen(app.fetch));
    // A reverse proxy that mounts the API under /directory/, as a council's website might.
    const mounted = await listen((request) => {
      const url = new URL(request.url);
      if (!url.pathname.startsWith('/directory/')) return new Response('not here', { status: 404 });
      url.pathname = url.pathname.slice('/directory'.length);
      return app.fetch(new Request(url, request));
    });
    proxy = mounted.server;
    proxied = mounted.url;
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
    await close(server);
    await close(proxy);
    await dropTestIndices(engine);
  });

  it('finds services by postcode, nearest first with their distances, using the keyboard only', async () => {
    const { page } = await openPage();
    await page.goto(`${base}/explore`);
    // Tab from the top of the page to the postcode field, type, choose a distance, press Enter.
    for (let i = 0; i < 10; i++) {
      await page.keyboard.press('Tab');
      if (await page.evaluate("document.activeElement?.id === 'postcode'")) break;
    }
    await page.keyboard.type('ab10 1ab');
    await page.keyboard.press('Tab');
    for (let i = 0; i < 4; i++) await page.keyboard.press('ArrowDown');
    expect(await page.locator('#proximity').inputValue()).toBe('10000');
    await page.keyboard.press('Shift+Tab');
    await page.keyboard.press('Enter');
    await page.waitForURL(/postcode=/);
    await page.locator('.result').first().waitFor();

    // The URL holds the search, without the fields left empty: it can be shared.
    const url = new URL(page.url());
    expect([...url.searchParams]).toEqual([
      ['postcode', 'ab10 1ab'],
      ['proximity', '10000'],
    ]);
    expect(await resultNames(page)).toEqual(NEAREST_FIRST);
    const api = await apiPage('?postcode=AB10%201AB&proximity=10000');
    const metres = api.contents.map((item) => item.distance!);
    expect(metres).toEqual([...metres].sort((a, b) => a - b));
    expect(await page.locator('.result .distance').allTextContents()).toEqual(metres.map(formatDistance));
    // By postcode the results are places, and the status says so.
    expect(await page.locator('.status').textContent()).toContain(
      '5 places within 10 km of AB10 1AB, nearest first',
    );
    // Every result is a numbered marker on the map, drawn without any tiles.
    await expect.poll(() => page.locator('#map .result-marker').count()).toBe(5);
    await page.screenshot({ path: `${shots}search.png`, fullPage: true });
  });

  it('narrows the results with a taxonomy filter', async () => {
    const { page } = await openPage();
    await searchResults(page, '?postcode=AB10+1AB&proximity=10000');
    expect(await resultNames(page)).toHaveLength(5);
    await page.selectOption('#taxonomy_term_id', { label: 'Food' });
    await page.getByRole('button', { name: 'Search' }).click();
    await page.waitForURL(/taxonomy_term_id=/);
    await page.locator('.status', { hasText: 'places' }).waitFor();
    expect(await resultNames(page)).toEqual(FOOD_NEAREST_FIRST);
    expect(new URL(page.url()).searchParams.get('taxonomy_term_id')).toBe(FOOD.id);
    // The filter is still chosen on the new page.
    expect(await page.locator('#taxonomy_term_id').inputValue()).toBe(FOOD.id);
  });

  it("draws a selected result's service area as its shape", async () => {
    const { page } = await openPage();
    await searchResults(page, '?postcode=AB10+1AB&proximity=10000');
    const map = page.locator('#map');
    const select = async (name: string) => {
      const button = page.locator('.result', { hasText: name }).getByRole('button');
      await button.focus();
      await page.keyboard.press('Enter');
      await expect.poll(() => button.getAttribute('aria-pressed')).toBe('true');
    };
    const drawnBounds = async (): Promise<number[]> =>
      JSON.parse((await map.getAttribute('data-area-bounds')) ?? '[]');
    // West, south, east, north of the drawn layer, as Leaflet measured it, against the fixture's.
    const expectBounds = (drawn: number[], expected: number[]) => {
      expect(drawn).toHaveLength(4);
      for (const [i, value] of drawn.entries()) expect(value).toBeCloseTo(expected[i]!, 4);
    };

    await select('Holburn Debt Advice');
    expect(await map.getAttribute('data-area-of')).toBe(uuid(2, 3));
    const holburn = turf.bbox(specs[1]!.area!);
    expectBounds(await drawnBounds(), holburn);
    const shape = page.locator('#map path.service-area');
    await expect.poll(() => shape.count()).toBe(1);
    const box = await shape.boundingBox();
    expect(box!.width).toBeGreaterThan(100);
    expect(await page.locator('.map-caption').textContent()).toBe(
      'Showing the area served by Holburn Debt Advice.',
    );
    await page.screenshot({ path: `${shots}service-area.png` });

    // Another result replaces the shape with its own.
    await select('Bridge of Don Money Help');
    const bridge = turf.bbox(specs[3]!.area!);
    expectBounds(await drawnBounds(), bridge);
    await expect.poll(() => shape.count()).toBe(1);

    // A result without an area says so, and draws nothing.
    await select('Torry Community Pantry');
    expect(await map.getAttribute('data-area-of')).toBeNull();
    await expect.poll(() => shape.count()).toBe(0);
    expect(await page.locator('.map-caption').textContent()).toBe(
      'Torry Community Pantry publishes no service area.',
    );
  });

  it("shows a service's record with its opening times as a week", async () => {
    const { page } = await openPage();
    await searchResults(page, '?postcode=AB10+1AB');
    await page.getByRole('link', { name: 'Union Street Food Bank', exact: true }).click();
    await page.waitForURL(/service=/);
    await expect.poll(() => page.locator('h1').textContent()).toBe('Union Street Food Bank');
    const week = page.locator('table.week').first();
    const rows = await week
      .locator('tbody tr')
      .evaluateAll((trs) =>
        trs.map((tr) => [
          tr.querySelector('th')?.textContent?.trim(),
          tr.querySelector('td')?.textContent?.trim(),
        ]),
      );
    expect(rows).toEqual([
      ['Monday', '10:00–14:00'],
      ['Tuesday', 'Closed'],
      ['Wednesday', '10:00–14:00'],
      ['Thursday', 'Closed'],
      ['Friday', '10:00–14:00'],
      ['Saturday', '09:30–12:00'],
      ['Sunday', 'Closed'],
    ]);
    const text = await page.locator('main').innerText();
    for (const expected of [
      'Anyone who lives in Aberdeen City.',
      'Ages: 16 and over',
      'Hot lunch – £2.50',
      'Polish',
      'Step-free entrance from Union Street.',
      '1 Union Street, Aberdeen AB10 1AB',
      'Run by Aberdeen Community Trust',
    ]) {
      expect(text).toContain(expected);
    }
    await page.screenshot({ path: `${shots}record.png`, fullPage: true });
    await expectAccessible(page);
    // Back to the search it came from.
    await page.getByRole('link', { name: 'Back to results' }).click();
    await page.waitForURL((url) => url.searchParams.get('postcode') === 'AB10 1AB');
    await page.locator('.result').first().waitFor();
    expect(await resultNames(page)).toEqual(NEAREST_FIRST);
  });

  it("says in plain words that a postcode is unknown or malformed, not the API's detail", async () => {
    const { page } = await openPage();
    for (const [postcode, plain] of [
      [
        'SW1A 1AA',
        'We could not find that postcode. Check it, or try just its first part (for example AB10).',
      ],
      ['not a postcode', 'That does not look like a postcode. Check it and try again.'],
    ] as const) {
      const api = await apiPage(`?postcode=${encodeURIComponent(postcode)}`);
      expect(api.detail).toBeTruthy();
      await page.goto(`${base}/explore?postcode=${encodeURIComponent(postcode)}`);
      const alert = page.getByRole('alert');
      await alert.waitFor();
      expect(await alert.locator('.error-detail').textContent()).toBe(plain);
      // The form is still there, holding what was typed, to correct it.
      expect(await page.locator('#postcode').inputValue()).toBe(postcode);
    }
    await page.screenshot({ path: `${shots}unknown-postcode.png` });
  });

  it('works behind a proxy that mounts the API under a path', async () => {
    const { page } = await openPage(proxied);
    await page.goto(`${proxied}/directory/explore?postcode=AB10+1AB`);
    await page.locator('.result').first().waitFor();
    expect(await resultNames(page)).toEqual(NEAREST_FIRST);
    await page.getByRole('link', { name: 'Holburn Debt Advice', exact: true }).click();
    await expect.poll(() => page.locator('h1').textContent()).toBe('Holburn Debt Advice');
    expect(new URL(page.url()).pathname).toBe('/directory/explore');
  });

  it('reads well on a phone and passes the axe check', async () => {
    const { page } = await openPage(base, { width: 390, height: 844 });
    await searchResults(page, '?postcode=AB10+1AB&proximity=10000');
    await page.locator('.result', { hasText: 'Union Street Food Bank' }).getByRole('button').click();
    // Nothing wider than the screen: no sideways scrolling.
    expect(await page.evaluate<number>('document.documentElement.scrollWidth')).toBeLessThanOrEqual(390);
    await page.screenshot({ path: `${shots}phone.png`, fullPage: true });
    await expectAccessible(page);
  });

  it('asks what is open at a time, for an age, in a language, free, and prints the list', async () => {
    const { page } = await openPage();
    await searchResults(page, '?postcode=AB10+1AB&proximity=10000');
    // Saturday 7 March 2026, 10:00: only the food bank opens on Saturdays (09:30 to 12:00).
    await page.fill('#open_at', '2026-03-07T10:00');
    await page.fill('#age', '20');
    await page.fill('#language', 'Polish');
    await page.check('#free');
    await page.getByRole('button', { name: 'Search' }).click();
    await page.waitForURL(/open_at=/);
    await page.locator('.status', { hasText: 'place' }).waitFor();
    expect(await resultNames(page)).toEqual(['Union Street Food Bank']);
    // Its next opening, from its weekly hours (Mon, Wed, Fri and Sat), in the browser's time.
    expect(await page.locator('.result .next-opening').textContent()).toMatch(
      /^(Open now until \d\d:\d\d|Opens (today|Mon|Tue|Wed|Thu|Fri|Sat|Sun) \d\d:\d\d)$/,
    );
    expect(new URL(page.url()).searchParams.get('age')).toBe('20');
    expect(await page.locator('.status').textContent()).toContain('open at 2026-03-07 10:00');
    // The controls keep the search on the new page.
    expect(await page.locator('#free').isChecked()).toBe(true);
    expect(await page.locator('#language').inputValue()).toBe('Polish');

    // "Open now" replaces the time: one question, as the API takes one.
    await page.fill('#language', '');
    await page.fill('#age', '');
    await page.uncheck('#free');
    await page.check('#open_now');
    await page.getByRole('button', { name: 'Search' }).click();
    await page.waitForURL(/open_now=true/);
    expect(new URL(page.url()).searchParams.has('open_at')).toBe(false);
    await page.locator('.status', { hasText: 'open now' }).waitFor();

    // The print view: the list alone, each with a link to its details written out.
    await searchResults(page, '?postcode=AB10+1AB&proximity=10000');
    await expect.poll(() => page.getByRole('button', { name: 'Print this list' }).count()).toBe(1);
    await page.emulateMedia({ media: 'print' });
    expect(await page.locator('.search-form').isVisible()).toBe(false);
    expect(await page.locator('#map').isVisible()).toBe(false);
    const link = page.locator('.result .print-only dd').first();
    expect(await link.isVisible()).toBe(true);
    expect(await link.textContent()).toMatch(/\/explore\?service=/);
    await page.screenshot({ path: `${shots}print.png`, fullPage: true });
    await page.emulateMedia({ media: 'screen' });
  });

  it('pages through results with links that keep the search', async () => {
    const { page } = await openPage();
    await searchResults(page, '?postcode=AB10+1AB&per_page=2');
    expect(await resultNames(page)).toEqual(NEAREST_FIRST.slice(0, 2));
    expect(await page.locator('.pager').textContent()).toContain('Page 1 of 3');
    await page.getByRole('link', { name: 'Next page' }).click();
    await page.waitForURL((url) => url.searchParams.get('page') === '2');
    await page.locator('.result').first().waitFor();
    expect(await resultNames(page)).toEqual(NEAREST_FIRST.slice(2, 4));
    // Numbered on from the first page, on the list and on the map.
    expect(await page.locator('.result-number').allTextContents()).toEqual(['3', '4']);
    expect(new URL(page.url()).searchParams.get('postcode')).toBe('AB10 1AB');
    await page.getByRole('link', { name: 'Previous page' }).click();
    await page.waitForURL((url) => !url.searchParams.has('page'));
    await page.locator('.result').first().waitFor();
    expect(await resultNames(page)).toEqual(NEAREST_FIRST.slice(0, 2));
  });
});

/**
 * A directory without locations (test/fixtures/explore/no-locations.json: the shape of two real
 * councils' ORUK feeds), beside one service at two places: searched through /services, each
 * result with its areas served, contact, phone, e-mail and website; the status counting services;
 * a broad category finding what is filed under its narrower terms; a placeholder organization left
 * out.
 */
describe.skipIf(!chromium)('/explore on a directory without locations', () => {
  const fixture = JSON.parse(
    readFileSync(fileURLToPath(new URL('../fixtures/explore/no-locations.json', import.meta.url)), 'utf8'),
  ) as {
    services: { id: string; name: string }[];
    taxonomies: object[];
    taxonomyTerms: { id: string; name: string }[];
  };
  const food = fixture.taxonomyTerms.find((t) => t.name === 'Food')!;
  const byName = (name: string) => fixture.services.find((s) => s.name === name)!;
  const noLocations = createTestEngine('explore-no-locations');
  let here: ServerType;
  let origin: string;

  beforeAll(async () => {
    await seedReadIndices(noLocations, fixture as Parameters<typeof seedReadIndices>[1]);
    const started = await listen(
      createTestApp(noLocations, { EXPLORE_TILE_URL: `${TILES}/{z}/{x}/{y}.png` }).fetch,
    );
    here = started.server;
    origin = started.url;
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
    await close(here);
    await dropTestIndices(noLocations);
  });

  const api = async (path: string) =>
    (await (await fetch(`${origin}${path}`)).json()) as { total_items: number; contents: { id: string }[] };
  const status = (page: Page) => page.locator('.status', { hasText: /^\d+ services?\.|^No services/ });

  it('finds what /services finds, with areas served, contact, phone, e-mail and website', async () => {
    const { page } = await openPage(origin);
    const services = await api('/services?search=food%20bank');
    expect(services.total_items).toBeGreaterThan(0);
    // The places alone would find nothing but the pantry: most services here have no location.
    await page.goto(`${origin}/explore?search=food+bank`);
    await status(page).waitFor();
    expect(await page.locator('.status').textContent()).toMatch(
      new RegExp(`^${services.total_items} services?\\.`),
    );
    const result = page.locator('.result', { hasText: 'Southmead Community Food Bank' });
    expect(await result.locator('.organization').textContent()).toBe('Southmead Food Trust');
    expect(await result.locator('.areas').textContent()).toBe('Southmead, Henbury');
    expect(await result.locator('.contact').textContent()).toBe('Sam Jones, Volunteer coordinator');
    expect(await result.getByRole('link', { name: '0117 000 0001' }).getAttribute('href')).toBe(
      'tel:01170000001',
    );
    expect(await result.getByRole('link', { name: 'help@food.example.org' }).getAttribute('href')).toBe(
      'mailto:help@food.example.org',
    );
    expect(await result.locator('.website a').getAttribute('href')).toBe(
      'https://food.example.org/southmead',
    );
    await page.screenshot({ path: `${shots}no-locations.png`, fullPage: true });
    await expectAccessible(page);
  });

  it('counts services, not the places they are offered at', async () => {
    const { page } = await openPage(origin);
    await page.goto(`${origin}/explore`);
    await status(page).waitFor();
    // Four services, one of them at two places: four results, four services.
    expect(await page.locator('.status').textContent()).toMatch(/^4 services\./);
    expect(await resultNames(page)).toEqual([
      'Hartcliffe Debt Advice',
      'Knowle West Lunch Club',
      'Lawrence Hill Food Pantry',
      'Southmead Community Food Bank',
    ]);
    // The service with places is on the map, at its first place.
    await expect.poll(() => page.locator('#map .result-marker').count()).toBe(1);
  });

  it('finds, for a broad category, the services filed under its narrower terms', async () => {
    const { page } = await openPage(origin);
    // Filed directly under "Food": the pantry alone; below it, the food bank and the lunch club.
    expect((await api(`/services?taxonomy_term_id=${food.id}&include_child_terms=false`)).total_items).toBe(
      1,
    );
    expect((await api(`/services?taxonomy_term_id=${food.id}`)).total_items).toBe(3);
    await page.goto(`${origin}/explore`);
    await status(page).waitFor();
    await expect.poll(() => page.locator('#taxonomy_term_id option').count()).toBeGreaterThan(1);
    await page.selectOption('#taxonomy_term_id', { label: 'Food' });
    await page.getByRole('button', { name: 'Search' }).click();
    await page.waitForURL(/taxonomy_term_id=/);
    await status(page).waitFor();
    expect(new URL(page.url()).searchParams.get('taxonomy_term_id')).toBe(food.id);
    expect(await resultNames(page)).toEqual([
      'Knowle West Lunch Club',
      'Lawrence Hill Food Pantry',
      'Southmead Community Food Bank',
    ]);
    expect(await page.locator('.status').textContent()).toMatch(/^3 services\./);
  });

  it('leaves out an organization the feed never named, in the list and on the record page', async () => {
    const { page } = await openPage(origin);
    await page.goto(`${origin}/explore?search=lunch`);
    await status(page).waitFor();
    const result = page.locator('.result', { hasText: 'Knowle West Lunch Club' });
    await result.waitFor();
    expect(await result.locator('.organization').count()).toBe(0);
    expect(await page.locator('main').innerText()).not.toContain('Unknown organization');
    await page.goto(`${origin}/explore?service=${byName('Knowle West Lunch Club').id}`);
    await expect.poll(() => page.locator('h1').textContent()).toBe('Knowle West Lunch Club');
    expect(await page.locator('main').innerText()).not.toContain('Unknown organization');
    expect(await page.locator('.record .organization').count()).toBe(0);
  });
});
