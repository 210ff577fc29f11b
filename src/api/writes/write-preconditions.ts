/**
 * `If-Match` and `If-None-Match: *` on a write (write.routes.ts): the check they ask for,
 * run by src/ingest/write/write.ts under the write lock, against the record read from the engine (never
 * the record cache: see the route's header).
 */
import { entityTag, tagListed } from '../records/http-cache.ts';

export type WriteHeaders = { ifMatch: string | undefined; ifNoneMatch: string | undefined };

/**
 * The check the headers ask for, given whether the record exists; undefined when the write is
 * unconditional. `current` reads the record as the plain GET serves it (undefined when it is not
 * served), and is called only when If-Match needs it. If-Match compares strongly: a weak tag never
 * matches.
 */
export function writePrecondition(
  { ifMatch, ifNoneMatch }: WriteHeaders,
  current: () => Promise<string | undefined>,
): ((exists: boolean) => Promise<boolean>) | undefined {
  if (ifMatch === undefined && ifNoneMatch === undefined) return undefined;
  return async (exists: boolean) => {
    if (ifNoneMatch !== undefined && ifNoneMatch.trim() === '*' && exists) return false;
    if (ifMatch === undefined) return true;
    const text = exists ? await current() : undefined;
    return tagListed(ifMatch, text === undefined ? undefined : entityTag(text), 'strong');
  };
}
