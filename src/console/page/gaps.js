/**
 * Search gaps: what people searched for (GET /admin/search-report): searches, zero-result and
 * relaxed searches per day, and the top, zero-result and relaxed texts. Each text can be tried
 * again against /services, to see whether a new record or vocabulary rule answers it now.
 */
import { call } from './api.js';
import { count } from './format.js';
import { html, render } from './vendor/lit-html.js';

export const id = 'gaps';
export const title = 'Search gaps';

export function show(root) {
  let report;
  let days = 30;
  let message = '';
  const tried = new Map();

  const draw = () => {
    if (root.dataset.page === id) render(view(), root);
  };

  async function load() {
    try {
      report = await call('GET', `admin/search-report?days=${days}`);
    } catch (error) {
      message = error.message;
    }
    draw();
  }

  async function tryAgain(query) {
    tried.set(query, 'searching');
    draw();
    try {
      const page = await call('GET', `services?search=${encodeURIComponent(query)}&per_page=1`);
      tried.set(query, page.total_items);
    } catch (error) {
      tried.set(query, error.message);
    }
    draw();
  }

  const outcome = (query) => {
    const found = tried.get(query);
    if (found === undefined) return '';
    if (found === 'searching') return html`<span role="status">Searching…</span>`;
    if (typeof found === 'number')
      return html`<span role="status" class=${found > 0 ? 'found' : 'not-found'}>Now: ${found > 0 ? `${count(found)} services found` : 'still nothing found'}</span>`;
    return html`<span class="error">${found}</span>`;
  };

  const list = (rows, caption, name) =>
    html`<div class="table-wrap" tabindex="0" role="region" aria-label=${`${caption}, scrolls sideways`}><table class=${name}>
      <caption>${caption}</caption>
      <thead><tr><th scope="col">Search</th><th scope="col">Searches</th><th scope="col">Found nothing</th><th scope="col">Relaxed</th><th scope="col">Days</th><th scope="col">Try it now</th></tr></thead>
      <tbody>${
        rows.length === 0
          ? html`<tr><td colspan="6">None in this period.</td></tr>`
          : rows.map(
              (
                q,
              ) => html`<tr><th scope="row">${q.query ?? html`<span class="hint">(held back: searched on too few days)</span>`}</th>
                <td>${count(q.searches)}</td><td>${count(q.zero_results)}</td><td>${count(q.relaxed)}</td><td>${count(q.days)}</td>
                <td>${
                  q.query && !/\[/.test(q.query)
                    ? html`<button type="button" class="secondary small" aria-label=${`Search again for ${q.query}`} @click=${() => tryAgain(q.query)}>Search again</button> ${outcome(q.query)}`
                    : ''
                }</td></tr>`,
            )
      }</tbody></table></div>`;

  const view = () => html`<h1>Search gaps</h1>
    <label for="gap-days">Period</label>
    <select id="gap-days" @change=${(e) => {
      days = Number(e.target.value);
      load();
    }}>
      ${[1, 7, 30, 90].map((d) => html`<option value=${d} ?selected=${d === days}>The last ${d === 1 ? 'day' : `${d} days`}</option>`)}
    </select>
    ${message ? html`<p class="error" role="alert">${message}</p>` : ''}
    ${
      !report
        ? html`<p role="status">Loading…</p>`
        : html`${
            report.retention_days === 0
              ? html`<p class="error">This server records no searches (SEARCH_LOG_RETENTION_DAYS=0).</p>`
              : ''
          }
          <p>${count(report.totals.searches)} searches from ${report.from} to ${report.to}: ${count(report.totals.zero_results)} found nothing,
            ${count(report.totals.relaxed)} found something only once relaxed. A text shows once searched on ${report.min_days} days or more.</p>
          ${list(report.zero_result_queries, 'Searches that found nothing', 'zero')}
          ${list(report.relaxed_queries, 'Searches that found something only once relaxed', 'relaxed')}
          ${list(report.top_queries, 'The most searched', 'top')}
          <div class="table-wrap" tabindex="0" role="region" aria-label="Per day, scrolls sideways"><table>
            <caption>Per day</caption>
            <thead><tr><th scope="col">Day</th><th scope="col">Searches</th><th scope="col">Found nothing</th><th scope="col">Relaxed</th></tr></thead>
            <tbody>${[...report.per_day]
              .reverse()
              .filter((d) => d.searches > 0)
              .map(
                (d) =>
                  html`<tr><th scope="row">${d.day}</th><td>${count(d.searches)}</td><td>${count(d.zero_results)}</td><td>${count(d.relaxed)}</td></tr>`,
              )}</tbody></table></div>`
    }`;

  draw();
  load();
}
