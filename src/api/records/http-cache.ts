/**
 * HTTP caching of `{id}` responses: a strong ETag over the exact body, Last-Modified, and 304 for
 * a revalidation (If-None-Match, else If-Modified-Since, RFC 9110 13.2.2). The write API checks
 * If-Match against the same ETag (entityTag) of the record as served.
 */
import { createHash } from 'node:crypto';
import { readBuilds } from '../../engine/control.ts';
import type { Engine } from '../../engine/engine.ts';
import { readAliasTargets, versionPattern } from '../../engine/indices.ts';
import { type RecordBody, textOf } from '../../engine/record-cache.ts';
import type { AppContext } from '../types.ts';

/** The ETag of a representation: a digest of its exact text (as UTF-8, whether given as text or bytes). */
export const entityTag = (text: string | Uint8Array) =>
  `"${createHash('sha1').update(text).digest('base64url')}"`;

/** A record's ETag, kept with a cached record so that serving it again does not digest it again. */
function tagOf(record: string | RecordBody): string {
  if (typeof record === 'string') return entityTag(record);
  record.tag ??= entityTag(record.body());
  return record.tag;
}

/**
 * Whether an If-Match / If-None-Match header lists the tag (`*` lists any). RFC 9110 13.1.1 and
 * 13.1.2: If-Match compares strongly (a weak tag never matches: the write would rest on a copy
 * that is only "equivalent"), If-None-Match weakly (a revalidation of a cached copy).
 */
export function tagListed(header: string, tag: string | undefined, comparison: 'strong' | 'weak'): boolean {
  if (header.trim() === '*') return tag !== undefined;
  if (tag === undefined) return false;
  if (comparison === 'strong') {
    if (tag.startsWith('W/')) return false;
    return header.split(',').some((t) => t.trim() === tag);
  }
  const bare = (t: string) => t.trim().replace(/^W\//, '');
  return header.split(',').some((t) => bare(t) === bare(tag));
}

// Nearly every answer carries the same time (when the served data last changed): the last one
// formatted is kept.
let lastDate: { iso: string; http: string | undefined } | undefined;

const httpDate = (iso: string): string | undefined => {
  if (lastDate?.iso === iso) return lastDate.http;
  const ms = Date.parse(iso);
  const http = Number.isNaN(ms) ? undefined : new Date(Math.floor(ms / 1000) * 1000).toUTCString();
  lastDate = { iso, http };
  return http;
};

/** A record's own `last_modified`, if its text parses and has one. */
function ownLastModified(text: string): string | undefined {
  try {
    const record = JSON.parse(text) as Record<string, unknown>;
    return typeof record.last_modified === 'string' ? record.last_modified : undefined;
  } catch {
    return undefined;
  }
}

const publishedAt = new WeakMap<
  Engine,
  { at: number; value: Promise<string | undefined>; lastKnown: string | undefined }
>();

/**
 * When the served data last changed: the time the served version was built or last published
 * to (recorded by reindex and publish), read at most once a second. A read that fails (the engine
 * busy) answers the last time known, so Last-Modified does not jump to another source and back.
 */
export function servedDataChangedAt(engine: Engine): Promise<string | undefined> {
  const cached = publishedAt.get(engine);
  if (cached && Date.now() - cached.at < 1000) return cached.value;
  const entry = { at: Date.now(), value: Promise.resolve(cached?.lastKnown), lastKnown: cached?.lastKnown };
  entry.value = (async () => {
    const { current } = await readAliasTargets(engine);
    const version = versionPattern.exec(current.services ?? '')?.[1];
    if (!version) return undefined;
    const at = (await readBuilds(engine, [version])).get(version)?.published_at;
    entry.lastKnown = at;
    return at;
  })().catch(() => entry.lastKnown);
  publishedAt.set(engine, entry);
  return entry.value;
}

/**
 * The validators of a record's JSON text as a `{id}` route serves it: ETag, Last-Modified and
 * Cache-Control (CACHE_CONTROL_RECORDS). A write's answer carries the same, so the ETag it gives is
 * the one the following GET gives.
 */
export async function recordValidators(
  c: AppContext,
  record: string | RecordBody,
): Promise<Record<string, string>> {
  const { config, engine } = c.get('deps');
  // The served data's change time, not the record's own `last_modified`: a service's document
  // changes when its location does, which its last_modified does not say. The record is parsed
  // only when the served data's time is unknown.
  const stamp = (await servedDataChangedAt(engine)) ?? ownLastModified(textOf(record));
  const lastModified = stamp ? httpDate(stamp) : undefined;
  const headers: Record<string, string> = {
    etag: tagOf(record),
    'cache-control': config.CACHE_CONTROL_RECORDS,
  };
  if (lastModified) headers['last-modified'] = lastModified;
  return headers;
}

/**
 * A `{id}` route's answer of a record's JSON text, with ETag, Last-Modified and Cache-Control
 * (CACHE_CONTROL_RECORDS); to a GET, 304 when the client's copy is current. Last-Modified is when
 * the served data last changed (ETag is the precise validator).
 */
export async function recordAnswer(c: AppContext, record: string | RecordBody): Promise<Response> {
  const body = typeof record === 'string' ? record : record.body();
  const answer = c.newResponse(body, 200, { 'content-type': 'application/json' });
  if (c.req.method !== 'GET') return answer;
  const headers = await recordValidators(c, record);
  const tag = headers.etag;
  const lastModified = headers['last-modified'];
  const ifNoneMatch = c.req.header('if-none-match');
  const ifModifiedSince = c.req.header('if-modified-since');
  const notModified =
    ifNoneMatch !== undefined
      ? tagListed(ifNoneMatch, tag, 'weak')
      : ifModifiedSince !== undefined &&
        lastModified !== undefined &&
        !Number.isNaN(Date.parse(ifModifiedSince)) &&
        Date.parse(lastModified) <= Date.parse(ifModifiedSince);
  if (notModified) return c.newResponse(null, 304, headers);
  for (const [name, value] of Object.entries(headers)) answer.headers.set(name, value);
  return answer;
}
