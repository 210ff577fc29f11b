/**
 * The search page: a GET form whose fields are the API's own parameters, so the page's URL is the
 * search (shareable, bookmarkable, and the browser's back button works). Each search is a page
 * load; the page reads its URL and shows the results as a list and on the map. A search by
 * postcode asks `/service_at_locations` (places, nearest first, with their distance); any other
 * asks `/services`, so it finds every service, those without a location too (many directories
 * publish none: areas served, contacts and a website instead), and counts services, not places.
 */
import { ApiError, getJson, getSettings, queryOf } from './api.js';
import {
  areaNames,
  areaShapes,
  contactLine,
  describeNextOpening,
  emailOf,
  firstPhone,
  formatAddress,
  formatDistance,
  linkHref,
  locationAddress,
  shownOrganization,
  summariseOpening,
  telHref,
  toResult,
} from './format.js';
import { createMap } from './map.js';
import { html, nothing, render } from './vendor/lit-html.js';

export const PER_PAGE = 10;
const FIELDS = [
  'search',
  'postcode',
  'proximity',
  'taxonomy_term_id',
  'open_now',
  'open_at',
  'age',
  'language',
  'free',
  // Constraints the person removed from what the search was understood to ask (understoodChips).
  'ignore_understood',
];
const DISTANCES = [
  ['', 'Any distance'],
  ['1000', 'Within 1 km'],
  ['2000', 'Within 2 km'],
  ['5000', 'Within 5 km'],
  ['10000', 'Within 10 km'],
  ['25000', 'Within 25 km'],
];

/** The search in the page's URL: the form's fields and the page number. */
export function readSearch(params) {
  const search = Object.fromEntries(FIELDS.map((name) => [name, params.get(name)?.trim() ?? '']));
  const page = Number(params.get('page'));
  const perPage = Number(params.get('per_page'));
  return {
    ...search,
    page: Number.isInteger(page) && page > 1 ? page : 1,
    // A page size in the URL is kept (a link can ask for more); the form never sets one.
    perPage: Number.isInteger(perPage) && perPage >= 1 && perPage <= 50 ? perPage : PER_PAGE,
  };
}

const hasCriteria = (search) => FIELDS.some((name) => search[name] !== '');

/**
 * Taxonomy terms as select options: one group per top-level term that has children (the term
 * itself first, which finds everything under it, then its descendants, indented by depth), and one
 * per taxonomy for the rest.
 */
export function termGroups(terms) {
  const children = new Map();
  for (const term of terms) {
    const siblings = children.get(term.parent_id ?? '') ?? [];
    siblings.push(term);
    children.set(term.parent_id ?? '', siblings);
  }
  const byName = (a, b) => a.name.localeCompare(b.name);
  const descendants = (term, depth) =>
    (children.get(term.id) ?? [])
      .sort(byName)
      .flatMap((child) => [{ term: child, depth }, ...descendants(child, depth + 1)]);
  const groups = [];
  const loose = new Map();
  for (const top of (children.get('') ?? []).sort(byName)) {
    if (children.has(top.id)) {
      groups.push({ label: top.name, options: [{ term: top, depth: 0 }, ...descendants(top, 1)] });
    } else {
      const taxonomy = top.taxonomy_detail?.name ?? top.taxonomy ?? 'Other';
      loose.set(taxonomy, [...(loose.get(taxonomy) ?? []), { term: top, depth: 0 }]);
    }
  }
  for (const [label, options] of loose) groups.push({ label, options });
  return groups;
}

const pageHref = (search, page) => {
  const params = Object.fromEntries(FIELDS.map((name) => [name, search[name]]));
  const perPage = search.perPage === PER_PAGE ? '' : search.perPage;
  return queryOf({ ...params, per_page: perPage, page: page > 1 ? page : '' }) || 'explore';
};

/** Empty fields are left out of the URL, so a shared link shows only the search that was made. */
function onSubmit(event) {
  const form = event.currentTarget;
  const postcode = form.elements.namedItem('postcode');
  for (const field of form.elements) {
    if (!field.name) continue;
    // A distance needs a postcode to measure from; without one it is not sent.
    const pointless = field.name === 'proximity' && postcode.value.trim() === '';
    // "Open now" and a time are one question: now wins, as the API takes one of them.
    const superseded = field.name === 'open_at' && form.elements.namedItem('open_now').checked;
    if (field.value.trim() === '' || pointless || superseded) field.disabled = true;
  }
}

