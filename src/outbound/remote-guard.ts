/**
 * Which remote addresses a validation may fetch, and a webhook may be sent to. A service that
 * fetches any URL it is given is a way into the network it runs in (server-side request forgery):
 * the cloud metadata address, an admin port on localhost, a database on the private network. So,
 * unless the policy says `any`, every request (and every redirect, followed by hand) goes only to
 * a host whose every address, as written or as resolved, is global unicast: for IPv4, none of the
 * IANA IPv4 Special-Purpose Address Registry's blocks nor multicast; for IPv6, only 2000::/3
 * outside the IANA IPv6 Special-Purpose Address Registry's blocks. An allow list for IPv6 rather
 * than a deny list, because IPv6 has many ways to carry an IPv4 address (IPv4-compatible
 * `::127.0.0.1`, mapped `::ffff:127.0.0.1`, SIIT `::ffff:0:7f00:1`, NAT64 `64:ff9b::/96` and
 * `64:ff9b:1::/48`, 6to4 `2002:7f00:1::`, Teredo in `2001::/32`) and a deny list has to know them
 * all; every one of them lies outside 2000::/3 or in a refused block inside it.
 *
 * What remains: DNS rebinding between this check and the connection (the resolver is asked
 * twice); an operator who fears it keeps VALIDATE_REMOTE=off.
 */
import { lookup } from 'node:dns/promises';
import { BlockList, isIP } from 'node:net';

/** `off`: no remote validation; `public`: public addresses only; `any`: private ones too. */
export type RemotePolicy = 'off' | 'public' | 'any';

/** What a name resolves to: every address, IPv4 and IPv6. */
export type ResolveAll = (host: string) => Promise<string[]>;

const resolveAll: ResolveAll = async (host) => (await lookup(host, { all: true })).map((a) => a.address);

// The IANA IPv4 Special-Purpose Address Registry (RFC 6890 and its updates), and multicast.
const ipv4Refused = new BlockList();
for (const [net, prefix] of [
  ['0.0.0.0', 8], // this network
  ['10.0.0.0', 8], // private
  ['100.64.0.0', 10], // shared address space (CGNAT)
  ['127.0.0.0', 8], // loopback
  ['169.254.0.0', 16], // link-local (cloud metadata)
  ['172.16.0.0', 12], // private
  ['192.0.0.0', 24], // IETF protocol assignments
  ['192.0.2.0', 24], // documentation (TEST-NET-1)
  ['192.31.196.0', 24], // AS112-v4
  ['192.52.193.0', 24], // AMT
  ['192.88.99.0', 24], // deprecated 6to4 relay anycast
  ['192.168.0.0', 16], // private
  ['192.175.48.0', 24], // direct delegation AS112
  ['198.18.0.0', 15], // benchmarking
  ['198.51.100.0', 24], // documentation (TEST-NET-2)
  ['203.0.113.0', 24], // documentation (TEST-NET-3)
  ['224.0.0.0', 4], // multicast
  ['240.0.0.0', 4], // reserved, and the limited broadcast address
] as const)
  ipv4Refused.addSubnet(net, prefix, 'ipv4');

const ipv6GlobalUnicast = new BlockList();
ipv6GlobalUnicast.addSubnet('2000::', 3, 'ipv6');

// The IANA IPv6 Special-Purpose Address Registry's blocks inside 2000::/3 (the rest of it, from
// ::1 to 64:ff9b:1::/48, fc00::/7 and fe80::/10, lies outside and is refused with all else).
const ipv6Refused = new BlockList();
for (const [net, prefix] of [
  ['2001::', 23], // IETF protocol assignments: Teredo (2001::/32, embeds an IPv4 address), benchmarking, ORCHID
  ['2001:db8::', 32], // documentation
  ['2002::', 16], // 6to4 (embeds an IPv4 address)
  ['2620:4f:8000::', 48], // direct delegation AS112
  ['3fff::', 20], // documentation
] as const)
  ipv6Refused.addSubnet(net, prefix, 'ipv6');

/** Whether an IP address is one a public fetch must not reach: anything but global unicast. */
export function isPrivateAddress(address: string): boolean {
  const family = isIP(address);
  if (family === 4) return ipv4Refused.check(address, 'ipv4');
  if (family !== 6) return true;
  return !ipv6GlobalUnicast.check(address, 'ipv6') || ipv6Refused.check(address, 'ipv6');
}

export class RemoteRefused extends Error {}

/** Throws RemoteRefused unless `url` may be fetched under `policy`. */
export async function checkRemoteUrl(
  url: string,
  policy: RemotePolicy,
  resolve: ResolveAll = resolveAll,
): Promise<URL> {
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
  const addresses = isIP(host) ? [host] : await resolve(host);
  const refused = addresses.find(isPrivateAddress);
  if (refused !== undefined || addresses.length === 0)
    throw new RemoteRefused(
      `${parsed.host} resolves to ${refused ?? 'nothing'}: only global unicast addresses are fetched, not a loopback, private or reserved one (VALIDATE_REMOTE=any allows it)`,
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
