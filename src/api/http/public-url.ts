/**
 * The URL clients reach this API at, for `openapi_url` in GET /. The request's `Host` is never
 * trusted for it: any client can send any Host, and a cache in front that does not key on it
 * would then serve every client a link to the attacker's document. So, in order:
 *
 * 1. `PUBLIC_BASE_URL`, when set (what a deployment should do);
 * 2. `X-Forwarded-Proto` / `X-Forwarded-Host`, only on a connection from an address listed in
 *    `TRUSTED_PROXIES` (a reverse proxy that sets them and drops what clients sent);
 * 3. the address the server listens on (`http://localhost:<PORT>`), which is right for local use
 *    and cannot be steered by a request.
 */
import { BlockList, isIP } from 'node:net';
import { getConnInfo } from '@hono/node-server/conninfo';
import type { Context } from 'hono';
import type { Config } from '../../config.ts';
import type { AppEnv } from '../types.ts';

const blockLists = new WeakMap<readonly string[], BlockList>();

function trustedList(entries: readonly string[]): BlockList {
  let list = blockLists.get(entries);
  if (list) return list;
  list = new BlockList();
  for (const entry of entries) {
    const [address = '', prefix] = entry.split('/');
    const type = isIP(address) === 6 ? 'ipv6' : 'ipv4';
    if (prefix === undefined) list.addAddress(address, type);
    else list.addSubnet(address, Number(prefix), type);
  }
  blockLists.set(entries, list);
  return list;
}

/** The peer's address, or undefined where there is no socket (app.request in tests). */
function peerAddress(c: Context<AppEnv>): string | undefined {
  try {
    return getConnInfo(c).remote.address;
  } catch {
    return undefined;
  }
}

// A dual-stack socket reports IPv4 peers as ::ffff:a.b.c.d.
const plainAddress = (address: string) =>
  address.startsWith('::ffff:') && isIP(address.slice(7)) === 4 ? address.slice(7) : address;

function isTrusted(address: string, proxies: readonly string[]): boolean {
  const plain = plainAddress(address);
  const version = isIP(plain);
  if (version === 0) return false;
  return trustedList(proxies).check(plain, version === 6 ? 'ipv6' : 'ipv4');
}

function isTrustedPeer(c: Context<AppEnv>, proxies: readonly string[]): boolean {
  const address = peerAddress(c);
  if (!address || proxies.length === 0) return false;
  return isTrusted(address, proxies);
}

/**
 * The address of the client a request comes from, for per-client limits: the connection's peer,
 * or, when that peer is a trusted proxy, the nearest address in `X-Forwarded-For` that is not
 * itself a trusted proxy (what clients put further left could be forged). Undefined without a
 * socket (app.request in tests).
 */
export function clientAddress(c: Context<AppEnv>, config: Config): string | undefined {
  const peer = peerAddress(c);
  if (!peer || config.TRUSTED_PROXIES.length === 0 || !isTrusted(peer, config.TRUSTED_PROXIES)) {
    return peer && plainAddress(peer);
  }
  const forwarded = (c.req.header('x-forwarded-for') ?? '')
    .split(',')
    .map((part) => part.trim())
    .filter((part) => isIP(plainAddress(part)) !== 0);
  for (let i = forwarded.length - 1; i >= 0; i--) {
    const hop = forwarded[i] as string;
    if (!isTrusted(hop, config.TRUSTED_PROXIES)) return plainAddress(hop);
  }
  return plainAddress(peer);
}

/** The first value of a forwarded header (proxies append theirs to what came before). */
const firstValue = (value: string | undefined) => value?.split(',')[0]?.trim() || undefined;

const HOST = /^[a-z0-9.-]+(:\d{1,5})?$|^\[[0-9a-f:.]+\](:\d{1,5})?$/i;

export function publicBaseUrl(c: Context<AppEnv>, config: Config): string {
  if (config.PUBLIC_BASE_URL) return config.PUBLIC_BASE_URL.replace(/\/+$/, '');
  if (isTrustedPeer(c, config.TRUSTED_PROXIES)) {
    const host = firstValue(c.req.header('x-forwarded-host'));
    const proto = firstValue(c.req.header('x-forwarded-proto'))?.toLowerCase();
    if (host && HOST.test(host)) return `${proto === 'https' ? 'https' : 'http'}://${host}`;
  }
  return `http://localhost:${config.PORT}`;
}
