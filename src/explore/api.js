/**
 * The page's one way to the API. Every URL is relative to the page (`/explore` → `/services`),
 * so the page works wherever the API is mounted, behind a proxy path too.
 */

/**
 * What a person reads when the API refused or failed: plain words chosen by the problem's type,
 * never its `detail`, which is written for developers (a geocoder's internal reason, parameter
 * names). When the fault is ours, the request's id is shown as a reference: the server's log
 * lines for that request carry it, with the details.
 */
export function plainMessage(status, problem) {
  const type = String(problem?.type ?? '')
    .split('/')
    .pop();
  const parameter = problem?.errors?.[0]?.parameter;
  const reference = problem?.request_id ? ` (Reference: ${problem.request_id})` : '';
  if (type === 'unknown-postcode') {
    return 'We could not find that postcode. Check it, or try just its first part (for example AB10).';
  }
  if (type === 'geocoder-unavailable') {
    return `We cannot look up postcodes just now. Try again in a few minutes, or search without a postcode.${reference}`;
  }
  if (status === 400 && parameter === 'postcode')
    return 'That does not look like a postcode. Check it and try again.';
  if (status === 400) return 'Part of this search could not be used. Check it and try again.';
  if (status === 429)
    return 'There have been too many searches from here just now. Wait a minute and try again.';
  if (status === 503)
    return `The directory is busy or being updated. Try again in a few minutes.${reference}`;
  return `Something went wrong on our side. Try again later.${reference}`;
}

/** What the API refused, in plain words (plainMessage); its RFC 9457 problem is kept for the code. */
export class ApiError extends Error {
  constructor(message, status, problem) {
    super(message);
    this.status = status;
    this.problem = problem;
  }
}

/** A query string of the given parameters, empty values left out. */
export function queryOf(params) {
  const query = new URLSearchParams();
  for (const [name, value] of Object.entries(params)) {
    if (value !== undefined && value !== null && String(value).trim() !== '') query.set(name, String(value));
  }
  const text = query.toString();
  return text === '' ? '' : `?${text}`;
}

export async function getJson(path, params = {}) {
  let response;
  try {
    response = await fetch(`${path}${queryOf(params)}`, { headers: { accept: 'application/json' } });
  } catch {
    throw new ApiError('The directory could not be reached. Check your connection and try again.', 0);
  }
  const body = await response.json().catch(() => undefined);
  if (!response.ok) {
    throw new ApiError(plainMessage(response.status, body), response.status, body);
  }
  return body;
}

/** The page's settings from the server (base map tiles). */
export const getSettings = () => getJson('explore/settings.json');
