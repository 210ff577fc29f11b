/**
 * The private-address guard shared by `/validate?url=` (a validation's fetches) and change
 * webhooks (registration and every delivery): only global unicast addresses are reached, however
 * a special-purpose address is written (each IPv6 form that embeds IPv4 loopback, each block of
 * the IANA special-purpose registries, IPv4 spelt in hex or as one number), whether in the URL or
 * in the name's DNS answers. No request leaves the machine: the resolver is a stand-in, and a
 * refused delivery never calls its fetch.
 */
import { describe, expect, it } from 'vitest';
import type { WebhookEvent } from '../../../src/index-mapping/webhook.document.ts';
import {
  checkRemoteUrl,
  guardedFetch,
  isPrivateAddress,
  RemoteRefused,
} from '../../../src/outbound/remote-guard.ts';
import { deliverEvent, newWebhookSecret } from '../../../src/webhooks/index.ts';

// Each special-purpose address, as a URL host would carry it, with what it is.
const refusedIpv6: [string, string][] = [
  ['::127.0.0.1', 'IPv4-compatible loopback'],
  ['::7f00:1', 'IPv4-compatible loopback, in hex'],
  ['::ffff:127.0.0.1', 'IPv4-mapped loopback'],
  ['::ffff:7f00:1', 'IPv4-mapped loopback, in hex'],
  ['::ffff:0:7f00:1', 'IPv4-translated (SIIT) loopback'],
  ['::ffff:8.8.8.8', 'IPv4-mapped, even of a public address'],
  ['2002:7f00:1::1', '6to4 of loopback'],
  ['2002:c0a8:101::1', '6to4 of 192.168.1.1'],
  ['64:ff9b::7f00:1', 'NAT64 well-known prefix, loopback'],
  ['64:ff9b::808:808', 'NAT64 well-known prefix'],
  ['64:ff9b:1::7f00:1', 'NAT64 local-use prefix, loopback'],
  ['2001:0:4136:e378:8000:63bf:80ff:fffe', 'Teredo'],
  ['2001:2::1', 'benchmarking'],
  ['2001:20::1', 'ORCHIDv2'],
  ['2001:db8::1', 'documentation'],
  ['3fff::1', 'documentation (2024)'],
  ['2620:4f:8000::1', 'AS112 direct delegation'],
  ['100::1', 'discard-only'],
  ['5f00::1', 'SRv6 SIDs'],
  ['::', 'unspecified'],
  ['::1', 'loopback'],
  ['fc00::1', 'unique local'],
  ['fd12:3456::1', 'unique local'],
  ['fe80::1', 'link-local'],
  ['fec0::1', 'site-local (deprecated)'],
  ['ff02::1', 'multicast'],
];
const refusedIpv4: [string, string][] = [
  ['0.0.0.0', 'this network'],
  ['10.1.2.3', 'private'],
  ['100.64.0.1', 'shared address space'],
  ['127.0.0.1', 'loopback'],
  ['169.254.169.254', 'link-local (cloud metadata)'],
  ['172.20.0.1', 'private'],
  ['192.0.0.9', 'IETF protocol assignments'],
  ['192.0.2.1', 'documentation'],
  ['192.31.196.1', 'AS112-v4'],
  ['192.52.193.1', 'AMT'],
  ['192.88.99.1', '6to4 relay anycast'],
  ['192.168.1.1', 'private'],
  ['192.175.48.1', 'AS112 direct delegation'],
  ['198.18.0.1', 'benchmarking'],
  ['198.51.100.7', 'documentation'],
  ['203.0.113.9', 'documentation'],
  ['224.0.0.1', 'multicast'],
  ['240.0.0.1', 'reserved'],
  ['255.255.255.255', 'limited broadcast'],
];
const publicAddresses = [
  '8.8.8.8',
  '93.184.216.34',
  '1.1.1.1',
  '2606:4700:4700::1111',
  '2a00:1450:4009:81f::200e',
];

const hostOf = (address: string) => (address.includes(':') ? `[${address}]` : address);

