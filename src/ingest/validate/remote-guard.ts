/**
 * Which remote addresses a validation may fetch. A validation service that fetches any URL it is
 * given is a way into the network it runs in (server-side request forgery): the cloud metadata
 * address, an admin port on localhost, a database on the private network. So, unless the policy
 * says `any`, every request (and every redirect, followed by hand) goes only to a host whose every
 * resolved address is public: not loopback, private (RFC 1918, unique local), link-local, CGNAT,
 * multicast, unspecified or reserved. What remains: DNS rebinding between this check and the
 * connection (the resolver is asked twice); an operator who fears it keeps VALIDATE_REMOTE=off.
 */
import { lookup } from 'node:dns/promises';
import { BlockList, isIP } from 'node:net';

/** `off`: no remote validation; `public`: public addresses only; `any`: private ones too. */
export type RemotePolicy = 'off' | 'public' | 'any';

const blocked = new BlockList();
for (const [net, prefix] of [
  ['0.0.0.0', 8],
  ['10.0.0.0', 8],
  ['100.64.0.0', 10],
  ['127.0.0.0', 8],
  ['169.254.0.0', 16],
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.168.0.0', 16],
  ['198.18.0.0', 15],
  ['224.0.0.0', 4],
  ['240.0.0.0', 4],
] as const)
  blocked.addSubnet(net, prefix, 'ipv4');
for (const [net, prefix] of [
  ['::', 128],
  ['::1', 128],
  ['fc00::', 7],
  ['fe80::', 10],
  ['ff00::', 8],
  ['64:ff9b::', 96],
] as const)
  blocked.addSubnet(net, prefix, 'ipv6');

/** Whether an IP address is one a public fetch must not reach. */
export function isPrivateAddress(address: string): boolean {
  const family = isIP(address);
  if (family === 4) return blocked.check(address, 'ipv4');
  if (family !== 6) return true;
  // An IPv4 address written as IPv6 (::ffff:127.0.0.1) is that IPv4 address.
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
  return mapped ? blocked.check(mapped[1]!, 'ipv4') : blocked.check(address, 'ipv6');
}

export class RemoteRefused extends Error {}

/** Throws RemoteRefused unless `url` may be fetched under `policy`. */
export async function checkRemoteUrl(url: string, policy: RemotePolicy): Promise<URL> {
  if (policy === 'off')
    throw new RemoteRefused('validating a remote API is not enabled here (VALIDATE_REMOTE)');
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new RemoteRefused(`${url}: not a URL`);
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:')
    throw new RemoteRefused(`${url}: only http and https URLs are fetched`);
  if (parsed.username || parsed.password) throw new RemoteRefused(`${url}: credentials in a URL are refused`);
  if (policy === 'any') return parsed;
  const host = parsed.hostname.replace(/^\[|\]$/g, '');
  const addresses = isIP(host) ? [host] : (await lookup(host, { all: true })).map((a) => a.address);
  const refused = addresses.find(isPrivateAddress);
  if (refused !== undefined || addresses.length === 0)
    throw new RemoteRefused(
      `${parsed.host} resolves to ${refused ?? 'nothing'}: a loopback, private or reserved address is not fetched (VALIDATE_REMOTE=any allows it)`,
    );
  return parsed;
}

/**
 * A fetch that checks every URL it is asked for, and every redirect it is sent to, under `policy`
 * (at most 5 redirects).
 */
export function guardedFetch(policy: RemotePolicy, base: typeof fetch = fetch): typeof fetch {
  return (async (input: Parameters<typeof fetch>[0], init?: RequestInit) => {
    let url = typeof input === 'string' ? input : input instanceof URL ? input.href : input.url;
    for (let hop = 0; hop <= 5; hop++) {
      await checkRemoteUrl(url, policy);
      const response = await base(url, { ...init, redirect: 'manual' });
      const location = response.headers.get('location');
      if (response.status < 300 || response.status >= 400 || !location) return response;
      await response.body?.cancel();
      url = new URL(location, url).href;
    }
    throw new RemoteRefused(`${url}: more than 5 redirects`);
  }) as typeof fetch;
}
