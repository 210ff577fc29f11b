/**
 * Imports: this server's import runs with what each kept, repaired and rejected, by type and by
 * reason; each issue opens with its path, the value as published and what was done; the full
 * report (GET /admin/imports/{id}/report) downloads as JSON.
 */
import { call } from './api.js';
import { count, when } from './format.js';
import { html, render } from './vendor/lit-html.js';

export const id = 'imports';
export const title = 'Imports';

/** The three lists an operator asks for: what was rejected, what was repaired, everything else noted. */
const FILTERS = {
  rejected: (issue) => issue.severity === 'error',
  repaired: (issue) => issue.severity !== 'error' && /repaired/.test(issue.kind),
  noted: (issue) => issue.severity !== 'error' && !/repaired/.test(issue.kind),
};

const done = (issue) =>
  FILTERS.rejected(issue)
    ? 'Rejected: not imported as published.'
    : FILTERS.repaired(issue)
      ? 'Repaired: imported with the change the reason says.'
      : 'Kept as published, with this note.';

export function show(root) {
  let runs;
  let message = '';
  let chosen;
  let report;
  let opened;
  let shown = 'rejected';

  const draw = () => {
    if (root.dataset.page === id) render(view(), root);
  };

  async function choose(run) {
    chosen = run;
    report = undefined;
    opened = undefined;
    draw();
    try {
      report = await call('GET', `admin/imports/${encodeURIComponent(run.id)}/report`);
    } catch (error) {
      message = error.message;
    }
    draw();
    root.querySelector('#run-title')?.focus();
  }

  async function download() {
    const response = await call('GET', `admin/imports/${encodeURIComponent(chosen.id)}/report`, {
      raw: true,
    });
    const url = URL.createObjectURL(await response.blob());
    const link = document.createElement('a');
    link.href = url;
    link.download = `${chosen.id}-report.json`;
    document.body.append(link);
    link.click();
    link.remove();
    setTimeout(() => URL.revokeObjectURL(url), 1000);
  }

  const runsView = () =>
    runs.length === 0
      ? html`<p>No import has run on this server yet. <a href="admin#run">Start one on the Run page.</a></p>`
      : html`<div class="table-wrap" tabindex="0" role="region" aria-label="Table, scrolls sideways"><table>
          <caption>Import runs on this server, newest first</caption>
          <thead><tr><th scope="col">Source</th><th scope="col">Started</th><th scope="col">State</th>
            <th scope="col">Kept</th><th scope="col">Repaired</th><th scope="col">Rejected</th></tr></thead>
          <tbody>${runs.map(
            (run) => html`<tr>
              <th scope="row"><button type="button" class="link" @click=${() => choose(run)}>${run.source}</button></th>
              <td>${when(run.started_at)}</td><td>${run.state}</td>
              <td>${count(run.summary?.records ?? run.progress.records)}</td>
              <td>${count(run.summary?.repaired)}</td>
              <td>${count(run.summary?.rejected ?? run.progress.rejected)}</td>
            </tr>`,
          )}</tbody></table></div>`;

  const issuesOf = () => (report?.issues ?? []).filter(FILTERS[shown]);

  const runView = () => {
    const s = chosen.summary ?? {};
    const types = Object.entries(s.by_type ?? {});
    const reasons = Object.entries(s.by_reason ?? {}).sort((a, b) => b[1] - a[1]);
    const issues = issuesOf();
    return html`<section class="panel" aria-labelledby="run-title">
      <h2 id="run-title" tabindex="-1">${chosen.source}</h2>
      <p>${chosen.state}, started ${when(chosen.started_at)}. ${count(s.items)} items read: ${count(s.records)} records
        kept, ${count(s.repaired)} repaired, ${count(s.rejected)} rejected.</p>
      <button type="button" class="secondary" @click=${download} ?disabled=${!report}>Download the report (JSON)</button>
      ${
        types.length
          ? html`<div class="table-wrap" tabindex="0" role="region" aria-label="Table, scrolls sideways"><table>
            <caption>By type of record</caption>
            <thead><tr><th scope="col">Type</th><th scope="col">Kept</th><th scope="col">Repaired</th><th scope="col">Rejected</th><th scope="col">Repeats</th></tr></thead>
            <tbody>${types.map(([type, c]) => html`<tr><th scope="row">${type}</th><td>${count(c.imported)}</td><td>${count(c.repaired)}</td><td>${count(c.rejected)}</td><td>${count(c.duplicates)}</td></tr>`)}</tbody>
          </table></div>`
          : ''
      }
      ${
        reasons.length
          ? html`<h3>By kind and reason</h3><ul class="reasons">${reasons.map(([reason, n]) => html`<li><strong>${count(n)}</strong> ${reason}</li>`)}</ul>`
          : ''
      }
      <h3>Records</h3>
      <label for="shown">Show</label>
      <select id="shown" @change=${(e) => {
        shown = e.target.value;
        opened = undefined;
        draw();
      }}>
        <option value="rejected" ?selected=${shown === 'rejected'}>Rejected</option>
        <option value="repaired" ?selected=${shown === 'repaired'}>Repaired</option>
        <option value="noted" ?selected=${shown === 'noted'}>Other notes</option>
      </select>
      ${
        !report
          ? html`<p role="status">Loading the report…</p>`
          : issues.length === 0
            ? html`<p>None.</p>`
            : html`<ul class="issues">${issues.slice(0, 200).map(
                (issue, n) => html`<li>
                  <button type="button" class="link issue" aria-expanded=${opened === n ? 'true' : 'false'}
                    @click=${() => {
                      opened = opened === n ? undefined : n;
                      draw();
                    }}>${issue.record_type ?? 'record'} ${issue.record_id ?? ''}: ${issue.path ? `${issue.path}: ` : ''}${issue.reason}</button>
                  ${opened === n ? issueView(issue) : ''}
                </li>`,
              )}</ul>
              ${issues.length > 200 ? html`<p>The first 200 of ${count(issues.length)}; the downloaded report has them all.</p>` : ''}`
      }
    </section>`;
  };

  const view = () => html`<h1>Imports</h1>
    ${message ? html`<p class="error" role="alert">${message}</p>` : ''}
    ${runs === undefined ? html`<p role="status">Loading…</p>` : runsView()}
    ${chosen ? runView() : ''}`;

  draw();
  call('GET', 'admin/imports')
    .then((answer) => {
      runs = answer.imports;
      draw();
      const latest = runs.find((run) => run.state !== 'running');
      if (latest) choose(latest);
    })
    .catch((error) => {
      message = error.message;
      runs = [];
      draw();
    });
}

function issueView(issue) {
  return html`<dl class="issue-detail">
    <div><dt>Where</dt><dd><code>${issue.path || '(the whole record)'}</code> in ${issue.source}</dd></div>
    <div><dt>Value as published</dt><dd><code>${issue.value ?? '(not given)'}</code></dd></div>
    <div><dt>Why</dt><dd>${issue.reason} <span class="hint">(${issue.kind})</span></dd></div>
    <div><dt>What was done</dt><dd>${done(issue)}</dd></div>
  </dl>`;
}
