/**
 * Run: start an import (the demo dataset, a URL or an uploaded file) through POST /admin/imports,
 * then follow it at /admin/imports/{id} with a progress bar until it ends; cancel with DELETE.
 * When an import runs already (here or in another process), the refusal names who runs it.
 */
import { ApiError, call } from './api.js';
import { count, duration } from './format.js';
import { html, render } from './vendor/lit-html.js';

export const id = 'run';
export const title = 'Run';

const POLL_MS = 500;

export function show(root) {
  let from = 'demo';
  let message = '';
  let job;
  let busy = false;
  let reindex;
  let reindexMessage = '';

  // A reindex (POST /admin/reindex), followed at /admin/jobs/{id} like an import.
  async function startReindex() {
    reindexMessage = '';
    try {
      reindex = await call('POST', 'admin/reindex');
      draw();
      while (root.dataset.page === id && reindex.state === 'running') {
        await new Promise((resolve) => setTimeout(resolve, POLL_MS));
        reindex = await call('GET', `admin/jobs/${encodeURIComponent(reindex.id)}`);
        draw();
      }
    } catch (error) {
      reindexMessage =
        error instanceof ApiError && error.status === 409 ? `Busy: ${error.problem?.detail}` : error.message;
    }
    draw();
  }

  const draw = () => {
    if (root.dataset.page !== id) return;
    render(view(), root);
  };

  async function follow(jobId) {
    while (root.dataset.page === id) {
      try {
        job = await call('GET', `admin/imports/${encodeURIComponent(jobId)}`);
      } catch (error) {
        message = error.message;
        draw();
        return;
      }
      draw();
      if (job.state !== 'running') return;
      await new Promise((resolve) => setTimeout(resolve, POLL_MS));
    }
  }

  async function start(event) {
    event.preventDefault();
    const form = event.target;
    const body = { from };
    const source = form.querySelector('#source')?.value.trim();
    if (source) body.source = source;
    if (from === 'url') body.url = form.querySelector('#url').value.trim();
    if (from === 'file') {
      const file = form.querySelector('#file').files?.[0];
      if (!file) {
        message = 'Choose a file to import.';
        return draw();
      }
      body.name = file.name.replace(/[^\w.-]/g, '_').slice(0, 100);
      body.content = await file.text();
    }
    busy = true;
    message = '';
    draw();
    try {
      job = await call('POST', 'admin/imports', { body });
      busy = false;
      draw();
      await follow(job.id);
    } catch (error) {
      busy = false;
      message =
        error instanceof ApiError && error.status === 409
          ? `Busy: ${error.problem?.detail ?? 'another import is running'}. Wait for it to finish, then start again.`
          : error.message;
      const running =
        error instanceof ApiError ? error.problem && /job (\S+)/.exec(error.problem.detail ?? '') : null;
      draw();
      if (running) await follow(running[1]);
    }
  }

  async function cancel() {
    try {
      job = await call('DELETE', `admin/imports/${encodeURIComponent(job.id)}`);
    } catch (error) {
      message = error.message;
    }
    draw();
  }

  const choice = (value, label) =>
    html`<label class="choice"><input type="radio" name="from" value=${value} .checked=${from === value}
      @change=${() => {
        from = value;
        draw();
      }} /> ${label}</label>`;

  const view = () => html`<h1>Run an import</h1>
    <form class="panel" @submit=${start}>
      <fieldset>
        <legend>What to import</legend>
        ${choice('demo', 'The demo dataset (500 synthetic services)')}
        ${choice('url', 'A feed or an HSDS API at a URL')}
        ${choice('file', 'A file from this computer (HSDS JSON or NDJSON)')}
      </fieldset>
      ${from === 'url' ? html`<label for="url">URL</label><input id="url" type="url" required placeholder="https://" />` : ''}
      ${from === 'file' ? html`<label for="file">File</label><input id="file" type="file" accept=".json,.ndjson,application/json" />` : ''}
      ${
        from !== 'demo'
          ? html`<label for="source">Source name <span class="hint">(optional; default the URL or the file's name)</span></label>
            <input id="source" type="text" autocomplete="off" />`
          : ''
      }
      <button type="submit" ?disabled=${busy || job?.state === 'running'}>Start import</button>
    </form>
    ${message ? html`<p class="error" role="alert">${message}</p>` : ''}
    ${job ? progressView(job, cancel) : ''}
    <section class="panel" aria-labelledby="reindex-title">
      <h2 id="reindex-title">Rebuild the read indices</h2>
      <p>Rebuilds what is served from the records store; readers see the old data until the swap.</p>
      <button type="button" class="secondary" ?disabled=${reindex?.state === 'running'} @click=${startReindex}>Start a reindex</button>
      ${reindexMessage ? html`<p class="error" role="alert">${reindexMessage}</p>` : ''}
      ${reindex ? reindexView(reindex) : ''}
    </section>`;

  draw();
  // A job this server runs already is shown at once, with its cancel.
  call('GET', 'admin/imports')
    .then((answer) => {
      const running = answer.imports.find((j) => j.state === 'running');
      if (running && !job) {
        job = running;
        draw();
        follow(running.id);
      }
    })
    .catch(() => {});
}

function progressView(job, cancel) {
  const p = job.progress;
  const phase = { starting: 'Starting', reading: 'Reading the feed', publishing: 'Publishing', done: 'Done' }[
    p.phase
  ];
  const state = {
    running: phase,
    succeeded: 'Finished',
    failed: 'Failed',
    cancelled: 'Cancelled',
  }[job.state];
  return html`<section class="panel job" aria-labelledby="job-title">
    <h2 id="job-title">Import of ${job.source}</h2>
    <p class="job-state" role="status">${state}: ${p.percent}%</p>
    <progress id="job-progress" max="100" .value=${p.percent} aria-label="Import progress">${p.percent}%</progress>
    <dl class="figures">
      <div><dt>Items read</dt><dd class="items">${count(p.items)}${p.total_items ? ` of ${count(p.total_items)}` : ''}</dd></div>
      <div><dt>Records kept</dt><dd class="records">${count(p.records)}</dd></div>
      <div><dt>Rejected</dt><dd>${count(p.rejected)}</dd></div>
      <div><dt>Rate</dt><dd>${count(p.rate_per_second)} items/s</dd></div>
      <div><dt>Time left</dt><dd>${job.state === 'running' ? duration(p.seconds_left) : '—'}</dd></div>
    </dl>
    ${job.error ? html`<p class="error">${job.error}</p>` : ''}
    ${job.state === 'running' ? html`<button type="button" class="secondary" @click=${cancel}>Cancel import</button>` : ''}
    ${job.state !== 'running' ? html`<p><a href="admin#imports">See its report on the Imports page</a></p>` : ''}
  </section>`;
}

function reindexView(job) {
  const p = job.progress;
  const percent =
    job.state === 'succeeded'
      ? 100
      : p.total_services > 0
        ? Math.floor((p.services / p.total_services) * 100)
        : 0;
  const state = { running: `Rebuilding (${p.phase})`, succeeded: 'Finished', failed: 'Failed' }[job.state];
  return html`<p class="reindex-state" role="status">${state}: ${percent}%</p>
    <progress max="100" .value=${percent} aria-label="Reindex progress">${percent}%</progress>
    <p>${count(p.services)} of ${count(p.total_services)} services rebuilt.</p>
    ${job.error ? html`<p class="error">${job.error}</p>` : ''}`;
}