function searchForm(search, groups) {
  const selected = (value, current) => value === current;
  return html`
    <form class="search-form" method="get" action="explore" role="search" @submit=${onSubmit}>
      <div class="field field-search">
        <label for="search">What are you looking for?</label>
        <input id="search" name="search" type="search" .value=${search.search} maxlength="500"
          placeholder="for example: food bank, debt advice" autocomplete="off" />
      </div>
      <div class="field">
        <label for="postcode">Postcode or ZIP code</label>
        <input id="postcode" name="postcode" type="text" .value=${search.postcode}
          autocomplete="postal-code" spellcheck="false" size="10" aria-describedby="postcode-hint" />
        <p class="hint" id="postcode-hint">For example AB10 1AB. Results come nearest first.</p>
      </div>
      <div class="field">
        <label for="proximity">Distance</label>
        <select id="proximity" name="proximity">
          ${DISTANCES.map(
            ([value, label]) =>
              html`<option value=${value} ?selected=${selected(value, search.proximity)}>${label}</option>`,
          )}
        </select>
      </div>
      <div class="field">
        <label for="taxonomy_term_id">Type of help</label>
        <select id="taxonomy_term_id" name="taxonomy_term_id">
          <option value="">Any</option>
          ${groups.map(
            (group) => html`<optgroup label=${group.label}>
              ${group.options.map(
                ({ term, depth }) =>
                  html`<option value=${term.id} ?selected=${selected(term.id, search.taxonomy_term_id)}>
                    ${'\u00a0\u00a0'.repeat(depth)}${term.name}
                  </option>`,
              )}
            </optgroup>`,
          )}
        </select>
      </div>
      <fieldset class="field field-when">
        <legend>When and who</legend>
        <div class="checks">
          <label><input type="checkbox" id="open_now" name="open_now" value="true"
            ?checked=${search.open_now === 'true'} /> Open now</label>
          <label><input type="checkbox" id="free" name="free" value="true"
            ?checked=${search.free === 'true'} /> Free only</label>
        </div>
        <div class="inline-fields">
          <div>
            <label for="open_at">Open at</label>
            <input id="open_at" name="open_at" type="datetime-local" .value=${search.open_at} />
          </div>
          <div>
            <label for="age">Age</label>
            <input id="age" name="age" type="number" min="0" max="200" inputmode="numeric" size="4"
              .value=${search.age} />
          </div>
          <div>
            <label for="language">Language</label>
            <input id="language" name="language" type="text" size="10" .value=${search.language}
              placeholder="for example: Polish" autocomplete="off" />
          </div>
        </div>
      </fieldset>
      <div class="field field-submit"><button type="submit">Search</button></div>
    </form>
  `;
}

function statusText(state) {
  const { search, results, error } = state;
  if (error) return '';
  if (!results) return hasCriteria(search) ? 'Searching…' : 'Loading services…';
  const total = results.total_items;
  const when =
    search.open_now === 'true'
      ? ' open now'
      : search.open_at
        ? ` open at ${search.open_at.replace('T', ' ')}`
        : '';
  // By postcode the results are places (a service offered at two places is two results).
  const noun = search.postcode ? (total === 1 ? 'place' : 'places') : total === 1 ? 'service' : 'services';
  const where = search.postcode
    ? ` ${search.proximity ? `within ${formatDistance(Number(search.proximity))} of` : 'for'} ${search.postcode.toUpperCase()}`
    : '';
  if (total === 0) return `No services found${when}${where}. Try a wider distance or fewer words.`;
  const order = search.postcode ? ', nearest first' : '';
  const range = `${(results.page_number - 1) * search.perPage + 1}–${(results.page_number - 1) * search.perPage + results.size}`;
  return `${total} ${noun}${when}${where}${order}. Showing ${range}.`;
}

/** The full details' address as printed: readable on paper, typed in by whoever gets the list. */
const shortLink = (id) => `${location.origin}${location.pathname}?service=${id}`;

