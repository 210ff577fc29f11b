/**
 * Search gaps: what people searched for (GET /admin/search-report): searches, zero-result and
 * relaxed searches per day, and the top, zero-result and relaxed texts. Each text can be tried
 * again against /services, to see whether a new record or vocabulary rule answers it now.
 *
 * Beside a text that found nothing (or only once relaxed), "Add a synonym" opens a one-line form
 * for a rule in the syntax of SYNONYMS_FILE (`what people type => words services use`): posted to
 * /admin/vocabulary/rules, which stores it and reloads the served vocabulary, then the text is
 * searched again here. The operator rules are listed below, each with a Delete.
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
  // The operator rules (GET /admin/vocabulary/rules), the text whose synonym form is open, and
  // what the last add or delete said (an error names the parser's reason).
  let rules;
  let rulesMessage = '';
  let editing;
  let ruleError = '';
  let saving = false;

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

  async function loadRules() {
    try {
      rules = (await call('GET', 'admin/vocabulary/rules')).rules;
    } catch (error) {
      rulesMessage = error.message;
    }
    draw();
  }

  function openForm(key) {
    editing = key;
    ruleError = '';
    draw();
    root.querySelector('#synonym-rule')?.focus();
  }

  async function addRule(event, query) {
    event.preventDefault();
    const rule = event.target.querySelector('input').value;
    saving = true;
    ruleError = '';
    draw();
    try {
      const added = await call('POST', 'admin/vocabulary/rules', { body: { rule } });
      rulesMessage = `Added “${added.rule}”${added.served ? '' : ': searches will use it from the first reindex'}.`;
      editing = undefined;
      saving = false;
      await loadRules();
      if (query) await tryAgain(query);
    } catch (error) {
      ruleError = error.problem?.errors?.[0]?.reason ?? error.message;
      saving = false;
      draw();
      root.querySelector('#synonym-rule')?.focus();
    }
  }

  async function deleteRule(rule) {
    try {
      await call('DELETE', `admin/vocabulary/rules/${encodeURIComponent(rule.id)}`);
      rulesMessage = `Removed “${rule.rule}”.`;
    } catch (error) {
      rulesMessage = error.message;
    }
    await loadRules();
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

  const ruleForm = (query) => html`<form class="synonym-form" @submit=${(e) => addRule(e, query)} novalidate>
      <label for="synonym-rule">${query ? `Synonym rule for “${query}”` : 'Synonym rule'}</label>
      <input id="synonym-rule" type="text" autocomplete="off" spellcheck="false" .value=${query ? `${query} => ` : ''}
        aria-describedby="synonym-help${ruleError ? ' synonym-error' : ''}" aria-invalid=${ruleError ? 'true' : 'false'} />
      <p id="synonym-help" class="hint">What people type, then <code>=></code> and the words services use; or words that mean the same, split by commas.</p>
      ${ruleError ? html`<p id="synonym-error" class="error" role="alert">${ruleError}</p>` : ''}
      <button type="submit" class="small" ?disabled=${saving}>${query ? 'Add and search again' : 'Add'}</button>
      <button type="button" class="secondary small" @click=${() => {
        editing = undefined;
        draw();
      }}>Cancel</button>
    </form>`;

  const gapActions = (q, name) =>
    name === 'top'
      ? ''
      : editing === `${name}:${q.query}`
        ? ruleForm(q.query)
        : html` <button type="button" class="secondary small" aria-label=${`Add a synonym for ${q.query}`} @click=${() => openForm(`${name}:${q.query}`)}>Add a synonym</button>`;

  const rulesSection = () => html`<section aria-labelledby="rules-heading">
      <h2 id="rules-heading">Synonym rules added here</h2>
      <p class="hint">Beside the configured vocabulary (shipped files and SYNONYMS_FILE); stored in the engine, so every reindex keeps them.</p>
      ${rulesMessage ? html`<p role="status">${rulesMessage}</p>` : ''}
      ${
        !rules
          ? html`<p role="status">Loading…</p>`
          : rules.length === 0
            ? html`<p>None yet.</p>`
            : html`<ul class="vocabulary-rules">${rules.map(
                (rule) =>
                  html`<li><code>${rule.rule}</code> <span class="hint">added ${rule.created_at.slice(0, 10)}</span>
                    <button type="button" class="secondary small" aria-label=${`Delete the rule ${rule.rule}`} @click=${() => deleteRule(rule)}>Delete</button></li>`,
              )}</ul>`
      }
      ${
        editing === 'rules'
          ? ruleForm('')
          : html`<button type="button" class="secondary" @click=${() => openForm('rules')}>Add a rule</button>`
      }
    </section>`;

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
                    ? html`<button type="button" class="secondary small" aria-label=${`Search again for ${q.query}`} @click=${() => tryAgain(q.query)}>Search again</button> ${outcome(q.query)}${gapActions(q, name)}`
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
          ${rulesSection()}
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
  loadRules();
}
