/**
 * The console's one way to the API: every call is relative to the page (`/admin` → `admin/...`,
 * `services/...`), so it works wherever the API is mounted, and carries the signed-in token.
 *
 * The token lives in this tab's sessionStorage only: never in a URL (it would reach logs and
 * history), never in localStorage (it would outlive the tab), never written anywhere else.
 */
const KEY = 'hsds-console-token';

export const token = {
  get: () => sessionStorage.getItem(KEY),
  set: (value) => sessionStorage.setItem(KEY, value),
  clear: () => sessionStorage.removeItem(KEY),
};

/** What the API refused, with its RFC 9457 problem: operators read the detail, it names the cause. */
export class ApiError extends Error {
  constructor(message, status, problem) {
    super(message);
    this.status = status;
    this.problem = problem;
  }
}

/** Listeners told when the token is refused (the shell signs out and says why). */
const refusedListeners = new Set();
export const onRefused = (listener) => refusedListeners.add(listener);

/**
 * Calls the API: `body` goes as JSON, `rawBody` (a File) as it is; answers the parsed JSON body
 * (or the Response itself with `raw`). Throws ApiError
 * with the problem's detail on any refusal; a 401 also signs out.
 */
export async function call(
  method,
  path,
  { body, rawBody, headers = {}, raw = false, as = token.get() } = {},
) {
  // Never from the browser's cache: an operator edits what is stored now (a cached record's ETag
  // would make every save a 412), and follows a job's progress as it moves.
  const init = { method, cache: 'no-store', headers: { accept: 'application/json', ...headers } };
  if (as) init.headers.authorization = `Bearer ${as}`;
  if (body !== undefined) {
    init.headers['content-type'] = 'application/json';
    init.body = JSON.stringify(body);
  }
  // A file sent as it is (a feed to validate), with the type the caller gives.
  if (rawBody !== undefined) init.body = rawBody;
  let response;
  try {
    response = await fetch(path, init);
  } catch {
    throw new ApiError('The server could not be reached. Check the connection and try again.', 0);
  }
  if (response.ok) {
    if (raw) return response;
    if (response.status === 204) return undefined;
    return response.json();
  }
  const problem = await response.json().catch(() => undefined);
  const message = messageOf(response.status, problem);
  if (response.status === 401 && as === token.get())
    for (const listener of refusedListeners) listener(message);
  throw new ApiError(message, response.status, problem);
}

export function messageOf(status, problem) {
  if (status === 401)
    return 'That token was refused: it is not a token this server knows. Check it and sign in again.';
  if (status === 403) return 'That token is valid but may not use the console: it lacks the admin scope.';
  const detail = problem?.detail ? `: ${problem.detail}` : '';
  const reference = problem?.request_id ? ` (reference ${problem.request_id})` : '';
  return `${problem?.title ?? `Error ${status}`}${detail}${reference}`;
}
