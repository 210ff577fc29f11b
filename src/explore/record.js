/**
 * One service, fully nested (`/services/{id}`), laid out for a person: how to contact it, when it
 * is open (a week table), who it is for, what it costs, languages, and each place it is offered
 * with its address, accessibility and own opening times.
 */
import { ApiError, getJson, getSettings } from './api.js';
import {
  areaShapes,
  formatAddress,
  formatAges,
  formatCost,
  formatDay,
  linkHref,
  locationAddress,
  shownOrganization,
  telHref,
  weekTable,
} from './format.js';
import { createMap } from './map.js';
import { html, nothing, render } from './vendor/lit-html.js';

const section = (title, content) =>
  content === nothing || content === '' || content === undefined
    ? nothing
    : html`<section class="record-section"><h2>${title}</h2>${content}</section>`;

const paragraph = (text) => (text ? html`<p>${text}</p>` : nothing);

// A record's link, only when it is a web, mail or phone link (linkHref); anything else is shown
// as text (`plain`, by default the text of the link), never followed.
const link = (href, text = href, plain = text) => {
  if (!href) return nothing;
  const safe = linkHref(href);
  return safe ? html`<a href=${safe}>${text}</a>` : plain;
};

function phoneList(phones) {
  if (!phones?.length) return nothing;
  return html`<ul class="plain">
    ${phones.map(
      (phone) => html`<li>
        <a href=${telHref(phone.number)}>${phone.number}</a>${phone.extension ? ` ext. ${phone.extension}` : ''}
        ${phone.description ? html`<span class="muted"> – ${phone.description}</span>` : nothing}
      </li>`,
    )}
  </ul>`;
}

/** Opening times as a table: a row a day, then the schedules that are not weekly, as notes. */
export function openingTable(schedules, caption, { hideCaption = false } = {}) {
  const table = weekTable(schedules);
  if (table.empty) return nothing;
  const anyWeekly = table.rows.some((row) => row.times.length > 0);
  return html`
    ${
      anyWeekly
        ? html`<table class="week">
          <caption class=${hideCaption ? 'visually-hidden' : ''}>${caption}</caption>
          <thead><tr><th scope="col">Day</th><th scope="col">Open</th></tr></thead>
          <tbody>
            ${table.rows.map(
              (row) => html`<tr>
                <th scope="row">${row.name}</th>
                <td>${row.times.length > 0 ? row.times.join(', ') : row.closed ? 'Closed' : '–'}</td>
              </tr>`,
            )}
          </tbody>
        </table>`
        : nothing
    }
    ${table.notes.length > 0 ? html`<ul class="notes">${table.notes.map((note) => html`<li>${note}</li>`)}</ul>` : nothing}
  `;
}

function contact(service) {
  const organization = shownOrganization(service.organization) ?? {};
  const parts = [
    phoneList(service.phones),
    service.email ? html`<p>Email: ${link(`mailto:${service.email}`, service.email)}</p>` : nothing,
    service.url ? html`<p>Website: ${link(service.url)}</p>` : nothing,
    ...(service.contacts ?? []).map(
      (person) => html`<div class="contact">
        <p><strong>${person.name ?? 'Contact'}</strong>${person.title ? `, ${person.title}` : ''}${person.department ? ` (${person.department})` : ''}</p>
        ${person.email ? html`<p>Email: ${link(`mailto:${person.email}`, person.email)}</p>` : nothing}
        ${phoneList(person.phones)}
      </div>`,
    ),
  ].filter((part) => part !== nothing);
  if (parts.length === 0 && !organization.website) return nothing;
  return html`${parts}`;
}

function whoFor(service) {
  const ages = formatAges(service.minimum_age, service.maximum_age);
  const audiences = (service.attributes ?? []).filter(
    (attribute) =>
      attribute.link_type === 'audience' || attribute.taxonomy_term?.taxonomy === 'Service Audiences',
  );
  const parts = [
    paragraph(service.eligibility_description),
    ages ? html`<p>Ages: ${ages}</p>` : nothing,
    audiences.length > 0
      ? html`<ul class="tags">${audiences.map((a) => html`<li>${a.taxonomy_term?.name ?? a.label}</li>`)}</ul>`
      : nothing,
  ].filter((part) => part !== nothing);
  return parts.length > 0 ? html`${parts}` : nothing;
}

function cost(service) {
  const options = service.cost_options ?? [];
  if (!service.fees_description && options.length === 0) return nothing;
  return html`
    ${paragraph(service.fees_description)}
    ${options.length > 0 ? html`<ul>${options.map((option) => html`<li>${formatCost(option)}</li>`)}</ul>` : nothing}
  `;
}

function languages(service) {
  const names = (service.languages ?? []).map((language) => language.name || language.code).filter(Boolean);
  if (names.length === 0 && !service.interpretation_services) return nothing;
  return html`
    ${names.length > 0 ? html`<ul class="tags">${names.map((name) => html`<li>${name}</li>`)}</ul>` : nothing}
    ${paragraph(service.interpretation_services)}
  `;
}

function howToGetHelp(service) {
  const documents = service.required_documents ?? [];
  if (!service.application_process && documents.length === 0) return nothing;
  return html`
    ${paragraph(service.application_process)}
    ${
      documents.length > 0
        ? html`<p>Bring:</p><ul>${documents.map((d) => html`<li>${d.document ?? d.uri}</li>`)}</ul>`
        : nothing
    }
  `;
}

