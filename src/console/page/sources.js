/**
 * Sources: each source's last import, records, freshness, completeness and placeholder
 * organizations (GET /admin/sources). A stale source stands out: its last import is older than
 * STALE_DAYS, failed or never finished, or most of its services were not updated within a year.
 */
import { call } from './api.js';
import { count, daysSince, percent, when } from './format.js';
import { html, render } from './vendor/lit-html.js';

export const id = 'sources';
export const title = 'Sources';

export const STALE_DAYS = 30;

/** Why a source is stale, or undefined when it is not. */
export function staleness(source, now = Date.now()) {
  const last = source.last_import;
  if (!last) return 'never imported';
  if (last.state === 'failed' || last.state === 'abandoned') return `last import ${last.state}`;
  const age = daysSince(last.finished_at ?? last.started_at, now);
  if (age > STALE_DAYS) return `last import ${age} days ago`;
  const m = source.last_modified;
  const total = m ? m.within_30_days + m.within_365_days + m.older + m.none : 0;
  if (total > 0 && (m.older + m.none) / total > 0.5) return 'most services not updated within a year';
  return undefined;
}

export function show(root) {
  let sources;
  let message = '';
  const draw = () => {
    if (root.dataset.page === id) render(view(), root);
  };
  const row = (s) => {
    const stale = staleness(s);
    const fresh = s.services > 0 ? s.last_modified.within_30_days / s.services : 0;
    return html`<tr class=${stale ? 'stale' : ''}>
      <th scope="row">${s.source}${stale ? html` <span class="badge">Stale: ${stale}</span>` : ''}</th>
      <td>${s.last_import ? html`${s.last_import.state}, ${when(s.last_import.finished_at ?? s.last_import.started_at)}` : '—'}</td>
      <td>${count(s.services)}</td>
      <td>${percent(fresh)}</td>
      <td>${percent(s.shares.phone)} / ${percent(s.shares.schedule)} / ${percent(s.shares.located_address)}</td>
      <td>${count(s.placeholder_organizations)}</td>
      <td>${count(s.last_import?.counts?.rejected)}</td>
    </tr>`;
  };
  const view = () => html`<h1>Sources</h1>
    ${message ? html`<p class="error" role="alert">${message}</p>` : ''}
    ${
      sources === undefined
        ? html`<p role="status">Loading…</p>`
        : sources.length === 0
          ? html`<p>No source imported yet. <a href="admin#run">Run an import.</a></p>`
          : html`<div class="table-wrap" tabindex="0" role="region" aria-label="Table, scrolls sideways"><table>
            <caption>Each source's health. A source whose last import is over ${STALE_DAYS} days old, failed, or whose services are mostly older than a year is marked stale.</caption>
            <thead><tr><th scope="col">Source</th><th scope="col">Last import</th><th scope="col">Services</th>
              <th scope="col">Updated within 30 days</th><th scope="col">With phone / hours / address</th>
              <th scope="col">Placeholder organizations</th><th scope="col">Rejected last time</th></tr></thead>
            <tbody>${sources.map(row)}</tbody></table></div>`
    }`;
  draw();
  call('GET', 'admin/sources')
    .then((answer) => {
      sources = Array.isArray(answer) ? answer : (answer.sources ?? []);
      draw();
    })
    .catch((error) => {
      // Before the first import the engine has no control index yet: nothing to report, no fault.
      if (error.status !== 404) message = error.message;
      sources = [];
      draw();
    });
}
