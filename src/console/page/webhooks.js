/**
 * Webhooks: the change webhook targets, a page at a time (GET /admin/webhooks), each with its
 * delivery state and, on request, its recent attempts and failures (GET .../deliveries); register
 * a target (POST /admin/webhooks), pause and resume one, rotate its secret. A secret is shown once,
 * in the answer that made it: the API never gives it again, so neither can this page.
 */
import { call } from './api.js';
import { count, when } from './format.js';
import { html, render } from './vendor/lit-html.js';

export const id = 'webhooks';
export const title = 'Webhooks';

const PER_PAGE = 20;
const DELIVERIES = 20;

/** What a target's state says to an operator: paused, failing (and since when), or delivering. */
export function stateOf(target) {
  if (target.state === 'paused') return `Paused${target.paused_at ? ` since ${when(target.paused_at)}` : ''}`;
  if (target.failures > 0) return `Failing (${target.failures} attempts since ${when(target.failing_since)})`;
  return 'Delivering';
}

/** An attempt's outcome in words: the status answered, or why there was none. */
export function outcomeOf(attempt) {
  if (attempt.ok) return `Delivered (${attempt.status})`;
  return attempt.status ? `Failed: answered ${attempt.status}` : `Failed: ${attempt.error ?? 'no answer'}`;
}

