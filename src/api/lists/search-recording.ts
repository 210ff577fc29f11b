/**
 * The search report's hook on the search pages (/services, /service_at_locations, GET and POST):
 * a page's `extend` step, wrapped so that once the page's total is known its search is counted
 * (deps.searchLog, src/search-report). Only a `search` is counted, only on page 1 (paging through
 * results is one search), and only on JSON pages: dumps (`format=ndjson`, `minimal=true`) never
 * call `extend`. The recorder learns the text and the total, nothing about the request.
 */

import type { AppContext } from '../types.ts';
import type { Extend } from './list-route.ts';

export function recordingSearch(
  c: AppContext,
  params: { search?: string | undefined; page?: number | undefined },
  extend: Extend | undefined,
): Extend | undefined {
  const log = c.get('deps').searchLog;
  const { search } = params;
  if (!log || search === undefined || (params.page ?? 1) !== 1) return extend;
  return async (total, relaxed) => {
    const extensions = extend ? await extend(total, relaxed) : {};
    log.record(search, { total, relaxed });
    return extensions;
  };
}