function resultItem(item, number, state) {
  const { id, service, location, schedules, areas, phoneHolders, distance, nextOpening } = toResult(item);
  const phone = firstPhone(...phoneHolders);
  const opening = summariseOpening(schedules);
  const next = describeNextOpening(nextOpening);
  const address = formatAddress(locationAddress(location));
  const organization = shownOrganization(service.organization);
  const served = areaNames(areas);
  const contact = contactLine(service.contacts);
  const email = emailOf(service);
  const website = linkHref(service.url);
  const where =
    address ||
    location.name ||
    (location.location_type === 'virtual' ? 'Online or by phone' : served ? '' : 'Not given');
  const selected = state.selected === id;
  return html`
    <li class="result ${selected ? 'selected' : ''}" id="result-${id}" data-id=${id}>
      <article aria-labelledby="name-${id}">
        <div class="result-head">
          <span class="result-number" aria-hidden="true">${number}</span>
          <h3 id="name-${id}"><a href="?service=${service.id}">${service.name}</a></h3>
        </div>
        ${organization ? html`<p class="organization">${organization.name}</p>` : nothing}
        <dl class="facts">
          ${
            typeof distance === 'number'
              ? html`<div><dt>Distance</dt><dd class="distance" data-metres=${distance}>${formatDistance(distance)}</dd></div>`
              : nothing
          }
          ${where ? html`<div><dt>Where</dt><dd>${where}</dd></div>` : nothing}
          ${served ? html`<div><dt>Areas served</dt><dd class="areas">${served}</dd></div>` : nothing}
          ${contact ? html`<div><dt>Contact</dt><dd class="contact">${contact}</dd></div>` : nothing}
          ${phone ? html`<div><dt>Phone</dt><dd><a href=${telHref(phone.number)}>${phone.number}</a></dd></div>` : nothing}
          ${email ? html`<div><dt>Email</dt><dd><a href=${`mailto:${email}`}>${email}</a></dd></div>` : nothing}
          ${
            service.url
              ? html`<div><dt>Website</dt><dd class="website">${website ? html`<a href=${website}>${service.url}</a>` : service.url}</dd></div>`
              : nothing
          }
          ${opening ? html`<div><dt>Open</dt><dd>${opening}</dd></div>` : nothing}
          ${next ? html`<div><dt>Next</dt><dd class="next-opening">${next}</dd></div>` : nothing}
          <div class="print-only"><dt>Details</dt><dd>${shortLink(service.id)}</dd></div>
        </dl>
        <div class="result-actions">
          <button type="button" class="secondary" aria-pressed=${selected ? 'true' : 'false'}
            aria-controls="map" @click=${() => state.onSelect(id)}>
            ${selected ? 'Shown on the map' : 'Show area on the map'}
          </button>
          <a href="?service=${service.id}">Full details<span class="visually-hidden"> of ${service.name}</span></a>
        </div>
      </article>
    </li>
  `;
}

function pager(state) {
  const { results, search } = state;
  if (!results || results.total_pages <= 1) return nothing;
  const page = results.page_number;
  return html`
    <nav class="pager" aria-label="Result pages">
      ${page > 1 ? html`<a rel="prev" href=${pageHref(search, page - 1)}>Previous page</a>` : html`<span></span>`}
      <span>Page ${page} of ${results.total_pages}</span>
      ${page < results.total_pages ? html`<a rel="next" href=${pageHref(search, page + 1)}>Next page</a>` : html`<span></span>`}
    </nav>
  `;
}

const CONSTRAINT_LABELS = { place: 'Place', language: 'Language', age: 'Age', cost: 'Cost' };

/**
 * What the search was understood to ask beside its need (the page's `understood`: a place, a
 * language, an age, a cost), one chip each; a chip's remove link searches again without it
 * (`ignore_understood`), so a wrong reading is one click from undone.
 */
function understoodChips(state) {
  const understood = state.results?.understood;
  if (!understood) return nothing;
  const kinds = Object.keys(understood).filter((kind) => understood[kind]);
  if (kinds.length === 0) return nothing;
  const ignored = state.search.ignore_understood ? state.search.ignore_understood.split(',') : [];
  const without = (kind) => pageHref({ ...state.search, ignore_understood: [...ignored, kind].join(',') }, 1);
  return html`<ul class="understood" aria-label="Understood from your search">
    ${kinds.map((kind) => {
      const { text, applied } = understood[kind];
      const note =
        applied === 'relaxed'
          ? ' (nothing matched it, so it was dropped)'
          : applied === 'boost'
            ? ' (ranked first)'
            : '';
      return html`<li class="chip" data-kind=${kind}>
        <span>${CONSTRAINT_LABELS[kind] ?? kind}: “${text}”${note}</span>
        <a class="chip-remove" href=${without(kind)} aria-label=${`Search without ${text}`}>×</a>
      </li>`;
    })}
  </ul>`;
}