export function show(root) {
  let listed;
  let page = 1;
  let message = '';
  let notice = '';
  /** The one secret to show, with the target it belongs to; gone once the page is redrawn by a load. */
  let secret;
  /** Deliveries shown, by target id. */
  const deliveries = new Map();

  const draw = () => {
    if (root.dataset.page === id) render(view(), root);
  };

  async function load() {
    try {
      listed = await call('GET', `admin/webhooks?page=${page}&per_page=${PER_PAGE}`);
    } catch (error) {
      message = error.message;
      listed = listed ?? { webhooks: [], total_items: 0, total_pages: 0, page_number: 1 };
    }
    draw();
  }

  /** Runs an action, says what it did (or why not), reloads and moves focus to what was said. */
  async function act(work) {
    message = '';
    notice = '';
    secret = undefined;
    let changed;
    try {
      changed = await work();
    } catch (error) {
      message = error.message;
    }
    await load();
    // The list is a search, a moment behind a change: the action's own answer is the target now.
    if (changed && listed) {
      listed.webhooks = listed.webhooks.map((t) => (t.id === changed.id ? changed : t));
      draw();
    }
    root.querySelector(message ? '#webhooks-error' : '#notice')?.focus();
  }

  const register = (event) => {
    event.preventDefault();
    const form = event.target;
    const url = form.querySelector('#hook-url').value.trim();
    const description = form.querySelector('#hook-description').value.trim();
    return act(async () => {
      const created = await call('POST', 'admin/webhooks', {
        body: { url, ...(description ? { description } : {}) },
      });
      notice = `Registered ${created.url}: changes published from now on are sent to it.`;
      secret = { url: created.url, value: created.secret };
      form.reset();
    });
  };

  const pause = (t) =>
    act(async () => {
      const paused = await call('POST', `admin/webhooks/${encodeURIComponent(t.id)}/pause`);
      notice = `Paused ${t.url}: nothing is sent to it until it is resumed; changes wait, in order.`;
      return paused;
    });
  const resume = (t) =>
    act(async () => {
      const resumed = await call('POST', `admin/webhooks/${encodeURIComponent(t.id)}/resume`);
      notice = `Resumed ${t.url}: delivery goes on from where it stopped.`;
      return resumed;
    });
  const rotate = (t) =>
    act(async () => {
      const rotated = await call('POST', `admin/webhooks/${encodeURIComponent(t.id)}/secret`, { body: {} });
      notice = `New secret for ${t.url}: the next delivery is signed with it. Give it to the receiver now.`;
      secret = { url: t.url, value: rotated.secret };
      const { secret: _shown, ...target } = rotated;
      return target;
    });

  async function toggleDeliveries(t) {
    if (deliveries.has(t.id)) {
      deliveries.delete(t.id);
      return draw();
    }
    deliveries.set(t.id, undefined);
    draw();
    try {
      const answer = await call(
        'GET',
        `admin/webhooks/${encodeURIComponent(t.id)}/deliveries?limit=${DELIVERIES}`,
      );
      deliveries.set(t.id, answer.deliveries);
    } catch (error) {
      deliveries.set(t.id, { error: error.message });
    }
    draw();
  }

  const deliveriesView = (t, n) => {
    const shown = deliveries.get(t.id);
    if (shown === undefined) return html`<p role="status">Loading deliveries…</p>`;
    if (shown.error) return html`<p class="error" role="alert">${shown.error}</p>`;
    if (shown.length === 0) return html`<p>No delivery attempt yet.</p>`;
    const failed = shown.filter((d) => !d.ok).length;
    return html`<div class="table-wrap" tabindex="0" role="region" aria-label=${`Deliveries to target ${n + 1}, scrolls sideways`}><table>
      <caption>The last ${shown.length} attempts, newest first: ${count(failed)} failed.</caption>
      <thead><tr><th scope="col">When</th><th scope="col">Change</th><th scope="col">Attempt</th>
        <th scope="col">Outcome</th><th scope="col">Took</th></tr></thead>
      <tbody>${shown.map(
        (d) => html`<tr class=${d.ok ? '' : 'stale'}><td>${when(d.at)}</td>
          <td>${d.record_type} ${d.action} <code>${d.record_id}</code> (#${d.seq})</td>
          <td>${d.attempt}</td><td>${outcomeOf(d)}</td><td>${count(d.duration_ms)} ms</td></tr>`,
      )}</tbody></table></div>`;
  };

  const targetView = (t, n) => html`<li class="panel" aria-labelledby=${`hook-${n}`}>
    <h2 id=${`hook-${n}`} class="hook-url">${t.url}</h2>
    ${t.description ? html`<p>${t.description}</p>` : ''}
    <p><span class=${t.state === 'paused' || t.failures > 0 ? 'badge' : ''}>${stateOf(t)}</span></p>
    <p class="hint">Registered ${when(t.created_at)}; last delivered ${when(t.last_success_at)}${
      t.last_error ? html`; last error ${when(t.last_error_at)}: ${t.last_error}` : ''
    }</p>
    <div class="actions">
      ${
        t.state === 'paused'
          ? html`<button type="button" @click=${() => resume(t)} aria-label=${`Resume ${t.url}`}>Resume</button>`
          : html`<button type="button" class="secondary" @click=${() => pause(t)} aria-label=${`Pause ${t.url}`}>Pause</button>`
      }
      <button type="button" class="secondary" @click=${() => rotate(t)} aria-label=${`Rotate secret of ${t.url}`}>Rotate secret</button>
      <button type="button" class="secondary" aria-expanded=${deliveries.has(t.id) ? 'true' : 'false'}
        @click=${() => toggleDeliveries(t)} aria-label=${`Deliveries to ${t.url}`}>Deliveries</button>
    </div>
    ${deliveries.has(t.id) ? deliveriesView(t, n) : ''}
  </li>`;

  const pager = () =>
    listed.total_pages > 1
      ? html`<div class="actions">
          <button type="button" class="secondary" ?disabled=${listed.first_page} @click=${() => {
            page -= 1;
            load();
          }}>Previous page</button>
          <span>Page ${listed.page_number} of ${listed.total_pages}</span>
          <button type="button" class="secondary" ?disabled=${listed.last_page} @click=${() => {
            page += 1;
            load();
          }}>Next page</button>
        </div>`
      : '';

  const view = () => html`<h1>Webhooks</h1>
    <p>Each target is sent every published change its filter lets through, signed per Standard Webhooks.</p>
    ${notice ? html`<p id="notice" class="notice" role="status" tabindex="-1">${notice}</p>` : ''}
    ${
      secret
        ? html`<div class="panel secret" aria-labelledby="secret-title">
            <h2 id="secret-title">Signing secret for ${secret.url}</h2>
            <p>Shown this once: copy it to the receiver now. The server never shows it again.</p>
            <p><code id="hook-secret" class="hook-url">${secret.value}</code></p>
          </div>`
        : ''
    }
    ${message ? html`<p id="webhooks-error" class="error" role="alert" tabindex="-1">${message}</p>` : ''}
    <form class="panel" @submit=${register} aria-labelledby="register-title">
      <h2 id="register-title">Register a target</h2>
      <label for="hook-url">Target URL</label>
      <input id="hook-url" name="url" type="url" required autocomplete="off" placeholder="https://example.org/hooks/directory" />
      <label for="hook-description">Description (optional)</label>
      <input id="hook-description" name="description" type="text" autocomplete="off" />
      <div class="actions"><button type="submit">Register target</button></div>
    </form>
    ${
      listed === undefined
        ? html`<p role="status">Loading targets…</p>`
        : listed.webhooks.length === 0
          ? html`<p>No target registered.</p>`
          : html`<h2>Targets (${count(listed.total_items)})</h2>
            <ul class="pairs">${listed.webhooks.map(targetView)}</ul>${pager()}`
    }`;

  draw();
  load();
}
