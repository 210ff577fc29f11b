/**
 * Records: find a service, edit it through the write API (PUT /services/{id} with If-Match, the
 * ETag it was read with), each validation error shown at its field, and its audit trail
 * (`?audit=all`, HSDS metadata records). A 412 means someone else wrote it first: said so, with
 * a way to reload their version.
 */
import { ApiError, call } from './api.js';
import { when } from './format.js';
import { html, render } from './vendor/lit-html.js';

export const id = 'records';
export const title = 'Records';

/** The fields the form edits; the rest of the record is sent back as read. */
const FIELDS = [
  { name: 'name', label: 'Name', type: 'text' },
  { name: 'description', label: 'Description', type: 'textarea' },
  { name: 'email', label: 'E-mail', type: 'text' },
  { name: 'url', label: 'Website', type: 'text' },
  {
    name: 'status',
    label: 'Status',
    type: 'select',
    options: ['active', 'inactive', 'defunct', 'temporarily closed'],
  },
];

export function show(root) {
  let text = '';
  let found;
  let record;
  let etag;
  let errors = {};
  let message = '';
  let notice = '';
  let conflict = false;
  let trail;

  const draw = () => {
    if (root.dataset.page === id) render(view(), root);
  };

  async function search(event) {
    event.preventDefault();
    text = root.querySelector('#record-search').value.trim();
    message = '';
    try {
      const page = await call('GET', `services?search=${encodeURIComponent(text)}&per_page=10`);
      found = page.contents;
    } catch (error) {
      message = error.message;
    }
    draw();
  }

  async function open(serviceId) {
    errors = {};
    message = '';
    notice = '';
    conflict = false;
    try {
      const response = await call('GET', `services/${encodeURIComponent(serviceId)}`, { raw: true });
      etag = response.headers.get('etag');
      record = await response.json();
      const audited = await call('GET', `services/${encodeURIComponent(serviceId)}?audit=all`);
      trail = audited.metadata ?? [];
    } catch (error) {
      message = error.message;
    }
    draw();
    root.querySelector('#edit-title')?.focus();
  }

  async function save(event) {
    event.preventDefault();
    const form = event.target;
    const body = structuredClone(record);
    delete body.metadata;
    for (const field of FIELDS) {
      const value = form.querySelector(`#field-${field.name}`).value;
      if (value === '' && body[field.name] === undefined) continue;
      body[field.name] = value === '' ? null : value;
      if (body[field.name] === null) delete body[field.name];
    }
    errors = {};
    message = '';
    notice = '';
    conflict = false;
    try {
      await call('PUT', `services/${encodeURIComponent(record.id)}`, {
        body,
        headers: etag ? { 'if-match': etag } : {},
      });
      await open(record.id);
      notice = 'Saved. The change is served now, and recorded in the audit trail below.';
      draw();
      root.querySelector('#notice')?.focus();
      return;
    } catch (error) {
      if (error instanceof ApiError && error.status === 412) {
        conflict = true;
        message =
          'Someone else changed this record after you opened it (its version no longer matches). Nothing was saved. Reload it to see their change, then make yours again.';
      } else if (error instanceof ApiError && error.problem?.errors?.length) {
        for (const e of error.problem.errors) {
          const field = FIELDS.find((f) => e.parameter === f.name || e.parameter?.startsWith(`${f.name}.`));
          if (field) errors[field.name] = `${e.reason}${e.value ? ` (found ${e.value})` : ''}`;
        }
        message = `Not saved: ${error.problem.errors.map((e) => `${e.parameter}: ${e.reason}`).join('; ')}`;
      } else message = error.message;
    }
    draw();
    const first = FIELDS.find((f) => errors[f.name]);
    (first ? root.querySelector(`#field-${first.name}`) : root.querySelector('#form-message'))?.focus();
  }

  const input = (field) => {
    const value = record[field.name] ?? '';
    const error = errors[field.name];
    const describedBy = error ? `error-${field.name}` : '';
    const control =
      field.type === 'textarea'
        ? html`<textarea id=${`field-${field.name}`} rows="4" aria-invalid=${error ? 'true' : 'false'} aria-describedby=${describedBy} .value=${value}></textarea>`
        : field.type === 'select'
          ? html`<select id=${`field-${field.name}`} aria-invalid=${error ? 'true' : 'false'} aria-describedby=${describedBy}>
              ${[...new Set([value, ...field.options])].map((o) => html`<option value=${o} ?selected=${o === value}>${o}</option>`)}</select>`
          : html`<input id=${`field-${field.name}`} type="text" aria-invalid=${error ? 'true' : 'false'} aria-describedby=${describedBy} .value=${value} />`;
    return html`<div class=${error ? 'field has-error' : 'field'}>
      <label for=${`field-${field.name}`}>${field.label}</label>
      ${error ? html`<p id=${`error-${field.name}`} class="error field-error">${error}</p>` : ''}
      ${control}
    </div>`;
  };

  const trailView = () =>
    trail.length === 0
      ? html`<p>No change made through the write API yet.</p>`
      : html`<div class="table-wrap" tabindex="0" role="region" aria-label="Audit trail, scrolls sideways"><table class="audit">
          <caption>Every change, newest first</caption>
          <thead><tr><th scope="col">When</th><th scope="col">Who</th><th scope="col">Field</th><th scope="col">From</th><th scope="col">To</th></tr></thead>
          <tbody>${trail.map(
            (
              m,
            ) => html`<tr><td>${when(m.last_action_date)}</td><td>${m.updated_by ?? '—'}</td><th scope="row">${m.field_name}</th>
              <td>${m.previous_value ?? '—'}</td><td>${m.replacement_value ?? '—'}</td></tr>`,
          )}</tbody></table></div>`;

  const view = () => html`<h1>Records</h1>
    <form class="panel" role="search" @submit=${search}>
      <label for="record-search">Find a service</label>
      <input id="record-search" type="text" .value=${text} autocomplete="off" />
      <button type="submit">Find</button>
    </form>
    ${
      found
        ? found.length === 0
          ? html`<p>No service matches.</p>`
          : html`<ul class="found-records">${found.map(
              (s) =>
                html`<li><button type="button" class="link" @click=${() => open(s.id)}>${s.name}</button> <span class="hint">${s.organization?.name ?? ''}</span></li>`,
            )}</ul>`
        : ''
    }
    ${
      record
        ? html`<section class="panel" aria-labelledby="edit-title">
            <h2 id="edit-title" tabindex="-1">Edit ${record.name}</h2>
            <p class="hint">Id <code>${record.id}</code>; version ${etag ?? 'unknown'}</p>
            ${notice ? html`<p id="notice" class="notice" role="status" tabindex="-1">${notice}</p>` : ''}
            ${message ? html`<p id="form-message" class="error" role="alert" tabindex="-1">${message}</p>` : ''}
            ${conflict ? html`<button type="button" class="secondary" @click=${() => open(record.id)}>Reload the record</button>` : ''}
            <form @submit=${save} novalidate>
              ${FIELDS.map(input)}
              <button type="submit">Save</button>
            </form>
            <h3>Audit trail</h3>
            ${trailView()}
          </section>`
        : ''
    }`;

  draw();
}
