/**
 * The page's one way to the API. Every URL is relative to the page (`/explore` → `/services`),
 * so the page works wherever the API is mounted, behind a proxy path too.
 */

/** What the API refused, in its own words (the `detail` of its RFC 9457 problem). */
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
    const message = body?.detail || body?.title || `The directory answered ${response.status}.`;
    throw new ApiError(message, response.status, body);
  }
  return body;
}

/** The page's settings from the server (base map tiles). */
export const getSettings = () => getJson('explore/settings.json');
