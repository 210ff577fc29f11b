/**
 * Validate: what an import of a feed would keep, repair and reject, writing nothing (POST
 * /validate with the file as the body, or `?url=` where the server allows it): the three-word
 * verdict, counts by type, and each issue readable.
 */
import { ApiError, call } from './api.js';
import { count } from './format.js';
import { html, render } from './vendor/lit-html.js';

export const id = 'validate';
export const title = 'Validate';

const VERDICT = {
  valid: 'Valid as published',
  'importable-with-repairs': 'Importable with repairs',
  'not-importable': 'Not importable',
};

const typeOf = (name) =>
  /\.zip$/i.test(name)
    ? 'application/zip'
    : /\.ndjson$/i.test(name)
      ? 'application/x-ndjson'
      : 'application/json';

export function show(root) {
  let from = 'file';
  let report;
  let message = '';
  let busy = false;

  const draw = () => {
    if (root.dataset.page === id) render(view(), root);
  };

  async function submit(event) {
    event.preventDefault();
    message = '';
    report = undefined;
    let path = 'validate';
    const options = {};
    if (from === 'url') {
      path += `?url=${encodeURIComponent(root.querySelector('#validate-url').value.trim())}`;
    } else {
      const file = root.querySelector('#validate-file').files?.[0];
      if (!file) {
        message = 'Choose a file to validate.';
        return draw();
      }
      options.rawBody = file;
      options.headers = { 'content-type': typeOf(file.name) };
    }
    busy = true;
    draw();
    try {
      report = await call('POST', path, options);
    } catch (error) {
      // Not importable is an answer (422) with the same report, not a failure.
      if (error instanceof ApiError && error.status === 422 && error.problem?.verdict) report = error.problem;
      else message = error.message;
    }
    busy = false;
    draw();
    root.querySelector('#verdict')?.focus();
  }

  const reportView = () => html`<section class="panel" aria-labelledby="verdict">
      <h2 id="verdict" tabindex="-1" class=${`verdict ${report.verdict}`}>${VERDICT[report.verdict] ?? report.verdict}</h2>
      <p>${report.source}: ${count(report.rejected)} records would be rejected; ${count(report.issues_total)} findings
        (${count(report.by_severity.error)} errors, ${count(report.by_severity.warning)} warnings, ${count(report.by_severity.info)} notes).</p>
      <div class="table-wrap" tabindex="0" role="region" aria-label="By type, scrolls sideways"><table>
        <caption>What an import would do, by type of record</caption>
        <thead><tr><th scope="col">Type</th><th scope="col">Kept</th><th scope="col">Of which repaired</th><th scope="col">Rejected</th></tr></thead>
        <tbody>${Object.entries(report.by_type).map(
          ([type, c]) =>
            html`<tr><th scope="row">${type}</th><td>${count(c.kept)}</td><td>${count(c.repaired)}</td><td>${count(c.rejected)}</td></tr>`,
        )}</tbody></table></div>
      ${
        report.issues.length
          ? html`<h3>Findings</h3><ul class="issues">${report.issues.slice(0, 200).map(
              (
                i,
              ) => html`<li><strong>${i.severity === 'error' ? 'Rejected' : i.severity === 'warning' ? 'Warning' : 'Note'}</strong>:
                ${i.record_type ?? 'record'} ${i.record_id ?? ''}, <code>${i.path || '(the record)'}</code>${i.value ? html` = <code>${i.value}</code>` : ''}: ${i.reason}</li>`,
            )}</ul>`
          : ''
      }
    </section>`;

  const view = () => html`<h1>Validate a feed</h1>
    <form class="panel" @submit=${submit}>
      <fieldset>
        <legend>The feed</legend>
        <label class="choice"><input type="radio" name="validate-from" .checked=${from === 'file'} @change=${() => {
          from = 'file';
          draw();
        }} /> A file (HSDS JSON, NDJSON or a zipped data package)</label>
        <label class="choice"><input type="radio" name="validate-from" .checked=${from === 'url'} @change=${() => {
          from = 'url';
          draw();
        }} /> An HSDS API at a URL</label>
      </fieldset>
      ${
        from === 'file'
          ? html`<label for="validate-file">File</label><input id="validate-file" type="file" accept=".json,.ndjson,.zip" />`
          : html`<label for="validate-url">URL</label><input id="validate-url" type="url" placeholder="https://" />`
      }
      <button type="submit" ?disabled=${busy}>Validate</button>
    </form>
    ${busy ? html`<p role="status">Validating…</p>` : ''}
    ${message ? html`<p class="error" role="alert">${message}</p>` : ''}
    ${report ? reportView() : ''}`;

  draw();
}