function view(state) {
  const { results, error } = state;
  const items = results?.contents ?? [];
  const first = results ? (results.page_number - 1) * state.search.perPage + 1 : 1;
  return html`
    <h1>Find help near you</h1>
    ${searchForm(state.search, state.groups)}
    <div class="results-layout">
      <section class="results" aria-labelledby="results-heading">
        <div class="results-head">
          <h2 id="results-heading">Results</h2>
          ${results?.contents?.length ? html`<button type="button" class="secondary print-button" @click=${() => window.print()}>Print this list</button>` : nothing}
        </div>
        <p class="status" role="status" aria-live="polite">${statusText(state)}</p>
        ${understoodChips(state)}
        ${error ? html`<div class="error" role="alert"><h3>We could not search</h3><p class="error-detail">${error}</p></div>` : nothing}
        ${items.length > 0 ? html`<ol class="result-list" start=${first}>${items.map((item, i) => resultItem(item, first + i, state))}</ol>` : nothing}
        ${pager(state)}
      </section>
      <section class="map-panel" aria-labelledby="map-heading">
        <h2 id="map-heading" class="visually-hidden">Map</h2>
        <div id="map" class="map" role="region" aria-label="Map of the results"></div>
        <p class="map-caption" aria-live="polite">${state.caption}</p>
      </section>
    </div>
  `;
}

export async function showSearchPage(root, params) {
  const state = {
    search: readSearch(params),
    groups: [],
    results: undefined,
    error: '',
    selected: undefined,
    caption: '',
    onSelect: (id) => select(id),
  };
  const draw = () => render(view(state), root);
  draw();

  const settings = await getSettings().catch(() => ({}));
  const map = createMap(root.querySelector('#map'), settings, { onSelect: (id) => select(id, true) });

  function select(id, fromMap = false) {
    const item = state.results?.contents.find((candidate) => candidate.id === id);
    if (!item) return;
    state.selected = id;
    const result = toResult(item);
    const shapes = areaShapes(result.areas);
    const bounds = map.select(id, shapes);
    const element = root.querySelector('#map');
    if (bounds) {
      element.dataset.areaOf = id;
      element.dataset.areaBounds = JSON.stringify([
        bounds.getWest(),
        bounds.getSouth(),
        bounds.getEast(),
        bounds.getNorth(),
      ]);
    } else {
      delete element.dataset.areaOf;
      delete element.dataset.areaBounds;
    }
    state.caption =
      shapes.length > 0
        ? `Showing the area served by ${result.service.name}.`
        : `${result.service.name} publishes no service area${result.areas.length > 0 ? ' to draw' : ''}.`;
    draw();
    if (fromMap) root.querySelector(`#result-${CSS.escape(id)}`)?.scrollIntoView({ block: 'nearest' });
  }

  getJson('taxonomy_terms', { per_page: 1000 })
    .then((page) => {
      state.groups = termGroups(page.contents);
      draw();
    })
    .catch(() => {
      // Without terms the filter offers "Any" only; the search itself still works.
    });

  const { page, perPage, ...criteria } = state.search;
  try {
    state.results = await getJson(criteria.postcode ? 'service_at_locations' : 'services', {
      ...criteria,
      proximity: criteria.postcode ? criteria.proximity : '',
      // A broad category finds what is filed under its narrower terms too.
      include_child_terms: criteria.taxonomy_term_id ? 'true' : '',
      full: 'true',
      next_opening: 'true',
      page,
      per_page: perPage,
    });
  } catch (error) {
    state.error = error instanceof ApiError ? error.message : 'Something went wrong while searching.';
  }
  document.title =
    state.search.search || state.search.postcode
      ? `${[state.search.search, state.search.postcode].filter(Boolean).join(' near ')} – Find help near you`
      : 'Find help near you';
  draw();
  const items = state.results?.contents ?? [];
  const first = state.results ? (state.results.page_number - 1) * state.search.perPage + 1 : 1;
  map.showResults(
    items.flatMap((item, i) => {
      const { id, service, location } = toResult(item);
      const { latitude, longitude } = location;
      if (typeof latitude !== 'number' || typeof longitude !== 'number') return [];
      return [{ id, number: first + i, name: service.name ?? '', lat: latitude, lon: longitude }];
    }),
  );
}