function place(sal, service) {
  const location = sal.location ?? {};
  const address = formatAddress(locationAddress(location));
  const schedules = sal.schedules?.length ? sal.schedules : (location.schedules ?? []);
  return html`
    <li class="place">
      <h3>${location.name ?? service.name}</h3>
      ${address ? html`<p class="address">${address}</p>` : nothing}
      ${location.location_type === 'virtual' ? html`<p>Online: ${link(location.url)}</p>` : nothing}
      ${paragraph(sal.description && sal.description !== location.description ? sal.description : '')}
      ${location.transportation ? html`<p>Getting there: ${location.transportation}</p>` : nothing}
      ${
        location.accessibility?.length
          ? html`<h4>Accessibility</h4>
            <ul>${location.accessibility.map((a) => html`<li>${[a.description, a.details].filter(Boolean).join(' ')}${a.url ? html` ${link(a.url, 'More', a.url)}` : nothing}</li>`)}</ul>`
          : nothing
      }
      ${phoneList([...(sal.phones ?? []), ...(location.phones ?? [])])}
      ${openingTable(schedules, `Opening times at ${location.name ?? 'this place'}`)}
    </li>
  `;
}

function view(service, referrer) {
  const organization = shownOrganization(service.organization);
  const sals = service.service_at_locations ?? [];
  const areas = service.service_areas ?? [];
  const categories = (service.attributes ?? []).filter(
    (a) => a.link_type !== 'audience' && a.taxonomy_term?.taxonomy !== 'Service Audiences',
  );
  return html`
    <p class="back">${referrer ? html`<a href=${referrer}>Back to results</a>` : html`<a href="explore">Search for services</a>`}</p>
    <article class="record" aria-labelledby="record-name">
      <h1 id="record-name">${service.name}</h1>
      ${service.alternate_name ? html`<p class="alternate-name">Also known as ${service.alternate_name}</p>` : nothing}
      ${organization ? html`<p class="organization">Run by ${organization.website ? link(organization.website, organization.name) : organization.name}</p>` : nothing}
      ${service.status && service.status !== 'active' ? html`<p class="notice">This service is ${service.status.replace(/_/g, ' ')}.</p>` : nothing}
      ${service.alert ? html`<p class="notice" role="note">${service.alert}</p>` : nothing}
      ${paragraph(service.description)}
      <div class="record-grid">
        <div>
          ${section('Contact', contact(service))}
          ${section('Opening times', openingTable(service.schedules, 'Opening times', { hideCaption: true }))}
          ${section('Who it is for', whoFor(service))}
          ${section('Cost', cost(service))}
          ${section('How to get help', howToGetHelp(service))}
          ${section('Languages', languages(service))}
          ${section(
            'Where',
            sals.length > 0
              ? html`<ul class="places">${sals.map((sal) => place(sal, service))}</ul>`
              : nothing,
          )}
          ${section(
            'Areas served',
            areas.length > 0
              ? html`<ul>${areas.map((area) => html`<li>${area.name ?? area.description ?? 'Service area'}</li>`)}</ul>`
              : nothing,
          )}
          ${section(
            'Categories',
            categories.length > 0
              ? html`<ul class="tags">${categories.map((a) => html`<li>${a.taxonomy_term?.name ?? a.label}</li>`)}</ul>`
              : nothing,
          )}
          ${section(
            'Funding',
            service.funding?.length
              ? html`<ul>${service.funding.map((f) => html`<li>${f.source}</li>`)}</ul>`
              : nothing,
          )}
        </div>
        <aside class="record-map" aria-labelledby="record-map-heading">
          <h2 id="record-map-heading">Map</h2>
          <div id="map" class="map" role="region" aria-label="Map of where ${service.name} is offered"></div>
        </aside>
      </div>
      <p class="meta">
        ${service.last_modified ? html`Last updated ${formatDay(service.last_modified)}. ` : nothing}
        <a href="services/${service.id}">This record as HSDS JSON</a>
      </p>
    </article>
  `;
}

/** The search the person came from, when they came from this page's search. */
function searchReferrer() {
  try {
    const from = new URL(document.referrer);
    if (
      from.origin === location.origin &&
      from.pathname === location.pathname &&
      !from.searchParams.has('service')
    ) {
      return from.search || 'explore';
    }
  } catch {
    // No referrer, or not a URL: no way back but a new search.
  }
  return undefined;
}

export async function showRecordPage(root, id) {
  render(html`<p class="status" role="status">Loading the service…</p>`, root);
  let service;
  try {
    service = await getJson(`services/${encodeURIComponent(id)}`);
  } catch (error) {
    const message =
      error instanceof ApiError && error.status === 404
        ? 'There is no service with this id. It may have been removed.'
        : error.message;
    render(
      html`<p class="back"><a href="explore">Search for services</a></p>
        <h1>Service not found</h1>
        <div class="error" role="alert"><p class="error-detail">${message}</p></div>`,
      root,
    );
    return;
  }
  document.title = `${service.name} – Find help near you`;
  render(view(service, searchReferrer()), root);
  const places = (service.service_at_locations ?? []).flatMap((sal, i) => {
    const { latitude, longitude, name } = sal.location ?? {};
    return typeof latitude === 'number' && typeof longitude === 'number'
      ? [{ id: sal.id, number: i + 1, name: name ?? service.name, lat: latitude, lon: longitude }]
      : [];
  });
  const shapes = areaShapes([
    ...(service.service_areas ?? []),
    ...(service.service_at_locations ?? []).flatMap((sal) => sal.service_areas ?? []),
  ]);
  if (places.length === 0 && shapes.length === 0) {
    root.querySelector('.record-map')?.remove();
    return;
  }
  const settings = await getSettings().catch(() => ({}));
  const map = createMap(root.querySelector('#map'), settings);
  map.showResults(places);
  if (shapes.length > 0) map.select(undefined, shapes);
}
