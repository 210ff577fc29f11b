/**
 * Duplicates: pairs of records two sources publish under different ids, side by side with the
 * evidence (GET /admin/duplicates); mark a pair the same record (one served, the other id
 * redirects to it) or different (POST /admin/duplicates/marks); undo a mark (DELETE).
 */
import { call } from './api.js';
import { html, render } from './vendor/lit-html.js';

export const id = 'duplicates';
export const title = 'Duplicates';

const OUTCOME = { same: 'Same', similar: 'Similar', different: 'Different' };

export function show(root) {
  let type = 'service';
  let pairs;
  let marks = [];
  let message = '';
  let notice = '';

  const draw = () => {
    if (root.dataset.page === id) render(view(), root);
  };

  async function load() {
    pairs = undefined;
    draw();
    try {
      const [listed, marked] = await Promise.all([
        call('GET', `admin/duplicates?type=${type}`),
        call('GET', `admin/duplicates/marks?type=${type}`),
      ]);
      pairs = listed.pairs;
      marks = marked.marks;
    } catch (error) {
      message = error.message;
      pairs = [];
    }
    draw();
  }

  async function mark(pair, decision, keep) {
    message = '';
    try {
      const stored = await call('POST', 'admin/duplicates/marks', {
        body: { type: pair.type, ids: pair.ids, decision, ...(keep ? { keep } : {}) },
      });
      notice =
        decision === 'same'
          ? `Marked the same record: ${nameOf(pair, stored.keep)} is served; the other id now leads to it.`
          : 'Marked as different records: the pair is no longer listed.';
    } catch (error) {
      message = error.message;
    }
    await load();
    root.querySelector('#notice')?.focus();
  }

  async function undo(m) {
    message = '';
    try {
      await call(
        'DELETE',
        `admin/duplicates/marks?type=${m.type}&ids=${m.ids.map(encodeURIComponent).join(',')}`,
      );
      notice = 'Mark undone: the pair is listed again, and both records served.';
    } catch (error) {
      message = error.message;
    }
    await load();
  }

  const recordView = (record, label) => html`<div class="side">
    <h3>${label}: ${record.name}</h3>
    <p class="hint">Id <code>${record.id}</code></p>
    <p>From ${record.sources.join(', ')}</p>
  </div>`;

  const pairView = (pair, n) => {
    const [a, b] = pair.ids.map(
      (pid) => pair.records.find((r) => r.id === pid) ?? { id: pid, name: pid, sources: [] },
    );
    return html`<li class="panel pair" aria-labelledby=${`pair-${n}`}>
      <h2 id=${`pair-${n}`}>${a.name} and ${b.name} <span class="hint">(score ${pair.score.toFixed(2)})</span></h2>
      <div class="sides">${recordView(a, 'A')}${recordView(b, 'B')}</div>
      <div class="table-wrap" tabindex="0" role="region" aria-label="Evidence, scrolls sideways"><table>
        <caption>The evidence</caption>
        <thead><tr><th scope="col">Field</th><th scope="col">A</th><th scope="col">B</th><th scope="col">Verdict</th><th scope="col">Weight</th></tr></thead>
        <tbody>${pair.evidence.map(
          (
            e,
          ) => html`<tr><th scope="row">${e.field}</th><td>${e.a.join(', ') || '—'}</td><td>${e.b.join(', ') || '—'}</td>
            <td>${OUTCOME[e.outcome]}${e.similarity !== undefined ? ` (${Math.round(e.similarity * 100)}%)` : ''}</td><td>${e.weight.toFixed(2)}</td></tr>`,
        )}</tbody></table></div>
      <div class="actions">
        <button type="button" @click=${() => mark(pair, 'same', a.id)}>Same record: keep A</button>
        <button type="button" @click=${() => mark(pair, 'same', b.id)}>Same record: keep B</button>
        <button type="button" class="secondary" @click=${() => mark(pair, 'distinct')}>Different records</button>
      </div>
    </li>`;
  };

  const view = () => html`<h1>Duplicates</h1>
    <label for="dup-type">Type of record</label>
    <select id="dup-type" @change=${(e) => {
      type = e.target.value;
      load();
    }}>
      ${['service', 'organization', 'location'].map((t) => html`<option value=${t} ?selected=${t === type}>${t}s</option>`)}
    </select>
    ${notice ? html`<p id="notice" class="notice" role="status" tabindex="-1">${notice}</p>` : ''}
    ${message ? html`<p class="error" role="alert">${message}</p>` : ''}
    ${
      pairs === undefined
        ? html`<p role="status">Looking for duplicates…</p>`
        : pairs.length === 0
          ? html`<p>No likely duplicates among ${type}s.</p>`
          : html`<ul class="pairs">${pairs.map(pairView)}</ul>`
    }
    ${
      marks.length
        ? html`<h2>Marked pairs</h2><ul class="marks">${marks.map(
            (
              m,
            ) => html`<li>${m.decision === 'same' ? `Same: ${m.keep} kept, ${m.merged} leads to it` : `Different: ${m.ids.join(' and ')}`}
              <button type="button" class="secondary small" @click=${() => undo(m)} aria-label=${`Undo the mark of ${m.ids.join(' and ')}`}>Undo</button></li>`,
          )}</ul>`
        : ''
    }`;

  load();
}

const nameOf = (pair, recordId) => pair.records.find((r) => r.id === recordId)?.name ?? recordId;
