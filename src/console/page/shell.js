/**
 * The console's frame: the sign-in form, the navigation and the page a hash names (`#run`).
 * Pages are modules with `title` and `show(root)`; the hash keeps them apart without a server
 * route for each, and never carries the token.
 */
import { ApiError, call, onRefused, token } from './api.js';
import { html, render } from './vendor/lit-html.js';

/** Checks a token against an admin route before keeping it: a wrong one is refused here. */
async function signIn(candidate) {
  await call('GET', 'admin/imports', { as: candidate });
  token.set(candidate);
}

export function showSignIn(main, nav, message, onSignedIn) {
  render(html``, nav);
  const submit = async (event) => {
    event.preventDefault();
    const field = main.querySelector('#token');
    const value = field.value.trim();
    if (!value) return showSignIn(main, nav, 'Enter the admin token.', onSignedIn);
    try {
      await signIn(value);
      onSignedIn();
    } catch (error) {
      showSignIn(main, nav, error instanceof ApiError ? error.message : String(error), onSignedIn);
      main.querySelector('#token')?.focus();
    }
  };
  render(
    html`<section class="panel sign-in" aria-labelledby="sign-in-title">
      <h1 id="sign-in-title">Sign in</h1>
      <p>Sign in with an admin token of this server (API_TOKENS with the admin scope, or ADMIN_TOKEN). It is kept for
        this browser tab only and forgotten when the tab closes.</p>
      <form @submit=${submit} novalidate>
        <label for="token">Admin token</label>
        <input id="token" name="token" type="password" autocomplete="off" spellcheck="false" required
          aria-describedby=${message ? 'sign-in-error' : ''} aria-invalid=${message ? 'true' : 'false'} />
        ${message ? html`<p id="sign-in-error" class="error" role="alert">${message}</p>` : ''}
        <button type="submit">Sign in</button>
      </form>
    </section>`,
    main,
  );
}

export function startShell(pages, fallback) {
  const main = document.getElementById('main');
  const nav = document.getElementById('nav');
  const current = () =>
    pages.find((p) => `#${p.id}` === location.hash) ?? pages.find((p) => p.id === fallback);

  const signOut = (message) => {
    token.clear();
    showSignIn(main, nav, message, showPage);
  };
  onRefused(signOut);

  function showNav(active) {
    render(
      html`<ul>
          ${pages.map(
            (p) =>
              html`<li><a href=${`admin#${p.id}`} aria-current=${p === active ? 'page' : 'false'}>${p.title}</a></li>`,
          )}
        </ul>
        <button type="button" class="link sign-out" @click=${() => signOut('')}>Sign out</button>`,
      nav,
    );
  }

  function showPage() {
    if (!token.get()) return showSignIn(main, nav, '', showPage);
    const page = current();
    showNav(page);
    document.title = `${page.title} · Directory console`;
    render(html``, main);
    // A page's late answers (a poll) draw only while it is still the page shown.
    main.dataset.page = page.id;
    page.show(main);
    main.focus({ preventScroll: true });
  }

  window.addEventListener('hashchange', showPage);
  showPage();
}