/** A resolver that answers every name with these addresses. */
const answering =
  (...addresses: string[]) =>
  async () =>
    addresses;

describe('only global unicast addresses', () => {
  it.each([...refusedIpv6, ...refusedIpv4])('refuses %s (%s)', async (address) => {
    expect(isPrivateAddress(address)).toBe(true);
    await expect(checkRemoteUrl(`http://${hostOf(address)}:8080/feed`, 'public')).rejects.toThrow(
      RemoteRefused,
    );
    // Allowed when the operator says so (VALIDATE_REMOTE=any, WEBHOOK_ALLOW_PRIVATE_TARGETS).
    await expect(checkRemoteUrl(`http://${hostOf(address)}/`, 'any')).resolves.toBeInstanceOf(URL);
  });

  it.each([
    'http://2130706433/',
    'http://0x7f.1/',
    'http://017700000001/',
    'http://127.1/',
    'http://[0:0:0:0:0:0:127.0.0.1]/',
    'http://[::ffff:0:127.0.0.1]/',
    'http://[0000:0000:0000:0000:0000:ffff:7f00:0001]/',
  ])('refuses loopback however it is spelt: %s', async (url) => {
    await expect(checkRemoteUrl(url, 'public')).rejects.toThrow(RemoteRefused);
  });

  it.each(publicAddresses)('accepts the public address %s', async (address) => {
    expect(isPrivateAddress(address)).toBe(false);
    await expect(checkRemoteUrl(`https://${hostOf(address)}/`, 'public')).resolves.toBeInstanceOf(URL);
  });

  it.each([...refusedIpv6, ...refusedIpv4])(
    'refuses a name whose DNS answers include %s (%s)',
    async (address) => {
      await expect(
        checkRemoteUrl('https://feed.example.org/', 'public', answering('93.184.216.34', address)),
      ).rejects.toThrow(new RegExp(`resolves to ${address.replace(/[.]/g, '\\.')}:`));
    },
  );

  it('accepts a name whose every answer is public, and refuses one with no answer', async () => {
    await expect(
      checkRemoteUrl('https://feed.example.org/', 'public', answering(...publicAddresses)),
    ).resolves.toBeInstanceOf(URL);
    await expect(checkRemoteUrl('https://feed.example.org/', 'public', answering())).rejects.toThrow(
      /resolves to nothing/,
    );
  });

  it('refuses a redirect to an embedded loopback before following it', async () => {
    const asked: string[] = [];
    const fetch = guardedFetch('public', (async (input: string | URL | Request) => {
      asked.push(String(input));
      return new Response(null, { status: 302, headers: { location: 'http://[::ffff:0:7f00:1]:9200/' } });
    }) as typeof globalThis.fetch);
    await expect(fetch('https://[2606:4700:4700::1111]/feed')).rejects.toThrow(RemoteRefused);
    expect(asked).toEqual(['https://[2606:4700:4700::1111]/feed']);
  });
});

describe('a webhook delivery', () => {
  const event: WebhookEvent = {
    seq: 1,
    at: '2026-12-07T00:00:00.000Z',
    record_type: 'service',
    id: 'c0ffee00-0000-4000-8000-000000000001',
    action: 'updated',
    organization_id: 'org-1',
    source: 'council',
  };
  const secret = newWebhookSecret();

  it.each([...refusedIpv6, ...refusedIpv4])('is not sent to %s (%s)', async (address) => {
    let sent = 0;
    const fetch = (async () => {
      sent++;
      return new Response(null, { status: 204 });
    }) as typeof globalThis.fetch;
    const result = await deliverEvent({ url: `http://${hostOf(address)}/hook`, secret }, event, 'x', {
      timeoutMs: 1000,
      allowPrivate: false,
      fetch,
    });
    expect(result.ok).toBe(false);
    expect(result.error).toMatch(/WEBHOOK_ALLOW_PRIVATE_TARGETS/);
    expect(sent).toBe(0);
  });
});
